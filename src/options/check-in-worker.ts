// The page's side of reading a file to import: a worker reads, digests and checks it (off the
// page's thread: validating 10^6 records takes seconds, and the options page, the popup and the
// history page share one renderer) and reads the next chunk while the page sends one. With a bulk
// port, the worker keeps each chunk and posts it to the background itself when the page asks (for
// each try of its message), so the records never cross the page. Tests read on their own thread,
// through the same interface.
import { toBase64 } from '../core';
import type { BulkPort } from '../messaging/bulk';
import { FileProblemError, type FileProblem } from '../storage/history-import';
import type { StoredPage } from '../storage/layout';
import { readHistoryFile, type FileRead } from './import-check';

/** Bytes of the file read, of its size. */
export type ReadProgress = (done: number, total: number) => void;

/** What an `options:importChunk` message carries of its chunk, for one try: a parcel just posted, or the records. */
export type ChunkPayload = { parcel: string } | { pages: StoredPage[] };

/** A chunk of checked records, to send. */
export interface FileChunk {
  count: number;
  /** Its records for one try of the message (a parcel is posted anew each time). */
  payload(): Promise<ChunkPayload>;
  /** The background has it: the records may go. */
  release(): void;
}

/** A file being read: its checked records, chunk by chunk, then what it came to. */
export interface FileReading {
  /** The next chunk, or what the file came to after the last. Rejects with a FileProblemError for a bad file. */
  next(): Promise<FileChunk | FileRead>;
  close(): void;
}

export type OpenFile = (file: Blob, chunk: number, progress: ReadProgress, bulk?: BulkPort) => FileReading;

export type ToReader =
  | { type: 'open'; file: Blob; now: number; chunk: number; channel?: string }
  | { type: 'next'; re: number }
  | { type: 'post'; re: number; seq: number }
  | { type: 'release'; seq: number };
export type FromReader =
  | { type: 'progress'; done: number; total: number }
  | { type: 'pages'; re: number; pages: StoredPage[] }
  | { type: 'kept'; re: number; seq: number; count: number }
  | { type: 'posted'; re: number; parcel: string }
  | { type: 'end'; re: number; read: FileRead }
  | { type: 'invalid'; re: number; error: FileProblem }
  | { type: 'failed'; re: number; message: string };

/** Pages for an extension message, which crosses as JSON: their bytes as base64 (the background takes either). */
const forMessage = (pages: StoredPage[]): StoredPage[] =>
  pages.map((p) => {
    const copy = { ...p };
    for (const key of ['sketch', 'passages', 'readSet'] as const) {
      const v = copy[key];
      if (v instanceof Uint8Array) copy[key] = toBase64(v);
    }
    return copy;
  });

const held = (pages: StoredPage[], bulk?: BulkPort): FileChunk => ({
  count: pages.length,
  payload: async () => (bulk ? { parcel: bulk.post(pages) } : { pages: forMessage(pages) }),
  release: () => undefined,
});

/** Reads the file on the calling thread (Node, tests). */
export const readOnThread: OpenFile = (file, chunk, progress, bulk) => {
  const records = readHistoryFile(file, Date.now(), chunk, progress);
  return {
    async next() {
      const r = await records.next();
      return r.done ? r.value : held(r.value, bulk);
    },
    close: () => void records.return({ count: 0, digest: '', notSame: [] }),
  };
};

/** What the page asks of the worker and waits for (`re` is added: the answer carries it back). */
type Request = { type: 'next' } | { type: 'post'; seq: number };

/** Reads the file in a dedicated worker; the page stays free to draw and respond. */
export const readInWorker: OpenFile = (file, chunk, progress, bulk) => {
  const worker = new Worker(new URL('./import-check.worker.ts', import.meta.url), { type: 'module' });
  const asked = new Map<number, { resolve: (m: FromReader) => void; reject: (e: Error) => void }>();
  let next = 0;
  const failAll = (e: Error) => {
    for (const a of asked.values()) a.reject(e);
    asked.clear();
  };
  worker.onmessage = (e: MessageEvent<FromReader>) => {
    const m = e.data;
    if (m.type === 'progress') return progress(m.done, m.total);
    const a = asked.get(m.re);
    asked.delete(m.re);
    if (!a) return;
    if (m.type === 'invalid') a.reject(new FileProblemError(m.error));
    else if (m.type === 'failed') a.reject(new Error(m.message));
    else a.resolve(m);
  };
  worker.onerror = (e) => failAll(new Error(e.message || 'the file could not be read'));
  worker.onmessageerror = () => failAll(new Error('the file could not be read'));
  const ask = (message: Request) =>
    new Promise<FromReader>((resolve, reject) => {
      const re = next++;
      asked.set(re, { resolve, reject });
      worker.postMessage({ ...message, re } as ToReader);
    });
  const unexpected = () => new Error('the file could not be read');
  worker.postMessage({ type: 'open', file, now: Date.now(), chunk, ...(bulk ? { channel: bulk.name } : {}) } satisfies ToReader);
  return {
    async next() {
      const m = await ask({ type: 'next' });
      if (m.type === 'pages') return held(m.pages);
      if (m.type === 'end') return m.read;
      if (m.type !== 'kept') throw unexpected();
      const { seq, count } = m;
      return {
        count,
        async payload() {
          const posted = await ask({ type: 'post', seq });
          if (posted.type !== 'posted') throw unexpected();
          return { parcel: posted.parcel };
        },
        release: () => worker.postMessage({ type: 'release', seq } satisfies ToReader),
      };
    },
    close() {
      worker.terminate();
      failAll(new Error('the file is no longer read'));
    },
  };
};
