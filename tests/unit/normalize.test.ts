// Plain text is read without normalising (core/normalize.ts): each code unit folded through a table
// must give exactly what normalizeText gives, so fingerprints, text hashes and sketches do not change.
import { describe, expect, it } from 'vitest';
import { digestArticle, encodeSketch, fingerprint, FINGERPRINT_OPTIONS, normalizeText, sketchOf, textHash, toHex } from '../../src/core';
import { foldTable, normalizedInPlace, plainFold } from '../../src/core/normalize';
import { simhashNormalized } from '../../src/core/simhash';
import { VECTORS } from '../fixtures/vectors';

/** A character above U+00FF: text of Latin-1 alone is always left to the engine, so the tests add one. */
const WIDE = '一';
const table = foldTable();
const isPlain = (c: number): boolean => plainFold(String.fromCharCode(c) + WIDE) !== undefined;
const folded = (c: number): string => String.fromCharCode((c + table[c]) & 0xffff);
const foldAll = (text: string): string => Array.from(text, (ch) => folded(ch.charCodeAt(0))).join('');
/** The fingerprint as it was computed before plain text was read unnormalised. */
const normalisedFingerprint = (text: string): string => {
  const r = simhashNormalized(normalizeText(text), FINGERPRINT_OPTIONS);
  return toHex(r.hi, r.lo);
};

const plainUnits: number[] = [];
for (let c = 0; c < 0x10000; c++) if (isPlain(c)) plainUnits.push(c);

describe('plain text, read without normalising', () => {
  it('folds every plain character to its NFKC form lower-cased: one character, plain, that folds to itself', () => {
    const wrong = plainUnits.filter((c) => normalizeText(String.fromCharCode(c)) !== folded(c) || !isPlain(folded(c).charCodeAt(0)) || folded(folded(c).charCodeAt(0)) !== folded(c));
    expect(wrong.map((c) => c.toString(16))).toEqual([]);
    // ASCII, Latin-1 letters, CJK punctuation, kana, the Han blocks and the full-width forms.
    expect(plainUnits.length).toBeGreaterThan(28_000);
  });

  it('normalises a plain character beside others as it does alone (NFKC composes nothing across them)', () => {
    const neighbours = ['a', 'Z', 'e', 'À', ' ', '\u00a0', '\u3000', '\u2009', 'か', 'ゝ', 'カ', '一', '，', 'Ａ', '。', '“', '0', '\n'];
    const wrong: string[] = [];
    plainUnits.forEach((c, k) => {
      const before = neighbours[k % neighbours.length];
      const after = neighbours[(k * 7 + 3) % neighbours.length];
      const text = before + String.fromCharCode(c) + after;
      if (normalizeText(text) !== foldAll(text)) wrong.push(c.toString(16));
    });
    expect(wrong).toEqual([]);
  });

  it('leaves to the engine text with a character that is not plain, and text of Latin-1 alone', () => {
    // ½ (two characters), e + a combining accent, half-width カ + its sound mark, Σ (lower case depends on
    // the next letter), …, the ligature ﬁ, ①, a character outside the BMP, a combining tone mark, ¨.
    for (const odd of ['½', 'e\u0301', 'ｶﾞ', 'Σ', '…', 'ﬁ', '①', '𠀀', '\u302a', '¨']) {
      expect(plainFold(`读者${odd}读者`), odd).toBeUndefined();
      expect(fingerprint(`图书馆的读者${odd}借了ＡＢＣ`)).toBe(normalisedFingerprint(`图书馆的读者${odd}借了ＡＢＣ`));
    }
    expect(plainFold('Café À LA CARTE')).toBeUndefined();
  });

  it('reads the pinned vectors of Chinese and Japanese unnormalised (they check it in Node and both browsers)', () => {
    for (const name of ['chinese', 'japanese', 'halfwidth', 'folded', 'megabyte']) expect(plainFold(VECTORS[name].text()), name).toBeDefined();
  });

  it('gives the fingerprint, text hash and sketch that normalising first gives', () => {
    // Random texts of plain characters of every kind: capitals, spaces that fold, full-width forms, kana, Han.
    const pool = ['A', 'b', 'Q', 'É', 'ü', ' ', ' ', '\n', '\u00a0', '\u3000', '\u200a', 'か', 'ゞ', 'ル', '一', '读', '书', '，', '。', 'Ｒ', 'ｅ', '７', '（', '“', '-', '.', 'x'];
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let n = 0; n < 300; n++) {
      let text = WIDE;
      const length = next() % 400;
      for (let k = 0; k < length; k++) text += pool[next() % pool.length];
      expect(plainFold(text)).toBeDefined();
      const digest = digestArticle(text);
      expect({ fp: fingerprint(text), digestFp: digest.fp, textHash: digest.textHash, sketch: digest.sketch }).toEqual({
        fp: normalisedFingerprint(text),
        digestFp: normalisedFingerprint(text),
        textHash: textHash(text),
        sketch: encodeSketch(sketchOf(text)),
      });
    }
  });
});

describe('normalizedInPlace', () => {
  it('is the text normalised where every slice of it is that slice normalised, and undefined where it is not', () => {
    const inPlace = ['Plain English, with “curly quotes” — and a dash.', '这裡的溫度很低，大家都穿著外套。', 'Latin-1 only: naïve façade, Ærøskøbing, señor, «quoted».', 'ＦＵＬＬ width'];
    const not = ['Half ½ a cup', 'stir ¨ twice', 'cafe\u0301 latte', 'ﬁne ligature', 'ｶﾞｲﾄﾞ (half-width kana with voicing marks)'];
    for (const text of inPlace) {
      const normal = normalizedInPlace(text);
      expect(normal, text).toBe(normalizeText(text));
      for (let i = 0; i < text.length; i++) for (let j = i; j <= text.length; j++) expect(normal?.slice(i, j)).toBe(normalizeText(text.slice(i, j)));
    }
    for (const text of not) expect(normalizedInPlace(text), text).toBeUndefined();
  });
});
