// Charikar's simhash over weighted features. Occurrences are first counted per distinct feature
// (an open-addressing table on the two hash halves), so the weight can be a function of the
// term frequency; then each feature adds ±weight to 64 counters through per-byte tables
// (8 additions per feature instead of 64).
import { scanFeatures, type FeatureOptions } from './features';
import { toHex } from './fingerprint-hex';

export type Weighting = 'tf' | 'log' | 'sqrt' | 'binary';

export interface SimhashOptions extends FeatureOptions {
  /** How a feature's count in the text becomes its weight. */
  weight: Weighting;
}

export interface SimhashResult {
  hi: number;
  lo: number;
  /** Distinct features seen. */
  features: number;
}

// Scratch space reused between calls (the function stays pure: nothing survives into the result).
let capacity = 1 << 12;
let keysHi = new Uint32Array(capacity);
let keysLo = new Uint32Array(capacity);
let counts = new Uint32Array(capacity);
const byteTables = new Float64Array(8 * 256);

function grow(): void {
  const oldHi = keysHi;
  const oldLo = keysLo;
  const oldCounts = counts;
  capacity *= 2;
  keysHi = new Uint32Array(capacity);
  keysLo = new Uint32Array(capacity);
  counts = new Uint32Array(capacity);
  const mask = capacity - 1;
  for (let i = 0; i < oldCounts.length; i++) {
    if (oldCounts[i] === 0) continue;
    let slot = oldLo[i] & mask;
    while (counts[slot] !== 0) slot = (slot + 1) & mask;
    keysHi[slot] = oldHi[i];
    keysLo[slot] = oldLo[i];
    counts[slot] = oldCounts[i];
  }
}

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
  }
}

/** Simhash of already-normalised text. */
export function simhashNormalized(text: string, opts: SimhashOptions): SimhashResult {
  counts.fill(0);
  let distinct = 0;
  scanFeatures(text, opts, (hi, lo) => {
    let mask = capacity - 1;
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
    if ((distinct + 1) * 2 > capacity) {
      grow();
      mask = capacity - 1;
      slot = lo & mask;
      while (counts[slot] !== 0) slot = (slot + 1) & mask;
    }
    keysHi[slot] = hi;
    keysLo[slot] = lo;
    counts[slot] = 1;
    distinct++;
  });

  byteTables.fill(0);
  for (let i = 0; i < capacity; i++) {
    const n = counts[i];
    if (n === 0) continue;
    const w = weightOf(n, opts.weight);
    const hi = keysHi[i];
    const lo = keysLo[i];
    byteTables[(hi >>> 24) | 0] += w;
    byteTables[256 + ((hi >>> 16) & 0xff)] += w;
    byteTables[512 + ((hi >>> 8) & 0xff)] += w;
    byteTables[768 + (hi & 0xff)] += w;
    byteTables[1024 + (lo >>> 24)] += w;
    byteTables[1280 + ((lo >>> 16) & 0xff)] += w;
    byteTables[1536 + ((lo >>> 8) & 0xff)] += w;
    byteTables[1792 + (lo & 0xff)] += w;
  }

  // Counter of bit `b` (0..7, from the byte's top) of byte `k` (0 = most significant).
  const counters = new Float64Array(64);
  for (let k = 0; k < 8; k++) {
    for (let v = 0; v < 256; v++) {
      const w = byteTables[k * 256 + v];
      if (w === 0) continue;
      for (let b = 0; b < 8; b++) counters[k * 8 + b] += (v >>> (7 - b)) & 1 ? w : -w;
    }
  }
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    hi = (hi << 1) | (counters[b] > 0 ? 1 : 0);
    lo = (lo << 1) | (counters[32 + b] > 0 ? 1 : 0);
  }
  return { hi: hi >>> 0, lo: lo >>> 0, features: distinct };
}

export function simhashHex(text: string, opts: SimhashOptions): string {
  const r = simhashNormalized(text, opts);
  return toHex(r.hi, r.lo);
}
