// Export and import of the history from the options page, in chunks: the background hands out and
// takes in a few thousand records at a time, so a million records never freeze the page or sit in
// memory twice, and progress can be shown.
import type { ImportOutcome } from '../storage';
import { CSV_HEAD, JSON_TAIL, jsonHead, jsonNotSameChunk, NOT_SAME_CHUNK, NOT_SAME_END, notSameInOneMessage, UTF8_BOM } from '../storage/history-file';
import { FileProblemError, type FileProblem } from '../storage/history-import';
import type { Caller } from '../messaging/protocol';
import type { BulkPort } from '../messaging/bulk';
import { deliver, type RetryOptions } from '../messaging/retry';
import { readInWorker, type FileChunk, type OpenFile } from './check-in-worker';

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

/** Progress of an export (records done of the total), or of an import (`phase`: a share of the whole, in thousandths). */
export type Progress = (done: number, total: number, phase?: 'importing') => void;

/**
 * The history was cleared (in another tab, say) while it was being exported: what was read of it
 * would be only part of the history the reader had, so no file is made.
 */
export class HistoryClearedError extends Error {
  override name = 'HistoryClearedError';
  constructor() {
    super('the history was cleared while it was being exported');
  }
}

/**
 * The whole history as a file (JSON in the export format, or CSV with the same columns). With a
 * bulk port, each chunk's text comes as a parcel (messaging/bulk.ts) rather than in the answer.
 * JSON keeps everything an import restores: the pages with their "changed" marks, then the
 * "Not the same" pairs; CSV, for spreadsheets, has the pages' columns only. A clear of the history
 * between two chunks fails it (HistoryClearedError): the file would hold only what came before.
 */
export async function exportHistory(send: Caller, kind: 'json' | 'csv', progress: Progress, now = new Date(), bulk?: BulkPort): Promise<{ blob: Blob; pages: number }> {
  const { pages: total } = await send('options:stats', {});
  const parts: BlobPart[] = [kind === 'json' ? jsonHead(now) : UTF8_BOM + CSV_HEAD];
  let done = 0;
  let after: number | undefined;
  // The history's clears as the first chunk found them: every later chunk must find the same.
  let cleared: number | undefined;
  const sameHistory = (clears?: number) => {
    if (cleared !== undefined && clears !== undefined && clears !== cleared) throw new HistoryClearedError();
    cleared ??= clears;
  };
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
    sameHistory(chunk.cleared);
    if (chunk.count === 0) break;
    parts.push(chunk.text);
    done += chunk.count;
    after = chunk.next;
    progress(done, Math.max(total, done));
  }
  if (kind === 'json') {
    // The "Not the same" pairs, a bounded message at a time, however many the reader has.
    let from: [string, string] | undefined;
    let pairs = 0;
    for (;;) {
      const req = { limit: NOT_SAME_CHUNK, ...(from ? { after: from } : {}) };
      const chunk = await deliver(() => send('options:exportNotSame', req), RELIABLY);
      sameHistory(chunk.cleared);
      if (chunk.pairs.length === 0) break;
      parts.push(jsonNotSameChunk(chunk.pairs, pairs === 0));
      pairs += chunk.pairs.length;
      if (!chunk.next) break;
      from = chunk.next;
    }
    parts.push(pairs > 0 ? NOT_SAME_END : JSON_TAIL);
  }
  return { blob: new Blob(parts, { type: kind === 'json' ? 'application/json' : 'text/csv' }), pages: done };
}

/**
 * Records of a file that cannot be imported, each for a problem of its own (one cut off where the
 * file ends early among them); the others can. A file cut short between two records has none left
 * out, and `first` says it was cut.
 */
export interface LeftOut {
  /** Records left out, of all the file holds. */
  left: number;
  total: number;
  /** The first one's problem. */
  first: FileProblem;
  /** The file ended early, inside a record (the last of those left out) or between two. */
  cut?: 'inside' | 'between';
}

/**
 * What an import that left records out says after `done` (its count of pages): that the file ended
 * early, where it did (what came after the cut was not in it, not only the page it ended in), and
 * how many records it left out for a problem of their own besides. Until 29 November 2026 a backup
 * cut inside its sixth page of eleven said "Left out 1 page that could not be imported" (a review).
 * `say` words a _locales message; `pages` a count of pages.
 */
export function afterLeftOut(done: string, { left, cut }: LeftOut, say: (key: string, ...subs: string[]) => string, pages: (n: number) => string): string {
  const others = left - (cut === 'inside' ? 1 : 0);
  const said = cut || others === 0 ? say('importCutShort', done) : done;
  return others > 0 ? say('importLeftOut', said, pages(others)) : said;
}

/**
 * Lets the background hear this page go while an import is under way (main.ts: a port named
 * IMPORT_PORT and the import's id): returns what ends the watch once the import has ended.
 */
export type WatchImport = (importId: string) => () => void;

/** Asks the reader whether to import the rest of a file some of whose records cannot be: true to import them. */
export type AskLeaveOut = (left: LeftOut) => Promise<boolean>;

export type ImportResult =
  | { state: 'imported'; outcome: ImportOutcome; pages: number; leftOut?: LeftOut }
  | { state: 'already-imported' }
  | { state: 'invalid'; error: FileProblem };

/**
 * The history was cleared (in another tab) while a file was being read and staged: the clear
 * dropped what was staged, and nothing of the file is in the history. Told as such: before, the
 * reader read that the file was cut short and that the history was not changed, just after it had
 * been emptied (a review, 29 November 2026).
 */
export class ImportClearedError extends Error {
  override name = 'ImportClearedError';
}

/**
 * The import failed once its commit was sent: the background may have begun to apply it, and then
 * completes it whenever it can, so the history may have changed. `cause` says what went wrong.
 */
export class ImportInterruptedError extends Error {
  override name = 'ImportInterruptedError';
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** How often a page waiting on the reader tells the background that its staged import is not abandoned (storage's ABANDONED_STAGING_MS is 10 minutes). */
export const HOLD_EVERY_MS = 60_000;

/** The reader's answer, the staged import held meanwhile (a reader may leave the question open for long). */
async function holdWhile<T>(send: Caller, importId: string, answer: Promise<T>): Promise<T> {
  const timer = setInterval(() => void send('options:importHold', { importId }).catch(() => undefined), HOLD_EVERY_MS);
  try {
    return await answer;
  } finally {
    clearInterval(timer);
  }
}

/**
 * Imports a history file: read a slice at a time and checked in a worker, its records sent in
 * chunks as they are checked, which the background parks apart from the history; then committed.
 * Until the commit the history is untouched: a file found bad part-way (its last record, say), or
 * an import abandoned before the commit, changes nothing (what was parked is dropped). Once
 * committed, the background completes it even if this page is closed. Lost messages are sent
 * again: both steps are idempotent. Progress is a share of the whole.
 *
 * A file some of whose records are bad (a backup with one damaged record) is read to its end
 * with those left out; then `ask` says whether to import the others (before the commit, so "no"
 * changes nothing). Without `ask`, or on "no", the file is refused with the first bad record's problem.
 */
export async function importHistory(send: Caller, file: Blob, progress: Progress, open: OpenFile = readInWorker, bulk?: BulkPort, ask?: AskLeaveOut, watch?: WatchImport): Promise<ImportResult> {
  // One bar for the import: reading and sending the records (by the file's bytes), then the
  // background applying them (by chunks).
  let read = 0;
  let applied = 0;
  const report = () => progress(Math.round(500 * read + 500 * applied), 1000, 'importing');
  const reading = open(
    file,
    IMPORT_CHUNK,
    (done, total) => {
      read = done / Math.max(total, 1);
      report();
    },
    bulk,
  );
  const importId = crypto.randomUUID();
  // Until the commit is answered, what was staged is dropped if the import goes no further.
  let staging = true;
  let commitSent = false;
  const sending: Array<Promise<unknown>> = [];
  let cleared: number | undefined;
  let unwatch: (() => void) | undefined;
  try {
    report();
    // Opened before the file is read: a page or site the reader forgets from now on stays forgotten.
    ({ cleared } = await deliver(() => send('options:importOpen', { importId }), RELIABLY));
    // From now on the background hears this page go, and drops the import if it is not committed then.
    unwatch = watch?.(importId);
    // Each try of a chunk's message carries its records anew (with a bulk port, as a parcel posted
    // again: the one lost with a stopped background is gone). A parcel posted to a stopped
    // background is lost, so the background is woken first where it may be stopped: before the
    // first chunk (the page may have sat idle), and before every try after a failed one. Between
    // chunks the one before keeps it running, and a wake would only hold the next parcel back.
    const stage = (seq: number, chunk: FileChunk) => {
      let tries = 0;
      return deliver(async () => {
        if (bulk && (seq === 0 || tries > 0)) await send('options:wake', {});
        tries++;
        return send('options:importChunk', { importId, seq, ...(await chunk.payload()) });
      }, RELIABLY).finally(() => chunk.release());
    };
    // Chunks in order as they are read, IN_FLIGHT at a time (staging one is idempotent, in any
    // order); once one fails, or the file turns out bad, no more are sent, and what was staged is
    // dropped after those under way have settled.
    let seq = 0;
    let pages = 0;
    let next = await reading.next();
    for (; 'payload' in next; next = await reading.next()) {
      const staged = stage(seq, next);
      staged.catch(() => undefined); // handled below, once its turn comes
      sending.push(staged);
      seq++;
      pages += next.count;
      if (sending.length >= IN_FLIGHT) await sending.shift();
    }
    await Promise.all(sending);
    // The file's digest comes with its end (it is read once). A file imported before is imported
    // again for the pages the history no longer holds (the commit says so: `again`).
    const { digest } = next;
    // Records left out: the reader says whether the others go in. Until the commit nothing has changed.
    const leftOut = next.firstLeft ? { left: next.left ?? 0, total: next.count, first: next.firstLeft, ...(next.cut ? { cut: next.cut } : {}) } : undefined;
    if (leftOut && !(ask && (await holdWhile(send, importId, ask(leftOut))))) throw new FileProblemError(leftOut.first);
    // The file's "Not the same" pairs, staged after its pages in chunks of bounded size: kept with the import.
    for (let i = 0; i < next.notSame.length; ) {
      const n = notSameInOneMessage(next.notSame, i);
      const pairs = next.notSame.slice(i, i + n);
      const chunkSeq = seq++;
      i += n;
      await deliver(() => send('options:importChunk', { importId, seq: chunkSeq, notSame: pairs }), RELIABLY);
    }
    for (;;) {
      commitSent = true;
      const step = await deliver(() => send('options:importCommit', { importId, digest, chunks: seq, pages }), RELIABLY);
      staging = false;
      applied = seq === 0 ? 1 : step.applied / seq;
      read = 1;
      report();
      // This page tells the reader how it ended: an options page opened later does not tell it again.
      if (step.done) await send('options:importTold', { importId }).catch(() => undefined);
      // Pages, not records: records of one page in the file count once (merged with each other).
      if (step.alreadyImported || (step.done && step.again && step.outcome.added === 0)) return { state: 'already-imported' };
      if (step.done) return { state: 'imported', outcome: step.outcome, pages: step.outcome.added + step.outcome.merged + step.outcome.unchanged, ...(leftOut ? { leftOut } : {}) };
    }
  } catch (e) {
    if (staging) {
      await Promise.allSettled(sending);
      const rolledBack = await send('options:importRollback', { importId }).then(
        (r) => r.discarded,
        () => false,
      );
      // A commit sent and not undone (the background refuses once it is applying): part may be in.
      if (commitSent && !rolledBack) throw new ImportInterruptedError(e);
      // Cleared meanwhile (another tab): that is what stopped it, and the history was changed.
      if (!(e instanceof FileProblemError) && cleared !== undefined) {
        const now = await send('options:stats', {}).then(
          (s) => s.cleared,
          () => undefined,
        );
        if (now !== undefined && now !== cleared) throw new ImportClearedError();
      }
    }
    if (e instanceof FileProblemError) return { state: 'invalid', error: e.problem };
    // After the commit was sent, "your history was not changed" may not be true.
    if (!staging) throw new ImportInterruptedError(e);
    throw e;
  } finally {
    reading.close();
    unwatch?.();
  }
}
