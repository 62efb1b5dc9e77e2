// The one scan of the normalised text behind digestArticle. Three things read that same text: the
// fingerprint's features (single words; Han characters alone, kana pairs, Thai-like triples), the
// sketch's shingles (word triples, character triples) and the text hash. Separately, each scans and
// tokenizes it again; here one loop classifies each character once, hashes each word once (a
// word's 64-bit hash is the fingerprint feature and the sketch's shingle part), and feeds all three.
//
// It must give exactly what scanFeatures gives with FINGERPRINT_OPTIONS and with SKETCH_SHINGLES,
// and what textHash computes: tests/unit/digest.test.ts checks it on every kind of text. Change
// those options and this scan must change with them.
import { combine, finish, SEED_A, SEED_B, stepA, stepB } from './hash';
import { GRAM_FEATURE, WORD_FEATURE } from './features';
import { ABUGIDA, astralClass, BMP_CLASS, HAN, isRunClass, WORD } from './scripts';
import type { FeatureCounter } from './simhash';
import type { SketchBuilder } from './sketch';
import { isTextHashSpace, textHashHex } from './text-hash';

/** Code points of the current run of characters written without spaces, as a ring (as in features.ts). */
const RING = 8;
const run = new Int32Array(RING);
const out = new Uint32Array(2);

/**
 * Scans `text` (already normalised): counts the fingerprint's features into `counter`, adds the
 * sketch's shingles to `sketch`, and returns the text hash.
 */
export function scanForDigest(text: string, counter: FeatureCounter, sketch: SketchBuilder): string {
  const len = text.length;
  // Running hashes of the current word.
  let wa = SEED_A;
  let wb = SEED_B;
  let inWord = false;
  let words = 0;
  // Hashes of the two words before the current one (p2 the older): a word triple ends with each word.
  let p1hi = 0;
  let p1lo = 0;
  let p2hi = 0;
  let p2lo = 0;
  let runLen = 0;
  // The text hash: every code unit but whitespace.
  let ta = SEED_A;
  let tb = SEED_B;
  let tn = 0;

  // One step past the end, on a space: it ends the last word like any other.
  for (let i = 0; i <= len; i++) {
    let c = i < len ? text.charCodeAt(i) : 0x20;
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
      // The word ends: its hash is a fingerprint feature and the last word of a sketch triple.
      finish(wa, wb, out);
      const hi = out[0];
      const lo = out[1];
      counter.add(hi, lo, WORD_FEATURE);
      if (++words >= 3) {
        combine(p2hi, p2lo, p1hi, p1lo, out);
        combine(out[0], out[1], hi, lo, out);
        sketch.add(out[0], out[1]);
      }
      p2hi = p1hi;
      p2lo = p1lo;
      p1hi = hi;
      p1lo = lo;
      wa = SEED_A;
      wb = SEED_B;
      inWord = false;
    }
    if (isRunClass(cls)) {
      run[runLen & (RING - 1)] = c;
      runLen++;
      // The fingerprint's n-gram: a Han character alone, kana with the one before, Thai-like with
      // the two before (fewer at the start of a run).
      let n = cls === HAN ? 1 : cls === ABUGIDA ? 3 : 2;
      if (n > runLen) n = runLen;
      let a = SEED_A ^ 0x5a5a;
      let b = SEED_B ^ 0x5a5a;
      for (let k = n; k > 0; k--) {
        const x = run[(runLen - k) & (RING - 1)];
        a = stepA(a, x);
        b = stepB(b, x);
      }
      finish(a, b, out);
      counter.add(out[0], out[1], GRAM_FEATURE);
      // The sketch's character triple (fewer at the start of a run).
      n = runLen < 3 ? runLen : 3;
      a = SEED_A ^ 0x5a5a;
      b = SEED_B ^ 0x5a5a;
      for (let k = n; k > 0; k--) {
        const x = run[(runLen - k) & (RING - 1)];
        a = stepA(a, x);
        b = stepB(b, x);
      }
      finish(a, b, out);
      sketch.add(out[0], out[1]);
    } else if (!(c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) {
      // Spaces and line breaks inside a run are layout, not content; anything else ends the run.
      runLen = 0;
    }
  }
  // A text of one or two words still has one sketch shingle: its words.
  if (words === 1) sketch.add(p1hi, p1lo);
  else if (words === 2) {
    combine(p2hi, p2lo, p1hi, p1lo, out);
    sketch.add(out[0], out[1]);
  }
  return textHashHex(ta, tb, tn);
}
