// Charikar's simhash over weighted features. Occurrences are first counted per distinct feature
// (an open-addressing table on the two hash halves), so the weight can be a function of the
// term frequency; then each feature adds ±weight to 64 counters through per-byte tables
// (8 additions per feature instead of 64).
import { GRAM_FEATURE, HAN_CHARS, hanFeature, scanFeatures, type FeatureOptions } from './features';
import { toHex } from './fingerprint-hex';
import { normalizeText, plainFold } from './normalize';

export type Weighting = 'tf' | 'log' | 'sqrt' | 'binary' | number;

export interface SimhashOptions extends FeatureOptions {
  /** How a word feature's count in the text becomes its weight (a number p: count^p). */
  weight: Weighting;
  /** The same for character n-gram features; defaults to `weight`. */
  gramWeight?: Weighting;
}

export interface SimhashResult {
  hi: number;
  lo: number;
  /** Distinct features seen. */
  features: number;
}

/**
 * Counts occurrences per distinct 64-bit feature: open addressing on the two halves. The features
 * in use are listed in the order first seen (the order simhashOfCounts adds them in, which fixes
 * the rounding of its sums), so clearing and reading cost O(distinct features), not O(capacity).
 *
 * A main-block Han character's feature in the fingerprint (the character alone: features.ts) is
 * counted by the character instead (addHan), in a table of one count per character: nearly every
 * character of a Chinese text is one, and indexing a table by the character costs a fraction of
 * hashing it and probing. Its 64-bit hash is made only once per distinct character, when the
 * counts are read. (A word's hash equal to a Han character's, a chance of 2^-64 for any pair, now
 * counts apart from it rather than together.)
 */
export class FeatureCounter {
  capacity = 1 << 12;
  keysHi = new Uint32Array(this.capacity);
  keysLo = new Uint32Array(this.capacity);
  counts = new Uint32Array(this.capacity);
  kinds = new Uint8Array(this.capacity);
  /** Slots of the hash table in use. */
  private slots = 0;
  /** Counts of the main-block Han characters, by hanIndex; allocated at the first addHan. */
  han: Uint32Array | undefined;
  /** Each distinct feature in the order first seen: a slot of the table (≥ 0), or ~hanIndex for a Han character. */
  used = new Int32Array(this.capacity / 2);
  distinct = 0;

  add(hi: number, lo: number, kind: number): void {
    const { keysHi, keysLo, counts } = this;
    const mask = this.capacity - 1;
    let slot = lo & mask;
    for (;;) {
      const n = counts[slot];
      if (n === 0) break;
      if (keysLo[slot] === lo && keysHi[slot] === hi) {
        counts[slot] = n + 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
    if ((this.slots + 1) * 2 > this.capacity) {
      this.grow();
      this.add(hi, lo, kind);
      return;
    }
    keysHi[slot] = hi;
    keysLo[slot] = lo;
    counts[slot] = 1;
    this.kinds[slot] = kind;
    this.slots++;
    if (this.distinct === this.used.length) this.growList();
    this.used[this.distinct++] = slot;
  }

  /** Counts the feature of the Han character at `k` = hanIndex(c) (features.ts). */
  addHan(k: number): void {
    const han = (this.han ??= new Uint32Array(HAN_CHARS));
    if (han[k]++ === 0) {
      if (this.distinct === this.used.length) this.growList();
      this.used[this.distinct++] = ~k;
    }
  }

  /** Empties the counter: what a scan stopped midway left behind is gone too. */
  clear(): void {
    const { used, counts } = this;
    for (let k = 0; k < this.distinct; k++) {
      const e = used[k];
      if (e >= 0) counts[e] = 0;
      else if (this.han) this.han[~e] = 0;
    }
    this.distinct = 0;
    this.slots = 0;
  }

  private growList(): void {
    const used = new Int32Array(2 * this.used.length);
    used.set(this.used);
    this.used = used;
  }

  private grow(): void {
    const { keysHi, keysLo, counts, kinds, used, distinct } = this;
    this.capacity *= 2;
    this.keysHi = new Uint32Array(this.capacity);
    this.keysLo = new Uint32Array(this.capacity);
    this.counts = new Uint32Array(this.capacity);
    this.kinds = new Uint8Array(this.capacity);
    // The list keeps its order: each feature of the table moves to its slot in the new one.
    const mask = this.capacity - 1;
    for (let k = 0; k < distinct; k++) {
      const i = used[k];
      if (i < 0) continue;
      let slot = keysLo[i] & mask;
      while (this.counts[slot] !== 0) slot = (slot + 1) & mask;
      this.keysHi[slot] = keysHi[i];
      this.keysLo[slot] = keysLo[i];
      this.counts[slot] = counts[i];
      this.kinds[slot] = kinds[i];
      used[k] = slot;
    }
  }
}

// Scratch space reused between calls (the function stays pure: nothing survives into the result).
const counter = /* @__PURE__ */ new FeatureCounter();
const byteTables = new Float64Array(8 * 256);
const hanOut = new Uint32Array(2);

/** +1 or -1 for bit `b` (0..7, from the top) of each byte value `v`, at v * 8 + b. */
const BIT_SIGNS = /* @__PURE__ */ (() => {
  const signs = new Float64Array(256 * 8);
  for (let v = 0; v < 256; v++) for (let b = 0; b < 8; b++) signs[v * 8 + b] = (v >>> (7 - b)) & 1 ? 1 : -1;
  return signs;
})();

function weightOf(count: number, weighting: Weighting): number {
  switch (weighting) {
    case 'tf':
      return count;
    case 'log':
      return 1 + Math.log(count);
    case 'sqrt':
      return Math.sqrt(count);
    case 'binary':
      return 1;
    default:
      return Math.pow(count, weighting);
  }
}

/** Weights of counts 0..255 under one weighting, computed once: most features occur a few times. */
const weightTables = new Map<Weighting, Float64Array>();
function weightTable(weighting: Weighting): Float64Array {
  let table = weightTables.get(weighting);
  if (!table) {
    table = new Float64Array(256);
    for (let n = 1; n < 256; n++) table[n] = weightOf(n, weighting);
    weightTables.set(weighting, table);
  }
  return table;
}

/** Simhash of already-normalised text, or of plain text read through `fold` (normalize.ts's plainFold). */
export function simhashNormalized(text: string, opts: SimhashOptions, fold?: Uint16Array): SimhashResult {
  counter.clear();
  scanFeatures(text, opts, (hi, lo, kind) => counter.add(hi, lo, kind), (k) => counter.addHan(k), fold);
  return simhashOfCounts(counter, opts);
}

/**
 * Simhash of the features counted in `counter` (filled by scanFeatures with `opts`' feature
 * choices, or by a scan that emits the same features). Leaves the counter empty for its next use.
 */
export function simhashOfCounts(counter: FeatureCounter, opts: SimhashOptions): SimhashResult {
  const { keysHi, keysLo, counts, kinds, used, distinct, han } = counter;

  byteTables.fill(0);
  const wordWeights = weightTable(opts.weight);
  const gramWeights = weightTable(opts.gramWeight ?? opts.weight);
  const out = hanOut;
  for (let k = 0; k < distinct; k++) {
    const i = used[k];
    let n: number;
    let kind: number;
    let hi: number;
    let lo: number;
    if (i >= 0) {
      n = counts[i];
      kind = kinds[i];
      hi = keysHi[i];
      lo = keysLo[i];
    } else {
      n = (han as Uint32Array)[~i];
      kind = GRAM_FEATURE;
      hanFeature(~i, out);
      hi = out[0];
      lo = out[1];
    }
    const w = n < 256 ? (kind === GRAM_FEATURE ? gramWeights : wordWeights)[n] : weightOf(n, kind === GRAM_FEATURE ? (opts.gramWeight ?? opts.weight) : opts.weight);
    byteTables[(hi >>> 24) | 0] += w;
    byteTables[256 + ((hi >>> 16) & 0xff)] += w;
    byteTables[512 + ((hi >>> 8) & 0xff)] += w;
    byteTables[768 + (hi & 0xff)] += w;
    byteTables[1024 + (lo >>> 24)] += w;
    byteTables[1280 + ((lo >>> 16) & 0xff)] += w;
    byteTables[1536 + ((lo >>> 8) & 0xff)] += w;
    byteTables[1792 + (lo & 0xff)] += w;
  }
  counter.clear(); // leaves the tables empty for the next call

  // Counter of bit `b` (0..7, from the byte's top) of byte `k` (0 = most significant): the sum of
  // ±weight over the byte's values in ascending order (the order fixes the rounding, so it is kept).
  // Multiplying by a sign from a table instead of choosing +w or -w leaves the sums exactly as they
  // were and takes a branch the processor could not predict out of the loop.
  const counters = new Float64Array(64);
  for (let k = 0; k < 8; k++) {
    let c0 = 0;
    let c1 = 0;
    let c2 = 0;
    let c3 = 0;
    let c4 = 0;
    let c5 = 0;
    let c6 = 0;
    let c7 = 0;
    for (let v = 0; v < 256; v++) {
      const w = byteTables[k * 256 + v];
      const s = v * 8;
      c0 += BIT_SIGNS[s] * w;
      c1 += BIT_SIGNS[s + 1] * w;
      c2 += BIT_SIGNS[s + 2] * w;
      c3 += BIT_SIGNS[s + 3] * w;
      c4 += BIT_SIGNS[s + 4] * w;
      c5 += BIT_SIGNS[s + 5] * w;
      c6 += BIT_SIGNS[s + 6] * w;
      c7 += BIT_SIGNS[s + 7] * w;
    }
    counters[k * 8] = c0;
    counters[k * 8 + 1] = c1;
    counters[k * 8 + 2] = c2;
    counters[k * 8 + 3] = c3;
    counters[k * 8 + 4] = c4;
    counters[k * 8 + 5] = c5;
    counters[k * 8 + 6] = c6;
    counters[k * 8 + 7] = c7;
  }
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    hi = (hi << 1) | (counters[b] > 0 ? 1 : 0);
    lo = (lo << 1) | (counters[32 + b] > 0 ? 1 : 0);
  }
  return { hi: hi >>> 0, lo: lo >>> 0, features: distinct };
}

/** Simhash of a text (normalised here unless it is plain), as 16 hex digits. */
export function simhashHex(text: string, opts: SimhashOptions): string {
  const fold = plainFold(text);
  const r = simhashNormalized(fold ? text : normalizeText(text), opts, fold);
  return toHex(r.hi, r.lo);
}
