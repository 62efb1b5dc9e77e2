// The one scan of the normalised text behind digestArticle. Three things read that same text: the
// fingerprint's features (single words; Han characters alone, kana pairs, Thai-like triples), the
// sketch's shingles (word triples, character triples) and the text hash. Separately, each scans and
// tokenizes it again; here one loop classifies each character once, hashes each word once (a
// word's 64-bit hash is the fingerprint feature and the sketch's shingle part), and feeds all three.
//
// The work is done in stages, in batches. The loop over the characters only steps the running
// hashes and writes, for each feature, its two running states to a batch; a second loop finishes
// those into 64-bit hashes and counts them, a third makes the word triples. Written as one loop,
// the helpers it needs (finishing, combining, two hash tables) outgrow V8's inlining budget, which
// then calls them one by one: that scan was about 1.1 times slower on English and 1.4 times on
// Chinese (the corpus of bench:speed).
//
// It must give exactly what scanFeatures gives with FINGERPRINT_OPTIONS and with SKETCH_SHINGLES,
// and what textHash computes: tests/unit/digest.test.ts checks it on every kind of text. Change
// those options and this scan must change with them.
import { combine, finish, SEED_A, SEED_B, stepA, stepB } from './hash';
import { GRAM_FEATURE, hanIndex, WORD_FEATURE } from './features';
import { ABUGIDA, astralClass, BMP_CLASS, HAN, isRunClass, WORD } from './scripts';
import type { FeatureCounter } from './simhash';
import type { SketchBuilder } from './sketch';
import { isTextHashSpace, textHashHex } from './text-hash';

/** A feature that is the sketch's only (a character triple); the fingerprint's are WORD_FEATURE and GRAM_FEATURE. */
const SKETCH_GRAM = 2;
/** A fingerprint n-gram counted by its character (a main-block Han character's: features.ts's hanIndex). */
const HAN_GRAM = 3;

/** Features per batch; each takes three numbers: its kind and the two running hash states. */
const BATCH = 2048;
/** A character adds at most three features (a word ending, a fingerprint n-gram, a sketch triple). */
const batch = new Uint32Array(3 * (BATCH + 3));
/** Hashes of the words of a batch (high and low halves), for the sketch's word triples. */
const wordHashes = new Uint32Array(2 * (BATCH + 3));
const out = new Uint32Array(2);

/** Code points of the current run of characters written without spaces, as a ring (as in features.ts). */
const RING = 8;
const run = new Int32Array(RING);

/** The word triples span batches: the last two word hashes (p2 the older) and how many words so far. */
const triples = { words: 0, p1hi: 0, p1lo: 0, p2hi: 0, p2lo: 0 };

/**
 * Scans `text` (already normalised, or plain and read through `fold`: normalize.ts's plainFold):
 * counts the fingerprint's features into `counter`, adds the sketch's shingles to `sketch`, and
 * returns the text hash.
 */
export function scanForDigest(text: string, counter: FeatureCounter, sketch: SketchBuilder, fold?: Uint16Array): string {
  triples.words = 0;
  const len = text.length;
  let n = 0; // numbers of `batch` in use
  // Running hashes of the current word.
  let wa = SEED_A;
  let wb = SEED_B;
  let inWord = false;
  let runLen = 0;
  // The text hash: every code unit but whitespace.
  let ta = SEED_A;
  let tb = SEED_B;
  let tn = 0;

  // One step past the end, on a space: it ends the last word like any other.
  for (let i = 0; i <= len; i++) {
    if (n >= 3 * BATCH) {
      countBatch(n, counter, sketch);
      n = 0;
    }
    let c = i < len ? text.charCodeAt(i) : 0x20;
    if (fold !== undefined) c = (c + fold[c]) & 0xffff;
    if (!isTextHashSpace(c)) {
      ta = stepA(ta, c);
      tb = stepB(tb, c);
      tn++;
    }
    let cls: number;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        // The text hash takes code units: the low surrogate too.
        ta = stepA(ta, d);
        tb = stepB(tb, d);
        tn++;
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
      batch[n] = WORD_FEATURE;
      batch[n + 1] = wa;
      batch[n + 2] = wb;
      n += 3;
      wa = SEED_A;
      wb = SEED_B;
      inWord = false;
    }
    if (isRunClass(cls)) {
      run[runLen & (RING - 1)] = c;
      runLen++;
      // The fingerprint's n-gram: a Han character alone, kana with the one before, Thai-like with
      // the two before (fewer at the start of a run). A common Han character's is counted by the character.
      const k = cls === HAN ? hanIndex(c) : -1;
      if (k >= 0) {
        batch[n] = HAN_GRAM;
        batch[n + 1] = k;
      } else {
        let g = cls === HAN ? 1 : cls === ABUGIDA ? 3 : 2;
        if (g > runLen) g = runLen;
        let a = SEED_A ^ 0x5a5a;
        let b = SEED_B ^ 0x5a5a;
        for (let k = g; k > 0; k--) {
          const x = run[(runLen - k) & (RING - 1)];
          a = stepA(a, x);
          b = stepB(b, x);
        }
        batch[n] = GRAM_FEATURE;
        batch[n + 1] = a;
        batch[n + 2] = b;
      }
      // The sketch's character triple (fewer at the start of a run).
      const g = runLen < 3 ? runLen : 3;
      let a = SEED_A ^ 0x5a5a;
      let b = SEED_B ^ 0x5a5a;
      for (let k = g; k > 0; k--) {
        const x = run[(runLen - k) & (RING - 1)];
        a = stepA(a, x);
        b = stepB(b, x);
      }
      batch[n + 3] = SKETCH_GRAM;
      batch[n + 4] = a;
      batch[n + 5] = b;
      n += 6;
    } else if (!(c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) {
      // Spaces and line breaks inside a run are layout, not content; anything else ends the run.
      runLen = 0;
    }
  }
  countBatch(n, counter, sketch);
  // A text of one or two words still has one sketch shingle: its words.
  const t = triples;
  if (t.words === 1) sketch.add(t.p1hi, t.p1lo);
  else if (t.words === 2) {
    combine(t.p2hi, t.p2lo, t.p1hi, t.p1lo, out);
    sketch.add(out[0], out[1]);
  }
  return textHashHex(ta, tb, tn);
}

/** Finishes the features of a batch, in text order (the counter's order of first occurrence), and counts them. */
function countBatch(n: number, counter: FeatureCounter, sketch: SketchBuilder): void {
  let words = 0;
  for (let k = 0; k < n; k += 3) {
    const kind = batch[k];
    if (kind === HAN_GRAM) {
      counter.addHan(batch[k + 1]);
      continue;
    }
    finish(batch[k + 1], batch[k + 2], out);
    const hi = out[0];
    const lo = out[1];
    if (kind === SKETCH_GRAM) {
      sketch.add(hi, lo);
      continue;
    }
    counter.add(hi, lo, kind);
    if (kind === WORD_FEATURE) {
      wordHashes[2 * words] = hi;
      wordHashes[2 * words + 1] = lo;
      words++;
    }
  }
  addWordTriples(words, sketch);
}

/** Adds to the sketch the word triple ending with each of the batch's `count` words. */
function addWordTriples(count: number, sketch: SketchBuilder): void {
  const t = triples;
  for (let k = 0; k < count; k++) {
    const hi = wordHashes[2 * k];
    const lo = wordHashes[2 * k + 1];
    if (++t.words >= 3) {
      // combine(combine(oldest, middle), newest), as scanFeatures chains a shingle.
      let h = t.p2hi;
      let l = t.p2lo;
      for (let j = 0; j < 2; j++) {
        combine(h, l, j === 0 ? t.p1hi : hi, j === 0 ? t.p1lo : lo, out);
        h = out[0];
        l = out[1];
      }
      sketch.add(h, l);
    }
    t.p2hi = t.p1hi;
    t.p2lo = t.p1lo;
    t.p1hi = hi;
    t.p1lo = lo;
  }
}
