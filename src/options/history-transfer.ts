// Export and import of the history from the options page, in chunks: the background hands out and
// takes in a few thousand records at a time, so a million records never freeze the page or sit in
// memory twice, and progress can be shown.
import type { ImportOutcome } from '../storage';
import { CSV_HEAD, jsonHead, JSON_TAIL, UTF8_BOM } from '../storage/history-file';
import type { FileProblem } from '../storage/history-import';
import type { Caller } from '../messaging/protocol';
import type { BulkPort } from '../messaging/bulk';
import { deliver, type RetryOptions } from '../messaging/retry';
import { checkInWorker, type ImportChecker } from './check-in-worker';

/** Records per message, both ways: big enough to amortise a round trip, small enough to keep a transaction short. */
export const CHUNK = 5000;
/**
 * Records per import message: few messages (each costs a transaction and a round trip), yet small
 * enough that a background restarted at any moment gets one chunk staged before it can be stopped
 * again (about 3 MB, about a tenth of a second).
 */
export const IMPORT_CHUNK = 5000;
/** Import chunks sent before the first is answered: the page prepares and posts one while the background stores another. */
const IN_FLIGHT = 2;

/**
 * The options page keeps sending while the background restarts, for minutes if it must (each try
 * that gets through makes progress: staging and applying are kept); a commit answers within seconds.
 */
const RELIABLY: RetryOptions = { tries: 120, delayMs: 250, maxDelayMs: 2000, timeoutMs: 30_000 };

/** `phase` is 'checking' while the file to import is checked, before anything is sent. */
export type Progress = (done: number, total: number, phase?: 'checking') => void;

/**
 * The whole history as a file (JSON in the export format, or CSV with the same columns). With a
 * bulk port, each chunk's text comes as a parcel (messaging/bulk.ts) rather than in the answer.
 */
export async function exportHistory(send: Caller, kind: 'json' | 'csv', progress: Progress, now = new Date(), bulk?: BulkPort): Promise<{ blob: Blob; pages: number }> {
  const { pages: total } = await send('options:stats', {});
  const parts: BlobPart[] = [kind === 'json' ? jsonHead(now) : UTF8_BOM + CSV_HEAD];
  let done = 0;
  let after: number | undefined;
  progress(0, total);
  for (;;) {
    // The background writes each chunk as text; it becomes a part of the Blob at once. A chunk lost
    // with a stopped background is asked for again: the same `after` gives the same chunk.
    const req = { after, limit: CHUNK, format: kind, first: done === 0 };
    const chunk = await deliver(async () => {
      if (!bulk) return send('options:exportChunk', req);
      const parcel = bulk.id();
      const answer = await send('options:exportChunk', { ...req, parcel });
      // The background sends the text as a Blob (or, from an older one, as a string): either is a part of the file.
      return { ...answer, text: answer.count ? ((await bulk.receive(parcel, RELIABLY.timeoutMs)) as Blob | string) : '' };
    }, RELIABLY);
    if (chunk.count === 0) break;
    parts.push(chunk.text);
    done += chunk.count;
    after = chunk.next;
    progress(done, Math.max(total, done));
  }
  if (kind === 'json') parts.push(JSON_TAIL);
  return { blob: new Blob(parts, { type: kind === 'json' ? 'application/json' : 'text/csv' }), pages: done };
}

export type ImportResult = { state: 'imported'; outcome: ImportOutcome; pages: number } | { state: 'already-imported' } | { state: 'invalid'; error: FileProblem };



/**
 * Imports a history file: validated whole before anything is sent, then sent in chunks that the
 * background parks apart from the history, then committed. Until the commit the history is
 * untouched (an import abandoned before it changes nothing); once committed, the background
 * completes it even if this page is closed. Lost messages are sent again: both steps are idempotent.
 */
export async function importHistory(send: Caller, file: Blob, progress: Progress, check: ImportChecker = checkInWorker, bulk?: BulkPort): Promise<ImportResult> {
  const validation = await check(file, (done, total) => progress(done, total, 'checking'));
  if (!validation.ok) return { state: 'invalid', error: validation.error };
  const { digest } = validation;
  if ((await deliver(() => send('options:importCheck', { digest }), RELIABLY)).alreadyImported) return { state: 'already-imported' };

  const { pages } = validation;
  const importId = crypto.randomUUID();
  const chunks = Math.ceil(pages.length / IMPORT_CHUNK);
  // One bar for both halves: sending the chunks, then the background applying them.
  const report = (sent: number, appliedChunks: number) => progress(Math.round((sent + Math.min(appliedChunks * IMPORT_CHUNK, pages.length)) / 2), pages.length);
  report(0, 0);
  const stage = (seq: number) => {
    const part = pages.slice(seq * IMPORT_CHUNK, (seq + 1) * IMPORT_CHUNK);
    // With a bulk port the records go as a parcel, posted again with each try.
    return deliver(() => send('options:importChunk', bulk ? { importId, seq, parcel: bulk.post(part) } : { importId, seq, pages: part }), RELIABLY);
  };
  // Chunks in order, IN_FLIGHT at a time (staging one is idempotent, in any order); once one fails
  // no more are sent, and the import is rolled back after those under way have settled.
  const sending: Array<Promise<unknown>> = [];
  try {
    for (let seq = 0; seq < chunks; seq++) {
      const staged = stage(seq);
      staged.catch(() => undefined); // handled below, once its turn comes
      sending.push(staged);
      if (seq + 1 < IN_FLIGHT) continue;
      await sending[seq + 1 - IN_FLIGHT];
      report(Math.min((seq + 2 - IN_FLIGHT) * IMPORT_CHUNK, pages.length), 0);
    }
    await Promise.all(sending);
    report(pages.length, 0);
  } catch (e) {
    await Promise.allSettled(sending);
    await send('options:importRollback', { importId }).catch(() => undefined);
    throw e;
  }
  for (;;) {
    const step = await deliver(() => send('options:importCommit', { importId, digest, chunks, pages: pages.length }), RELIABLY);
    report(pages.length, step.applied);
    if (step.done) return { state: 'imported', outcome: step.outcome, pages: pages.length };
  }
}
