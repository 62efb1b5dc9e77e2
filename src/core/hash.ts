// 64-bit feature hashing on two 32-bit halves: no BigInt, so the hot loop stays in small integers
// and the result is the same in every JavaScript engine.

/** Murmur3's 32-bit finaliser: every input bit affects every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Seeds of the two running token hashes (FNV-1a style, different primes). */
export const SEED_A = 0x811c9dc5;
export const SEED_B = 0x2f6b8a1d;

/** Feeds one code point into running hash A. */
export function stepA(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

/** Feeds one code point into running hash B. */
export function stepB(h: number, c: number): number {
  return Math.imul((h ^ c) + 0x7f4a7c15, 0x5bd1e995);
}

/**
 * Finishes a pair of running hashes into a 64-bit feature hash. `out[0]` gets the high half,
 * `out[1]` the low half. Cross-mixing makes each half depend on both running states.
 */
export function finish(a: number, b: number, out: Uint32Array): void {
  const lo = fmix32(a ^ Math.imul(b, 0x9e3779b1));
  out[0] = fmix32(b ^ Math.imul(lo | 1, 0xcc9e2d51) ^ 0x5f356495);
  out[1] = lo;
}

/** Combines two 64-bit hashes (for shingles: the hash of a sequence of features). */
export function combine(hiA: number, loA: number, hiB: number, loB: number, out: Uint32Array): void {
  const a = Math.imul(hiA ^ (loB >>> 7), 0x01000193) ^ Math.imul(loA, 0x9e3779b1);
  const b = Math.imul(loA ^ (hiB << 9), 0x5bd1e995) ^ Math.imul(hiB ^ loB, 0x85ebca6b);
  finish(a, b, out);
}
