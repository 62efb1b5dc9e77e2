// Turns normalised text into 64-bit feature hashes in one pass, without building token strings:
// words (optionally as shingles of consecutive words) for spaced scripts; for scripts written
// without spaces, character n-grams over runs, sized by how much one character means: a Han
// character (about a morpheme) alone, a kana with the character before it (a syllable is too
// little), a Thai/Lao/Khmer/Myanmar letter with the two before it. Whitespace inside a run does
// not break it: extracted text wraps lines anywhere.
import { combine, finish, SEED_A, SEED_B, stepA, stepB } from './hash';
import { ABUGIDA, astralClass, BMP_CLASS, HAN, isRunClass, WORD } from './scripts';

export interface FeatureOptions {
  /** Words per feature for spaced scripts: 1 = single words, 2 = pairs of consecutive words... */
  wordShingle: number;
  /** Characters per n-gram ending in a Han character (kana n-grams are at least 2, Thai at least 3). */
  gram: number;
}

/** Which tokenizer branch made a feature. */
export const WORD_FEATURE = 0;
export const GRAM_FEATURE = 1;

/** Receives each feature's 64-bit hash as two unsigned 32-bit halves, and its kind. */
export type FeatureSink = (hi: number, lo: number, kind: number) => void;

const MAX_N = 8;

/**
 * The n-gram feature of a Han character alone (n = 1, the fingerprint's choice) depends on that
 * character only. For the main blocks (Extension A and the Unified Ideographs) a scan can hand it
 * on as the character's index (countHan) rather than as its hash, so a Chinese text, where nearly
 * every character is one, need not hash each: the counter counts them by index (simhash.ts), and
 * hanFeature makes the hash once per distinct character. Both scans do: this one and digest-scan.ts.
 */
const HAN_FIRST = 0x3400;
const HAN_LAST = 0x9fff;
/** How many characters hanIndex numbers. */
export const HAN_CHARS = HAN_LAST - HAN_FIRST + 1;

/** The index of Han character `c` among the main blocks' (0 to HAN_CHARS − 1), or -1 for one outside them. */
export function hanIndex(c: number): number {
  return c >= HAN_FIRST && c <= HAN_LAST ? c - HAN_FIRST : -1;
}

/** The feature of the Han character at index `k` alone: its high half to `out[0]`, its low half to `out[1]`. */
export function hanFeature(k: number, out: Uint32Array): void {
  const c = k + HAN_FIRST;
  finish(stepA(SEED_A ^ 0x5a5a, c), stepB(SEED_B ^ 0x5a5a, c), out);
}

/**
 * Scans `text` (already normalised, or plain and read through `fold`: normalize.ts's plainFold) and
 * calls `emit` once per feature occurrence. With `gram` 1 and `countHan`, the feature of a Han
 * character of the main blocks goes to `countHan` instead, as the character's hanIndex (hanFeature
 * gives its hash).
 */
export function scanFeatures(text: string, opts: FeatureOptions, emit: FeatureSink, countHan?: (k: number) => void, fold?: Uint16Array): void {
  const shingle = Math.max(1, Math.min(MAX_N, opts.wordShingle | 0));
  const gram = Math.max(1, Math.min(MAX_N, opts.gram | 0));
  const kanaGram = Math.max(2, gram);
  const abugidaGram = Math.max(3, gram);
  const out = new Uint32Array(2);
  // The last `shingle` word hashes, as a ring.
  const wordHi = new Uint32Array(MAX_N);
  const wordLo = new Uint32Array(MAX_N);
  // The current run of characters written without spaces: its last MAX_N code points, as a ring.
  const run = new Int32Array(MAX_N);
  // Single Han characters' features are counted by the character (the fingerprint's case).
  const byIndex = gram === 1 ? countHan : undefined;

  // Emits the shingle of the `n` words ending with word number `words - 1`, oldest first.
  const emitShingle = (n: number, words: number): void => {
    const start = (words - n) % shingle;
    let hi = wordHi[start];
    let lo = wordLo[start];
    for (let k = 1; k < n; k++) {
      const i = (start + k) % shingle;
      combine(hi, lo, wordHi[i], wordLo[i], out);
      hi = out[0];
      lo = out[1];
    }
    emit(hi, lo, WORD_FEATURE);
  };
  // Stores a finished word (running hashes wa, wb) as word number `words`, emitting its shingle.
  const endWord = (wa: number, wb: number, words: number): void => {
    finish(wa, wb, out);
    wordHi[words % shingle] = out[0];
    wordLo[words % shingle] = out[1];
    if (words + 1 >= shingle) emitShingle(shingle, words + 1);
  };

  // Loop state lives in locals (not captured by closures) so the engine keeps it in registers.
  let wa = SEED_A;
  let wb = SEED_B;
  let inWord = false;
  let words = 0;
  let runLen = 0;
  const len = text.length;
  for (let i = 0; i < len; i++) {
    let c = text.charCodeAt(i);
    if (fold !== undefined) c = (c + fold[c]) & 0xffff;
    if (c >= 0x4e00 && c <= 0x9fff && !inWord && byIndex !== undefined) {
      // The commonest character of Chinese text, a Han character of the main block after no word:
      // what the run branch below does for it, in short.
      run[runLen & (MAX_N - 1)] = c;
      runLen++;
      byIndex(c - HAN_FIRST);
      continue;
    }
    let cls: number;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      }
      cls = astralClass(c);
    } else {
      cls = BMP_CLASS[c];
    }
    if (cls === WORD) {
      runLen = 0;
      wa = stepA(wa, c);
      wb = stepB(wb, c);
      inWord = true;
      continue;
    }
    if (inWord) {
      endWord(wa, wb, words++);
      wa = SEED_A;
      wb = SEED_B;
      inWord = false;
    }
    if (isRunClass(cls)) {
      run[runLen & (MAX_N - 1)] = c;
      runLen++;
      if (byIndex && cls === HAN) {
        const k = hanIndex(c);
        if (k >= 0) {
          byIndex(k);
          continue;
        }
      }
      // At the start of a run the n-gram is shorter: every character still counts once.
      let n = cls === HAN ? gram : cls === ABUGIDA ? abugidaGram : kanaGram;
      if (n > runLen) n = runLen;
      let a = SEED_A ^ 0x5a5a;
      let b = SEED_B ^ 0x5a5a;
      for (let k = n; k > 0; k--) {
        const x = run[(runLen - k) & (MAX_N - 1)];
        a = stepA(a, x);
        b = stepB(b, x);
      }
      finish(a, b, out);
      emit(out[0], out[1], GRAM_FEATURE);
    } else if (!(c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) {
      // Spaces and line breaks inside a run are layout, not content; anything else ends the run.
      runLen = 0;
    }
  }
  if (inWord) endWord(wa, wb, words++);
  // A text of fewer words than a shingle still has one feature.
  if (words > 0 && words < shingle) emitShingle(words, words);
}
