// Turns normalised text into 64-bit feature hashes in one pass, without building token strings:
// words (optionally as shingles of consecutive words) for spaced scripts, character n-grams over
// runs of Han/kana/Thai. Whitespace inside a run does not break it (extracted text wraps lines).
import { combine, finish, SEED_A, SEED_B, stepA, stepB } from './hash';
import { astralClass, BMP_CLASS, GRAM, WORD } from './scripts';

export interface FeatureOptions {
  /** Words per feature for spaced scripts: 1 = single words, 2 = pairs of consecutive words... */
  wordShingle: number;
  /** Characters per n-gram for scripts written without spaces. */
  gram: number;
}

/** Receives each feature's 64-bit hash as two unsigned 32-bit halves. */
export type FeatureSink = (hi: number, lo: number) => void;

const MAX_N = 8;

/** Scans `text` (already normalised) and calls `emit` once per feature occurrence. */
export function scanFeatures(text: string, opts: FeatureOptions, emit: FeatureSink): void {
  const shingle = Math.max(1, Math.min(MAX_N, opts.wordShingle | 0));
  const gram = Math.max(1, Math.min(MAX_N, opts.gram | 0));
  const out = new Uint32Array(2);

  // Current word's running hashes.
  let wa = SEED_A;
  let wb = SEED_B;
  let inWord = false;
  // The last `shingle` word hashes, as a ring.
  const wordHi = new Uint32Array(MAX_N);
  const wordLo = new Uint32Array(MAX_N);
  let words = 0;
  // The current n-gram run: its last `gram` code points, as a ring.
  const run = new Int32Array(MAX_N);
  let runLen = 0;

  const endWord = (): void => {
    finish(wa, wb, out);
    wordHi[words % shingle] = out[0];
    wordLo[words % shingle] = out[1];
    words++;
    if (words >= shingle) emitShingle(shingle);
    wa = SEED_A;
    wb = SEED_B;
    inWord = false;
  };
  // Hash of the last `n` words, oldest first.
  const emitShingle = (n: number): void => {
    const start = (words - n) % shingle;
    let hi = wordHi[start];
    let lo = wordLo[start];
    for (let k = 1; k < n; k++) {
      const i = (start + k) % shingle;
      combine(hi, lo, wordHi[i], wordLo[i], out);
      hi = out[0];
      lo = out[1];
    }
    emit(hi, lo);
  };
  // Hash of the last `n` code points of the run, oldest first.
  const emitGram = (n: number): void => {
    let a = SEED_A ^ 0x5a5a;
    let b = SEED_B ^ 0x5a5a;
    for (let k = n; k > 0; k--) {
      const c = run[(runLen - k) % gram];
      a = stepA(a, c);
      b = stepB(b, c);
    }
    finish(a, b, out);
    emit(out[0], out[1]);
  };
  const endRun = (): void => {
    // A run shorter than the n-gram size is one feature of its own.
    if (runLen > 0 && runLen < gram) emitGram(runLen);
    runLen = 0;
  };

  const len = text.length;
  for (let i = 0; i < len; i++) {
    let c = text.charCodeAt(i);
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
      if (runLen > 0) endRun();
      wa = stepA(wa, c);
      wb = stepB(wb, c);
      inWord = true;
    } else if (cls === GRAM) {
      if (inWord) endWord();
      run[runLen % gram] = c;
      runLen++;
      if (runLen >= gram) emitGram(gram);
    } else {
      if (inWord) endWord();
      // Spaces and line breaks inside a run of Han or kana are layout, not content.
      if (runLen > 0 && !(c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) endRun();
    }
  }
  if (inWord) endWord();
  endRun();
  // A text of fewer words than a shingle still has one feature.
  if (words > 0 && words < shingle) emitShingle(words);
}
