// Tokens of a normalised text for comparing texts word by word: each word, and each Han, kana or
// Thai-like character, as a 32-bit hash and its length in characters.
import { fmix32, SEED_A, stepA } from './hash';
import { astralClass, BMP_CLASS, isRunClass, WORD } from './scripts';

export interface Tokens {
  hashes: number[];
  lengths: number[];
}

/** Appends the tokens of `text` (already normalised) to `into`. */
export function tokenize(text: string, into: Tokens = { hashes: [], lengths: [] }): Tokens {
  let h = SEED_A;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    let cls: number;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = ((c - 0xd800) << 10) + (text.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      i++;
      cls = astralClass(c);
    } else cls = BMP_CLASS[c];
    if (cls === WORD) {
      h = stepA(h, c);
      n++;
      continue;
    }
    if (n > 0) {
      into.hashes.push(fmix32(h));
      into.lengths.push(n);
      h = SEED_A;
      n = 0;
    }
    if (isRunClass(cls)) {
      into.hashes.push(fmix32(stepA(SEED_A ^ 0x5a5a, c)));
      into.lengths.push(1);
    }
  }
  if (n > 0) {
    into.hashes.push(fmix32(h));
    into.lengths.push(n);
  }
  return into;
}

/** Hash of the `n` tokens from `at`. */
export function runHash(hashes: number[], at: number, n: number): number {
  let h = 0x2f6b8a1d;
  for (let k = 0; k < n; k++) h = Math.imul(h ^ hashes[at + k], 0x5bd1e995) ^ (h >>> 15);
  return h >>> 0;
}

/**
 * Which tokens of `b` lie in a run of `n` consecutive tokens that `a` also holds. With `parts` (the
 * first token of each part of `b`, ascending, from 0), a run counts for the tokens of the part it
 * lies within, and for every token of a part shorter than `n` that it runs through. When either
 * has fewer than `n` tokens, all of `b` is covered if the two are the same, else none of it.
 */
export function coveredTokens(a: Tokens, b: Tokens, n: number, parts: readonly number[] = [0]): Uint8Array {
  const length = b.hashes.length;
  const covered = new Uint8Array(length);
  if (a.hashes.length < n || length < n) {
    if (a.hashes.length === length && a.hashes.every((h, k) => h === b.hashes[k])) covered.fill(1);
    return covered;
  }
  const part = new Int32Array(length);
  const short: boolean[] = parts.map((from, k) => {
    const to = parts[k + 1] ?? length;
    part.fill(k, from, to);
    return to - from < n;
  });
  const seen = new Set<number>();
  for (let i = 0; i + n <= a.hashes.length; i++) seen.add(runHash(a.hashes, i, n));
  for (let i = 0; i + n <= length; i++) {
    if (!seen.has(runHash(b.hashes, i, n))) continue;
    const within = part[i] === part[i + n - 1];
    for (let t = i; t < i + n; t++) if (within || short[part[t]]) covered[t] = 1;
  }
  return covered;
}
