// Schema version 5: the records of one page under several addresses (tracking parameters, fragments)
// merged into one under its identity, "not the same" pairs rewritten, everything else intact; and
// the ladder from versions 1 and 2, whose steps run before it in the same upgrade.
import { openDB, type IDBPDatabase } from 'idb';
import { describe, expect, it } from 'vitest';
import { everyPage } from './helpers';
import { blocksOf, encodePassages } from '../../src/core';
import { DB_NAME, DB_VERSION, openDejaReadDB, PageRepository, type PageRecord } from '../../src/storage';

const X = 'https://news.example/story?id=7';
const Y = 'https://blog.example/post';
const Z = 'https://other.example/a';
const FP_OLD = '0123456789abcdef';
const FP_NEW = 'fedcba9876543210';

function rec(url: string, fields: Partial<PageRecord> & Pick<PageRecord, 'firstSeen' | 'lastSeen' | 'visits'>, fp = FP_OLD): PageRecord {
  const [b0, b1, b2, b3] = blocksOf(fp);
  return { url, canonicalUrl: url, site: new URL(url).hostname, title: 'T', fp, b0, b1, b2, b3, algo: 'dr1', textLength: 400, lang: 'en', ...fields };
}

/** Version 4 as released: pages keyed by the address as visited, with eight indexes, and four more stores. */
async function seedV4(fill: (db: IDBPDatabase) => Promise<void>): Promise<void> {
  const v4 = await openDB(DB_NAME, 4, {
    upgrade(db) {
      const pages = db.createObjectStore('pages', { keyPath: 'url' });
      for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen', 'canonicalUrl', 'textHash']) pages.createIndex(name, name);
      pages.createIndex('anchors', 'anchors', { multiEntry: true });
      db.createObjectStore('dismissals', { keyPath: 'pair' });
      db.createObjectStore('imports', { keyPath: 'digest' });
      db.createObjectStore('staging', { keyPath: ['importId', 'seq'] });
      db.createObjectStore('importRuns', { keyPath: 'importId' });
    },
  });
  await fill(v4);
  v4.close();
}

/** A passage signature of these hashes (its anchors). */
const sig = (...hashes: number[]) => encodePassages({ count: hashes.length, hashes: Uint32Array.from(hashes), bits: 24 });
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `visit-${String(from + i).padStart(4, '0')}`);

describe('schema version 5: one record per page', () => {
  it('merges the records of each page under its identity and leaves everything else as it was', async () => {
    const other = rec(Z, { firstSeen: 5, lastSeen: 6, visits: 4, title: 'Other', textHash: '00000000000000cc', sketch: 'SKETCH-Z', passages: sig(7, 8), visitIds: ['visit-z'] }, '1111222233334444');
    const staged = { importId: 'import-under-way', seq: 0, pages: [rec(`${Y}?utm_source=x`, { firstSeen: 1, lastSeen: 2, visits: 1 })] };
    const run = { importId: 'import-under-way', state: 'staging', chunks: 0, applied: 0, pages: 0, outcome: { added: 0, merged: 0, unchanged: 0 }, at: 9 };
    await seedV4(async (db) => {
      // Page X: its own address, read twice long ago; with tracking parameters, read three times, the latest; with a fragment, once.
      await db.put('pages', rec(X, { firstSeen: 100, lastSeen: 500, visits: 2, title: 'Old', textHash: '00000000000000aa', sketch: 'SKETCH-OLD', passages: sig(1, 2), visitIds: ids(1, 2) }));
      await db.put('pages', rec(`${X}&utm_source=nl&utm_medium=email`, { canonicalUrl: X, firstSeen: 50, lastSeen: 900, visits: 3, title: 'New', lang: 'en-gb', textHash: '00000000000000bb', sketch: 'SKETCH-NEW', passages: sig(3, 4), visitIds: ids(3, 17) }, FP_NEW));
      await db.put('pages', rec(`${X}#comments`, { canonicalUrl: X, firstSeen: 200, lastSeen: 300, visits: 1, title: 'Middle' }));
      // Page Y was only ever read through variants of its address.
      await db.put('pages', rec(`${Y}?fbclid=IwAR0`, { canonicalUrl: `${Y}?fbclid=IwAR0`, firstSeen: 20, lastSeen: 40, visits: 1, title: 'Y1' }));
      await db.put('pages', rec(`${Y}?gclid=Cj0#top`, { canonicalUrl: `${Y}?gclid=Cj0#top`, firstSeen: 10, lastSeen: 30, visits: 2, title: 'Y2' }));
      await db.put('pages', other);
      await db.put('dismissals', { pair: [`${X}&utm_source=nl&utm_medium=email`, Z], at: 1 });
      await db.put('dismissals', { pair: [`${Y}?fbclid=IwAR0`, `${X}#comments`].sort(), at: 2 });
      await db.put('dismissals', { pair: [X, `${Y}?gclid=Cj0#top`].sort(), at: 3 });
      await db.put('dismissals', { pair: [X, `${X}#comments`], at: 4 });
      await db.put('dismissals', { pair: [Z, 'https://zzz.example/'], at: 5 });
      await db.put('imports', { digest: '0'.repeat(64), at: 1, pages: 9 });
      await db.put('staging', staged);
      await db.put('importRuns', run);
    });

    const db = await openDejaReadDB();
    expect(db.version).toBe(DB_VERSION);
    const r = new PageRepository(db);
    expect((await everyPage(r)).map((p) => p.url)).toEqual([Y, X, Z]);
    // Visits added, first and last seen the widest, what describes the text from the latest visit, visit ids of both (bounded).
    const [b0, b1, b2, b3] = blocksOf(FP_NEW);
    expect(await r.get(X)).toEqual({
      url: X,
      canonicalUrl: X,
      site: 'news.example',
      title: 'New',
      fp: FP_NEW,
      b0,
      b1,
      b2,
      b3,
      algo: 'dr1',
      textHash: '00000000000000bb',
      sketch: 'SKETCH-NEW',
      passages: sig(3, 4),
      textLength: 400,
      lang: 'en-gb',
      firstSeen: 50,
      lastSeen: 900,
      visits: 6,
      visitIds: ids(2, 17),
    });
    expect(await r.get(Y)).toMatchObject({ url: Y, canonicalUrl: Y, site: 'blog.example', title: 'Y1', firstSeen: 10, lastSeen: 40, visits: 3 });
    expect(await r.get(Z)).toEqual(other);

    // The indexes hold the merged records only.
    expect((await r.findSimilar(FP_NEW, { algo: 'dr1', maxDistance: 3 })).map((p) => p.url)).toEqual([X]);
    expect((await r.findSimilar(FP_OLD, { algo: 'dr1', maxDistance: 3 })).map((p) => p.url)).toEqual([Y]);
    expect((await r.findByAnchors([1, 2, 3], { algo: 'dr1', bits: 24 })).map((p) => p.url)).toEqual([X]);
    expect(await r.findByAnchors([1, 2], { algo: 'dr1', bits: 24 })).toEqual([]);
    expect(await r.findByTextHash('00000000000000aa', FP_OLD)).toEqual([]);
    expect((await r.findByCanonicalUrl(X)).map((p) => p.url)).toEqual([X]);
    expect((await r.listRecent(10)).items.map((p) => [p.url, p.visits])).toEqual([
      [X, 6],
      [Y, 3],
      [Z, 4],
    ]);

    // "Not the same" between pages, not addresses; a pair of one page's own addresses is gone.
    expect((await db.getAll('dismissals')).map((d) => [d.pair, d.at])).toEqual([
      [[Y, X], 3],
      [[X, Z], 1],
      [[Z, 'https://zzz.example/'], 5],
    ]);
    expect(await r.isDismissed(`${X}#top`, Z)).toBe(true);

    // The other stores are as they were; the staged chunk is taken to identities when it is applied.
    expect(await r.wasImported('0'.repeat(64))).toBe(true);
    expect(await db.getAll('staging')).toEqual([staged]);
    expect(await db.getAll('importRuns')).toEqual([run]);
    expect(await r.imports.commit('import-under-way', '1'.repeat(64), 1, 1, 1000, 60_000)).toMatchObject({ done: true, outcome: { added: 0, merged: 1, unchanged: 0 } });
    expect(await r.get(Y)).toMatchObject({ visits: 4, firstSeen: 1 });
    expect(await r.count()).toBe(3);
  });

  it('applies a chunk staged by version 4 with its addresses as identities, its canonical address too', async () => {
    const u = 'https://news.example/story?id=1&utm_source=nl&fbclid=IwAR0';
    const staged = { importId: 'import-v4', seq: 0, pages: [rec(u, { firstSeen: 1, lastSeen: 2, visits: 1 })] };
    const run = { importId: 'import-v4', state: 'applying', digest: '1'.repeat(64), chunks: 1, applied: 0, pages: 1, outcome: { added: 0, merged: 0, unchanged: 0 }, at: 9 };
    await seedV4(async (db) => {
      await db.put('staging', staged);
      await db.put('importRuns', run);
    });
    const r = new PageRepository(await openDejaReadDB());
    await r.imports.recover(1000);
    expect(await r.get('https://news.example/story?id=1')).toMatchObject({ url: 'https://news.example/story?id=1', canonicalUrl: 'https://news.example/story?id=1' });
  });

  it('opens a version 4 database with no variants unchanged', async () => {
    const pages = [rec(X, { firstSeen: 1, lastSeen: 2, visits: 1 }), rec(Y, { firstSeen: 3, lastSeen: 4, visits: 2, visitIds: ids(1, 2) }), rec('http://plain.example:8080/a?b=c%20d', { firstSeen: 5, lastSeen: 6, visits: 3 })];
    await seedV4(async (db) => {
      for (const p of pages) await db.put('pages', p);
      await db.put('dismissals', { pair: [Y, X], at: 1 });
    });
    const db = await openDejaReadDB();
    expect(await everyPage(new PageRepository(db))).toEqual([...pages].sort((a, b) => (a.url < b.url ? -1 : 1)));
    expect(await db.getAll('dismissals')).toEqual([{ pair: [Y, X], at: 1 }]);
  });

  it('empties the old store after the upgrade, in steps a stopped background takes up again, and loses no page', async () => {
    const n = 2_500;
    const urls = Array.from({ length: n }, (_, i) => `https://many.example/p/${String(i).padStart(5, '0')}`);
    await seedV4(async (db) => {
      const tx = db.transaction('pages', 'readwrite');
      await Promise.all([...urls.map((url, i) => tx.store.put(rec(url, { firstSeen: i, lastSeen: i, visits: 1 }))), tx.done]);
    });
    const db = await openDejaReadDB();
    const raw = db as unknown as IDBPDatabase;
    // The upgrade carried the pages over and left the old store for after.
    expect(await raw.count('pages')).toBe(n);
    const r = new PageRepository(db);
    expect(await r.count()).toBe(n);
    // A background stopped after the first step: the rest is emptied at its next start.
    await expect(
      r.dropOldPages(() => {
        throw new Error('stopped');
      }),
    ).rejects.toThrow('stopped');
    const left = await raw.count('pages');
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(n);
    expect(await new PageRepository(db).dropOldPages()).toBe(left);
    expect(await raw.count('pages')).toBe(0);
    expect(await new PageRepository(db).dropOldPages()).toBe(0);
    const fresh = new PageRepository(db);
    expect(await fresh.count()).toBe(n);
    expect((await everyPage(fresh)).map((p) => p.url)).toEqual(urls);
  });

  it('forgets the records an upgrade left to empty when the reader clears the history', async () => {
    await seedV4(async (db) => {
      await db.put('pages', rec(X, { firstSeen: 1, lastSeen: 2, visits: 1 }));
    });
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    await r.clear();
    expect(await r.count()).toBe(0);
    expect(await (db as unknown as IDBPDatabase).count('pages')).toBe(0);
  });

  it('records the next visit of any variant on the merged record', async () => {
    await seedV4(async (db) => {
      await db.put('pages', rec(`${X}#a`, { firstSeen: 1, lastSeen: 2, visits: 1, visitIds: ['visit-0001'] }));
      await db.put('pages', rec(`${X}&fbclid=1`, { firstSeen: 3, lastSeen: 4, visits: 1 }));
    });
    const r = new PageRepository(await openDejaReadDB());
    await r.recordVisit({ url: `${X}&utm_campaign=z#b`, title: 'Again', fp: FP_OLD, algo: 'dr1', textLength: 400, lang: 'en', visitId: 'visit-0002' }, 10);
    // The retry of a visit recorded before the upgrade, under another variant, is still recognised.
    await r.recordVisit({ url: X, title: 'Retry', fp: FP_OLD, algo: 'dr1', textLength: 400, lang: 'en', visitId: 'visit-0001' }, 11);
    expect(await r.count()).toBe(1);
    expect(await r.get(X)).toMatchObject({ visits: 3, firstSeen: 1, lastSeen: 10, title: 'Again' });
  });
});

describe('the ladder to version 5', () => {
  it('opens a version 1 database: records filled in by step 2, then variants merged, every record intact', async () => {
    const v1 = await openDB(DB_NAME, 1, {
      upgrade(db) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen']) pages.createIndex(name, name);
      },
    });
    const old = (url: string, lastSeen: number, visits: number, title: string) => ({ url, title, fp: FP_OLD, b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 400, lang: 'en', firstSeen: 1, lastSeen, visits });
    await v1.put('pages', old('https://www.a.example/1', 2, 3, 'Plain'));
    await v1.put('pages', old('https://www.a.example/1?utm_source=rss', 9, 2, 'Latest'));
    await v1.put('pages', old('https://b.example/2#intro', 4, 1, 'Only a variant'));
    await v1.put('pages', old('https://c.example/3', 5, 1, 'Untouched'));
    v1.close();

    const r = new PageRepository(await openDejaReadDB());
    expect(await everyPage(r)).toEqual([
      { ...old('https://b.example/2', 4, 1, 'Only a variant'), canonicalUrl: 'https://b.example/2', site: 'b.example' },
      { ...old('https://c.example/3', 5, 1, 'Untouched'), canonicalUrl: 'https://c.example/3', site: 'c.example' },
      { ...old('https://www.a.example/1', 9, 5, 'Latest'), canonicalUrl: 'https://www.a.example/1', site: 'a.example' },
    ]);
    expect((await r.findByCanonicalUrl('https://www.a.example/1')).length).toBe(1);
    expect(await r.forgetSite('a.example')).toBe(1);
  });

  it('opens a version 2 database: the journaled import undone by step 3, then variants merged', async () => {
    const v2 = await openDB(DB_NAME, 2, {
      upgrade(db) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen', 'canonicalUrl', 'textHash']) pages.createIndex(name, name);
        db.createObjectStore('dismissals', { keyPath: 'pair' });
        db.createObjectStore('imports', { keyPath: 'digest' });
        db.createObjectStore('journal', { keyPath: ['importId', 'first'] });
      },
    });
    // An import chunk at t=5000 added a variant of a page of mine and merged into a variant of another.
    await v2.put('pages', rec('https://mine.example/a', { firstSeen: 1, lastSeen: 100, visits: 1, title: 'Mine' }));
    await v2.put('pages', rec('https://mine.example/a?utm_source=imp', { firstSeen: 1, lastSeen: 300, visits: 2, title: 'Imported' }));
    await v2.put('pages', rec('https://mine.example/b#x', { firstSeen: 1, lastSeen: 4000, visits: 6, title: 'Theirs' }));
    await v2.put('pages', rec('https://mine.example/b', { firstSeen: 1, lastSeen: 200, visits: 1, title: 'Mine too' }));
    await v2.put('journal', { importId: 'old', first: 'x', added: ['https://mine.example/a?utm_source=imp'], before: [rec('https://mine.example/b#x', { firstSeen: 1, lastSeen: 150, visits: 2, title: 'Before' })], at: 5000 });
    await v2.put('dismissals', { pair: ['https://mine.example/a', 'https://mine.example/b#x'], at: 7 });
    v2.close();

    const db = await openDejaReadDB();
    expect(db.objectStoreNames.contains('journal' as never)).toBe(false);
    const r = new PageRepository(db);
    // The import's page is gone and the merged one restored (step 3); then b's two records became one.
    expect((await everyPage(r)).map((p) => [p.url, p.visits, p.lastSeen, p.title])).toEqual([
      ['https://mine.example/a', 1, 100, 'Mine'],
      ['https://mine.example/b', 3, 200, 'Mine too'],
    ]);
    expect(await db.getAll('dismissals')).toEqual([{ pair: ['https://mine.example/a', 'https://mine.example/b'], at: 7 }]);
  });
});
