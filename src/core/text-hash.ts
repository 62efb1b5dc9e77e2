// Exact identity: a 64-bit hash of the normalised text with all whitespace removed, so the same
// article at any URL, whatever its line wrapping or spacing, hashes the same.
import { fmix32 } from './hash';
import { toHex } from './fingerprint-hex';
import { normalizeText } from './normalize';

export function textHash(text: string): string {
  const s = normalizeText(text);
  let a = 0x811c9dc5;
  let b = 0x2f6b8a1d;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xa0 || c === 0x3000) continue;
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul((b ^ c) + 0x7f4a7c15, 0x5bd1e995);
    n++;
  }
  if (n === 0) return '0000000000000000';
  return toHex(fmix32(a ^ Math.imul(b, 0x9e3779b1) ^ n), fmix32(b ^ Math.imul(a | 1, 0xcc9e2d51)));
}
