// The store's layout (version 6, its passage index in more buckets since 7): pages in blocks, the
// columns a lookup scans, the passage index in runs. What a reader would notice if it went wrong: a
// page not found again, a forgotten page found, a history that differs after the background
// restarts, a write cut short that leaves half of itself behind.
import { describe, expect, it } from 'vitest';
import { encodePassages } from '../../src/core';
import { openDejaReadDB, PageRepository, type Visit } from '../../src/storage';
import { bucketOfAnchor, sortedRun, sortedRunCompared } from '../../src/storage/anchor-index';
import { DELTA_PAGES } from '../../src/storage/columns';
import { PAGES_PER_BLOCK } from '../../src/storage/layout';
import { CHUNKS_PER_APPLY } from '../../src/storage/import-store';
import { everyPage } from './helpers';

const sig = (hashes: number[]) => encodePassages({ count: hashes.length, hashes: Uint32Array.from([...hashes].sort((a, b) => a - b)), bits: 32 });
const fpOf = (i: number) => (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0') + (Math.imul(i + 3, 40503) >>> 0).toString(16).padStart(8, '0');
const visit = (i: number, extra: Partial<Visit> = {}): Visit => ({ url: `https://s${i % 7}.example/p/${i}`, title: `Page ${i}`, fp: fpOf(i), algo: 'dr1', textLength: 500, lang: 'en', passages: sig([100 + i, 200_000 + i]), ...extra });

/** What a fresh background (nothing in memory) finds for page i. */
async function lookups(r: PageRepository, i: number) {
  const v = visit(i);
  return {
    own: (await r.get(v.url))?.title,
    byFingerprint: (await r.findSimilar(v.fp, { algo: 'dr1', maxDistance: 0 })).map((p) => p.url),
    byAnchor: (await r.findByAnchors([100 + i], { algo: 'dr1' })).map((p) => p.url),
  };
}

describe('the store across blocks and segments', () => {
  it('finds every page again, by address, fingerprint and anchor, across many blocks, also from a background started anew', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    const n = 2 * PAGES_PER_BLOCK + 5;
    for (let i = 0; i < n; i++) await r.recordVisit(visit(i), 1000 + i);
    expect(await r.count()).toBe(n);
    const fresh = new PageRepository(db);
    for (const i of [0, PAGES_PER_BLOCK - 1, PAGES_PER_BLOCK, n - 1]) {
      const want = { own: `Page ${i}`, byFingerprint: [visit(i).url], byAnchor: [visit(i).url] };
      expect(await lookups(r, i)).toEqual(want);
      expect(await lookups(fresh, i)).toEqual(want);
    }
    expect((await r.listRecent(3)).items.map((p) => p.title)).toEqual([`Page ${n - 1}`, `Page ${n - 2}`, `Page ${n - 3}`]);
  });

  it('imports more pages than the delta of the columns holds, and keeps finding the pages, also from a background started anew', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    const n = DELTA_PAGES + 10;
    const pages = Array.from({ length: n }, (_, i) => {
      const v = visit(i);
      return { ...v, canonicalUrl: v.url, site: `s${i % 7}.example`, b0: 0, b1: 0, b2: 0, b3: 0, firstSeen: 1, lastSeen: 2 + i, visits: 1 };
    });
    for (let seq = 0; seq * 1000 < n; seq++) await r.imports.stage('big', seq, pages.slice(seq * 1000, (seq + 1) * 1000), 10);
    let step = await r.imports.commit('big', 'b'.repeat(64), Math.ceil(n / 1000), n, 10, 60_000);
    while (!step.done) step = await r.imports.commit('big', 'b'.repeat(64), Math.ceil(n / 1000), n, 10, 60_000);
    expect(step.outcome).toEqual({ added: n, merged: 0, unchanged: 0 });
    const fresh = new PageRepository(db);
    for (const i of [0, DELTA_PAGES - 1, DELTA_PAGES, n - 1]) expect(await lookups(fresh, i)).toEqual({ own: `Page ${i}`, byFingerprint: [visit(i).url], byAnchor: [visit(i).url] });
  });
});

describe("the passage index's runs", () => {
  it('are sorted by anchor, then page, as comparing the pairs sorts them: entries of version 1 (top bit set), repeats, the extremes', () => {
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const size of [0, 1, 2, 17, 600]) {
      const pairs: number[] = [];
      for (let i = 0; i < size; i++) pairs.push(i % 7 === 0 ? 0xffffffff : next(), i % 5 === 0 ? (next() | 0x80000000) >>> 0 : next() & 0x7fffffff);
      // The same anchor for many pages, and the same pair twice.
      if (size > 2) pairs.push(pairs[0], 0, pairs[0], pairs[1], 0, 0x80000000);
      const run = sortedRun(pairs);
      expect(run).toEqual(sortedRunCompared(pairs));
      for (let i = 2; i < run.length; i += 2) expect(run[i - 2] < run[i] || (run[i - 2] === run[i] && run[i - 1] <= run[i + 1])).toBe(true);
    }
  });
});

describe('forgetting', () => {
  it('finds a forgotten page by nothing, before and after its anchors are merged away, and keeps the others', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    // Pages whose anchors all fall in one bucket: every visit adds a run there, so it is merged again and again.
    const bucket = bucketOfAnchor(1);
    const inBucket = Array.from({ length: 2_000_000 }, (_, k) => k).filter((a) => bucketOfAnchor(a) === bucket).slice(0, 40);
    expect(inBucket).toHaveLength(40);
    for (let i = 0; i < inBucket.length; i++) await r.recordVisit(visit(i, { passages: sig([inBucket[i]]) }), 1000 + i);
    expect(await r.forget(visit(3).url)).toBe(true);
    expect(await r.findByAnchors([inBucket[3]], { algo: 'dr1' })).toEqual([]);
    expect(await r.findSimilar(visit(3).fp, { algo: 'dr1', maxDistance: 0 })).toEqual([]);
    expect(await r.get(visit(3).url)).toBeUndefined();
    // A background started anew answers its first lookup before it has read which numbers are forgotten: still nothing.
    const cold = await new PageRepository(db).lookup({ url: 'https://other.example/', canonicalUrl: 'https://other.example/', fp: visit(3).fp, maxDistance: 0, algo: 'dr1', anchors: { values: [inBucket[3]], bits: 32 } });
    expect(cold.candidates).toEqual([]);
    // More visits: the bucket is merged without the forgotten page's entry.
    for (let i = 40; i < 60; i++) await r.recordVisit(visit(i, { passages: sig([inBucket[i % 40]]) }), 1000 + i);
    const runs = (await db.getAll('anchors', IDBKeyRange.bound([bucket, 0], [bucket, Infinity]))).flatMap((run) => [...run]);
    expect(runs.length / 2).toBeLessThan(60);
    const fresh = new PageRepository(db);
    expect((await fresh.findByAnchors([inBucket[3]], { algo: 'dr1' })).map((p) => p.url)).toEqual([visit(43).url]);
    expect((await fresh.findByAnchors([inBucket[4]], { algo: 'dr1' })).map((p) => p.url).sort()).toEqual([visit(4).url, visit(44).url].sort());
    expect(await fresh.count()).toBe(59);
  });

  it('is not undone by an import applying meantime: a page or site forgotten stays so, whichever chunk holds it', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    const mine = 'https://private.example/diagnosis';
    await r.recordVisit({ ...visit(0), url: mine, title: 'Mine' }, 1000);
    await r.recordVisit({ ...visit(1), url: 'https://clinic.example/a' }, 1000);
    // A backup of CHUNKS_PER_APPLY + 1 chunks, which takes two transactions to apply; the page and the site are in the last.
    const record = (url: string, i: number) => ({ url, canonicalUrl: url, site: new URL(url).hostname, title: `R${i}`, fp: fpOf(i + 100), b0: 0, b1: 0, b2: 0, b3: 0, algo: 'dr1', textLength: 500, lang: 'en', firstSeen: 10, lastSeen: 20, visits: 1 });
    for (let seq = 0; seq < CHUNKS_PER_APPLY; seq++) await r.imports.stage('restore-1', seq, [record(`https://b.example/${seq}`, seq)], 2000);
    await r.imports.stage('restore-1', CHUNKS_PER_APPLY, [record(mine, 99), record('https://clinic.example/b', 98), record('https://kept.example/c', 97)], 2000);
    let step = await r.imports.commit('restore-1', 'c'.repeat(64), CHUNKS_PER_APPLY + 1, CHUNKS_PER_APPLY + 3, 2000, 0);
    expect(step.done).toBe(false);
    // The reader forgets the page and the site while the import is applying.
    expect(await r.forget(mine)).toBe(true);
    expect(await r.forgetSite('clinic.example')).toBe(1);
    while (!step.done) step = await r.imports.commit('restore-1', 'c'.repeat(64), CHUNKS_PER_APPLY + 1, CHUNKS_PER_APPLY + 3, 2000, 0);
    const fresh = new PageRepository(db);
    expect(await fresh.get(mine)).toBeUndefined();
    expect(await fresh.get('https://clinic.example/b')).toBeUndefined();
    expect((await fresh.get('https://kept.example/c'))?.title).toBe('R97');
    expect(await fresh.count()).toBe(CHUNKS_PER_APPLY + 1);
  });

  const backupRecord = (url: string, visits = 1, firstSeen = 10) => ({ url, canonicalUrl: url, site: new URL(url).hostname, title: url, fp: fpOf(visits + 200), b0: 0, b1: 0, b2: 0, b3: 0, algo: 'dr1', textLength: 500, lang: 'en', firstSeen, lastSeen: 20, visits });

  it('keeps a page, a site and their "not the same" pairs forgotten while the file is still being read, before its commit', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    const mine = 'https://private.example/diagnosis';
    await r.recordVisit({ ...visit(0), url: mine, title: 'Mine' }, 1000);
    await r.imports.stage('staged-1', 0, [backupRecord(mine, 3, 5), backupRecord('https://clinic.example/b'), backupRecord('https://kept.example/c')], 2000);
    // The reader forgets the page and a site while the rest of the file is still on its way.
    expect(await r.forget(mine)).toBe(true);
    expect(await r.forgetSite('clinic.example')).toBe(0);
    let step = await r.imports.commit('staged-1', 'd'.repeat(64), 1, 3, 2000, 0, { notSame: [{ a: mine, b: 'https://kept.example/c', at: 500 }] });
    while (!step.done) step = await r.imports.commit('staged-1', 'd'.repeat(64), 1, 3, 2000, 0);
    const fresh = new PageRepository(db);
    expect(await fresh.get(mine)).toBeUndefined();
    expect(await fresh.get('https://clinic.example/b')).toBeUndefined();
    expect(await fresh.get('https://kept.example/c')).toBeDefined();
    expect(await fresh.notSamePairs()).toEqual([]);
  });

  it('keeps a page and a site forgotten once the import is opened, before the first chunk of its file is staged', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    const mine = 'https://private.example/diagnosis';
    await r.recordVisit({ ...visit(0), url: mine, title: 'Mine' }, 1000);
    await r.recordVisit({ ...visit(1), url: 'https://clinic.example/a' }, 1000);
    await r.imports.open('early-1', 1500);
    await r.imports.open('early-1', 1600); // sent again (a lost answer): the same import
    // The reader forgets them while the options page is still reading the file's first chunk.
    expect(await r.forget(mine)).toBe(true);
    expect(await r.forgetSite('clinic.example')).toBe(1);
    await r.imports.stage('early-1', 0, [backupRecord(mine, 3, 5), backupRecord('https://clinic.example/b'), backupRecord('https://kept.example/c')], 2000);
    let step = await r.imports.commit('early-1', 'e'.repeat(64), 1, 3, 2000, 0);
    while (!step.done) step = await r.imports.commit('early-1', 'e'.repeat(64), 1, 3, 2000, 0);
    const fresh = new PageRepository(db);
    expect(await fresh.get(mine)).toBeUndefined();
    expect(await fresh.get('https://clinic.example/b')).toBeUndefined();
    expect(await fresh.get('https://kept.example/c')).toBeDefined();
    expect(await fresh.count()).toBe(1);
  });

  it('counts a page of the file once in what it imported when its records are far apart in the file (applied in two transactions)', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    await r.recordVisit({ ...visit(0), url: 'https://held.example/a', title: 'Held' }, 1000);
    for (let seq = 0; seq < CHUNKS_PER_APPLY; seq++) await r.imports.stage('far-1', seq, [backupRecord(`https://b.example/${seq}`)], 2000);
    // The last chunk: the first chunk's page again (a file made of two exports), and a page the history held before.
    await r.imports.stage('far-1', CHUNKS_PER_APPLY, [{ ...backupRecord('https://b.example/0'), firstSeen: 30, lastSeen: 40 }, backupRecord('https://held.example/a', 2)], 2000);
    let step = await r.imports.commit('far-1', 'f'.repeat(64), CHUNKS_PER_APPLY + 1, CHUNKS_PER_APPLY + 2, 2000, 0);
    while (!step.done) step = await r.imports.commit('far-1', 'f'.repeat(64), CHUNKS_PER_APPLY + 1, CHUNKS_PER_APPLY + 2, 3000, 0);
    expect(step.outcome).toEqual({ added: CHUNKS_PER_APPLY, merged: 1, unchanged: 0 });
    expect(await r.count()).toBe(CHUNKS_PER_APPLY + 1);
    expect(await r.get('https://b.example/0')).toMatchObject({ visits: 2, firstSeen: 10, lastSeen: 40 });
  });

  it.each(['page', 'site'] as const)('brings in the file\'s records of a %s whose forget the reader undid while the import applied', async (what) => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    await r.recordVisit({ ...visit(0), url: 'https://news.example/a', title: 'A' }, 1000);
    for (let seq = 0; seq < CHUNKS_PER_APPLY; seq++) await r.imports.stage('undo-1', seq, [backupRecord(`https://b.example/${seq}`)], 2000);
    // In the last chunk, applied in the second transaction: four earlier visits of the page, and another page of its site.
    await r.imports.stage('undo-1', CHUNKS_PER_APPLY, [backupRecord('https://news.example/a', 4, 100), backupRecord('https://news.example/b', 2)], 2000);
    let step = await r.imports.commit('undo-1', 'e'.repeat(64), CHUNKS_PER_APPLY + 1, CHUNKS_PER_APPLY + 2, 2000, 0);
    expect(step.done).toBe(false);
    const gone = { pages: [], pairs: [], imports: [] };
    if (what === 'page') await r.forget('https://news.example/a', gone);
    else await r.forgetSite('news.example', gone);
    expect(await r.restore(gone)).toBe(1);
    while (!step.done) step = await r.imports.commit('undo-1', 'e'.repeat(64), CHUNKS_PER_APPLY + 1, CHUNKS_PER_APPLY + 2, 3000, 0);
    const fresh = new PageRepository(db);
    // As if nothing had been forgotten: the page's own visit and the file's four, and the site's other page.
    expect(await fresh.get('https://news.example/a')).toMatchObject({ visits: 5, firstSeen: 100 });
    expect(await fresh.get('https://news.example/b')).toMatchObject({ visits: 2 });
  });
});

describe('a write cut short', () => {
  it('leaves nothing of itself behind, in the database or in memory, when its transaction fails at the last write', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    for (let i = 0; i < 5; i++) await r.recordVisit(visit(i), 1000 + i);
    const before = await everyPage(r);
    // The worker is stopped as the write's last request goes out: its transaction never commits.
    const realPut = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'meta') {
        this.transaction.abort();
        throw new DOMException('stopped', 'AbortError');
      }
      return realPut.apply(this, args);
    };
    try {
      await expect(r.recordVisit(visit(9), 2000)).rejects.toThrow();
      await expect(r.recordVisit(visit(2, { title: 'Changed' }), 2001)).rejects.toThrow();
      await expect(r.forget(visit(1).url)).rejects.toThrow();
    } finally {
      IDBObjectStore.prototype.put = realPut;
    }
    for (const repo of [r, new PageRepository(db)]) {
      expect(await everyPage(repo)).toEqual(before);
      expect(await repo.count()).toBe(5);
      expect(await repo.get(visit(9).url)).toBeUndefined();
      expect(await repo.findSimilar(visit(9).fp, { algo: 'dr1', maxDistance: 0 })).toEqual([]);
      expect((await repo.findSimilar(visit(1).fp, { algo: 'dr1', maxDistance: 0 })).map((p) => p.title)).toEqual(['Page 1']);
    }
    // And the next write goes through, numbered as if the failed ones never happened.
    await r.recordVisit(visit(9), 3000);
    expect((await lookups(new PageRepository(db), 9)).byAnchor).toEqual([visit(9).url]);
    expect(await r.count()).toBe(6);
  });

  it('reads its columns again when another writer changed the store meanwhile', async () => {
    const db = await openDejaReadDB();
    const a = new PageRepository(db);
    await a.recordVisit(visit(1), 1000);
    expect(await lookups(a, 1)).toMatchObject({ own: 'Page 1' });
    // A second background (the worker restarted) records and forgets while the first still holds its columns.
    const b = new PageRepository(db);
    await b.recordVisit(visit(2), 2000);
    await b.forget(visit(1).url);
    // The first one's next write sees the store changed under it and reads it again: nothing is lost or revived.
    await a.recordVisit(visit(3), 3000);
    expect((await everyPage(a)).map((p) => p.title)).toEqual(['Page 2', 'Page 3']);
    expect(await a.count()).toBe(2);
    for (const repo of [a, new PageRepository(db)]) {
      expect(await repo.findSimilar(visit(1).fp, { algo: 'dr1', maxDistance: 0 })).toEqual([]);
      expect(await lookups(repo, 2)).toEqual({ own: 'Page 2', byFingerprint: [visit(2).url], byAnchor: [visit(2).url] });
      expect(await lookups(repo, 3)).toEqual({ own: 'Page 3', byFingerprint: [visit(3).url], byAnchor: [visit(3).url] });
    }
  });
});

describe('the passage route of a lookup', () => {
  const page = (url: string, hashes: number[], fp: string): Visit => ({ url, title: url, fp, algo: 'dr1', textLength: 500, lang: 'en', passages: sig(hashes) });
  const lookup = (r: PageRepository, hashes: number[], fp = 'ffffffffffffffff') =>
    r.lookup({ url: 'https://now.example/', canonicalUrl: 'https://now.example/', fp, maxDistance: 7, algo: 'dr1', anchors: { values: [...hashes].sort((a, b) => a - b).slice(0, 12), bits: 32 } });
  const twelve = (from: number) => Array.from({ length: 12 }, (_, i) => from + i);

  it('finds an earlier page through its leads when the index is not asked for any anchor they share', async () => {
    const r = new PageRepository(await openDejaReadDB());
    // A part of the page read now: its smallest passages are the 5th and 6th smallest of the page.
    await r.recordVisit(page('https://part.example/', [5_000_004, 5_000_005, 9_000_000, 9_000_001], '0000000000000000'), 1);
    const now = [...twelve(5_000_000)];
    // The index is asked for 5,000,000-5,000,002 only (not in the part); the leads meet 5,000,004.
    expect((await lookup(r, now)).candidates.map((p) => p.url)).toEqual(['https://part.example/']);
    // Without a shared lead or probe, nothing.
    expect((await lookup(r, twelve(6_000_000))).candidates).toEqual([]);
  });

  it('finds an earlier page through the index when the page read now is a part of it', async () => {
    const r = new PageRepository(await openDejaReadDB());
    // The whole read before: its 12 smallest; the part read now holds its 9th.
    await r.recordVisit(page('https://whole.example/', twelve(7_000_000), '0000000000000000'), 1);
    expect((await lookup(r, [7_000_008, 8_000_000, 8_000_001])).candidates.map((p) => p.url)).toEqual(['https://whole.example/']);
  });

  it('skips a lead so many pages share that it is boilerplate, and still finds a page by another', async () => {
    const r = new PageRepository(await openDejaReadDB());
    for (let i = 0; i < 30; i++) await r.recordVisit(page(`https://site.example/${i}`, [3, 4_000_000 + i], fpOf(i)), 1);
    expect((await lookup(r, [3, 900_000_000])).candidates).toEqual([]);
    expect((await lookup(r, [3, 4_000_007])).candidates.map((p) => p.url)).toEqual(['https://site.example/7']);
  });
});

describe('a background started anew', () => {
  it('answers whatever it is asked first as it answers once warm (the history page, a list of links, a search)', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    for (let i = 0; i < 40; i++) await r.recordVisit({ ...visit(i), canonicalUrl: `https://canonical.example/${i % 10}` }, 1000 + i);
    await r.forget(visit(7).url);
    const asks: Array<[string, (repo: PageRepository) => Promise<unknown>]> = [
      ['the history page', async (repo) => (await repo.listRecent(10)).items.map((p) => p.url)],
      ['its next page', async (repo) => (await repo.listRecent(5, [1000 + 30, 30])).items.map((p) => p.url)],
      ['a search of it', async (repo) => (await repo.listRecent(10, undefined, 'example/1')).items.map((p) => p.url)],
      ['a list of links', async (repo) => (await repo.readLinks([visit(3).url, visit(7).url, 'https://canonical.example/4'])).map((l) => l.key)],
      ['the options', async (repo) => (await repo.findSimilar(visit(5).fp, { maxDistance: 7, algo: 'dr1' })).map((p) => p.url)],
      ['a canonical address', async (repo) => (await repo.findByCanonicalUrl('https://canonical.example/2')).map((p) => p.url).sort()],
      ['the count', (repo) => repo.count()],
    ];
    for (const [what, ask] of asks) {
      const cold = await ask(new PageRepository(db));
      // Let a background started anew finish what it does after answering (reading and indexing the rest).
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(cold, what).toEqual(await ask(r));
    }
    expect(await asks[0][1](r)).toEqual(Array.from({ length: 10 }, (_, k) => visit(39 - k).url));
  });

  it('answers its first lookup (fingerprints and the index only) as it answers once its columns are read', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    for (let i = 0; i < 60; i++) await r.recordVisit({ ...visit(i), canonicalUrl: `https://canonical.example/${i % 10}` }, 1000 + i);
    const ask = (repo: PageRepository, i: number) => {
      const v = visit(i);
      // Near in fingerprint to page i + 2, sharing an anchor with pages i + 1 and i + 3 (beyond the three smallest, which no page has).
      return repo.lookup({ url: v.url, canonicalUrl: `https://canonical.example/${i % 10}`, fp: visit(i + 2).fp, maxDistance: 7, algo: 'dr1', anchors: { values: [1, 2, 3, 100 + i + 1, 200_000 + i + 3], bits: 32 } });
    };
    const urls = (l: Awaited<ReturnType<typeof ask>>) => ({ own: l.own?.url, sameCanonical: l.sameCanonical.map((p) => p.url).sort(), candidates: l.candidates.map((p) => p.url).sort() });
    for (const i of [0, 13, 55]) {
      const cold = await ask(new PageRepository(db), i);
      const warm = await ask(r, i);
      expect(urls(cold)).toEqual(urls(warm));
      expect(urls(warm)).toMatchObject({ own: visit(i).url, candidates: [visit(i + 1).url, visit(i + 2).url, visit(i + 3).url].sort() });
      expect(urls(warm).sameCanonical).toHaveLength(5);
    }
    // Several pages asked at once of a background started anew, one of them once it has begun reading
    // the rest of its columns: each answer is the warm one.
    const fresh = new PageRepository(db);
    const first = [ask(fresh, 0), ask(fresh, 13)];
    fresh.warmUp();
    const all = await Promise.all([...first, ask(fresh, 55)]);
    for (const [k, i] of [0, 13, 55].entries()) expect(urls(all[k])).toEqual(urls(await ask(r, i)));
    // And once warm, from memory.
    expect(urls(await ask(fresh, 13))).toEqual(urls(await ask(r, 13)));
  });
});
