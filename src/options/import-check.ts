// Reading a history file to import, a slice at a time: its records, checked (storage's
// HistoryReader), in chunks for the background to stage, and its digest (the same file is imported
// once). A file is never held whole, nor its text as one string: an export of 10^6 pages is about
// 1 GB, more than a browser's longest string. Runs in the worker (import-check.worker.ts) so a
// large file never blocks the page, and on Node's thread for tests.
import { checkStoredRecord, FileProblemError, firstBadUtf8Line, problem, type FileProblem } from '../storage/history-import';
import type { NotSamePair } from '../storage/history-file';
import { HistoryReader } from '../storage/history-reader';
import type { StoredPage } from '../storage/layout';

const MIB = 1024 * 1024;
/** Bytes decoded and read for records at a time (the progress bar moves once a slice). */
const READ_SLICE = MIB;
/**
 * Bytes read from the file at a time, and digested: a file of at most this is digested whole
 * (the SHA-256 of its bytes, as before files were read in slices); a larger one as the SHA-256 of
 * its slices' SHA-256s.
 */
export const DIGEST_SLICE = 64 * MIB;

/** Bytes done of the file's bytes. */
export type ByteProgress = (done: number, total: number) => void;

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
const bytesOf = async (file: Blob, from: number, to: number) => new Uint8Array(await file.slice(from, to).arrayBuffer());

/** Lines before byte `end` of the file (read again only when a problem needs them). */
async function linesBefore(file: Blob, end: number): Promise<number> {
  let lines = 0;
  for (let at = 0; at < end; at += READ_SLICE) {
    const bytes = await bytesOf(file, at, Math.min(at + READ_SLICE, end));
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  }
  return lines;
}

/** What the whole file came to: its records, its digest (what names it among files imported before), and its "Not the same" pairs. */
export interface FileRead {
  count: number;
  digest: string;
  notSame: NotSamePair[];
  /** Records left out for a problem of their own (none of them given), and the first one's problem. */
  left?: number;
  firstLeft?: FileProblem | null;
  /** The file ended early: inside a record (one of those left out) or between two. */
  cut?: 'inside' | 'between' | null;
}

/**
 * The file's records, checked and as blocks keep them (addresses as page identities, values
 * decoded), `chunk` at a time, as its slices are read; returns how many it held and its digest:
 * the SHA-256 of its bytes, or for a file over DIGEST_SLICE, the SHA-256 of its DIGEST_SLICE
 * slices' SHA-256s (taken as each slice is read: the file is read once). Throws a
 * FileProblemError for the first problem (bytes that are not UTF-8, JSON that breaks, a file whose
 * records are all bad), which may come after chunks were given: nothing given may be used until
 * the end. A record with a problem of its own is left out and counted (FileRead's `left`): whether
 * to import the others is the reader's choice, at the end.
 */
export async function* readHistoryFile(file: Blob, now: number, chunk: number, progress: ByteProgress = () => undefined): AsyncGenerator<StoredPage[], FileRead> {
  const reader = new HistoryReader(now, checkStoredRecord, true);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const digests: Array<Promise<ArrayBuffer>> = [];
  for (let start = 0; start < file.size || start === 0; start += DIGEST_SLICE) {
    const slice = await bytesOf(file, start, start + DIGEST_SLICE);
    if (start === 0) notTextProblem(slice);
    digests.push(crypto.subtle.digest('SHA-256', slice));
    for (let i = 0; i < slice.length || i === 0; i += READ_SLICE) {
      const at = start + i;
      const bytes = slice.subarray(i, i + READ_SLICE);
      const last = at + READ_SLICE >= file.size;
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: !last });
      } catch {
        const line = firstBadUtf8Line(bytes, true);
        throw new FileProblemError(problem('importNotUtf8', (await linesBefore(file, at)) + Math.max(line, 1)));
      }
      reader.push(text);
      while (reader.records.length >= chunk) yield reader.take(chunk);
      progress(Math.min(at + READ_SLICE, file.size), file.size);
      if (last) break;
    }
  }
  const { count } = reader.end();
  while (reader.records.length > 0) yield reader.take(chunk);
  const sums = (await Promise.all(digests)).map((d) => new Uint8Array(d));
  const { notSame, left, firstLeft, cut } = reader;
  const read = { count, notSame, left, firstLeft, cut };
  if (sums.length === 1) return { ...read, digest: hex(sums[0]) };
  const all = new Uint8Array(sums.length * 32);
  sums.forEach((d, k) => all.set(d, k * 32));
  return { ...read, digest: hex(new Uint8Array(await crypto.subtle.digest('SHA-256', all))) };
}

/**
 * Refuses a file that is no UTF-8 text from its first bytes, saying what it is: UTF-16 (its byte
 * order mark: what Excel's "Unicode Text" saves), or binary (a NUL among its first bytes: a
 * picture, an archive; no text a history is written in holds one). Either would be told "not
 * UTF-8 at line 1, maybe GBK", which names the wrong remedy.
 */
function notTextProblem(head: Uint8Array): void {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) throw new FileProblemError(problem('importUtf16'));
  if (head.subarray(0, BINARY_PROBE).includes(0)) throw new FileProblemError(problem('importBinary'));
}
/** Bytes at the start of a file looked at for a NUL. */
const BINARY_PROBE = 4096;

/** The problem a file has, if that is what went wrong. */
export const fileProblem = (e: unknown): FileProblem | null => (e instanceof FileProblemError ? e.problem : null);
