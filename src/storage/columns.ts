// What a lookup scans, for every page by its number, held in memory while the background runs: the
// fingerprint's halves, a hash of the page's address and of its canonical address, its leads (the
// LEAD_COUNT smallest passage hashes, which a lookup compares with its anchors: core's shareAnchor),
// a flag (no page, a page of the current fingerprint algorithm, one of another; which leads it has),
// and, read only when needed, a hash of its site and its last visit. A scan of 10^6 fingerprints
// takes about 1.4 ms; once the columns are read, the fingerprint's four 16-bit blocks and the
// columns looked up by value get indexes (key-index.ts), and a lookup reads about 1,000 of them.
//
// On disk (store `columns`) they are kept in groups read together ('fp', 'keys', 'leads', 'extra'),
// in segments of SEGMENT_PAGES pages (524,288), key [group, segment]: few and large, because
// Chromium reads a few large values far quicker than many small ones (17 MB in 24 ms as one value,
// in 120 ms as 245). Pages changed since their segments were written are kept in one more value,
// the delta (key ['delta', 0]), rewritten by each write; once it holds DELTA_PAGES pages, the
// segments it touches are written anew and it is emptied. A background started anew reads the 'fp'
// group and the delta (8 bytes a page: the fingerprint halves, one value a segment) before its first
// answer (the rest of that answer comes from the index's address buckets: page-repository.ts), and
// the other groups after. The columns are derived data: the
// blocks hold everything they say, so a background stopped at any moment loses nothing.
import { ALGORITHM, comparableAlgorithms, fromHex, pageIdentity } from '../core';
import type { Anchors } from './anchor-index';
import { KeyIndex } from './key-index';
import { hashString, SEGMENT_PAGES, siteOfIdentity, storedAnchors, type StoredPage } from './layout';

/** A page's state, in a flag's low bits: no page at this number (never given, or forgotten), a page, a page of another fingerprint algorithm. */
export const NO_PAGE = 0;
export const PAGE = 1;
export const OTHER_ALGORITHM = 2;
const STATE = 0x03;
/** Flag bits: the page has a first and a second lead; its leads are 24-bit hashes, shifted up 8 bits (a signature of version 1). */
const LEAD0 = 0x04;
const LEAD1 = 0x08;
const NARROW = 0x10;

type U32Column = 'hi' | 'lo' | 'url' | 'canon' | 'lead0' | 'lead1' | 'site';
export type ColumnName = U32Column | 'flags' | 'seen';
/** The columns of each group, kept together on disk. */
export const GROUPS = { fp: ['hi', 'lo'], keys: ['url', 'canon', 'flags'], leads: ['lead0', 'lead1'], extra: ['site', 'seen'] } as const satisfies Record<string, readonly ColumnName[]>;
export type Group = keyof typeof GROUPS;
/** What a lookup needs (a background started anew reads the first alone for its first answer), and everything. */
export const FIRST_GROUPS: readonly Group[] = ['fp'];
export const LOOKUP_GROUPS: readonly Group[] = ['fp', 'keys', 'leads'];
export const ALL_GROUPS: readonly Group[] = ['fp', 'keys', 'leads', 'extra'];
const ALL_COLUMNS: readonly ColumnName[] = ALL_GROUPS.flatMap((g) => GROUPS[g]);
/**
 * How many page numbers the columns grow by when a page needs a new one: 0.6 MB of room, and a copy
 * of the columns (37 bytes a page) for every 16,384 pages recorded, once at most in the life of a
 * background that records a page or two.
 */
const GROWTH_PAGES = 16_384;
/** Pages changed since their segments were written, at most: past this the segments are written. */
export const DELTA_PAGES = 2048;
const DELTA_KEY: [string, number] = ['delta', 0];

/** The delta on disk: the pages' numbers, and each column's values for them. */
type Delta = { ns: Uint32Array } & { [K in ColumnName]: ArrayLike<number> };

type ColumnArrays = { [K in U32Column]: Uint32Array } & { flags: Uint8Array; seen: Float64Array };

const makeArray = (name: ColumnName, length: number) => (name === 'flags' ? new Uint8Array(length) : name === 'seen' ? new Float64Array(length) : new Uint32Array(length));

/**
 * A group's segment as stored: the fingerprint halves as one array, hi then lo (a background's
 * first read: one large value reads quicker than several), every other group as an object of its
 * columns.
 */
function segmentValue(group: Group, a: ColumnArrays, start: number, end: number): unknown {
  if (group === 'fp') {
    const both = new Uint32Array(2 * (end - start));
    both.set(a.hi.subarray(start, end));
    both.set(a.lo.subarray(start, end), end - start);
    return both;
  }
  return Object.fromEntries(GROUPS[group].map((name) => [name, a[name].slice(start, end)]));
}

/** One column of a group's stored segment. */
function columnOf(group: Group, name: ColumnName, value: unknown): ArrayLike<number> | undefined {
  if (group === 'fp') {
    const both = value as Uint32Array;
    const half = both.length / 2;
    return name === 'hi' ? both.subarray(0, half) : both.subarray(half);
  }
  return (value as Record<string, ArrayLike<number>>)[name];
}

/**
 * The fingerprint's four 16-bit blocks: a column and where in it. Of two fingerprints at most 7 bits
 * apart, one block differs in at most one bit (were each 2 or more apart, they would be 8), so the
 * pages near a fingerprint are among those under one of its blocks or of the 16 values one bit from
 * it: 68 places in the blocks' indexes, about 1,000 pages at 10^6 rather than all of them.
 */
const FP_BLOCKS = [
  ['fpHiTop', 'hi', 16],
  ['fpHiLow', 'hi', 0],
  ['fpLoTop', 'lo', 16],
  ['fpLoLow', 'lo', 0],
] as const;
type FpBlock = (typeof FP_BLOCKS)[number][0];
/** The farthest a fingerprint may be for the block indexes to find it. */
const BLOCKS_FIND_WITHIN = 7;

const listed = (sets: Map<number, Set<number>>) => new Map([...sets].map(([k, v]) => [k, [...v]]));

/** Number of ones in a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** A transaction holding store `columns`, as this file uses it. */
export interface ColumnsTx {
  objectStore(name: 'columns'): { getAll(range: IDBKeyRange): Promise<unknown[]>; getAllKeys(range: IDBKeyRange): Promise<IDBValidKey[]>; get(key: [string, number]): Promise<unknown> };
}

export class Columns {
  /** Page numbers in use: every column covers [0, size). */
  size = 0;
  /** The store's write count these columns reflect (StoreMeta.gen). */
  gen = 0;
  private capacity = 0;
  private readonly arrays: Partial<ColumnArrays> = {};
  /** The groups read. */
  private readonly groups = new Set<Group>();
  /** Pages changed since their segments were written (the delta on disk, and those changed since it was). */
  private readonly delta = new Set<number>();
  /** Pages changed since the last `changes()`. */
  private changed = false;
  /**
   * Indexes over the columns looked up by value, and over the fingerprint's four 16-bit blocks
   * (built by `index()`, once the columns are read: a lookup scans until then).
   */
  private indexes: Record<'url' | 'canon' | 'lead0' | 'lead1' | FpBlock, KeyIndex> | undefined;

  /** The groups named, read from the database; `size` is the store's next page number. */
  static async read(tx: ColumnsTx, size: number, groups: readonly Group[]): Promise<Columns> {
    const c = new Columns();
    c.size = size;
    await c.add(tx, groups);
    return c;
  }

  /** Columns for an empty store (no page yet). */
  static empty(): Columns {
    const c = new Columns();
    for (const group of ALL_GROUPS) {
      c.groups.add(group);
      for (const name of GROUPS[group]) (c.arrays as Record<string, unknown>)[name] = makeArray(name, 0);
    }
    return c;
  }

  has(group: Group): boolean {
    return this.groups.has(group);
  }

  /** Reads more groups from the database (those already held are kept), with the delta's values for them. */
  async add(tx: ColumnsTx, groups: readonly Group[]): Promise<void> {
    const missing = groups.filter((g) => !this.has(g));
    if (missing.length === 0) return;
    const store = tx.objectStore('columns');
    const [delta, ...read] = await Promise.all([
      store.get(DELTA_KEY) as Promise<Delta | undefined>,
      ...missing.map((g) => Promise.all([store.getAllKeys(IDBKeyRange.bound([g, 0], [g, Infinity])), store.getAll(IDBKeyRange.bound([g, 0], [g, Infinity]))])),
    ]);
    // As many pages as the store has: more come GROWTH_PAGES at a time (reserve).
    this.capacity = Math.max(this.capacity, this.size);
    missing.forEach((group, i) => {
      const [keys, values] = read[i];
      for (const name of GROUPS[group]) {
        const array = makeArray(name, this.capacity);
        keys.forEach((key, k) => {
          const start = (key as [string, number])[1] * SEGMENT_PAGES;
          const segment = columnOf(group, name, values[k]);
          if (segment && start < array.length) array.set(segment.length > array.length - start ? Array.prototype.slice.call(segment, 0, array.length - start) : segment, start);
        });
        if (delta) for (let d = 0; d < delta.ns.length; d++) if (delta.ns[d] < array.length) array[delta.ns[d]] = delta[name][d];
        (this.arrays as Record<string, unknown>)[name] = array;
      }
      this.groups.add(group);
    });
    if (delta && this.delta.size === 0) for (const n of delta.ns) this.delta.add(n);
  }

  private column<K extends ColumnName>(name: K): ColumnArrays[K] {
    const a = this.arrays[name];
    if (!a) throw new Error(`column ${name} is not read`);
    return a as ColumnArrays[K];
  }

  /**
   * Grows every column held so that page number n fits, and GROWTH_PAGES more. Until 29 November
   * 2026 the columns were read into whole segments (524,288 pages) and grew by half their size,
   * rounded up to segments: a history of 524,289 pages held columns for 1,048,576, and a background
   * that recorded the 1,048,577th page, for 2,097,152.
   */
  private reserve(n: number): void {
    if (n < this.capacity) return;
    const capacity = n + 1 + GROWTH_PAGES;
    for (const name of Object.keys(this.arrays) as ColumnName[]) {
      const old = this.arrays[name] as Uint32Array;
      const grown = makeArray(name, capacity);
      grown.set(old);
      (this.arrays as Record<string, unknown>)[name] = grown;
    }
    this.capacity = capacity;
  }

  /** Sets page n's entries from its stored page (null: no page there any more), and returns its address hashes. Every group must be held. */
  set(n: number, page: StoredPage | null, anchors: Anchors = storedAnchors(page)): { url: number; canon: number } {
    for (const group of ALL_GROUPS) if (!this.has(group)) throw new Error(`columns ${group} are not read`);
    this.reserve(n);
    if (n >= this.size) this.size = n + 1;
    const a = this.arrays as ColumnArrays;
    if (page) {
      const fp = fromHex(page.fp);
      a.hi[n] = fp.hi;
      a.lo[n] = fp.lo;
      const leads = anchors;
      const narrow = leads.bits === 24;
      a.lead0[n] = leads.values.length > 0 ? (narrow ? leads.values[0] << 8 : leads.values[0]) >>> 0 : 0;
      a.lead1[n] = leads.values.length > 1 ? (narrow ? leads.values[1] << 8 : leads.values[1]) >>> 0 : 0;
      a.flags[n] = (comparableAlgorithms(page.algo, ALGORITHM) ? PAGE : OTHER_ALGORITHM) | (leads.values.length > 0 ? LEAD0 : 0) | (leads.values.length > 1 ? LEAD1 : 0) | (narrow ? NARROW : 0);
      a.url[n] = hashString(page.url);
      a.canon[n] = page.canonicalUrl === undefined ? a.url[n] : hashString(page.canonicalUrl);
      a.site[n] = hashString(siteOfIdentity(page.url));
      a.seen[n] = page.lastSeen;
    } else {
      a.hi[n] = a.lo[n] = a.url[n] = a.canon[n] = a.site[n] = a.lead0[n] = a.lead1[n] = 0;
      a.flags[n] = NO_PAGE;
      a.seen[n] = 0;
    }
    this.delta.add(n);
    this.changed = true;
    if (this.indexes) for (const index of Object.values(this.indexes)) index.touch(n);
    return { url: a.url[n], canon: a.canon[n] };
  }

  /**
   * Builds (or rebuilds) the indexes of the columns looked up by value: about 30 ms at 10^6 pages,
   * so the background does it after answering, not while a page waits.
   */
  index(): void {
    const state = (n: number) => this.column('flags')[n] & STATE;
    this.indexes ??= {
      url: new KeyIndex(() => this.column('url'), (n) => state(n) !== NO_PAGE),
      // A page's canonical address is its own address unless it declares another: such pages are
      // found through the address's index (byCanonical), and this one holds only the others.
      canon: new KeyIndex(() => this.column('canon'), (n) => state(n) !== NO_PAGE && this.column('canon')[n] !== this.column('url')[n]),
      lead0: new KeyIndex(() => this.column('lead0'), (n) => state(n) === PAGE && (this.column('flags')[n] & LEAD0) !== 0),
      lead1: new KeyIndex(() => this.column('lead1'), (n) => state(n) === PAGE && (this.column('flags')[n] & LEAD1) !== 0),
      // All four count the same pages, and are touched together: one list of changed pages serves them.
      ...(Object.fromEntries(FP_BLOCKS.map(([name, column, shift]) => [name, new KeyIndex(() => this.column(column), (n) => state(n) === PAGE, shift)])) as Record<FpBlock, KeyIndex>),
    };
    for (const index of Object.values(this.indexes)) if (!index.ready) index.build(this.size);
  }

  /** Whether every index is built and up to date enough to use. */
  get indexed(): boolean {
    return this.indexes !== undefined && Object.values(this.indexes).every((i) => i.ready);
  }

  /** Bytes held in memory: the columns read and the indexes. */
  get bytes(): number {
    let bytes = 0;
    for (const a of Object.values(this.arrays)) bytes += (a as Uint32Array).byteLength;
    for (const index of Object.values(this.indexes ?? {})) bytes += index.bytes;
    return bytes;
  }

  /**
   * What to write for the changes since the last call, as [value, key] pairs for the columns store:
   * the delta, or, once it holds DELTA_PAGES pages, every segment it touches and an empty delta.
   */
  changes(): Array<[unknown, [string, number]]> {
    if (!this.changed) return [];
    this.changed = false;
    const a = this.arrays as ColumnArrays;
    const ns = Uint32Array.from(this.delta).sort();
    if (ns.length <= DELTA_PAGES) {
      const delta: Record<string, unknown> = { ns };
      for (const name of ALL_COLUMNS) {
        const values = makeArray(name, ns.length);
        ns.forEach((n, i) => (values[i] = a[name][n]));
        delta[name] = values;
      }
      return [[delta, DELTA_KEY]];
    }
    const out: Array<[unknown, [string, number]]> = [];
    for (const segment of new Set(Array.from(ns, (n) => Math.floor(n / SEGMENT_PAGES)))) {
      const start = segment * SEGMENT_PAGES;
      const end = Math.min(this.size, start + SEGMENT_PAGES);
      for (const group of ALL_GROUPS) out.push([segmentValue(group, a, start, end), [group, segment]]);
    }
    this.delta.clear();
    const empty: Record<string, unknown> = { ns: new Uint32Array(0) };
    for (const name of ALL_COLUMNS) empty[name] = makeArray(name, 0);
    out.push([empty, DELTA_KEY]);
    return out;
  }

  /** Reads every group held again (they missed a write): the store now has `size` numbers, at write count `gen`. */
  async reload(tx: ColumnsTx, size: number, gen: number): Promise<void> {
    const groups = [...this.groups];
    for (const name of Object.keys(this.arrays) as ColumnName[]) delete this.arrays[name];
    this.groups.clear();
    this.delta.clear();
    this.changed = false;
    this.size = size;
    this.capacity = 0;
    this.indexes = undefined;
    await this.add(tx, groups);
    this.gen = gen;
  }

  flag(n: number): number {
    if (n >= this.size) return NO_PAGE;
    // Before the flags are read (a background's first lookup), a number in use may hold a page: its block says.
    return this.has('keys') ? this.column('flags')[n] & STATE : PAGE;
  }

  lastSeen(n: number): number {
    return this.column('seen')[n];
  }

  /** Pages of the current algorithm whose fingerprint is within `maxDistance` bits of (hi, lo). */
  near(hi: number, lo: number, maxDistance: number): number[] {
    if (this.indexed && maxDistance <= BLOCKS_FIND_WITHIN) return this.nearByBlocks(hi, lo, maxDistance);
    const his = this.column('hi');
    const los = this.column('lo');
    const out: number[] = [];
    for (let n = 0, size = this.size; n < size; n++) {
      const d = popcount(his[n] ^ hi);
      if (d > maxDistance) continue;
      if (d + popcount(los[n] ^ lo) <= maxDistance) out.push(n);
    }
    // Before the flags are read (a background's first lookup) a page forgotten or of another algorithm is left to its block to tell.
    if (!this.has('keys')) return out;
    const flags = this.column('flags');
    return out.filter((n) => (flags[n] & STATE) === PAGE);
  }

  /** The `max` of `numbers` whose fingerprints are closest to (hi, lo), the later recorded first among equals; all of them if there are no more. */
  closest(numbers: number[], hi: number, lo: number, max: number): number[] {
    if (numbers.length <= max) return numbers;
    const his = this.column('hi');
    const los = this.column('lo');
    const distance = new Map(numbers.map((n) => [n, popcount(his[n] ^ hi) + popcount(los[n] ^ lo)]));
    return [...numbers].sort((a, b) => (distance.get(a) ?? 0) - (distance.get(b) ?? 0) || b - a).slice(0, max);
  }

  /** The same as `near`, through the block indexes (they must be built), in the same order. */
  private nearByBlocks(hi: number, lo: number, maxDistance: number): number[] {
    const his = this.column('hi');
    const los = this.column('lo');
    const flags = this.column('flags');
    const indexes = this.indexes as NonNullable<Columns['indexes']>;
    const found: number[] = [];
    const check = (n: number) => {
      const d = popcount(his[n] ^ hi);
      if (d <= maxDistance && d + popcount(los[n] ^ lo) <= maxDistance && (flags[n] & STATE) === PAGE) found.push(n);
    };
    for (const [name, column, shift] of FP_BLOCKS) {
      const block = ((column === 'hi' ? hi : lo) >>> shift) & 0xffff;
      const index = indexes[name];
      index.under(block, check);
      for (let bit = 0; bit < 16; bit++) index.under(block ^ (1 << bit), check);
    }
    indexes.fpHiTop.changed.forEach(check);
    // A page near in more than one block is found more than once.
    return [...new Set(found)].sort((a, b) => a - b);
  }

  /**
   * One pass for a page's lookup: pages of the current algorithm within `maxDistance` of (hi, lo),
   * pages whose address (or `otherUrl`: the same over the other scheme) or canonical address hashes
   * as given, and pages one of whose leads is one
   * of `anchors` (on 24 bits where either side has only those).
   */
  lookup(hi: number, lo: number, maxDistance: number, url: number, canon: number, anchors?: Anchors, otherUrl?: number): { near: number[]; byUrl: number[]; byCanon: number[]; byLead: Map<number, number[]> } {
    const his = this.column('hi');
    const los = this.column('lo');
    const urls = this.column('url');
    const canons = this.column('canon');
    const flags = this.column('flags');
    const lead0 = this.column('lead0');
    const lead1 = this.column('lead1');
    const near: number[] = [];
    const byUrl: number[] = [];
    const byCanon: number[] = [];
    /** Pages by the anchor (its top 24 bits) one of their leads is. */
    const leading = new Map<number, Set<number>>();
    // The anchors' top 24 bits, as a bitmap of their low 16 and a set, tell leads worth a closer look.
    const wanted = new Set<number>();
    const bits = new Uint32Array(2048);
    for (const a of anchors?.values ?? []) {
      const top = anchors?.bits === 24 ? a : a >>> 8;
      wanted.add(top);
      bits[(top & 0xffff) >>> 5] |= 1 << (top & 31);
    }
    const exact = new Set(anchors?.bits === 32 ? anchors.values : []);
    const leads = wanted.size > 0;
    const lead = (n: number, v: number, f: number) => {
      const top = v >>> 8;
      if ((bits[(top & 0xffff) >>> 5] & (1 << (top & 31))) === 0 || !wanted.has(top)) return;
      if ((f & NARROW) !== 0 || anchors?.bits === 24 || exact.has(v)) {
        const pages = leading.get(top);
        if (pages) pages.add(n);
        else leading.set(top, new Set([n]));
      }
    };
    if (this.indexed && this.indexes) {
      const { url: urlIndex, lead0: first, lead1: second } = this.indexes;
      byUrl.push(...urlIndex.find(url));
      if (otherUrl !== undefined && otherUrl !== url) byUrl.push(...urlIndex.find(otherUrl));
      byCanon.push(...this.byCanonical(canon));
      // Leads with the anchors' top 24 bits (lead() then checks all 32 where both sides have them).
      for (const top of wanted) for (const [index, values] of [[first, lead0], [second, lead1]] as const) for (const n of index.findTop24(top)) lead(n, values[n], flags[n]);
      return { near: this.near(hi, lo, maxDistance), byUrl, byCanon, byLead: listed(leading) };
    }
    for (let n = 0, size = this.size; n < size; n++) {
      const f = flags[n];
      if ((f & STATE) === NO_PAGE) continue;
      if (urls[n] === url || urls[n] === otherUrl) byUrl.push(n);
      if (canons[n] === canon) byCanon.push(n);
      if (leads && (f & STATE) === PAGE) {
        if ((f & LEAD0) !== 0) lead(n, lead0[n], f);
        if ((f & LEAD1) !== 0) lead(n, lead1[n], f);
      }
      const d = popcount(his[n] ^ hi);
      if (d > maxDistance) continue;
      if (d + popcount(los[n] ^ lo) <= maxDistance && (f & STATE) === PAGE) near.push(n);
    }
    return { near, byUrl, byCanon, byLead: listed(leading) };
  }

  /** Through the indexes (they must be built): the pages whose canonical address hashes to `h`, declared or their own. */
  private byCanonical(h: number): number[] {
    const canons = this.column('canon');
    return [...this.indexes!.canon.find(h), ...this.indexes!.url.find(h).filter((n) => canons[n] === h)];
  }

  /** Pages whose value in `column` is one of `hashes`: for each hash, the page numbers holding it. */
  find(column: 'url' | 'canon' | 'site', hashes: readonly number[]): Map<number, number[]> {
    const found = new Map<number, number[]>();
    if (hashes.length === 0) return found;
    if (column !== 'site' && this.indexed) {
      for (const h of new Set(hashes)) {
        const pages = column === 'url' ? this.indexes!.url.find(h) : this.byCanonical(h);
        if (pages.length) found.set(h, pages);
      }
      return found;
    }
    const values = this.column(column);
    const flags = this.column('flags');
    // A bitmap of the hashes' low 16 bits turns away almost every page before the map is asked.
    const bits = new Uint32Array(2048);
    for (const h of hashes) bits[(h & 0xffff) >>> 5] |= 1 << (h & 31);
    const wanted = new Set(hashes);
    for (let n = 0, size = this.size; n < size; n++) {
      const v = values[n];
      if ((bits[(v & 0xffff) >>> 5] & (1 << (v & 31))) === 0 || !wanted.has(v) || (flags[n] & STATE) === NO_PAGE) continue;
      const list = found.get(v);
      if (list) list.push(n);
      else found.set(v, [n]);
    }
    return found;
  }

  /**
   * The `limit` highest page numbers (the last recorded) whose site hashes to `site`, highest first:
   * a scan from the end that stops there, where `find` reads the whole column (a site's frame is
   * learned from its last pages at every lookup that suspects a page of it: about 0.8 ms a lookup at
   * 10^6 pages in bench:store's profile, on 29 November 2026).
   */
  lastOfSite(site: number, limit: number): number[] {
    const sites = this.column('site');
    const flags = this.column('flags');
    const out: number[] = [];
    for (let n = this.size - 1; n >= 0 && out.length < limit; n--) if (sites[n] === site && (flags[n] & STATE) !== NO_PAGE) out.push(n);
    return out;
  }

  /**
   * For each fingerprint asked, the pages of the current algorithm with exactly that fingerprint: one
   * scan for all of them.
   */
  sameFingerprint(fps: ReadonlyArray<{ hi: number; lo: number }>): number[][] {
    const his = this.column('hi');
    const los = this.column('lo');
    const flags = this.column('flags');
    const out: number[][] = fps.map(() => []);
    const byHi = new Map<number, number[]>();
    const bits = new Uint32Array(2048);
    fps.forEach((f, i) => {
      bits[(f.hi & 0xffff) >>> 5] |= 1 << (f.hi & 31);
      byHi.set(f.hi, [...(byHi.get(f.hi) ?? []), i]);
    });
    for (let n = 0, size = this.size; n < size; n++) {
      const h = his[n];
      if ((bits[(h & 0xffff) >>> 5] & (1 << (h & 31))) === 0) continue;
      for (const i of byHi.get(h) ?? []) if (fps[i].lo === los[n] && (flags[n] & STATE) === PAGE) out[i].push(n);
    }
    return out;
  }

  /** Page numbers of the pages held, most recently seen first, after (lastSeen, n) when given: at most `limit`. */
  recent(limit: number, after?: [number, number]): number[] {
    const seen = this.column('seen');
    const flags = this.column('flags');
    const before = (a: number, b: number) => seen[a] > seen[b] || (seen[a] === seen[b] && a > b);
    // The `limit` largest (seen, n) below the cursor, in a heap whose root is the least of them: a
    // search asks for 2,001 at a time, and keeping them in a sorted array cost 1 s of shifting for
    // the 50 batches of 10^5 pages last seen in no order of their numbers (Node).
    const heap: number[] = [];
    const sift = (at: number) => {
      for (let i = at; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let least = i;
        if (l < heap.length && before(heap[least], heap[l])) least = l;
        if (r < heap.length && before(heap[least], heap[r])) least = r;
        if (least === i) return;
        [heap[i], heap[least]] = [heap[least], heap[i]];
        i = least;
      }
    };
    for (let n = this.size - 1; n >= 0; n--) {
      if ((flags[n] & STATE) === NO_PAGE) continue;
      if (after && (seen[n] > after[0] || (seen[n] === after[0] && n >= after[1]))) continue;
      if (heap.length < limit) {
        // Up towards the root while it is less recent than its parent.
        let i = heap.push(n) - 1;
        while (i > 0 && before(heap[(i - 1) >> 1], heap[i])) {
          const p = (i - 1) >> 1;
          [heap[i], heap[p]] = [heap[p], heap[i]];
          i = p;
        }
      } else if (limit > 0 && before(n, heap[0])) {
        heap[0] = n;
        sift(0);
      }
    }
    return heap.sort((a, b) => (before(a, b) ? -1 : 1));
  }
}

/** The page numbers of a page's address (its identity), among those the columns say may hold it. */
export const identityHash = (url: string) => hashString(pageIdentity(url));
