import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { DB_NAME, openDejaReadDB, PageRepository, type PageRecord, type Visit } from '../../src/storage';
import { StorageFullError } from '../../src/storage/errors';

const visit = (url: string, fp: string, title = url): Visit => ({ url, title, fp, algo: 'dr1', textLength: 500, lang: 'en' });

async function repo(): Promise<PageRepository> {
  return new PageRepository(await openDejaReadDB());
}

describe('PageRepository: recording and finding', () => {
  it('records a visit with its fingerprint blocks, site and canonical URL', async () => {
    const r = await repo();
    const { record, previous } = await r.recordVisit(visit('https://www.a.example/1', '0123456789abcdef', 'A'), 1000);
    expect(previous).toBeUndefined();
    expect(record).toMatchObject({ b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, visits: 1, firstSeen: 1000, lastSeen: 1000, site: 'a.example', canonicalUrl: 'https://www.a.example/1' });
    expect(await r.get('https://www.a.example/1')).toEqual(record);
    expect(await r.count()).toBe(1);
  });

  it('counts a revisit of the same URL on the same record, keeping firstSeen', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 1000);
    const again = await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 5000);
    expect(again.previous?.visits).toBe(1);
    expect(again.record).toMatchObject({ visits: 2, firstSeen: 1000, lastSeen: 5000 });
    expect(await r.count()).toBe(1);
  });

  it('keeps one record when many tabs report the same URL at once', async () => {
    const r = await repo();
    await Promise.all(Array.from({ length: 20 }, (_, i) => r.recordVisit(visit('https://a.example/x', '0123456789abcdef'), 1000 + i)));
    expect(await r.count()).toBe(1);
    expect(await r.get('https://a.example/x')).toMatchObject({ visits: 20, firstSeen: 1000, lastSeen: 1019 });
  });

  it('finds pages within distance 3 through any one equal block, closest first', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/same', '0123456789abcdef'), 1);
    await r.recordVisit(visit('https://a.example/2bits', '0123456789abcdec'), 2); // differs in block 3 only
    await r.recordVisit(visit('https://a.example/3bits', '8123c56689abcdef'), 3); // 1 bit in b0, 2 bits in b1
    await r.recordVisit(visit('https://a.example/4bits', '0123456789abcde0'), 4); // 4 bits: too far
    await r.recordVisit(visit('https://a.example/far', 'fedcba9876543210'), 5);
    const found = await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 3, excludeUrl: 'https://a.example/same' });
    expect(found.map((p) => [p.url, p.distance])).toEqual([
      ['https://a.example/2bits', 2],
      ['https://a.example/3bits', 3],
    ]);
  });

  it('finds every page within distance 7 with one-bit probes, even when no block is equal', async () => {
    const r = await repo();
    // 7 bits: four in block 0 and one in each other block: no block is equal.
    await r.recordVisit(visit('https://a.example/7', 'f123456689aacdee'), 1);
    await r.recordVisit(visit('https://a.example/9', 'ff22456689aacdee'), 1);
    const found = await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 7 });
    expect(found.map((p) => [p.url, p.distance])).toEqual([['https://a.example/7', 7]]);
    await expect(r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 8 })).rejects.toThrow(RangeError);
  });

  it('never compares fingerprints of another algorithm version', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit('https://a.example/old', '0123456789abcdef'), algo: 'dr0' }, 1);
    expect(await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 3 })).toEqual([]);
  });

  it('finds pages by canonical URL and by exact text hash', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit('https://a.example/p?utm_source=x', '0123456789abcdef'), canonicalUrl: 'https://a.example/p', textHash: '00000000000000aa' }, 1);
    expect((await r.findByCanonicalUrl('https://a.example/p')).map((p) => p.url)).toEqual(['https://a.example/p?utm_source=x']);
    expect((await r.findByTextHash('00000000000000aa')).length).toBe(1);
    expect(await r.findByTextHash('00000000000000bb')).toEqual([]);
  });
});

describe('PageRepository: forgetting and listing', () => {
  it('forgets a page, a whole site, or everything', async () => {
    const r = await repo();
    for (const url of ['https://a.example/1', 'https://www.a.example/2', 'https://b.example/1']) await r.recordVisit(visit(url, '0123456789abcdef'), 1);
    expect(await r.forget('https://b.example/1')).toBe(true);
    expect(await r.forget('https://b.example/1')).toBe(false);
    expect(await r.forgetSite('a.example')).toBe(2);
    expect(await r.count()).toBe(0);
    await r.recordVisit(visit('https://c.example/1', '0123456789abcdef'), 1);
    await r.dismiss('https://c.example/1', 'https://d.example/1', 1);
    await r.clear();
    expect(await r.count()).toBe(0);
    expect(await r.isDismissed('https://d.example/1', 'https://c.example/1')).toBe(false);
  });

  it('remembers "not the same" for a pair in either order', async () => {
    const r = await repo();
    await r.dismiss('https://b.example/x', 'https://a.example/y', 5);
    expect(await r.isDismissed('https://a.example/y', 'https://b.example/x')).toBe(true);
    expect(await r.isDismissed('https://a.example/y', 'https://c.example/z')).toBe(false);
  });

  it('lists pages by date, newest first, page by page without gaps or repeats', async () => {
    const r = await repo();
    // Several pages share a lastSeen: the cursor must still not skip or repeat any.
    for (let i = 0; i < 25; i++) await r.recordVisit(visit(`https://a.example/${String(i).padStart(2, '0')}`, '0123456789abcdef'), 1000 + Math.floor(i / 4));
    const seen: string[] = [];
    let page = await r.listRecent(7);
    while (page.items.length) {
      seen.push(...page.items.map((p) => p.url));
      if (!page.next) break;
      page = await r.listRecent(7, page.next);
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const times = await Promise.all(seen.map(async (u) => (await r.get(u))!.lastSeen));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('searches titles and URLs in steps, so a rare query never reads the whole history at once', async () => {
    const r = await repo();
    for (let i = 0; i < 30; i++) await r.recordVisit({ ...visit(`https://a.example/${i}`, '0123456789abcdef'), title: i % 10 === 3 ? `Tool Library ${i}` : `Other ${i}` }, 1000 + i);
    const found: string[] = [];
    let step = await r.listRecent(10, undefined, 'tool LIBRARY', 8);
    let calls = 1;
    for (;;) {
      found.push(...step.items.map((p) => p.title));
      if (step.done || !step.next) break;
      step = await r.listRecent(10, step.next, 'tool LIBRARY', 8);
      calls++;
    }
    expect(found).toEqual(['Tool Library 23', 'Tool Library 13', 'Tool Library 3']);
    expect(calls).toBe(4);
    expect((await r.listRecent(10, undefined, 'a.example/2')).items.map((p) => p.url)).toEqual(['https://a.example/29', 'https://a.example/28', 'https://a.example/27', 'https://a.example/26', 'https://a.example/25', 'https://a.example/24', 'https://a.example/23', 'https://a.example/22', 'https://a.example/21', 'https://a.example/20']);
  });

  it('reads the history in URL order, chunk by chunk, for export', async () => {
    const r = await repo();
    for (const u of ['https://c.example/', 'https://a.example/', 'https://b.example/']) await r.recordVisit(visit(u, '0123456789abcdef'), 1);
    const first = await r.exportChunk(2);
    expect(first.map((p) => p.url)).toEqual(['https://a.example/', 'https://b.example/']);
    expect((await r.exportChunk(2, first[1].url)).map((p) => p.url)).toEqual(['https://c.example/']);
  });
});

describe('PageRepository: imports', () => {
  const page = (url: string, firstSeen: number, lastSeen: number, visits: number, title = 'T'): PageRecord => ({
    url,
    canonicalUrl: url,
    site: new URL(url).hostname,
    title,
    fp: '0123456789abcdef',
    b0: 0x0123,
    b1: 0x4567,
    b2: 0x89ab,
    b3: 0xcdef,
    algo: 'dr1',
    textLength: 300,
    lang: 'en',
    firstSeen,
    lastSeen,
    visits,
  });

  it('merges by URL: earliest firstSeen, latest lastSeen, visits added, newest title', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef', 'Old title'), 5000);
    const outcome = await r.applyImportChunk('import-0001', [page('https://a.example/1', 1000, 9000, 3, 'New title'), page('https://b.example/2', 10, 20, 1)], 10_000);
    expect(outcome).toEqual({ added: 1, merged: 1, unchanged: 0 });
    await r.commitImport('import-0001', 'a'.repeat(64), 2, 10_000);
    expect(await r.get('https://a.example/1')).toMatchObject({ firstSeen: 1000, lastSeen: 9000, visits: 4, title: 'New title' });
    expect(await r.wasImported('a'.repeat(64))).toBe(true);
    // Committed: nothing is left to roll back.
    expect(await r.rollbackImport('import-0001')).toBe(0);
    expect(await r.count()).toBe(2);
  });

  it('changes nothing when the reader imports their own export back', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 5000);
    const own = await r.exportChunk(10);
    expect(await r.applyImportChunk('import-0002', own, 6000)).toEqual({ added: 0, merged: 0, unchanged: 1 });
    await r.commitImport('import-0002', 'b'.repeat(64), 1, 6000);
    expect(await r.exportChunk(10)).toEqual(own);
  });

  it('rolls back an import that failed part-way: added pages go, merged pages return to what they were', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef', 'Mine'), 5000);
    const before = await r.exportChunk(10);
    await r.applyImportChunk('import-0003', [page('https://a.example/1', 10, 9000, 5, 'Theirs'), page('https://b.example/2', 10, 20, 1)], 7000);
    await r.applyImportChunk('import-0003', [page('https://c.example/3', 10, 20, 1)], 7001);
    expect(await r.count()).toBe(3);
    expect(await r.rollbackImport('import-0003')).toBe(3);
    expect(await r.exportChunk(10)).toEqual(before);
  });

  it('undoes only imports abandoned long enough ago', async () => {
    const r = await repo();
    await r.applyImportChunk('import-old1', [page('https://b.example/2', 10, 20, 1)], 1000);
    await r.applyImportChunk('import-new1', [page('https://c.example/3', 10, 20, 1)], 9000);
    expect(await r.rollbackStaleImports(5000)).toEqual(['import-old1']);
    expect((await r.exportChunk(10)).map((p) => p.url)).toEqual(['https://c.example/3']);
  });
});

describe('storage faults', () => {
  it('turns a full disk into a message the reader can act on, and keeps the history', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 1);
    const realTransaction = db.transaction.bind(db);
    // The browser refuses writes once the origin's quota is used up.
    (db as unknown as { transaction: unknown }).transaction = (...args: Parameters<typeof db.transaction>) => {
      const tx = realTransaction(...args);
      const store = tx.objectStore('pages');
      store.put = () => Promise.reject(new DOMException('quota', 'QuotaExceededError'));
      return tx;
    };
    await expect(r.recordVisit(visit('https://a.example/2', '0123456789abcdef'), 2)).rejects.toThrow(StorageFullError);
    (db as unknown as { transaction: unknown }).transaction = realTransaction;
    expect(await r.count()).toBe(1);
  });
});

describe('schema upgrades', () => {
  it('opens a version 1 database with every record intact and the new indexes filled', async () => {
    // Version 1 as released: pages with four block indexes and lastSeen.
    const v1 = await openDB(DB_NAME, 1, {
      upgrade(db) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen']) pages.createIndex(name, name);
      },
    });
    const old = { url: 'https://www.a.example/1', title: 'Old', fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 400, lang: 'en', firstSeen: 1, lastSeen: 2, visits: 3 };
    await v1.put('pages', old);
    await v1.put('pages', { ...old, url: 'https://b.example/2' });
    v1.close();

    const r = new PageRepository(await openDejaReadDB());
    expect(await r.get(old.url)).toEqual({ ...old, canonicalUrl: old.url, site: 'a.example' });
    expect(await r.count()).toBe(2);
    expect((await r.findByCanonicalUrl('https://b.example/2')).length).toBe(1);
    expect(await r.forgetSite('a.example')).toBe(1);
    expect((await r.findSimilar(old.fp, { algo: 'dr1', maxDistance: 3 })).map((p) => p.url)).toEqual(['https://b.example/2']);
  });
});
