// Export and import of the history from the options page, in chunks: the background hands out and
// takes in a few thousand records at a time, so a million records never freeze the page or sit in
// memory twice, and progress can be shown.
import type { ImportOutcome, PageRecord } from '../storage';
import { CSV_HEAD, csvChunk, jsonChunk, jsonHead, JSON_TAIL, validateHistoryFile } from '../storage/history-file';
import type { Caller } from '../messaging/protocol';

const CHUNK = 5000;

export type Progress = (done: number, total: number) => void;

/** The whole history as a file (JSON in the export format, or CSV with the same columns). */
export async function exportHistory(send: Caller, kind: 'json' | 'csv', progress: Progress, now = new Date()): Promise<{ blob: Blob; pages: number }> {
  const { pages: total } = await send('options:stats', {});
  const parts: BlobPart[] = [kind === 'json' ? jsonHead(now) : CSV_HEAD];
  let done = 0;
  let after: string | undefined;
  progress(0, total);
  for (;;) {
    const { pages } = await send('options:exportChunk', { afterUrl: after, limit: CHUNK });
    if (pages.length === 0) break;
    // Each chunk becomes a string part of the Blob at once; the records themselves are dropped.
    parts.push(kind === 'json' ? jsonChunk(pages, done === 0) : csvChunk(pages));
    done += pages.length;
    after = pages[pages.length - 1].url;
    progress(done, Math.max(total, done));
  }
  if (kind === 'json') parts.push(JSON_TAIL);
  return { blob: new Blob(parts, { type: kind === 'json' ? 'application/json' : 'text/csv' }), pages: done };
}

export type ImportResult = { state: 'imported'; outcome: ImportOutcome; pages: number } | { state: 'already-imported' } | { state: 'invalid'; error: string };

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Imports a history file: validated whole before anything is sent, uploaded in chunks to a staging
 * area, then applied by the background in one transaction. Any failure leaves the history as it was.
 */
export async function importHistory(send: Caller, file: Blob, progress: Progress): Promise<ImportResult> {
  const text = await file.text();
  const validation = validateHistoryFile(text, Date.now());
  if (!validation.ok) return { state: 'invalid', error: validation.error };
  const digest = await sha256(text);
  if ((await send('options:importCheck', { digest })).alreadyImported) return { state: 'already-imported' };

  const pages: PageRecord[] = validation.pages;
  const importId = crypto.randomUUID();
  try {
    progress(0, pages.length);
    for (let i = 0; i < pages.length; i += CHUNK) {
      await send('options:importChunk', { importId, firstSeq: i, pages: pages.slice(i, i + CHUNK) });
      progress(Math.min(i + CHUNK, pages.length), pages.length);
    }
    const outcome = await send('options:importCommit', { importId, digest });
    return { state: 'imported', outcome, pages: pages.length };
  } catch (e) {
    await send('options:importDiscard', { importId }).catch(() => undefined);
    throw e;
  }
}
