// Export and import of the history from the options page, in chunks: the background hands out and
// takes in a few thousand records at a time, so a million records never freeze the page or sit in
// memory twice, and progress can be shown.
import type { ImportOutcome } from '../storage';
import { CSV_HEAD, jsonHead, JSON_TAIL } from '../storage/history-file';
import type { FileProblem } from '../storage/history-import';
import type { Caller } from '../messaging/protocol';
import { checkInWorker, type ImportChecker } from './check-in-worker';

/** Records per message, both ways: big enough to amortise a round trip, small enough to keep a transaction short. */
export const CHUNK = 5000;

/** `phase` is 'checking' while the file to import is checked, before anything is sent. */
export type Progress = (done: number, total: number, phase?: 'checking') => void;

/** The whole history as a file (JSON in the export format, or CSV with the same columns). */
export async function exportHistory(send: Caller, kind: 'json' | 'csv', progress: Progress, now = new Date()): Promise<{ blob: Blob; pages: number }> {
  const { pages: total } = await send('options:stats', {});
  const parts: BlobPart[] = [kind === 'json' ? jsonHead(now) : CSV_HEAD];
  let done = 0;
  let after: string | undefined;
  progress(0, total);
  for (;;) {
    // The background writes each chunk as text; it becomes a part of the Blob at once.
    const chunk = await send('options:exportChunk', { afterUrl: after, limit: CHUNK, format: kind, first: done === 0 });
    if (chunk.count === 0) break;
    parts.push(chunk.text);
    done += chunk.count;
    after = chunk.lastUrl;
    progress(done, Math.max(total, done));
  }
  if (kind === 'json') parts.push(JSON_TAIL);
  return { blob: new Blob(parts, { type: kind === 'json' ? 'application/json' : 'text/csv' }), pages: done };
}

export type ImportResult = { state: 'imported'; outcome: ImportOutcome; pages: number } | { state: 'already-imported' } | { state: 'invalid'; error: FileProblem };

/**
 * Imports a history file: validated whole before anything is sent, then applied in chunks that
 * the background journals, and committed at the end. A failure part-way rolls back what was
 * applied (and the background rolls back an import abandoned mid-way), so the history ends up
 * either with the whole file or as it was.
 */
export async function importHistory(send: Caller, file: Blob, progress: Progress, check: ImportChecker = checkInWorker): Promise<ImportResult> {
  const validation = await check(file, (done, total) => progress(done, total, 'checking'));
  if (!validation.ok) return { state: 'invalid', error: validation.error };
  const { digest } = validation;
  if ((await send('options:importCheck', { digest })).alreadyImported) return { state: 'already-imported' };

  const { pages } = validation;
  const importId = crypto.randomUUID();
  const outcome: ImportOutcome = { added: 0, merged: 0, unchanged: 0 };
  try {
    progress(0, pages.length);
    for (let i = 0; i < pages.length; i += CHUNK) {
      const part = await send('options:importChunk', { importId, pages: pages.slice(i, i + CHUNK) });
      outcome.added += part.added;
      outcome.merged += part.merged;
      outcome.unchanged += part.unchanged;
      progress(Math.min(i + CHUNK, pages.length), pages.length);
    }
    await send('options:importCommit', { importId, digest, pages: pages.length });
    return { state: 'imported', outcome, pages: pages.length };
  } catch (e) {
    await send('options:importRollback', { importId }).catch(() => undefined);
    throw e;
  }
}
