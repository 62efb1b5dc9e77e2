// Schema version 7: the passage index's anchors in 16,384 buckets rather than 4,096. A history of
// version 6 must come out of the upgrade with every page found by its passages as before, nothing
// left under the old bucket numbers, and the index's run counter moved past every run it wrote.
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { encodePassages, fmix32 } from '../../src/core';
import { DB_NAME, DB_VERSION, openDejaReadDB, PageRepository, type Visit } from '../../src/storage';
import { ANCHOR_BUCKETS, bucketOfAnchor } from '../../src/storage/anchor-index';
import { META_KEY, type StoreMeta } from '../../src/storage/layout';

const STORES = ['blocks', 'columns', 'anchors', 'meta', 'dismissals', 'imports', 'staging', 'importRuns'] as const;
const KEY_PATHS: Partial<Record<(typeof STORES)[number], string | string[]>> = { dismissals: 'pair', imports: 'digest', staging: ['importId', 'seq'], importRuns: 'importId' };

const sig = (hashes: number[], bits: 24 | 32 = 32) => encodePassages({ count: hashes.length, hashes: Uint32Array.from([...hashes].sort((a, b) => a - b)), bits });
const fpOf = (i: number) => (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0') + (Math.imul(i + 5, 40503) >>> 0).toString(16).padStart(8, '0');
/** Page i holds 8 passages of its own (with the two shared, 10: every one an anchor) and one it shares with page i + 1 (and i − 1). */
const own = (i: number) => Array.from({ length: 8 }, (_, k) => fmix32(i * 100 + k + 1));
const shared = (i: number) => fmix32(1_000_000 + i);
const visit = (i: number): Visit => ({ url: `https://s${i % 5}.example/p/${i}`, title: `Page ${i}`, fp: fpOf(i), algo: 'dr1', textLength: 900, lang: 'en', passages: sig([...own(i), shared(i), shared(i + 1)]) });
/** A page whose signature is of version 1 (24-bit hashes), recorded as version 6 kept it. */
const NARROW = { url: 'https://old.example/a', title: 'Old', fp: 'aaaabbbbccccdddd', algo: 'dr1', textLength: 900, lang: 'en', passages: sig([0x123456, 0xabcdef], 24) };

/** Version 6's bucket of an entry's first word (the anchor, or a version 1 hash shifted up 8 bits): 4,096 buckets, numbered from 0. */
const v6Bucket = (word: number) => fmix32(word >>> 8) >>> 20;

/**
 * A history as version 6 kept it. Its layout differs from version 7's only in the anchors'
 * buckets, so the pages are recorded by this version in a database of another name, and copied
 * into a version 6 database, every anchor run split into version 6's buckets; each run of a visit
 * stays a run of its own, so a bucket holds several, as one that was never merged does.
 */
async function seedV6(visits: Visit[]): Promise<void> {
  const source = await openDejaReadDB('deja-read-source');
  const r = new PageRepository(source);
  for (let i = 0; i < visits.length; i++) await r.recordVisit(visits[i], 1000 + i);
  await r.recordVisit(visits[0], 5000);
  const v6 = await openDB(DB_NAME, 6, {
    upgrade(db) {
      for (const name of STORES) db.createObjectStore(name, KEY_PATHS[name] ? { keyPath: KEY_PATHS[name] } : undefined);
    },
  });
  for (const name of STORES) {
    const keys = await source.getAllKeys(name);
    const values = await source.getAll(name);
    const tx = v6.transaction(name, 'readwrite');
    keys.forEach((key, i) => {
      const value = values[i] as unknown;
      const [bucket, run] = name === 'anchors' ? (key as [number, number]) : [0, 0];
      if (name !== 'anchors' || bucket < ANCHOR_BUCKETS) return void tx.store.put(value, KEY_PATHS[name] ? undefined : key);
      // An anchor run of this version: its entries in version 6's buckets.
      const byOld = new Map<number, number[]>();
      const entries = value as Uint32Array;
      for (let e = 0; e < entries.length; e += 2) byOld.set(v6Bucket(entries[e]), [...(byOld.get(v6Bucket(entries[e])) ?? []), entries[e], entries[e + 1]]);
      for (const [old, pairs] of byOld) void tx.store.put(Uint32Array.from(pairs), [old, run]);
    });
    await tx.done;
  }
  source.close();
  v6.close();
}

describe('schema version 7: the passage index in more buckets', () => {
  it('finds every page of a version 6 history by its passages after the upgrade, and keeps nothing of the old buckets', async () => {
    const visits = [...Array.from({ length: 40 }, (_, i) => visit(i)), NARROW];
    await seedV6(visits);
    const before = await openDB(DB_NAME);
    const oldRuns = (await before.getAllKeys('anchors')).filter((k) => (k as number[])[0] < 4096);
    const oldMeta = (await before.get('meta', META_KEY)) as StoreMeta;
    before.close();
    expect(oldRuns.length).toBeGreaterThan(100);

    const db = await openDejaReadDB();
    expect(db.version).toBe(DB_VERSION);
    const keys = (await db.getAllKeys('anchors')) as Array<[number, number]>;
    expect(keys.filter(([bucket]) => bucket < 4096)).toEqual([]);
    // Every entry is in the bucket this version looks in, and the counter is past every run.
    const meta = (await db.get('meta', META_KEY)) as StoreMeta;
    expect(meta.count).toBe(oldMeta.count);
    for (const [bucket, run] of keys) {
      expect(run).toBeLessThan(meta.runs);
      if (bucket < ANCHOR_BUCKETS) continue;
      const entries = (await db.get('anchors', [bucket, run])) as Uint32Array;
      for (let e = 0; e < entries.length; e += 2) expect(bucketOfAnchor(entries[e])).toBe(bucket);
    }

    // A background started on the upgraded store: each page by its own passages, its neighbours by the one they share.
    const r = new PageRepository(db);
    for (const i of [0, 1, 17, 39]) {
      expect((await r.findByAnchors(own(i).slice(3, 4), { algo: 'dr1' })).map((p) => p.url)).toEqual([visit(i).url]);
      expect((await r.findByAnchors([shared(i + 1)], { algo: 'dr1' })).map((p) => p.url).sort()).toEqual([visit(i).url, visit(i + 1).url].slice(0, i === 39 ? 1 : 2).sort());
    }
    expect((await r.findByAnchors([0x123456], { algo: 'dr1', bits: 24 })).map((p) => p.url)).toEqual([NARROW.url]);
    // The whole lookup a page's opening asks for: a copy of page 17 at another address is found by its passages.
    const copy = await r.lookup({ url: 'https://copy.example/17', canonicalUrl: 'https://copy.example/17', fp: 'ffffffffffffffff', maxDistance: 3, algo: 'dr1', anchors: { values: [...own(17)].sort((a, b) => a - b), bits: 32 } });
    expect(copy.candidates.map((p) => p.url)).toEqual([visit(17).url]);
    // Page 0 was recorded twice: its entries are kept once.
    const inBucket = (await db.getAll('anchors', IDBKeyRange.bound([bucketOfAnchor(own(0)[0]), 0], [bucketOfAnchor(own(0)[0]), Infinity]))) as Uint32Array[];
    expect(inBucket.flatMap((run) => [...run]).filter((w, e, all) => e % 2 === 0 && w === own(0)[0] && all[e + 1] === 0)).toHaveLength(1);

    // Writes go on from there: a new page is found, and so is an old one visited again.
    await r.recordVisit(visit(60), 9000);
    await r.recordVisit(visit(5), 9001);
    const fresh = new PageRepository(db);
    expect((await fresh.findByAnchors(own(60).slice(0, 1), { algo: 'dr1' })).map((p) => p.url)).toEqual([visit(60).url]);
    expect((await fresh.findByAnchors(own(5).slice(0, 1), { algo: 'dr1' })).map((p) => [p.url, p.visits])).toEqual([[visit(5).url, 2]]);
  });
});
