// Character classes of the tokenizer, from fixed code point ranges written here rather than from
// the engine's Unicode tables, so every runtime (Chrome, Firefox, Node) splits text the same way.

/** Not part of any feature: spaces, punctuation, symbols, emoji. */
export const SEP = 0;
/** A letter or digit of a script that separates words with spaces (Latin, Cyrillic, Greek, Korean...). */
export const WORD = 1;
/** A Han ideograph: written without spaces, and one character carries about a morpheme. */
export const HAN = 2;
/** Kana: written without spaces, one character a syllable. */
export const KANA = 3;
/** Thai, Lao, Khmer, Myanmar: written without spaces between words, one character a sound. */
export const ABUGIDA = 4;

/** Scripts written without spaces: their features are character n-grams over runs. */
export function isRunClass(cls: number): boolean {
  return cls >= HAN;
}

// [first, last, class] — later ranges override earlier ones.
const RANGES: ReadonlyArray<readonly [number, number, number]> = [
  [0x30, 0x39, WORD], // 0-9
  [0x41, 0x5a, WORD], // A-Z (lowercased before scanning, kept for direct callers)
  [0x61, 0x7a, WORD], // a-z
  [0xaa, 0xaa, WORD],
  [0xb5, 0xb5, WORD],
  [0xba, 0xba, WORD],
  [0xc0, 0x24f, WORD], // Latin-1 letters, Latin Extended-A/B
  [0xd7, 0xd7, SEP], // ×
  [0xf7, 0xf7, SEP], // ÷
  [0x250, 0x2af, WORD], // IPA
  [0x300, 0x36f, WORD], // combining diacritics stay inside their word
  [0x370, 0x3ff, WORD], // Greek
  [0x37e, 0x37e, SEP], // Greek question mark
  [0x387, 0x387, SEP], // Greek ano teleia
  [0x400, 0x52f, WORD], // Cyrillic
  [0x531, 0x587, WORD], // Armenian
  [0x591, 0x5f2, WORD], // Hebrew
  [0x610, 0x61a, WORD],
  [0x620, 0x669, WORD], // Arabic letters, marks, digits
  [0x66e, 0x6d3, WORD],
  [0x6d5, 0x6ff, WORD],
  [0x900, 0xdff, WORD], // Indic scripts (Devanagari ... Sinhala)
  [0x964, 0x965, SEP], // danda
  [0xe01, 0xe3a, ABUGIDA], // Thai
  [0xe40, 0xe4e, ABUGIDA],
  [0xe50, 0xe59, WORD], // Thai digits
  [0xe81, 0xedf, ABUGIDA], // Lao
  [0x1000, 0x1049, ABUGIDA], // Myanmar
  [0x10a0, 0x10ff, WORD], // Georgian
  [0x1100, 0x11ff, WORD], // Hangul Jamo
  [0x1780, 0x17d3, ABUGIDA], // Khmer
  [0x1e00, 0x1fff, WORD], // Latin Extended Additional, Greek Extended
  [0x3005, 0x3007, HAN], // 々 〆 〇
  [0x3041, 0x309f, KANA], // Hiragana
  [0x30a1, 0x30fa, KANA], // Katakana
  [0x30fc, 0x30ff, KANA], // ー ヽ ヾ ヿ
  [0x3131, 0x318e, WORD], // Hangul compatibility Jamo
  [0x31f0, 0x31ff, KANA], // Katakana phonetic extensions
  [0x3400, 0x4dbf, HAN], // CJK Extension A
  [0x4e00, 0x9fff, HAN], // CJK Unified Ideographs
  [0xac00, 0xd7a3, WORD], // Hangul syllables: Korean separates words with spaces
  [0xf900, 0xfaff, HAN], // CJK compatibility ideographs
  [0xff10, 0xff19, WORD], // full-width digits and letters (NFKC folds them; kept for direct callers)
  [0xff21, 0xff3a, WORD],
  [0xff41, 0xff5a, WORD],
  [0xff66, 0xff9f, KANA], // half-width katakana
];

/** Class of every BMP code unit. */
export const BMP_CLASS: Uint8Array = (() => {
  const table = new Uint8Array(0x10000);
  for (const [first, last, cls] of RANGES) table.fill(cls, first, last + 1);
  return table;
})();

/** Class of a code point outside the BMP: CJK extensions B-H (planes 2 and 3) are Han; the rest separates. */
export function astralClass(cp: number): number {
  return cp >= 0x20000 && cp <= 0x3ffff ? HAN : SEP;
}

/** Han or kana: the characters the reading-length estimate counts one by one. */
export function isHanOrKana(c: number): boolean {
  return (c >= 0x3041 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff);
}
