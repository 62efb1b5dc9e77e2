// Schema version 8: the pages' addresses and titles kept apart from their blocks, for the History
// page's search. A history of version 7 must come out of the upgrade found by every title and
// address it holds, and go on being found as it changes.
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { DB_NAME, DB_VERSION, openDejaReadDB, PageRepository, type Visit } from '../../src/storage';
import { blocksOfNames, META_KEY, namesFrom, type Block } from '../../src/storage/layout';

/** Version 7's stores: version 8's without `names`. */
const STORES = ['blocks', 'columns', 'anchors', 'meta', 'dismissals', 'imports', 'staging', 'importRuns'] as const;
const KEY_PATHS: Partial<Record<(typeof STORES)[number], string | string[]>> = { dismissals: 'pair', imports: 'digest', staging: ['importId', 'seq'], importRuns: 'importId' };

const fpOf = (i: number) => (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0') + (Math.imul(i + 5, 40503) >>> 0).toString(16).padStart(8, '0');
const visit = (i: number): Visit => ({ url: `https://s${i % 3}.example/p/${i}`, title: i % 7 === 0 ? `Harbour report ${i}` : `港口 新闻 ${i}`, fp: fpOf(i), algo: 'dr1', textLength: 900, lang: 'en' });

/**
 * A history as version 7 kept it: version 8 only added the names, so the pages are recorded by this
 * version in a database of another name (all at once, as an Undo brings pages back) and every other
 * store is copied into a version 7 database. Pages 16 to 31 are forgotten (a block emptied) and
 * page 40 (a hole in its block).
 */
async function seedV7(count: number): Promise<void> {
  const source = await openDejaReadDB('deja-read-source');
  const r = new PageRepository(source);
  await r.restore({ pages: Array.from({ length: count }, (_, i) => ({ ...visit(i), firstSeen: 1000 + i, lastSeen: 1000 + i, visits: 1 })), pairs: [], imports: [] });
  for (let i = 16; i < 32; i++) await r.forget(visit(i).url);
  await r.forget(visit(40).url);
  const v7 = await openDB(DB_NAME, 7, {
    upgrade(db) {
      for (const name of STORES) db.createObjectStore(name, KEY_PATHS[name] ? { keyPath: KEY_PATHS[name] } : undefined);
    },
  });
  for (const name of STORES) {
    const [keys, values] = await Promise.all([source.getAllKeys(name), source.getAll(name)]);
    const tx = v7.transaction(name, 'readwrite');
    keys.forEach((key, i) => void tx.store.put(values[i] as never, KEY_PATHS[name] ? undefined : key));
    await tx.done;
  }
  source.close();
  v7.close();
}

/** Every group's names as its blocks give them, and the names the store holds. */
async function namesNow(db: Awaited<ReturnType<typeof openDejaReadDB>>) {
  const groups = [...new Set(((await db.getAllKeys('blocks')) as number[]).map((b) => Math.floor(b / 16)))];
  const fromBlocks = await Promise.all(groups.map(async (g) => [g, namesFrom(g, (await db.getAllKeys('blocks', blocksOfNames(g))) as number[], (await db.getAll('blocks', blocksOfNames(g))) as Block[])] as const));
  const held = await Promise.all(((await db.getAllKeys('names')) as number[]).map(async (g) => [g, await db.get('names', g)] as const));
  return { fromBlocks, held };
}

describe('schema version 8: the pages\u2019 names apart from their blocks', () => {
  it('finds every page of a version 7 history by its title and address, before its pages are named and after', async () => {
    await seedV7(700);
    const db = await openDejaReadDB();
    expect(db.version).toBe(DB_VERSION);
    // The upgrade itself reads no block: the names come after it, 256 pages a group.
    expect(await db.getAllKeys('names')).toEqual([]);
    expect((await db.get('meta', META_KEY))?.unnamed).toBe(3);

    const r = new PageRepository(db);
    const search = async (q: string) => (await r.listRecent(1000, undefined, q)).items.map((p) => p.url);
    const kept = Array.from({ length: 700 }, (_, i) => i).filter((i) => (i < 16 || i >= 32) && i !== 40);
    const expected = {
      harbour: kept.filter((i) => i % 7 === 0).reverse().map((i) => visit(i).url),
      港口: kept.filter((i) => i % 7 !== 0).reverse().map((i) => visit(i).url),
      's1.example': kept.filter((i) => i % 3 === 1).reverse().map((i) => visit(i).url),
    };
    const searchAll = async () => Object.fromEntries(await Promise.all(Object.keys(expected).map(async (q) => [q, await search(q)] as const)));
    // Latest first, as the History page lists them, while no page has its names yet.
    expect(await searchAll()).toEqual(expected);

    // An old page read again under a new title before the naming: its group is named, all of it.
    await r.recordVisit({ ...visit(3), title: 'Lighthouse keeper' }, 9001);
    expected.港口 = expected.港口.filter((u) => u !== visit(3).url);
    expect(await db.getAllKeys('names')).toEqual([0]);
    expect(await searchAll()).toEqual(expected);
    expect(await search('lighthouse')).toEqual([visit(3).url]);

    // The naming, one group a transaction, stopped after the first (the worker stopped), then begun
    // again: it names the group left, and leaves the one the visit named.
    await expect(r.nameOldPages(() => { throw new Error('stopped'); }, 1)).rejects.toThrow('stopped');
    expect((await db.get('meta', META_KEY))?.unnamed).toBe(2);
    expect(await db.getAllKeys('names')).toEqual([0, 2]);
    expect(await new PageRepository(db).nameOldPages(undefined, 1)).toBe(1);
    expect((await db.get('meta', META_KEY))?.unnamed).toBeUndefined();
    const { fromBlocks, held } = await namesNow(db);
    expect(held).toEqual(fromBlocks);
    expect(held.map(([g]) => g)).toEqual([0, 1, 2]);

    expect(await searchAll()).toEqual(expected);
    // A page read since is found too, and nothing is left to name at the next start.
    await r.recordVisit({ ...visit(770), title: 'Harbour at night' }, 9002);
    expect((await search('harbour')).slice(0, 2)).toEqual([visit(770).url, visit(693).url]);
    expect(await r.nameOldPages()).toBe(0);
  });

  it('passes over a block it cannot read, which keeps its value', async () => {
    await seedV7(20);
    // A value no version wrote (a damaged block) is not the reason the history stays unopened or
    // unsearchable: the upgrade would fail again at every start.
    const v7 = await openDB(DB_NAME, 7);
    await v7.put('blocks', { pages: null } as never, 0);
    v7.close();
    const db = await openDejaReadDB();
    expect(db.version).toBe(DB_VERSION);
    const r = new PageRepository(db);
    await r.recordVisit({ ...visit(21), title: 'Harbour lights' }, 9000);
    expect((await r.listRecent(100, undefined, 'harbour')).items.map((p) => p.url)).toEqual([visit(21).url]);
    await r.nameOldPages();
    expect(await db.get('blocks', 0)).toEqual({ pages: null });
    expect((await r.listRecent(100, undefined, 'harbour')).items.map((p) => p.url)).toEqual([visit(21).url]);
  });

  it('keeps the names of a new history with its blocks as it writes them, a forgotten page\u2019s with them', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    for (let i = 0; i < 40; i++) await r.recordVisit(visit(i), 1000 + i);
    await r.forget(visit(5).url);
    await r.forget(visit(39).url);
    const { fromBlocks, held } = await namesNow(db);
    expect(held).toEqual(fromBlocks);
    expect((await db.get('meta', META_KEY))?.unnamed).toBeUndefined();
  });
});
