// Export, clear and import through the background's messages, as the options page does it.
import { describe, expect, it, vi } from 'vitest';
import { blocksOf, digestArticle } from '../../src/core';
import { BulkInbox, BulkPort, type BulkHandle } from '../../src/messaging/bulk';
import { DeliveryError } from '../../src/messaging/retry';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterLeftOut, CHUNK, exportHistory, HistoryClearedError, IMPORT_CHUNK, importHistory as importWith, ImportClearedError, ImportInterruptedError, type LeftOut, type Progress } from '../../src/options/history-transfer';
import { readOnThread } from '../../src/options/check-in-worker';
import { CHUNKS_PER_APPLY, NOT_SAME_CHUNK, parseCsv, type PageRecord } from '../../src/storage';
import { jsonChunk, jsonHead, JSON_TAIL } from '../../src/storage/history-file';
import { loadArticle } from '../e2e/site';
import { serveImportPort } from '../../src/background/history-handlers';
import { IMPORT_PORT } from '../../src/messaging/protocol';
import { writeSyntheticHistory } from '../e2e/synthetic-history';
import { everyPage, makeBackground } from './helpers';
import { english } from './messages';

// The options page checks the file in a worker; here the same check runs on Node's thread.
const importHistory = (send: Parameters<typeof importWith>[0], file: Blob, progress: Progress) => importWith(send, file, progress, readOnThread);

/** The bytes of a synthetic history file of `n` records (tests/e2e/synthetic-history.ts). */
function syntheticFile(n: number): Buffer<ArrayBuffer> {
  const dir = mkdtempSync(join(tmpdir(), 'deja-read-import-'));
  try {
    writeSyntheticHistory(join(dir, 'h.json'), n);
    return readFileSync(join(dir, 'h.json')) as Buffer<ArrayBuffer>;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A small page record of its own for each `i`, to stage as an import's chunk. */
const record = (i: number): PageRecord => ({ url: `https://imp.example/${i}`, canonicalUrl: `https://imp.example/${i}`, site: 'imp.example', title: 'T', fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 300, lang: 'en', firstSeen: 10, lastSeen: 20, visits: 1 });

const article = (name: string) => loadArticle(name).paragraphs.join('\n\n');

/** Every record, as the background holds it. */
async function history(bg: ReturnType<typeof makeBackground>) {
  return everyPage(await bg.repository);
}

async function withHistory() {
  const bg = makeBackground();
  const texts = [article('en-library'), article('en-balcony'), article('zh-library'), article('zh-balcony')];
  for (const [i, text] of texts.entries()) {
    await bg.read({ url: `https://site${i}.example/a`, title: `Page, "${i}"\n<b>`, digest: digestArticle(text), lang: '' });
  }
  return bg;
}

describe('export and import through the background', () => {
  it('exports, clears, imports the file back, and the history is as before', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const progress: Array<[number, number]> = [];
    const { blob, pages } = await exportHistory(bg.call, 'json', (d, t) => progress.push([d, t]));
    expect(pages).toBe(4);
    expect(progress.at(-1)).toEqual([4, 4]);

    await bg.call('options:clear', {});
    expect((await bg.call('options:stats', {})).pages).toBe(0);

    const result = await importHistory(bg.call, blob, () => undefined);
    expect(result).toEqual({ state: 'imported', pages: 4, outcome: { added: 4, merged: 0, unchanged: 0 } });
    expect(await history(bg)).toEqual(before);
  });

  it('brings back a page whose stored address is longer than a page may send now (kept so before 26 November 2026), in JSON and CSV', async () => {
    const bg = await withHistory();
    // The URL parser's writing of an address sent at 1,418 characters ("é" as %C3%A9): what the
    // background stored before it checked the length as written too.
    const long = new URL(`https://long.example/${'é'.repeat(1400)}`).href;
    expect(long.length).toBeGreaterThan(8192);
    await (await bg.repository).recordVisit({ url: long, title: 'A long address', fp: digestArticle(article('en-ferry')).fp, algo: 'dr1', textLength: 900, lang: 'en' }, 1_700_000_000_000);
    const before = await history(bg);
    expect(before).toHaveLength(5);
    for (const format of ['json', 'csv'] as const) {
      const { blob } = await exportHistory(bg.call, format, () => undefined);
      await bg.call('options:clear', {});
      expect(await importHistory(bg.call, blob, () => undefined)).toMatchObject({ state: 'imported', pages: 5 });
      expect((await history(bg)).map((p) => p.url), format).toEqual(before.map((p) => p.url));
    }
    // The history page may name it.
    expect((await bg.call('history:items', { urls: [long] })).items.map((i) => i.url)).toEqual([long]);
  });

  it("counts a backup's visits once when it is restored after more reading, and adds another browser's", async () => {
    const url = 'https://a.example/story';
    const visit = (bg: ReturnType<typeof makeBackground>, id: string) => bg.read({ url, title: 'The story', digest: digestArticle(article('en-library')), lang: 'en', visitId: id });
    const visits = async (bg: ReturnType<typeof makeBackground>) => (await (await bg.repository).get(url))?.visits;
    const here = makeBackground();
    await visit(here, 'visit-here-1');
    await visit(here, 'visit-here-2');
    const backup = (await exportHistory(here.call, 'json', () => undefined)).blob;
    expect(await backup.text()).toContain('"visitIds":["visit-here-1","visit-here-2"]');
    // One more visit after the backup, then the backup is restored: still 3 visits (5 before).
    await visit(here, 'visit-here-3');
    expect(await importHistory(here.call, backup, () => undefined)).toMatchObject({ state: 'imported', outcome: { unchanged: 1 } });
    expect(await visits(here)).toBe(3);
    // The other way round: an older restore, then the later backup: the visit made after it is added, once.
    const later = (await exportHistory(here.call, 'json', () => undefined)).blob;
    const restored = makeBackground();
    await importHistory(restored.call, backup, () => undefined);
    await importHistory(restored.call, later, () => undefined);
    expect(await visits(restored)).toBe(3);
    // Another browser's visits of the page, none shared: added.
    const elsewhere = makeBackground();
    elsewhere.clock.now += 86_400_000; // read there another day (one history began at the same millisecond would be taken for this one)
    await visit(elsewhere, 'visit-there-1');
    await importHistory(here.call, (await exportHistory(elsewhere.call, 'json', () => undefined)).blob, () => undefined);
    expect(await visits(here)).toBe(4);
    // A file without visit ids (CSV, or a JSON export made before them) from another browser is added.
    const csv = (await exportHistory(elsewhere.call, 'csv', () => undefined)).blob;
    await importHistory(restored.call, csv, () => undefined);
    expect(await visits(restored)).toBe(4);
    // A CSV backup of this history, restored after more reading, counts nothing again: its record
    // began with the same visit, to the millisecond (until 28 November 2026: 5 visits for 3).
    const own = makeBackground();
    await visit(own, 'visit-own-1');
    await visit(own, 'visit-own-2');
    const csvBackup = (await exportHistory(own.call, 'csv', () => undefined)).blob;
    own.clock.now += 60_000;
    await visit(own, 'visit-own-3');
    await importHistory(own.call, csvBackup, () => undefined);
    expect(await visits(own)).toBe(3);
  });

  it("counts a backup's visits once past the 16 ids a record keeps: a window slid on, or none left in common", async () => {
    const digest = digestArticle(article('en-library'));
    for (const [before, after] of [
      [17, 1],
      [3, 16],
    ]) {
      const bg = makeBackground();
      const url = 'https://often.example/story';
      let k = 0;
      const visit = () => bg.read({ url, title: 'Often', digest, lang: 'en', visitId: `visit-often-${String(++k).padStart(3, '0')}` });
      for (let i = 0; i < before; i++) await visit();
      const backup = (await exportHistory(bg.call, 'json', () => undefined)).blob;
      for (let i = 0; i < after; i++) await visit();
      await importHistory(bg.call, backup, () => undefined);
      expect((await (await bg.repository).get(url))?.visits, `${before} then ${after}`).toBe(before + after);
    }
  });

  it('restores a history recorded while the clock ran ahead, and a title cut inside a character as CSV', async () => {
    const bg = makeBackground();
    const repo = await bg.repository;
    const digest = digestArticle(article('en-library'));
    const T = 1_700_000_000_000;
    const v = { url: 'https://clock.example/a', title: 'Clock', fp: digest.fp, algo: 'dr1', textLength: digest.words, lang: 'en' };
    await repo.recordVisit(v, T + 12 * 3600_000); // 12 hours ahead: kept as it is
    await repo.recordVisit(v, T + 3 * 86_400_000); // 3 days ahead: taken as now at import
    // A title of 499 letters and an emoji: cut at 500 code units, inside the emoji.
    await bg.read({ url: 'https://emoji.example/a', title: `${'a'.repeat(499)}😀 and more`, digest, lang: 'en' });
    bg.clock.now = T;
    const before = await history(bg);
    expect(before.find((p) => p.url === 'https://emoji.example/a')?.title).toBe('a'.repeat(499));
    for (const format of ['json', 'csv'] as const) {
      const { blob } = await exportHistory(bg.call, format, () => undefined);
      const other = makeBackground();
      other.clock.now = T;
      expect(await importHistory(other.call, blob, () => undefined), format).toMatchObject({ state: 'imported', pages: 2 });
      const after = await history(other);
      expect(after.map((p) => p.title)).toEqual(before.map((p) => p.title));
      const clock = after.find((p) => p.url === v.url);
      expect(clock && clock.firstSeen <= clock.lastSeen).toBe(true);
    }
  });

  it('counts visits up to what an import takes back (10^9), so the export of a page read that often still imports', async () => {
    const bg = makeBackground();
    const page = { url: 'https://often.example/', title: 'Often', digest: digestArticle(article('en-library')), lang: 'en' };
    await bg.read(page);
    const text = (await (await exportHistory(bg.call, 'json', () => undefined)).blob.text()).replace('"visits":1', '"visits":1000000000');
    await bg.call('options:clear', {});
    expect(await importHistory(bg.call, new Blob([text]), () => undefined)).toMatchObject({ state: 'imported' });
    await bg.read(page);
    // Merged with another history of it, too: the sum is held at the limit.
    await importHistory(bg.call, new Blob([text.replace(/"firstSeen":\d+/, '"firstSeen":1')]), () => undefined);
    expect((await (await bg.repository).get(page.url))?.visits).toBe(1e9);
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    await bg.call('options:clear', {});
    expect(await importHistory(bg.call, blob, () => undefined)).toMatchObject({ state: 'imported', pages: 1 });
  });

  it('reads a CSV with a blank line at its end, as an editor leaves it', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'csv', () => undefined);
    await bg.call('options:clear', {});
    expect(await importHistory(bg.call, new Blob([await blob.text(), '\r\n\r\n']), () => undefined)).toMatchObject({ state: 'imported', pages: 4 });
  });

  it('keeps the "changed" marks and the "Not the same" pairs through export, clear and import (JSON)', async () => {
    const bg = await withHistory();
    const repo = await bg.repository;
    const changed = { at: 1_700_000_000_000, parts: 3, read: 0.625 };
    // Marked as a visit marks it, with that visit (here the page's own, met again).
    const own = digestArticle(article('en-balcony'));
    await repo.recordVisit({ url: 'https://site1.example/a', title: 'Page, "1"\n<b>', fp: own.fp, algo: 'dr1', textLength: own.words, lang: 'en' }, 1_700_000_000_000, [{ url: 'https://site1.example/a', changed }]);
    expect((await repo.get('https://site1.example/a'))?.changed).toEqual(changed);
    // And a page marked by a copy met on another site, which the mark names.
    const copyMark = { at: 1_700_000_050_000, parts: 1, read: 0.9, where: 'reposts.example' };
    await repo.recordVisit({ url: 'https://site2.example/a', title: 'Page 2', fp: own.fp, algo: 'dr1', textLength: own.words, lang: 'en' }, 1_700_000_050_000, [{ url: 'https://site3.example/a', changed: copyMark }]);
    await repo.dismiss('https://site0.example/a', 'https://site2.example/a', 1_700_000_100_000);
    // A pair naming a page no longer recorded is the reader's choice too, and kept.
    await repo.dismiss('https://site3.example/a', 'https://gone.example/b', 1_700_000_200_000);
    const before = await history(bg);
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);

    await bg.call('options:clear', {});
    expect(await repo.isDismissed('https://site0.example/a', 'https://site2.example/a')).toBe(false);

    expect(await importHistory(bg.call, blob, () => undefined)).toMatchObject({ state: 'imported', pages: 4 });
    expect(await history(bg)).toEqual(before);
    expect((await history(bg)).find((p) => p.url === 'https://site1.example/a')?.changed).toEqual(changed);
    expect((await history(bg)).find((p) => p.url === 'https://site3.example/a')?.changed).toEqual(copyMark);
    expect(await repo.isDismissed('https://site2.example/a', 'https://site0.example/a')).toBe(true);
    expect(await repo.isDismissed('https://site3.example/a', 'https://gone.example/b')).toBe(true);
    expect(await repo.isDismissed('https://site0.example/a', 'https://site1.example/a')).toBe(false);
    // And the file exported again says the same.
    const again = JSON.parse(await (await exportHistory(bg.call, 'json', () => undefined)).blob.text()) as { notSame: unknown[] };
    expect(again.notSame).toEqual(JSON.parse(await blob.text()).notSame);
    expect(again.notSame).toHaveLength(2);
    // Restored from its CSV first (which keeps no marks), then from the JSON backup: the marks come
    // back, and those pages are merged, not "already up to date" (until 28 November 2026 they were not).
    const csv = (await exportHistory(bg.call, 'csv', () => undefined)).blob;
    await bg.call('options:clear', {});
    await importHistory(bg.call, csv, () => undefined);
    expect((await history(bg)).find((p) => p.url === 'https://site1.example/a')?.changed).toBeUndefined();
    expect(await importHistory(bg.call, blob, () => undefined)).toMatchObject({ state: 'imported', outcome: { added: 0, merged: 2, unchanged: 2 } });
    expect(await history(bg)).toEqual(before);
  });

  it('carries a "Not the same" list of any size both ways, in messages of bounded size', async () => {
    const bg = await withHistory();
    const file = JSON.parse(await (await exportHistory(bg.call, 'json', () => undefined)).blob.text()) as { notSame?: Array<{ a: string; b: string; at: number }> };
    // 2,500 ordinary pairs, and 80 that each name an address 60,000 characters long (4.8 M characters in all).
    const long = 'x'.repeat(60_000);
    file.notSame = [
      ...Array.from({ length: 2_500 }, (_, i) => ({ a: `https://site0.example/a`, b: `https://copy${i}.example/p`, at: 1_600_000_000_000 + i })),
      ...Array.from({ length: 80 }, (_, i) => ({ a: `https://long.example/${long}${i}`, b: `https://site1.example/a`, at: 1_600_000_000_000 })),
    ];
    const biggest: Record<string, number> = {};
    const other = makeBackground();
    const measuring: typeof other.call = async (type, req) => {
      const res = await other.call(type, req);
      biggest[type] = Math.max(biggest[type] ?? 0, JSON.stringify(req).length, JSON.stringify(res).length);
      return res;
    };
    expect(await importHistory(measuring, new Blob([JSON.stringify(file)]), () => undefined)).toMatchObject({ state: 'imported', pages: 4 });
    const exported = JSON.parse(await (await exportHistory(measuring, 'json', () => undefined)).blob.text()) as { notSame: unknown[] };
    expect(exported.notSame).toHaveLength(2_580);
    expect(new Set(exported.notSame.map((p) => JSON.stringify(p)))).toEqual(new Set(file.notSame.map((p) => JSON.stringify(p.a < p.b ? p : { a: p.b, b: p.a, at: p.at }))));
    // No message carries the whole list: each stays within a few megabytes.
    for (const type of ['options:importChunk', 'options:importCommit', 'options:exportNotSame']) expect(biggest[type]).toBeLessThan(4_200_000);
    expect(await (await other.repository).isDismissed('https://copy2499.example/p', 'https://site0.example/a')).toBe(true);
  });

  it('completes an import whose page is closed after its first commit answered: the background goes on by itself', async () => {
    // A commit message applies one transaction's worth of chunks before it answers (its budget spent at once).
    const bg = makeBackground({}, {}, undefined, undefined, { commitBudgetMs: 0 });
    const n = CHUNKS_PER_APPLY + 5;
    const { imports } = await bg.repository;
    for (let seq = 0; seq < n; seq++) await imports.stage('import-closed', seq, [record(seq)], 1000);
    const step = await bg.call('options:importCommit', { importId: 'import-closed', digest: 'c'.repeat(64), chunks: n, pages: n });
    expect(step).toMatchObject({ done: false, applied: CHUNKS_PER_APPLY });
    // The options page is gone: no message comes any more, and the rest is applied all the same.
    await vi.waitFor(async () => expect((await bg.call('options:stats', {})).pages).toBe(n), { timeout: 5_000, interval: 20 });
    expect(await imports.commit('import-closed', 'c'.repeat(64), n, n, 2000, 0)).toMatchObject({ done: true, applied: n, outcome: { added: n } });
  });

  it('completes a second import committed while the first is being completed, both pages closed', async () => {
    const bg = makeBackground({}, {}, undefined, undefined, { commitBudgetMs: 0 });
    const n = CHUNKS_PER_APPLY + 3;
    const { imports } = await bg.repository;
    for (let seq = 0; seq < n; seq++) {
      await imports.stage('import-first', seq, [record(seq)], 1000);
      await imports.stage('import-second', seq, [record(1000 + seq)], 1000);
    }
    // Each page sends one commit, the second while the background completes the first, then closes.
    await bg.call('options:importCommit', { importId: 'import-first', digest: 'a'.repeat(64), chunks: n, pages: n });
    await bg.call('options:importCommit', { importId: 'import-second', digest: 'b'.repeat(64), chunks: n, pages: n });
    await vi.waitFor(async () => expect((await bg.call('options:stats', {})).pages).toBe(2 * n), { timeout: 5_000, interval: 20 });
  });

  it('leaves out the "Not the same" pairs of a page or site the reader forgets while the import is applied', async () => {
    const bg = makeBackground({}, {}, undefined, undefined, { commitBudgetMs: 0 });
    const n = CHUNKS_PER_APPLY + 2;
    const repo = await bg.repository;
    for (let seq = 0; seq < n; seq++) await repo.imports.stage('import-pairs', seq, [record(seq)], 1000);
    // The file's pairs, after its pages, as the options page stages them.
    const notSame = [
      { a: 'https://clinic.example/diagnosis', b: 'https://imp.example/1', at: 500 },
      { a: 'https://imp.example/2', b: 'https://private.example/a', at: 500 },
      { a: 'https://imp.example/3', b: 'https://imp.example/4', at: 500 },
    ];
    await bg.call('options:importChunk', { importId: 'import-pairs', seq: n, notSame });
    // The first commit applies the pages' first chunks; the reader forgets a page and a site; then the rest is applied.
    const step = repo.imports.commit('import-pairs', 'c'.repeat(64), n + 1, n, 2000, 0);
    expect(await step).toMatchObject({ done: false });
    await repo.forget('https://clinic.example/diagnosis');
    await repo.forgetSite('private.example');
    await repo.imports.completeLater(() => 3000);
    expect(await repo.notSamePairs()).toEqual([{ a: 'https://imp.example/3', b: 'https://imp.example/4', at: 500 }]);
  });

  it('keeps a site forgotten in the moments after Import was chosen, before any of the file was sent', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const site = (await history(bg))[0].url.replace(/^https?:\/\/(www\.)?/, '').split('/')[0];
    const before = (await history(bg)).filter((p) => !p.url.includes(`//${site}/`)).length;
    let forgotten = false;
    const send: typeof bg.call = async (type, req) => {
      // The reader forgets the site (the popup) while the file's first chunk is still being read.
      if (type === 'options:importChunk' && !forgotten) {
        forgotten = true;
        expect((await bg.call('popup:forgetSite', { site })).forgotten).toBeGreaterThan(0);
      }
      return bg.call(type, req);
    };
    expect(await importHistory(send, blob, () => undefined)).toMatchObject({ state: 'imported' });
    expect(forgotten).toBe(true);
    expect((await history(bg)).map((p) => p.url).filter((u) => u.includes(`//${site}/`))).toEqual([]);
    expect((await history(bg)).length).toBe(before);
  });

  it('makes no file when the history is cleared while it is being exported: after its first chunk of pages, or of pairs', async () => {
    // More pages than one chunk holds, and more pairs: a file cut at either would lack some.
    const bg = makeBackground();
    bg.clock.now = Date.UTC(2026, 1, 1); // after the file's dates
    const pairs = Array.from({ length: NOT_SAME_CHUNK + 1 }, (_, i) => ({ a: 'https://site0.example/a', b: `https://copy${i}.example/p`, at: 1_600_000_000_000 }));
    const doc = JSON.parse(syntheticFile(CHUNK + 1).toString('utf8')) as Record<string, unknown>;
    expect(await importHistory(bg.call, new Blob([JSON.stringify({ ...doc, notSame: pairs })]), () => undefined)).toMatchObject({ state: 'imported', pages: CHUNK + 1 });
    const whole = JSON.parse(await (await exportHistory(bg.call, 'json', () => undefined)).blob.text()) as { pages: unknown[]; notSame: unknown[] };
    expect([whole.pages.length, whole.notSame.length]).toEqual([CHUNK + 1, NOT_SAME_CHUNK + 1]);
    for (const after of ['options:exportChunk', 'options:exportNotSame'] as const) {
      const history = makeBackground();
      history.clock.now = bg.clock.now;
      await importHistory(history.call, new Blob([JSON.stringify(whole)]), () => undefined);
      // Another tab clears the history once the first such chunk has been read.
      let clearedOnce = false;
      const clearing: typeof history.call = async (type, req) => {
        const res = await history.call(type, req);
        if (type === after && !clearedOnce) {
          clearedOnce = true;
          await history.call('options:clear', {});
        }
        return res;
      };
      await expect(exportHistory(clearing, 'json', () => undefined), after).rejects.toThrow(HistoryClearedError);
      // Once the clear is over, an export is made as ever (of the empty history).
      expect((await exportHistory(history.call, 'json', () => undefined)).pages).toBe(0);
    }
  }, 30_000);

  it('imports the pages of a file whose "Not the same" list or marks are not what they should be, leaving those out', async () => {
    const bg = await withHistory();
    const file = JSON.parse(await (await exportHistory(bg.call, 'json', () => undefined)).blob.text()) as { pages: Array<Record<string, unknown>>; notSame?: unknown };
    file.pages[0].changed = { at: 'yesterday', parts: 2, read: 0.5 };
    file.pages[1].changed = { at: 5, parts: 1, read: 0.25, where: 'evil.example/<b>' };
    file.pages[2].changed = { at: 6, parts: 2, read: 0.5, where: 'copies.example' };
    file.notSame = [{ a: 'javascript:alert(1)', b: 'https://site0.example/a', at: 1 }, { a: 'https://site0.example/a', b: 'https://site0.example/a', at: 1 }, 'no', { a: 'https://site0.example/a', b: 'https://site1.example/a', at: 7 }];
    const other = makeBackground();
    expect(await importHistory(other.call, new Blob([JSON.stringify(file)]), () => undefined)).toMatchObject({ state: 'imported', pages: 4 });
    const pages = await history(other);
    expect(pages.find((p) => p.url === file.pages[0].url)?.changed).toBeUndefined();
    // A site that is not one as the background writes it is left out; the mark stays.
    expect(pages.find((p) => p.url === file.pages[1].url)?.changed).toEqual({ at: 5, parts: 1, read: 0.25 });
    expect(pages.find((p) => p.url === file.pages[2].url)?.changed).toEqual({ at: 6, parts: 2, read: 0.5, where: 'copies.example' });
    expect((await other.call('options:exportNotSame', {})).pairs).toEqual([{ a: 'https://site0.example/a', b: 'https://site1.example/a', at: 7 }]);
  });

  it('importing the same file twice changes nothing the second time', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const other = makeBackground();
    expect((await importHistory(other.call, blob, () => undefined)).state).toBe('imported');
    const after = await history(other);
    expect(await importHistory(other.call, blob, () => undefined)).toEqual({ state: 'already-imported' });
    expect(await history(other)).toEqual(after);
    // Known as the same file once read (its digest comes with its end): what was staged is dropped.
    const db = (await other.repository) as unknown as { db: { count(store: string): Promise<number> } };
    expect(await db.db.count('staging')).toBe(0);
  });

  it('imports a file imported before again for the pages forgotten since, counting no visit twice', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const csv = (await exportHistory(bg.call, 'csv', () => undefined)).blob;
    const other = makeBackground();
    expect((await importHistory(other.call, blob, () => undefined)).state).toBe('imported');
    expect((await importHistory(other.call, csv, () => undefined)).state).toBe('imported');
    const whole = await history(other);
    // The reader forgets a site, and has no Undo left: the backup brings it back, the rest as it was.
    const site = whole[0].url.replace(/^https?:\/\//, '').split('/')[0];
    await other.call('popup:forgetSite', { site });
    expect(await importHistory(other.call, blob, () => undefined)).toEqual({ state: 'imported', pages: whole.length, outcome: { added: 1, merged: 0, unchanged: whole.length - 1 } });
    expect(await history(other)).toEqual(whole);
    // A CSV backup too, which keeps no visit ids: nothing counted again.
    await other.call('popup:forgetSite', { site });
    expect((await importHistory(other.call, csv, () => undefined)).state).toBe('imported');
    expect((await history(other)).map((p) => [p.url, p.visits])).toEqual(whole.map((p) => [p.url, p.visits]));
    // Nothing forgotten: the same file again changes nothing, and says so.
    expect(await importHistory(other.call, blob, () => undefined)).toEqual({ state: 'already-imported' });
  });

  it('leaves the history exactly as it was when the file is bad', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const text = await blob.text();
    const broken = text.replace(/"visits":1\b/, '"visits":"lots"');
    const result = await importHistory(bg.call, new Blob([broken]), () => undefined);
    expect(result.state === 'invalid' && english(result.error)).toMatch(/^Page 1: "visits"/);
    expect(await importHistory(bg.call, new Blob([text.slice(0, 200)]), () => undefined)).toMatchObject({ state: 'invalid' });
    expect(await history(bg)).toEqual(before);
  });

  it('imports the other pages of a backup with one bad record when the reader says so, and says what was left out (JSON and CSV)', async () => {
    for (const kind of ['json', 'csv'] as const) {
      const bg = await withHistory();
      const before = await history(bg);
      const text = await (await exportHistory(bg.call, kind, () => undefined)).blob.text();
      // One record damaged: its visits in JSON, a field too many in CSV (its first row).
      const broken = kind === 'json' ? text.replace(/"visits":1\b/, '"visits":"lots"') : text.replace(/\n([^\r\n]*)/, '\n$1,x');
      expect(broken).not.toBe(text);
      await bg.call('options:clear', {});
      const asked: LeftOut[] = [];
      const result = await importWith(bg.call, new Blob([broken]), () => undefined, readOnThread, undefined, async (left) => (asked.push(left), true));
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ left: 1, total: 4 });
      expect(english(asked[0].first)).toMatch(kind === 'json' ? /^Page 1: "visits"/ : /^Page \d: the CSV line has \d+ fields/);
      expect(result).toMatchObject({ state: 'imported', pages: 3, outcome: { added: 3, merged: 0, unchanged: 0 }, leftOut: { left: 1, total: 4 } });
      if (result.state !== 'imported' || !result.leftOut) throw new Error('not imported');
      expect(result.leftOut.cut).toBeUndefined();
      expect(afterLeftOut('Imported 3 pages.', result.leftOut, (key, ...subs) => english({ key, subs }), (n) => `${n} page`)).toBe('Imported 3 pages. Left out 1 page that could not be imported.');
      // The three others are back as they were; the damaged one is not half there.
      const after = await history(bg);
      expect(after).toHaveLength(3);
      for (const page of after) expect(before).toContainEqual(page);
    }
  });

  it('imports the other pages when the reader answers the question about a bad record after a quarter of an hour', async () => {
    const bg = await withHistory();
    const text = await (await exportHistory(bg.call, 'json', () => undefined)).blob.text();
    await bg.call('options:clear', {});
    let held = 0;
    const counting: typeof bg.call = async (type, req) => {
      const answer = await bg.call(type, req);
      if (type === 'options:importHold') held++;
      return answer;
    };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const result = await importWith(counting, new Blob([text.replace(/"visits":1\b/, '"visits":"lots"')]), () => undefined, readOnThread, undefined, async () => {
        // The reader is away from the question for 15 minutes; meanwhile the background is stopped and starts again, and drops what is abandoned.
        for (let minute = 1; minute <= 15; minute++) {
          bg.clock.now += 60_000;
          await vi.advanceTimersByTimeAsync(60_000);
          await vi.waitFor(() => expect(held).toBe(minute));
          expect((await (await bg.repository).imports.recover(bg.clock.now)).dropped).toEqual([]);
        }
        return true;
      });
      expect(result).toMatchObject({ state: 'imported', pages: 3 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('changes nothing when the reader would rather import nothing of a file with bad records, and drops what it staged', async () => {
    const bg = await withHistory();
    bg.clock.now = Date.UTC(2026, 1, 1); // after the file's dates
    const before = await history(bg);
    // Bad in its first record and its last, of three chunks: every good record was staged by the time the reader is asked.
    const text = syntheticFile(3 * IMPORT_CHUNK).toString('utf8');
    const broken = text.replace(/"visits":\d+\}(\s*\]\s*\}\s*)$/, '"visits":0}$1').replace(/"visits":\d+/, '"visits":-2');
    const sent: string[] = [];
    const watching: typeof bg.call = (type, req) => {
      sent.push(type);
      return bg.call(type, req);
    };
    let asked: LeftOut | undefined;
    const result = await importWith(watching, new Blob([broken]), () => undefined, readOnThread, undefined, async (left) => {
      asked = left;
      expect(sent.filter((t) => t === 'options:importChunk')).toHaveLength(3);
      return false;
    });
    expect(asked).toMatchObject({ left: 2, total: 3 * IMPORT_CHUNK });
    expect(result.state === 'invalid' && english(result.error)).toBe('Page 1: "visits" must be a whole number ≥ 1.');
    expect(sent.at(-1)).toBe('options:importRollback');
    expect(sent).not.toContain('options:importCommit');
    expect(await history(bg)).toEqual(before);
    const db = (await bg.repository) as unknown as { db: { count(store: string): Promise<number> } };
    expect(await db.db.count('staging')).toBe(0);
  });

  it('imports the pages of a backup cut short (a download or copy interrupted) when the reader says so: in a record, between two, in the first', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const text = await (await exportHistory(bg.call, 'json', () => undefined)).blob.text();
    // The third record's start, as the export writes it: cut in its middle, or just before it.
    const third = text.indexOf('{"url"', text.indexOf('{"url"', text.indexOf('{"url"') + 1) + 1);
    expect(third).toBeGreaterThan(0);
    const cases = [
      { cut: text.slice(0, third + 100), left: 1, total: 3, says: 'Page 3: cut off, the file ends in the middle of it.' },
      { cut: text.slice(0, third), left: 0, total: 2, says: 'The file ends after page 2, before its end.' },
    ];
    for (const c of cases) {
      await bg.call('options:clear', {});
      const asked: LeftOut[] = [];
      const result = await importWith(bg.call, new Blob([c.cut]), () => undefined, readOnThread, undefined, async (left) => (asked.push(left), true));
      expect(asked).toMatchObject([{ left: c.left, total: c.total }]);
      expect(english(asked[0].first)).toMatch(c.says);
      expect(result).toMatchObject({ state: 'imported', pages: 2, leftOut: { left: c.left, cut: c.left ? 'inside' : 'between' } });
      // Told after the import as a file that ended early, not as one page left out.
      if (result.state !== 'imported' || !result.leftOut) throw new Error('not imported');
      expect(afterLeftOut('Imported 2 pages.', result.leftOut, (key, ...subs) => english({ key, subs }), (n) => `${n} pages`)).toBe('Imported 2 pages. The file ended early: whatever came after the cut was not in it.');
      const after = await history(bg);
      expect(after).toHaveLength(2);
      for (const page of after) expect(before).toContainEqual(page);
    }
    // Cut in its first record, the file holds nothing to import; cut in its head, it is not a history file at all.
    const first = text.indexOf('{"url"');
    for (const cut of [text.slice(0, first + 50), text.slice(0, 30)]) {
      let asked = false;
      const result = await importWith(bg.call, new Blob([cut]), () => undefined, readOnThread, undefined, async () => (asked = true));
      expect(asked).toBe(false);
      expect(result.state).toBe('invalid');
    }
    // A record broken before the file's end is not a cut: the file is refused, as before.
    const broken = `${text.slice(0, third)}{"url" x:${text.slice(third + '{"url":'.length, third + 100)}`;
    expect(await importWith(bg.call, new Blob([broken]), () => undefined, readOnThread, undefined, async () => true)).toMatchObject({ state: 'invalid' });
  });

  it('imports a backup cut anywhere in a record in the words of every engine: Chromium and Firefox name the place where the text ends', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const text = await (await exportHistory(bg.call, 'json', () => undefined)).blob.text();
    const third = text.indexOf('{"url"', text.indexOf('{"url"', text.indexOf('{"url"') + 1) + 1);
    const fourth = text.indexOf('{"url"', third + 1);
    const parse = JSON.parse;
    // The messages of Chromium 150 (V8 adding the line and column) and of Firefox ESR 140
    // (SpiderMonkey: only the line and column), made from Node's V8 message, which gives neither.
    const place = (t: string, at: number) => ({ line: t.slice(0, at).split('\n').length, column: at - t.lastIndexOf('\n', at - 1) });
    const engines: Record<string, (message: string, t: string) => string> = {
      chromium: (m, t) => {
        const at = /position (\d+)/.exec(m);
        if (!at) return m;
        const p = place(t, Number(at[1]));
        return `${m} (line ${p.line} column ${p.column})`;
      },
      firefox: (m, t) => {
        const at = /position (\d+)/.exec(m);
        const p = place(t, at ? Number(at[1]) : t.length);
        return `JSON.parse: unterminated string at line ${p.line} column ${p.column} of the JSON data`;
      },
    };
    try {
      for (const [engine, words] of Object.entries(engines)) {
        vi.spyOn(JSON, 'parse').mockImplementation((t: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
          try {
            return parse(t, reviver);
          } catch (e) {
            throw new SyntaxError(words((e as Error).message, t), { cause: e });
          }
        });
        // Cut in a string, after a comma, in a number, between a name and its value: everywhere in the third record.
        for (let cut = third + 2; cut < fourth - 2; cut += Math.max(1, Math.floor((fourth - third) / 23))) {
          await bg.call('options:clear', {});
          const asked: LeftOut[] = [];
          const result = await importWith(bg.call, new Blob([text.slice(0, cut)]), () => undefined, readOnThread, undefined, async (left) => (asked.push(left), true));
          expect(result, `${engine}, cut at ${JSON.stringify(text.slice(cut - 12, cut))}`).toMatchObject({ state: 'imported', pages: 2, leftOut: { left: 1 } });
          expect(english(asked[0].first)).toMatch('Page 3: cut off, the file ends in the middle of it.');
        }
        vi.restoreAllMocks();
      }
    } finally {
      vi.restoreAllMocks();
    }
    const after = await history(bg);
    expect(after).toHaveLength(2);
    for (const page of after) expect(before).toContainEqual(page);
  });

  it('refuses a file whose records are all bad without asking, naming the first', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const text = await (await exportHistory(bg.call, 'json', () => undefined)).blob.text();
    const broken = text.replace(/"visits":\d+/g, '"visits":0');
    let asked = false;
    const result = await importWith(bg.call, new Blob([broken]), () => undefined, readOnThread, undefined, async () => (asked = true));
    expect(asked).toBe(false);
    expect(result.state === 'invalid' && english(result.error)).toBe('Page 1: "visits" must be a whole number ≥ 1.');
    expect(await history(bg)).toEqual(before);
  });

  it('drops what it sent when the file turns out bad after chunks of it were staged, and changes nothing', async () => {
    const bg = await withHistory();
    bg.clock.now = Date.UTC(2026, 1, 1); // after the file's dates
    const before = await history(bg);
    const text = syntheticFile(3 * IMPORT_CHUNK).toString('utf8');
    // The last record is bad: the file is read a few megabytes at a time, and its first chunks are
    // sent before that is known.
    expect(text.length).toBeGreaterThan(8 * 1024 * 1024);
    const broken = text.replace(/"visits":\d+\}(\s*\]\s*\}\s*)$/, '"visits":0}$1');
    expect(broken).not.toBe(text);
    const sent: string[] = [];
    const watching: typeof bg.call = (type, req) => {
      sent.push(type);
      return bg.call(type, req);
    };
    const result = await importHistory(watching, new Blob([broken]), () => undefined);
    expect(result.state === 'invalid' && english(result.error)).toBe(`Page ${3 * IMPORT_CHUNK}: "visits" must be a whole number ≥ 1.`);
    expect(sent.filter((t) => t === 'options:importChunk').length).toBeGreaterThanOrEqual(1);
    expect(sent.at(-1)).toBe('options:importRollback');
    expect(sent).not.toContain('options:importCommit');
    expect(await history(bg)).toEqual(before);
    const db = (await bg.repository) as unknown as { db: { count(store: string): Promise<number> } };
    expect(await db.db.count('staging')).toBe(0);
    expect(await db.db.count('importRuns')).toBe(0);
  });

  it('leaves the history as it was when the commit never arrives', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const other = makeBackground();
    await other.read({ url: 'https://mine.example/1', title: 'Mine', digest: digestArticle(article('en-bridges')), lang: 'en' });
    const before = await history(other);
    // The background refuses the commit for good (an error that is not a lost delivery).
    const failing: typeof other.call = (type, req) => (type === 'options:importCommit' ? Promise.reject(new Error('disk on fire')) : other.call(type, req));
    await expect(importHistory(failing, blob, () => undefined)).rejects.toThrow('disk on fire');
    expect(await history(other)).toEqual(before);
  });

  it('imports the whole file, once, while the background keeps losing messages and answers', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const other = makeBackground();
    await other.read({ url: 'https://mine.example/1', title: 'Mine', digest: digestArticle(article('en-bridges')), lang: 'en' });
    let n = 0;
    // Every other message is lost: half of them before the background acts, half after (the answer is lost).
    const flaky: typeof other.call = async (type, req) => {
      n++;
      if (n % 4 === 1) throw new DeliveryError('Could not establish connection. Receiving end does not exist.');
      const answer = await other.call(type, req);
      if (n % 4 === 3) throw new DeliveryError('The message port closed before a response was received.');
      return answer;
    };
    const result = await importHistory(flaky, blob, () => undefined);
    expect(result).toEqual({ state: 'imported', pages: 4, outcome: { added: 4, merged: 0, unchanged: 0 } });
    const after = await history(other);
    expect(after).toHaveLength(5);
    expect(after.every((p) => p.visits === 1)).toBe(true);
  });

  it('sends the chunks as bulk parcels both ways, and sends a parcel again when the background did not get it', async () => {
    const now = new Date(Date.UTC(2026, 10, 23));
    const channel = `deja-read-bulk-test-${Math.random()}`;
    const inbox = new BulkInbox(channel);
    const port = new BulkPort(channel);
    try {
      const bg = await withHistory();
      const plain = await (await exportHistory(bg.call, 'json', () => undefined, now)).blob.text();
      const other = makeBackground({}, {}, inbox);
      // The background loses the first parcel sent to it (it was stopped as it arrived): the chunk is sent again.
      const take = inbox.take.bind(inbox);
      let lost = 0;
      inbox.take = async (id: string) => {
        const body = await take(id);
        if (lost++ === 0) throw new DeliveryError(`parcel ${id} did not arrive`);
        return body;
      };
      const sent: string[] = [];
      const watching: typeof other.call = async (type, req) => {
        sent.push(type);
        return other.call(type, req);
      };
      const result = await importWith(watching, new Blob([plain]), () => undefined, readOnThread, port);
      expect(result).toEqual({ state: 'imported', pages: 4, outcome: { added: 4, merged: 0, unchanged: 0 } });
      expect(sent.filter((t) => t === 'options:importChunk')).toHaveLength(2);
      // Exported through parcels, the history is the file it came from.
      expect(await (await exportHistory(watching, 'json', () => undefined, now, port)).blob.text()).toBe(plain);
      expect(sent.filter((t) => t === 'options:exportChunk').length).toBeGreaterThan(0);
    } finally {
      port.close();
      inbox.close();
    }
  });

  it('exports chunks of more than a million characters whole, through parcels or not: no character cut in two, line breaks in titles kept', async () => {
    const n = 2500;
    // Titles of 465 characters each: Chinese, and characters written as two halves (𠮷, 🌿) throughout.
    const title = (i: number) => `${i} 阳台上的咖啡 🌿\n${'𠮷☕'.repeat(150)}`;
    const file = jsonHead(new Date(Date.UTC(2026, 10, 28))) + jsonChunk(Array.from({ length: n }, (_, i) => ({ ...record(i), title: title(i) })), true) + JSON_TAIL;
    const channel = `deja-read-bulk-test-${Math.random()}`;
    const inbox = new BulkInbox(channel);
    const port = new BulkPort(channel);
    try {
      const bg = makeBackground({}, {}, inbox);
      expect(await importHistory(bg.call, new Blob([file]), () => undefined)).toMatchObject({ state: 'imported', pages: n });
      for (const via of [undefined, port]) {
        const json = await (await exportHistory(bg.call, 'json', () => undefined, new Date(), via)).blob.text();
        // One chunk of more than a million characters.
        expect(json.length).toBeGreaterThan(2 ** 20);
        expect((JSON.parse(json) as { pages: PageRecord[] }).pages.map((p) => p.title)).toEqual(Array.from({ length: n }, (_, i) => title(i)));
        const csv = await (await exportHistory(bg.call, 'csv', () => undefined, new Date(), via)).blob.text();
        expect(csv).not.toContain('\uFFFD');
        expect(parseCsv(csv.slice(1)).slice(1).map((row) => row[3])).toEqual(Array.from({ length: n }, (_, i) => title(i)));
      }
    } finally {
      port.close();
      inbox.close();
    }
  });

  it('gets every parcel to a background that stops whenever it is idle: it is woken before a parcel is posted again', async () => {
    const n = 2 * IMPORT_CHUNK + 7;
    const file = new Blob([syntheticFile(n)]);
    const channel = `deja-read-bulk-test-${Math.random()}`;
    const port = new BulkPort(channel);
    // The background's inbox exists only while it runs: a parcel posted while it is stopped is lost.
    const background: { inbox: BulkInbox | null } = { inbox: null };
    const running = () => (background.inbox ??= new BulkInbox(channel));
    const bulk: BulkHandle = { take: (id) => running().take(id), post: (id, body) => running().post(id, body) };
    const bg = makeBackground({}, {}, bulk);
    bg.clock.now = Date.UTC(2026, 1, 1); // after the file's dates
    // A message starts it; 50 ms with none under way stops it (Chrome waits 30 s, and stops it at
    // any moment for an update or a crash): between the tries of a chunk, it is always stopped.
    // Without the wake before a chunk's later tries, the import never ends.
    let busy = 0;
    let idle: ReturnType<typeof setTimeout> | undefined;
    let cut = false;
    const stopping: typeof bg.call = async (type, req) => {
      clearTimeout(idle);
      // And once, stopped as the second chunk's message arrived (while the first kept it running).
      if (type === 'options:importChunk' && (req as { seq: number }).seq === 1 && !cut) {
        cut = true;
        background.inbox?.close();
        background.inbox = null;
        throw new DeliveryError('The message port closed before a response was received.');
      }
      running();
      busy++;
      try {
        return await bg.call(type, req);
      } finally {
        if (--busy === 0)
          idle = setTimeout(() => {
            background.inbox?.close();
            background.inbox = null;
          }, 50);
      }
    };
    try {
      const result = await importWith(stopping, file, () => undefined, readOnThread, port);
      expect(result).toEqual({ state: 'imported', pages: n, outcome: { added: n, merged: 0, unchanged: 0 } });
      expect((await bg.call('options:stats', {})).pages).toBe(n);
    } finally {
      clearTimeout(idle);
      background.inbox?.close();
      port.close();
    }
  }, 20_000);

  it('refuses a forged chunk at the background, whatever the page sent', async () => {
    const bg = makeBackground();
    await expect(bg.call('options:importChunk', { importId: 'import-0001', seq: 0, pages: [{ url: 'javascript:alert(1)' }] as never })).rejects.toThrow(/url/);
    await expect(bg.call('options:importCommit', { importId: '../../etc', digest: 'x', chunks: 1, pages: 1 })).rejects.toThrow();
    expect((await bg.call('options:stats', {})).pages).toBe(0);
  });

  it('exports CSV with a header and one row per page', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'csv', () => undefined);
    // A byte order mark first, so that spreadsheet programs read the file as UTF-8.
    expect([...new Uint8Array(await blob.slice(0, 3).arrayBuffer())]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(await blob.text());
    expect(rows).toHaveLength(5);
    expect(rows.slice(1).map((r) => r[rows[0].indexOf('title')]).sort()).toEqual([0, 1, 2, 3].map((i) => `Page, "${i}" <b>`));
  });

  it('imports the CSV it exports: the history comes back as it was', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const { blob } = await exportHistory(bg.call, 'csv', () => undefined);
    await bg.call('options:clear', {});
    const result = await importHistory(bg.call, blob, () => undefined);
    expect(result).toEqual({ state: 'imported', pages: 4, outcome: { added: 4, merged: 0, unchanged: 0 } });
    expect(await history(bg)).toEqual(before);
  });

  it('takes its own CSV back as up to date, its rows sorted too; and refuses one whose times a spreadsheet rounded, leaving the history as it was', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const text = await (await exportHistory(bg.call, 'csv', () => undefined)).blob.text();
    const [head, ...rows] = text.replace(/^\ufeff/, '').trimEnd().split('\r\n');
    const sorted = [head, ...rows.reverse()].join('\r\n') + '\r\n';
    expect(await importHistory(bg.call, new Blob([sorted]), () => undefined)).toMatchObject({ state: 'imported', outcome: { added: 0, merged: 0, unchanged: 4 } });
    expect(await history(bg)).toEqual(before);
    // As a spreadsheet saves what it shows: 13-digit times as 1.79578E+12.
    const rounded = sorted.replace(/,(\d)(\d{5})\d{7},/g, (_, a: string, b: string) => `,${a}.${b}E+12,`);
    expect(rounded).toMatch(/E\+12/);
    const result = await importHistory(bg.call, new Blob([rounded]), () => undefined);
    // Nothing imported, and the reader told which page and field, and why: the spreadsheet rounded it.
    expect(result).toMatchObject({ state: 'invalid', error: { key: 'importPageTimeRounded', subs: ['1', 'firstSeen'] } });
    expect(english({ key: 'importPageTimeRounded', subs: ['1', 'firstSeen'] })).toMatch(/^Page 1: "firstSeen" is a time that a spreadsheet rounded \(it shows 13-digit numbers as 1\.79578E\+12/);
    expect(await history(bg)).toEqual(before);
  });

  it('takes back a fingerprint that a spreadsheet turned into a number, from the blocks beside it, and a text hash that lost its zeros; another text hash so turned is left out, not the page', async () => {
    const bg = await withHistory();
    // Two pages whose fingerprints and text hashes are all decimal digits (about one in 1,800 is), zeros first in one.
    const file = JSON.parse(await (await exportHistory(bg.call, 'json', () => undefined)).blob.text()) as { pages: PageRecord[] };
    const digitsOnly = [
      { fp: '0123456789012345', textHash: '0098765432109876' },
      { fp: '1234567890123456', textHash: '9876543210987654' },
    ];
    digitsOnly.forEach(({ fp, textHash }, i) => {
      const [b0, b1, b2, b3] = blocksOf(fp);
      Object.assign(file.pages[i], { fp, b0, b1, b2, b3, textHash });
    });
    await bg.call('options:clear', {});
    await importHistory(bg.call, new Blob([JSON.stringify(file)]), () => undefined);
    const before = await history(bg);
    expect(before.filter((p) => digitsOnly.some(({ fp }) => fp === p.fp))).toHaveLength(2);
    const rows = parseCsv((await (await exportHistory(bg.call, 'csv', () => undefined)).blob.text()).replace(/^\ufeff/, '').trimEnd());
    const [fpAt, hashAt] = ['fp', 'textHash'].map((c) => rows[0].indexOf(c));
    const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
    // What a spreadsheet saves of a cell of 16 digits: as it shows it in a narrow column, or as a
    // whole number (15 digits kept, zeros first dropped, as LibreOffice does); the times left as they
    // were. The text hashes come back as they were, left out, or as the 16 digits the spreadsheet
    // wrote (a hash of no text).
    const saved = {
      shown: [(cell: string) => Number(cell).toExponential(5).toUpperCase(), [undefined, undefined]],
      'whole number': [(cell: string) => Number(Number(cell).toPrecision(15)).toFixed(0), ['0098765432109876', '9876543210987650']],
    } as const;
    for (const [name, [asNumber, hashes]] of Object.entries(saved)) {
      const table = rows.map((r, i) => r.map((cell, c) => (i > 0 && (c === fpAt || c === hashAt) && /^\d{16}$/.test(cell) ? asNumber(cell) : cell)));
      const text = table.map((r) => r.map(quoted).join(',')).join('\r\n') + '\r\n';
      expect(text, name).not.toMatch(/"0123456789012345"|"1234567890123456"|"0098765432109876"/);
      await bg.call('options:clear', {});
      expect(await importHistory(bg.call, new Blob([text]), () => undefined), name).toEqual({ state: 'imported', pages: 4, outcome: { added: 4, merged: 0, unchanged: 0 } });
      // Every page as it was, but the text hashes as said above.
      const hashed = (p: PageRecord, textHash: string | undefined) => (({ textHash: _, ...rest }) => (textHash ? { ...rest, textHash } : rest))(p);
      const expected = before.map((p) => {
        const k = digitsOnly.findIndex(({ fp }) => fp === p.fp);
        return k < 0 ? p : hashed(p, hashes[k]);
      });
      expect(await history(bg), name).toEqual(expected);
    }
    // A number that is not what the blocks say is refused as before.
    const wrong = rows.map((r, i) => r.map((cell, c) => (i === 1 && c === fpAt ? '4.56789E+15' : cell)));
    await bg.call('options:clear', {});
    const result = await importHistory(bg.call, new Blob([wrong.map((r) => r.map(quoted).join(',')).join('\r\n') + '\r\n']), () => undefined);
    expect(result).toMatchObject({ state: 'invalid', error: { key: 'importPageHex', subs: ['1', 'fp'] } });
  });

  it('imports its CSV as a spreadsheet saves it again: semicolons or tabs, every cell quoted, columns moved, a column of its own', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const rows = parseCsv((await (await exportHistory(bg.call, 'csv', () => undefined)).blob.text()).replace(/^\ufeff/, '').trimEnd());
    const quoted = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
    const write = (table: string[][], delimiter: string, cell: (c: string) => string) => table.map((r) => r.map(cell).join(delimiter)).join('\r\n') + '\r\n';
    const moved = rows.map((r, i) => [...r].reverse().concat(i === 0 ? 'my notes' : 'read twice; good'));
    const saved = {
      'semicolons, every cell quoted': write(rows, ';', quoted),
      tabs: write(rows, '\t', (c) => (/[\t"\r\n]/.test(c) ? quoted(c) : c)),
      'columns reversed, and a column of notes': write(moved, ',', quoted),
      // Excel's line naming the delimiter, before the header.
      'a "sep=;" line first': 'sep=;\r\n' + write(rows, ';', quoted),
      // Old Mac spreadsheets end lines with \r alone.
      'lines ended by \\r alone': write(rows, ',', quoted).replace(/\r\n/g, '\r'),
      'blank lines before the header': '\r\n \r\n' + write(rows, ';', quoted),
      // Typed by hand: spaces around the cells (a title in quotes keeps its own).
      'spaces around cells': rows.map((r) => r.map((c) => (/[,"\r\n]/.test(c) ? quoted(c) : ` ${c} `)).join(',')).join('\r\n') + '\r\n',
    };
    for (const [name, text] of Object.entries(saved)) {
      await bg.call('options:clear', {});
      expect(await importHistory(bg.call, new Blob([text]), () => undefined), name).toEqual({ state: 'imported', pages: 4, outcome: { added: 4, merged: 0, unchanged: 0 } });
      expect(await history(bg), name).toEqual(before);
    }
    // A spreadsheet's rows of empty cells at the end hold no page.
    await bg.call('options:clear', {});
    expect(await importHistory(bg.call, new Blob([saved.tabs + '\t'.repeat(rows[0].length - 1) + '\r\n']), () => undefined)).toMatchObject({ state: 'imported', pages: 4 });
    // A column missing, or named twice: the file is refused, saying which.
    const without = write(rows.map((r) => r.filter((_, i) => rows[0][i] !== 'visits')), ',', quoted);
    expect(await importHistory(bg.call, new Blob([without]), () => undefined)).toEqual({ state: 'invalid', error: { key: 'importCsvMissing', subs: ['visits'] } });
    const twice = write(rows.map((r, i) => r.concat(i === 0 ? 'title' : 'x')), ';', quoted);
    expect(await importHistory(bg.call, new Blob([twice]), () => undefined)).toEqual({ state: 'invalid', error: { key: 'importCsvTwice', subs: ['title'] } });
    expect(english({ key: 'importCsvMissing', subs: ['visits'] })).toBe('This CSV file has no "visits" column. Its first line must name the columns of the CSV that Export writes, in any order.');
    expect(await history(bg)).toEqual(before);
  });

  it('shows progress while reading and sending the file, then while the background applies it', async () => {
    const bg = await withHistory();
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const calls: Array<[number, number, string | undefined]> = [];
    await importHistory(makeBackground().call, blob, (done, total, phase) => calls.push([done, total, phase]));
    // Reading and sending, then applying: one bar, in thousandths.
    expect(calls.every(([, total, phase]) => total === 1000 && phase === 'importing')).toBe(true);
    const done = calls.map(([d]) => d);
    expect(done.length).toBeGreaterThan(2);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done[0]).toBe(0);
    expect(done.at(-1)).toBe(1000);
  });

  it('imports a file of several chunks, two under way at a time, each sent again when lost, in order of progress', async () => {
    const n = 2 * IMPORT_CHUNK + 7;
    const file = new Blob([syntheticFile(n)]);
    const bg = makeBackground();
    bg.clock.now = Date.UTC(2026, 1, 1); // after the file's dates
    const seqs: number[] = [];
    let lost = false;
    const flaky: typeof bg.call = async (type, req) => {
      if (type === 'options:importChunk') {
        const { seq } = req as { seq: number };
        seqs.push(seq);
        // The second chunk's first try is lost on its way.
        if (seq === 1 && !lost) {
          lost = true;
          throw new DeliveryError('Could not establish connection. Receiving end does not exist.');
        }
      }
      return bg.call(type, req);
    };
    const progress: number[] = [];
    const result = await importHistory(flaky, file, (done, _total, phase) => void (phase === 'importing' && progress.push(done)));
    expect(result).toEqual({ state: 'imported', pages: n, outcome: { added: n, merged: 0, unchanged: 0 } });
    expect((await bg.call('options:stats', {})).pages).toBe(n);
    expect([...new Set(seqs)].sort()).toEqual([0, 1, 2]);
    expect(seqs.filter((s) => s === 1)).toHaveLength(2);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1000);
  });

  it('leaves the history as it was when one chunk of several cannot be stored, and leaves nothing staged', async () => {
    const bg = await withHistory();
    bg.clock.now = Date.UTC(2026, 1, 1); // after the file's dates
    const before = await history(bg);
    const file = new Blob([syntheticFile(2 * IMPORT_CHUNK + 7)]);
    const failing: typeof bg.call = async (type, req) => {
      if (type === 'options:importChunk' && (req as { seq: number }).seq === 1) throw new Error('The disk is full.');
      return bg.call(type, req);
    };
    await expect(importHistory(failing, file, () => undefined)).rejects.toThrow('The disk is full.');
    expect(await history(bg)).toEqual(before);
    const db = (await bg.repository) as unknown as { db: { count(store: string): Promise<number> } };
    expect(await db.db.count('staging')).toBe(0);
    expect(await db.db.count('importRuns')).toBe(0);
  });

  it('says the history was cleared, not that the file was cut short, when a clear in another tab stops an import before its commit', async () => {
    const bg = await withHistory();
    bg.clock.now = Date.UTC(2026, 1, 1);
    const file = new Blob([syntheticFile(7)]);
    // "Clear history" in another options tab while this one was reading and staging the file.
    const clearing: typeof bg.call = async (type, req) => {
      if (type === 'options:importCommit') await bg.call('options:clear', {});
      return bg.call(type, req);
    };
    const e = await importHistory(clearing, file, () => undefined).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ImportClearedError);
    expect(english({ key: 'errorImportCleared', subs: [] })).toBe('The history was cleared in another tab while this file was being imported, so none of it was imported. Import the file again if you want its pages.');
    expect(await history(bg)).toEqual([]);
    const db = (await bg.repository) as unknown as { db: { count(store: string): Promise<number> } };
    expect(await db.db.count('staging')).toBe(0);
    // Without a clear, a commit that finds parts missing still says so, once.
    const missing: typeof bg.call = async (type, req) => (type === 'options:importCommit' ? bg.call(type, { ...(req as object), chunks: 2 } as never) : bg.call(type, req));
    const cut = await importHistory(missing, file, () => undefined).catch((x: unknown) => x);
    expect(cut).toMatchObject({ name: 'ImportIncompleteError' });
    expect(english({ key: 'importFailed', subs: [english({ key: 'errorImportIncomplete', subs: [] })] })).toBe('Import failed: The import was cut short before the whole file was handed over. Import the file again. Your history was not changed.');
  });

  it('is watched by the background from its opening to its end, and an import its page saw end is not told again', async () => {
    const bg = await withHistory();
    const file = new Blob([syntheticFile(7)]);
    const said: string[] = [];
    let watched: string | undefined;
    const sending: typeof bg.call = async (type, req) => {
      said.push(type);
      return bg.call(type, req);
    };
    const watch = (importId: string) => {
      watched = importId;
      said.push('watch');
      return () => void said.push('unwatch');
    };
    expect(await importWith(sending, file, () => undefined, readOnThread, undefined, undefined, watch)).toMatchObject({ state: 'imported', pages: 7 });
    expect(watched).toMatch(/^[0-9a-f-]{36}$/);
    // Watched once the import is opened (a page gone before that left nothing to drop), until after it is told.
    expect(said.slice(0, 2)).toEqual(['options:importOpen', 'watch']);
    expect(said.slice(-3)).toEqual(['options:importCommit', 'options:importTold', 'unwatch']);
    expect(await bg.call('options:importsUntold', {})).toEqual({ imports: [] });
  });

  it('drops an import whose options page goes before the commit, as the background hears its port go; refuses a port a web page or content script opens', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const origin = 'chrome-extension://ext-id/';
    const listeners: Array<() => void> = [];
    const port = (name: string, url: string, tab?: { id: number }) => ({
      name,
      sender: { id: 'ext-id', url, ...(tab ? { tab } : {}) },
      disconnect: vi.fn(),
      onDisconnect: { addListener: (f: () => void) => void listeners.push(f) },
    });
    const repository = () => bg.repository;
    await bg.call('options:importOpen', { importId: 'import-gone-0001' });
    const chunk = JSON.parse(syntheticFile(3).toString()) as { pages: PageRecord[] };
    await (await bg.repository).imports.stage('import-gone-0001', 0, chunk.pages, bg.clock.now);
    // A content script, or a name that is no import id, is refused at once and heard no more.
    const content = port(IMPORT_PORT + 'import-gone-0001', 'https://news.example/a', { id: 3 });
    serveImportPort(content as never, 'ext-id', origin, repository, () => bg.clock.now);
    const bad = port(IMPORT_PORT + '../x', `${origin}src/options/index.html`);
    serveImportPort(bad as never, 'ext-id', origin, repository, () => bg.clock.now);
    expect([content.disconnect, bad.disconnect].map((d) => d.mock.calls.length)).toEqual([1, 1]);
    expect(listeners).toHaveLength(0);
    // The options page's own port: the page is reloaded before its commit.
    const own = port(IMPORT_PORT + 'import-gone-0001', `${origin}src/options/index.html`, { id: 4 });
    serveImportPort(own as never, 'ext-id', origin, repository, () => bg.clock.now);
    expect(own.disconnect).not.toHaveBeenCalled();
    for (const gone of listeners) gone();
    await vi.waitFor(async () => expect((await bg.call('options:importsUntold', {})).imports).toEqual([expect.objectContaining({ importId: 'import-gone-0001', state: 'left' })]), { timeout: 2_000, interval: 20 });
    const db = (await bg.repository) as unknown as { db: { count(store: string): Promise<number> } };
    expect(await db.db.count('staging')).toBe(0);
    expect(await history(bg)).toEqual(before);
    await bg.call('options:importTold', { importId: 'import-gone-0001' });
    expect(await bg.call('options:importsUntold', {})).toEqual({ imports: [] });
  });

  it('says the import was interrupted, not that nothing changed, when it fails once its commit was sent', async () => {
    const bg = await withHistory();
    bg.clock.now = Date.UTC(2026, 1, 1);
    const file = new Blob([syntheticFile(7)]);
    // The background applied the file, then its answer was an error (the disk filled as it went on, say).
    const failing: typeof bg.call = async (type, req) => {
      const answer = await bg.call(type, req);
      if (type === 'options:importCommit') throw Object.assign(new Error('quota'), { name: 'StorageFullError' });
      return answer;
    };
    const e = await importHistory(failing, file, () => undefined).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ImportInterruptedError);
    expect((e as ImportInterruptedError).cause).toMatchObject({ name: 'StorageFullError' });
    expect((await history(bg)).length).toBe(4 + 7);
    // Imported again, as the message says it safely may be: nothing more changes.
    expect(await importHistory(bg.call, file, () => undefined)).toEqual({ state: 'already-imported' });
    expect((await history(bg)).length).toBe(4 + 7);
  });

  it('drops what it staged and says what went wrong when the commit itself is refused (a full disk): the history was not changed', async () => {
    const bg = await withHistory();
    bg.clock.now = Date.UTC(2026, 1, 1);
    const before = await history(bg);
    const file = new Blob([syntheticFile(7)]);
    const refusing: typeof bg.call = async (type, req) => {
      if (type === 'options:importCommit') throw Object.assign(new Error('quota'), { name: 'StorageFullError' });
      return bg.call(type, req);
    };
    const e = await importHistory(refusing, file, () => undefined).catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(ImportInterruptedError);
    expect(e).toMatchObject({ name: 'StorageFullError' });
    expect(await history(bg)).toEqual(before);
    const db = (await bg.repository) as unknown as { db: { count(store: string): Promise<number> } };
    expect(await db.db.count('staging')).toBe(0);
  });

  it('refuses a file that is not UTF-8, and the history stays as it was', async () => {
    const bg = await withHistory();
    const before = await history(bg);
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const text = (await blob.text()).replace('"title":"', '"title":"Caf\u00e9 ');
    const latin1 = new Blob([Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff)]);
    const result = await importHistory(makeBackground().call, latin1, () => undefined);
    expect(result.state === 'invalid' && english(result.error)).toMatch(/^The file is not UTF-8 text \(line 2 /);
    expect(await history(bg)).toEqual(before);
  });
});
