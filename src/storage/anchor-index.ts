// The passage index (the second retrieval path, docs/matching.md): which pages hold a passage
// anchor; beside it, in buckets of their own, which pages have an address or canonical address of
// a given hash (a background started anew asks these before it has read its columns). Twelve anchors a page as entries of an IndexedDB index cost a write each (about 5 µs
// apiece in Chromium, and the page's whole address stored twelve times), so the anchors go into
// runs instead: sorted arrays of (anchor, page number) pairs, split into ANCHOR_BUCKETS buckets by
// a hash of the anchor, one value per bucket per write. A write adds one run to each bucket it
// touches; a bucket that gathers too many runs is merged into one (and loses the entries of pages
// forgotten since). A lookup reads the runs of the buckets of its anchors, a few kilobytes each.
//
// An entry is two 32-bit words: the anchor (a 32-bit passage hash), and the page number. A page
// whose passage signature is of version 1 has 24-bit hashes: its entries hold the hash shifted up 8
// bits and are marked (the top bit of the second word); they match any anchor with the same top 24
// bits. Buckets go by those 24 bits, so both kinds of one passage meet in one bucket. Runs are
// derived data, like the columns: everything they say is in the blocks.
import { fmix32 } from '../core';

/**
 * Anchors go in 16,384 buckets, 4,096 until database version 7 (29 November 2026): at 10^6 pages a
 * bucket of 4,096 held about 5,500 entries, 44 KB, and a lookup that reads 12 buckets spent 20 ms
 * and more reading 520 KB; a quarter of that takes about 4 ms (docs/storage.md).
 */
export const ANCHOR_BUCKET_BITS = 14;
export const ANCHOR_BUCKETS = 1 << ANCHOR_BUCKET_BITS;
/** What an entry's key is: a passage anchor, the hash of a page's address, of its canonical address. Each has its own buckets. */
export const ANCHOR = 0;
export const ADDRESS = 1;
export const CANONICAL = 2;
export type Family = typeof ANCHOR | typeof ADDRESS | typeof CANONICAL;
/**
 * Bits of the bucket number of each family's keys. Anchors, asked for at every lookup, get many small
 * buckets; addresses, asked for only by a background's first lookup, get fewer, so that a write of
 * many pages adds fewer runs (a value written each).
 */
const FAMILY_BITS = [ANCHOR_BUCKET_BITS, 8, 8] as const;
/**
 * The first bucket number of each family. The addresses' are where version 6 put them; the anchors'
 * follow every number version 6 used (its 4,096 anchor buckets were 0 to 4,095), so a store upgraded
 * to 7 holds no run of the old layout under a number of the new (`rebucketAnchors`).
 */
const FAMILY_BASE = [1 << 14, 1 << 12, 2 << 12] as const;
/** Anchor buckets of database version 6: numbers 0 to V6_ANCHOR_BUCKETS − 1. */
const V6_ANCHOR_BUCKETS = 1 << 12;
/** The bucket of a key of a family (by the key's top 24 bits). */
const bucketOf = (family: Family, key: number) => FAMILY_BASE[family] + (fmix32(key >>> 8) >>> (32 - FAMILY_BITS[family]));
/** A bucket is merged once it holds this many runs or more (8 to 15: buckets filled together are merged at different writes). */
const mergeAt = (bucket: number) => 8 + (bucket & 7);

/** An anchor: a passage hash of 32 bits, or of 24 (a signature of version 1). */
export interface Anchors {
  values: readonly number[];
  bits: 24 | 32;
}

const NARROW = 0x80000000;
const PAGE_BITS = 0x7fffffff;
const top24 = (a: number, bits: 24 | 32) => (bits === 32 ? a >>> 8 : a);
/** The bucket of an anchor (by its top 24 bits): the first number of its key in store `anchors`. */
export const bucketOfAnchor = (anchor: number, bits: 24 | 32 = 32) => bucketOf(ANCHOR, (top24(anchor, bits) << 8) >>> 0);
/** The page number an entry's second word holds. */
export const entryPage = (word: number) => word & PAGE_BITS;

/** The index entries of a page's anchors: (family, key, page) triples. */
export function anchorEntries(anchors: Anchors, n: number): number[] {
  const out: number[] = [];
  for (const a of anchors.values) {
    if (anchors.bits === 32) out.push(ANCHOR, a >>> 0, n);
    else out.push(ANCHOR, (a << 8) >>> 0, (n | NARROW) >>> 0);
  }
  return out;
}

/** The store `anchors` as this file uses it (idb's object store, read-only or not). */
export interface AnchorStore {
  getAll(range: IDBKeyRange): Promise<Uint32Array[]>;
  getAllKeys(range?: IDBKeyRange): Promise<IDBValidKey[]>;
  count(range: IDBKeyRange): Promise<number>;
}
export interface WritableAnchorStore extends AnchorStore {
  put(value: Uint32Array, key: [number, number]): Promise<unknown>;
  delete(key: IDBValidKey | IDBKeyRange): Promise<unknown>;
}

const bucketRange = (bucket: number) => IDBKeyRange.bound([bucket, 0], [bucket, Infinity]);

/** Whether a 64-bit word's low half comes first in memory (it does wherever browsers run). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * Sorts a run's pairs by anchor, then page: as 64-bit words, anchor above page, sorted natively
 * (7 to 17 times quicker than sorting the pairs with a comparison function: a tenth of an
 * import's time went to it).
 */
export function sortedRun(pairs: number[]): Uint32Array {
  if (!LITTLE_ENDIAN) return sortedRunCompared(pairs);
  const n = pairs.length / 2;
  const words = new Uint32Array(pairs.length);
  for (let i = 0; i < n; i++) {
    words[2 * i] = pairs[2 * i + 1];
    words[2 * i + 1] = pairs[2 * i];
  }
  new BigUint64Array(words.buffer).sort();
  for (let i = 0; i < n; i++) {
    const page = words[2 * i];
    words[2 * i] = words[2 * i + 1];
    words[2 * i + 1] = page;
  }
  return words;
}

/** The same, by comparing pairs. */
export function sortedRunCompared(pairs: number[]): Uint32Array {
  const n = pairs.length / 2;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => pairs[2 * a] - pairs[2 * b] || pairs[2 * a + 1] - pairs[2 * b + 1]);
  const run = new Uint32Array(pairs.length);
  order.forEach((from, to) => {
    run[2 * to] = pairs[2 * from];
    run[2 * to + 1] = pairs[2 * from + 1];
  });
  return run;
}

/** Index of the first pair of `run` whose anchor is at least `anchor`. */
function lowerBound(run: Uint32Array, anchor: number): number {
  let lo = 0;
  let hi = run.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (run[2 * mid] < anchor) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Adds these entries, (family, key, page) triples, as one run per bucket they fall in, and merges
 * the buckets that then hold too many runs. `nextRun` numbers the runs; returns the next free
 * number. `alive` tells which pages still exist (a merge drops the others' entries).
 */
export async function addEntries(store: WritableAnchorStore, triples: ArrayLike<number>, nextRun: number, alive: (n: number) => boolean): Promise<number> {
  const byBucket = new Map<number, number[]>();
  for (let i = 0; i < triples.length; i += 3) {
    const b = bucketOf(triples[i] as Family, triples[i + 1]);
    const list = byBucket.get(b);
    if (list) list.push(triples[i + 1] >>> 0, triples[i + 2]);
    else byBucket.set(b, [triples[i + 1] >>> 0, triples[i + 2]]);
  }
  if (byBucket.size === 0) return nextRun;
  // How many runs each bucket holds already: keys only, all of them when the write touches many buckets.
  const runs = new Map<number, number>();
  if (byBucket.size > 64) {
    for (const key of await store.getAllKeys()) {
      const b = (key as [number, number])[0];
      runs.set(b, (runs.get(b) ?? 0) + 1);
    }
  } else {
    const counts = await Promise.all([...byBucket.keys()].map((b) => store.count(bucketRange(b))));
    [...byBucket.keys()].forEach((b, i) => runs.set(b, counts[i]));
  }
  const writes: Array<Promise<unknown>> = [];
  const merges: number[] = [];
  for (const [bucket, list] of byBucket) {
    writes.push(store.put(sortedRun(list), [bucket, nextRun++]));
    if ((runs.get(bucket) ?? 0) + 1 >= mergeAt(bucket)) merges.push(bucket);
  }
  await Promise.all(writes);
  await Promise.all(merges.map((bucket) => mergeBucket(store, bucket, nextRun++, alive)));
  return nextRun;
}

/** Merges a bucket's runs into one numbered `run`, without the entries of pages gone. */
async function mergeBucket(store: WritableAnchorStore, bucket: number, run: number, alive: (n: number) => boolean): Promise<void> {
  const [keys, values] = await Promise.all([store.getAllKeys(bucketRange(bucket)), store.getAll(bucketRange(bucket))]);
  const pairs: number[] = [];
  for (const v of values) for (let i = 0; i < v.length; i += 2) if (alive(entryPage(v[i + 1]))) pairs.push(v[i], v[i + 1]);
  // Each run deleted by its key: deleting the bucket's range in one request (tried 29 November 2026)
  // left the database 2.6 GB rather than 1.6 after an import of 10^6 pages (docs/storage.md).
  await Promise.all([...keys.map((k) => store.delete(k)), store.put(withoutRepeats(sortedRun(pairs)), [bucket, run])]);
}

/**
 * The pages holding each anchor: for each anchor asked, the page numbers of its entries (repeats
 * removed). Reads one value per run of each bucket concerned.
 */
export async function findAnchors(store: AnchorStore, anchors: Anchors): Promise<Map<number, number[]>> {
  const buckets = [...new Set(anchors.values.map((a) => bucketOfAnchor(a, anchors.bits)))];
  const runsOf = await readBuckets(store, buckets);
  const found = new Map<number, number[]>();
  for (const anchor of anchors.values) {
    const a = anchor >>> 0;
    const low = (top24(a, anchors.bits) << 8) >>> 0;
    const pages = new Set<number>();
    for (const run of runsOf.get(bucketOfAnchor(a, anchors.bits)) ?? []) {
      for (let i = lowerBound(run, low); i < run.length / 2 && run[2 * i] >>> 8 === low >>> 8; i++) {
        const second = run[2 * i + 1];
        // 32 bits on both sides must agree on all 32; an entry or an anchor of 24 only on those.
        if (anchors.bits === 32 && (second & NARROW) === 0 && run[2 * i] !== a) continue;
        pages.add(entryPage(second));
      }
    }
    found.set(a, [...pages]);
  }
  return found;
}

/** The runs of these buckets. */
async function readBuckets(store: AnchorStore, buckets: readonly number[]): Promise<Map<number, Uint32Array[]>> {
  const read = await Promise.all(buckets.map((b) => store.getAll(bucketRange(b))));
  return new Map(buckets.map((b, i) => [b, read[i] as Uint32Array[]]));
}

/** The pages whose key of this family (an address or canonical address hash) is each of `keys`. */
export async function findKeys(store: AnchorStore, family: Family, keys: readonly number[]): Promise<Map<number, number[]>> {
  const runsOf = await readBuckets(store, [...new Set(keys.map((k) => bucketOf(family, k >>> 0)))]);
  const found = new Map<number, number[]>();
  for (const key of keys) {
    const k = key >>> 0;
    const pages = new Set<number>();
    for (const run of runsOf.get(bucketOf(family, k)) ?? []) for (let i = lowerBound(run, k); i < run.length / 2 && run[2 * i] === k; i++) pages.add(entryPage(run[2 * i + 1]));
    found.set(k, [...pages]);
  }
  return found;
}

/** Old buckets read at a time by `rebucketAnchors` (at 10^6 pages, about 3 MB). */
const REBUCKET_BATCH = 64;

/**
 * Upgrade of version 6 to 7: the runs of version 6's 4,096 anchor buckets (numbers 0 to 4,095)
 * become one merged run in each of the buckets of this version (the same top bits of the same hash:
 * each old bucket's entries go to four new ones), numbered from `nextRun`; the old runs are deleted.
 * Entries repeated are kept once. Returns the next free run number.
 */
export async function rebucketAnchors(store: WritableAnchorStore, nextRun: number): Promise<number> {
  for (let from = 0; from < V6_ANCHOR_BUCKETS; from += REBUCKET_BATCH) {
    const old = IDBKeyRange.bound([from, 0], [from + REBUCKET_BATCH - 1, Infinity]);
    const byBucket = new Map<number, number[]>();
    for (const run of await store.getAll(old)) {
      for (let i = 0; i < run.length; i += 2) {
        const b = bucketOf(ANCHOR, run[i]);
        const list = byBucket.get(b);
        if (list) list.push(run[i], run[i + 1]);
        else byBucket.set(b, [run[i], run[i + 1]]);
      }
    }
    const writes: Array<Promise<unknown>> = [store.delete(old)];
    for (const [bucket, pairs] of [...byBucket].sort((a, b) => a[0] - b[0])) writes.push(store.put(withoutRepeats(sortedRun(pairs)), [bucket, nextRun++]));
    await Promise.all(writes);
  }
  return nextRun;
}

/** A sorted run without its repeated entries (a page recorded again with the same anchors). */
function withoutRepeats(run: Uint32Array): Uint32Array {
  let w = 0;
  for (let i = 0; i < run.length; i += 2) {
    if (w > 0 && run[w - 2] === run[i] && run[w - 1] === run[i + 1]) continue;
    run[w++] = run[i];
    run[w++] = run[i + 1];
  }
  return run.slice(0, w);
}
