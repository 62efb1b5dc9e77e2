// The fingerprint of a text: normalise, extract features, simhash. The algorithm version names
// every choice below; any change that can change a fingerprint must change ALGORITHM.
import { simhashHex, type SimhashOptions } from './simhash';

/**
 * Version of the fingerprint algorithm; stored with every record and export. dr2 reads Traditional
 * Chinese characters as Simplified (core/traditional.ts); dr1 did not, and was otherwise the same.
 */
export const ALGORITHM = 'dr2';

/**
 * Algorithms whose fingerprints are compared with ALGORITHM's, kept and imported alike: dr1 gives
 * what dr2 gives for every text without a Traditional character (English, Simplified Chinese, most
 * other scripts). A page of Traditional Chinese or Japanese recorded under dr1 keeps its
 * unfolded fingerprint and passages, so a copy of it read since may not be found.
 */
const COMPARABLE = new Set(['dr1', ALGORITHM]);

/** Whether fingerprints of algorithms `a` and `b` may be compared. */
export function comparableAlgorithms(a: string, b: string): boolean {
  return a === b || (COMPARABLE.has(a) && COMPARABLE.has(b));
}

/**
 * The feature choices of ALGORITHM (see docs/fingerprint.md for how they were chosen). digest-scan.ts
 * computes these same features in its own pass: change both.
 */
export const FINGERPRINT_OPTIONS: Readonly<SimhashOptions> = /* @__PURE__ */ Object.freeze({
  wordShingle: 1, // single words
  gram: 1, // single Han characters (kana pairs, Thai/Lao/Khmer/Myanmar triples)
  weight: 0.9, // word weight: count^0.9
  gramWeight: 0.75, // character weight: count^0.75
});

/** 64-bit fingerprint of a text as 16 lowercase hex digits. */
export function fingerprint(text: string): string {
  return simhashHex(text, FINGERPRINT_OPTIONS);
}

/** The fingerprint with other feature choices: for measuring alternatives, never stored. */
export function fingerprintWith(text: string, options: SimhashOptions): string {
  return simhashHex(text, options);
}
