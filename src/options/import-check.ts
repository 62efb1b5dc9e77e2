// Reading a history file to import, a slice at a time: its digest (the same file is imported once),
// then its records, checked (storage's HistoryReader), in chunks for the background to stage. A
// file is never held whole, nor its text as one string: an export of 10^6 pages is about 1 GB, more
// than a browser's longest string. Runs in the worker (import-check.worker.ts) so a large file
// never blocks the page, and on Node's thread for tests.
import { checkStoredRecord, FileProblemError, firstBadUtf8Line, problem, type FileProblem } from '../storage/history-import';
import { HistoryReader } from '../storage/history-reader';
import type { StoredPage } from '../storage/layout';

const MIB = 1024 * 1024;
/** Bytes read and decoded at a time (the progress bar moves once a slice). */
const READ_SLICE = MIB;
/**
 * Bytes digested at a time. A file of at most this is digested whole (SHA-256 of its bytes, as
 * before files were read in slices); a larger one as the SHA-256 of its slices' SHA-256s.
 */
export const DIGEST_SLICE = 64 * MIB;

/** Bytes done of the file's bytes. */
export type ByteProgress = (done: number, total: number) => void;

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
const bytesOf = async (file: Blob, from: number, to: number) => new Uint8Array(await file.slice(from, to).arrayBuffer());

/** What names a file among those imported before: the SHA-256 of its bytes, or of its slices' digests. */
export async function fileDigest(file: Blob, progress: ByteProgress = () => undefined): Promise<string> {
  progress(0, file.size);
  if (file.size <= DIGEST_SLICE) {
    const digest = hex(await crypto.subtle.digest('SHA-256', await bytesOf(file, 0, file.size)));
    progress(file.size, file.size);
    return digest;
  }
  const digests = new Uint8Array(Math.ceil(file.size / DIGEST_SLICE) * 32);
  for (let at = 0, k = 0; at < file.size; at += DIGEST_SLICE, k++) {
    digests.set(new Uint8Array(await crypto.subtle.digest('SHA-256', await bytesOf(file, at, at + DIGEST_SLICE))), k * 32);
    progress(Math.min(at + DIGEST_SLICE, file.size), file.size);
  }
  return hex(await crypto.subtle.digest('SHA-256', digests));
}

/** Lines before byte `end` of the file (read again only when a problem needs them). */
async function linesBefore(file: Blob, end: number): Promise<number> {
  let lines = 0;
  for (let at = 0; at < end; at += READ_SLICE) {
    const bytes = await bytesOf(file, at, Math.min(at + READ_SLICE, end));
    for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  }
  return lines;
}

/**
 * The file's records, checked and as blocks keep them (addresses as page identities, values
 * decoded), `chunk` at a time, as its slices are read; returns how many it
 * held. Throws a FileProblemError for the first problem (bytes that are not UTF-8, JSON that breaks,
 * a bad record), which may come after chunks were given: nothing given may be used until the end.
 */
export async function* readHistoryFile(file: Blob, now: number, chunk: number, progress: ByteProgress = () => undefined): AsyncGenerator<StoredPage[], number> {
  const reader = new HistoryReader<StoredPage>(now, checkStoredRecord);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let at = 0; at < file.size || at === 0; at += READ_SLICE) {
    const bytes = await bytesOf(file, at, at + READ_SLICE);
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
  const { count } = reader.end();
  while (reader.records.length > 0) yield reader.take(chunk);
  return count;
}

/** The problem a file has, if that is what went wrong. */
export const fileProblem = (e: unknown): FileProblem | null => (e instanceof FileProblemError ? e.problem : null);
