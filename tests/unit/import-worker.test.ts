// The import check through its worker, with the worker's own script running in a stand-in for
// the worker's scope: progress reaches the page, every record comes back, the worker is ended.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALGORITHM, blocksOf } from '../../src/core';
import { createHash } from 'node:crypto';
import { readInWorker, type FileChunk, type FromReader, type ReadProgress, type ToReader } from '../../src/options/check-in-worker';
import type { FileRead } from '../../src/options/import-check';
import { buildExport, type PageRecord, type StoredPage } from '../../src/storage';
import { toStored } from '../../src/storage/layout';
import { BulkInbox, BulkPort } from '../../src/messaging/bulk';

const scope = { onmessage: null as null | ((e: { data: ToReader }) => unknown), postMessage: (_m: FromReader) => undefined as void };

class StandInWorker {
  static made: StandInWorker[] = [];
  onmessage: ((e: { data: FromReader }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  terminated = false;
  constructor(readonly url: URL) {
    StandInWorker.made.push(this);
    // Messages cross as structured clones, as between threads.
    scope.postMessage = (m) => void (this.terminated || this.onmessage?.({ data: structuredClone(m) }));
  }
  postMessage(m: ToReader): void {
    void scope.onmessage?.({ data: m });
  }
  terminate(): void {
    this.terminated = true;
  }
}

beforeAll(async () => {
  vi.stubGlobal('self', scope);
  vi.stubGlobal('Worker', StandInWorker);
  await import('../../src/options/import-check.worker');
});
afterEach(() => {
  StandInWorker.made = [];
});

const NOW = Date.now();
const page = (i: number): PageRecord => {
  const fp = (0x0123456789abcdefn + BigInt(i)).toString(16).padStart(16, '0');
  const [b0, b1, b2, b3] = blocksOf(fp);
  return { url: `https://news.example/${i}`, canonicalUrl: `https://news.example/${i}`, site: 'news.example', title: `Article ${i}`, fp, b0, b1, b2, b3, algo: ALGORITHM, textLength: 400, lang: 'en', firstSeen: NOW - 9000, lastSeen: NOW - 5000, visits: 1 };
};
const file = (pages: unknown[]) => new Blob([JSON.stringify({ ...buildExport([], new Date(NOW)), pages })]);

/** A chunk, not the end of the file. */
function chunkOf(next: FileChunk | FileRead): FileChunk {
  if (!('payload' in next)) throw new Error('the file ended');
  return next;
}

/** Reads a whole file through the worker, as the import does: every chunk, then what it came to. */
async function readAll(blob: Blob, chunk: number, progress: ReadProgress = () => undefined) {
  const reading = readInWorker(blob, chunk, progress);
  try {
    const chunks: StoredPage[][] = [];
    let next = await reading.next();
    for (; 'payload' in next; next = await reading.next()) {
      const payload = await next.payload();
      if (!('pages' in payload)) throw new Error('without a bulk port the records come to the page');
      expect(payload.pages).toHaveLength(next.count);
      chunks.push(payload.pages);
    }
    return { ...next, chunks };
  } finally {
    reading.close();
  }
}

describe('the import check in its worker', () => {
  it('reports progress, hands back every record a chunk at a time, and ends the worker', async () => {
    const pages = Array.from({ length: 12_345 }, (_, i) => page(i));
    const blob = file(pages);
    const progress: Array<[number, number]> = [];
    const { digest, count, chunks } = await readAll(blob, 5000, (done, total) => progress.push([done, total]));
    expect(count).toBe(12_345);
    expect(chunks.map((c) => c.length)).toEqual([5000, 5000, 2345]);
    expect(chunks.flat()).toEqual(pages.map(toStored));
    expect(digest).toBe(createHash('sha256').update(new Uint8Array(await blob.arrayBuffer())).digest('hex'));
    expect(progress.at(-1)).toEqual([blob.size, blob.size]);
    expect(StandInWorker.made).toHaveLength(1);
    expect(StandInWorker.made[0].url.pathname).toMatch(/import-check\.worker\.ts$/);
    expect(StandInWorker.made[0].terminated).toBe(true);
  });

  it('leaves out a bad record and says what is wrong with it; refuses a file of bad records only; ends the worker', async () => {
    const read = await readAll(file([page(1), { ...page(2), visits: 0 }, page(3)]), 5000);
    expect(read.chunks.flat()).toEqual([page(1), page(3)].map(toStored));
    expect(read).toMatchObject({ count: 3, left: 1, firstLeft: { key: 'importPageWholeNumber', subs: ['2', 'visits', '1'] } });
    expect(StandInWorker.made[0].terminated).toBe(true);
    await expect(readAll(file([{ ...page(1), visits: 0 }, { ...page(2), visits: -1 }]), 5000)).rejects.toMatchObject({ problem: { key: 'importPageWholeNumber', subs: ['1', 'visits', '1'] } });
    expect(StandInWorker.made[1].terminated).toBe(true);
  });

  it('with a bulk port, posts each chunk to the background itself, again at each try, and keeps it until it is staged', async () => {
    const pages = Array.from({ length: 7_000 }, (_, i) => page(i));
    const name = `deja-read-bulk-test-${Math.random()}`;
    const inbox = new BulkInbox(name);
    const port = new BulkPort(name);
    const reading = readInWorker(file(pages), 5000, () => undefined, port);
    try {
      const first = chunkOf(await reading.next());
      expect(first.count).toBe(5000);
      const tries = [await first.payload(), await first.payload()];
      // Two tries, two parcels, each the chunk's records: the background takes either.
      const parcels = tries.map((p) => ('parcel' in p ? p.parcel : ''));
      expect(new Set(parcels).size).toBe(2);
      for (const parcel of parcels) expect(await inbox.take(parcel)).toEqual(pages.slice(0, 5000).map(toStored));
      first.release();
      await expect(first.payload()).rejects.toThrow(/no chunk 0/);
      const second = chunkOf(await reading.next());
      expect(second.count).toBe(2000);
      const payload = await second.payload();
      expect(await inbox.take('parcel' in payload ? payload.parcel : '')).toEqual(pages.slice(5000).map(toStored));
      expect(await reading.next()).toMatchObject({ count: 7000, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    } finally {
      reading.close();
      inbox.close();
      port.close();
    }
  });

  it('fails the import when the worker fails, instead of waiting for ever', async () => {
    const reading = readInWorker(file([page(1)]), 5000, () => undefined);
    const pending = reading.next();
    StandInWorker.made[0].onerror?.({ message: 'out of memory' });
    await expect(pending).rejects.toThrow('out of memory');
    reading.close();
    expect(StandInWorker.made[0].terminated).toBe(true);
  });
});
