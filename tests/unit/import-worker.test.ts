// The import check through its worker, with the worker's own script running in a stand-in for
// the worker's scope: progress reaches the page, every record comes back, the worker is ended.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ALGORITHM, blocksOf } from '../../src/core';
import { checkInWorker, type FromChecker, type ToChecker } from '../../src/options/check-in-worker';
import { buildExport, type PageRecord } from '../../src/storage';

const scope = { onmessage: null as null | ((e: { data: ToChecker }) => unknown), postMessage: (_m: FromChecker) => undefined as void };

class StandInWorker {
  static made: StandInWorker[] = [];
  onmessage: ((e: { data: FromChecker }) => void) | null = null;
  onerror: ((e: { message: string }) => void) | null = null;
  onmessageerror: (() => void) | null = null;
  terminated = false;
  constructor(readonly url: URL) {
    StandInWorker.made.push(this);
    // Messages cross as structured clones, as between threads.
    scope.postMessage = (m) => void (this.terminated || this.onmessage?.({ data: structuredClone(m) }));
  }
  postMessage(m: ToChecker): void {
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

describe('the import check in its worker', () => {
  it('reports progress, hands back every record, and ends the worker', async () => {
    const pages = Array.from({ length: 12_345 }, (_, i) => page(i));
    const progress: number[] = [];
    const result = await checkInWorker(file(pages), (done) => progress.push(done));
    expect(result.ok && result.pages).toEqual(pages);
    expect(result.ok && result.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(progress).toEqual([0, 2000, 4000, 6000, 8000, 10_000, 12_000, 12_345]);
    expect(StandInWorker.made).toHaveLength(1);
    expect(StandInWorker.made[0].url.pathname).toMatch(/import-check\.worker\.ts$/);
    expect(StandInWorker.made[0].terminated).toBe(true);
  });

  it('says what is wrong with a bad file, and ends the worker', async () => {
    const result = await checkInWorker(file([page(1), { ...page(2), visits: 0 }]), () => undefined);
    expect(result).toEqual({ ok: false, error: { key: 'importPageWholeNumber', subs: ['2', 'visits', '1'] } });
    expect(StandInWorker.made[0].terminated).toBe(true);
  });

  it('fails the import when the worker fails, instead of waiting for ever', async () => {
    const pending = checkInWorker(file([page(1)]), () => undefined);
    StandInWorker.made[0].onerror?.({ message: 'out of memory' });
    await expect(pending).rejects.toThrow('out of memory');
    expect(StandInWorker.made[0].terminated).toBe(true);
  });
});
