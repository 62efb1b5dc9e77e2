// Exact identity: a 64-bit hash of the normalised text with all whitespace removed, so the same
// article at any URL, whatever its line wrapping or spacing, hashes the same. (digestArticle runs
// the same hash inside its own scan of the text: see digest-scan.ts.)
import { fmix32, SEED_A, SEED_B, stepA, stepB } from './hash';
import { toHex } from './fingerprint-hex';
import { normalizeText } from './normalize';

/** Whitespace the text hash skips. */
export function isTextHashSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xa0 || c === 0x3000;
}

export function textHash(text: string): string {
  const s = normalizeText(text);
  let a = SEED_A;
  let b = SEED_B;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isTextHashSpace(c)) continue;
    a = stepA(a, c);
    b = stepB(b, c);
    n++;
  }
  return textHashHex(a, b, n);
}

/** The text hash from its two running hashes over the `n` code units hashed. */
export function textHashHex(a: number, b: number, n: number): string {
  if (n === 0) return '0000000000000000';
  return toHex(fmix32(a ^ Math.imul(b, 0x9e3779b1) ^ n), fmix32(b ^ Math.imul(a | 1, 0xcc9e2d51)));
}
