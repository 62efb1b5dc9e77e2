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
/** Thai, Lao, Khmer, Myanmar (and Tai scripts, Javanese, Balinese, Buginese): written without spaces between words, one character a sound. */
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
  // More scripts of living languages, each as it separates words. Spaced: a letter, digit or mark
  // is WORD, punctuation stays SEP. Tibetan separates syllables (with the tsheg, U+0F0B), so each
  // syllable is a word. Written without spaces, one letter a sound, as Thai: ABUGIDA.
  [0x710, 0x74f, WORD], // Syriac
  [0x750, 0x77f, WORD], // Arabic Supplement
  [0x780, 0x7b1, WORD], // Thaana (Dhivehi)
  [0x7c0, 0x7f5, WORD], // N'Ko
  [0x7fa, 0x7fa, WORD], // N'Ko lengthening, inside words
  [0x800, 0x82d, WORD], // Samaritan
  [0x840, 0x85b, WORD], // Mandaic
  [0x860, 0x86a, WORD], // Syriac Supplement
  [0x870, 0x8ff, WORD], // Arabic Extended-B and -A (languages of Africa and Asia)
  [0xf00, 0xf00, WORD], // Tibetan: om
  [0xf18, 0xf19, WORD], // Tibetan marks inside syllables
  [0xf20, 0xf33, WORD], // Tibetan digits
  [0xf35, 0xf35, WORD],
  [0xf37, 0xf37, WORD],
  [0xf39, 0xf39, WORD],
  [0xf3e, 0xf84, WORD], // Tibetan letters, vowel signs, subjoined letters
  [0xf86, 0xfbc, WORD],
  [0xfc6, 0xfc6, WORD],
  [0x1050, 0x108f, ABUGIDA], // Myanmar letters of Mon, Shan, Karen...
  [0x1090, 0x1099, WORD], // Shan digits
  [0x109a, 0x109d, ABUGIDA],
  [0x1200, 0x135a, WORD], // Ethiopic (Amharic, Tigrinya...): the wordspace ፡ and full stop ። separate
  [0x135d, 0x135f, WORD],
  [0x1369, 0x137c, WORD], // Ethiopic numbers
  [0x1380, 0x138f, WORD], // Ethiopic Supplement
  [0x13a0, 0x13fd, WORD], // Cherokee
  [0x1401, 0x166c, WORD], // Canadian Aboriginal Syllabics (Inuktitut, Cree...)
  [0x166f, 0x167f, WORD],
  [0x1681, 0x169a, WORD], // Ogham
  [0x16a0, 0x16ea, WORD], // Runic
  [0x1700, 0x1715, WORD], // Tagalog (Baybayin), Hanunoo, Buhid, Tagbanwa
  [0x171f, 0x1734, WORD],
  [0x1740, 0x1753, WORD],
  [0x1760, 0x1773, WORD],
  [0x180b, 0x180f, WORD], // Mongolian variation selectors, inside words
  [0x1810, 0x1819, WORD], // Mongolian digits
  [0x1820, 0x1878, WORD], // Mongolian
  [0x1880, 0x18aa, WORD],
  [0x18b0, 0x18f5, WORD], // Canadian Aboriginal Syllabics Extended
  [0x1900, 0x193b, WORD], // Limbu
  [0x1946, 0x194f, WORD],
  [0x1950, 0x1974, ABUGIDA], // Tai Le
  [0x1980, 0x19c9, ABUGIDA], // New Tai Lue
  [0x19d0, 0x19da, WORD],
  [0x1a00, 0x1a1b, ABUGIDA], // Buginese
  [0x1a20, 0x1a7f, ABUGIDA], // Tai Tham (Northern Thai, Tai Khün, Lü)
  [0x1a80, 0x1a99, WORD], // Tai Tham digits
  [0x1ab0, 0x1aff, WORD], // combining diacritics, inside words
  [0x1b00, 0x1b4c, ABUGIDA], // Balinese
  [0x1b50, 0x1b59, WORD],
  [0x1b80, 0x1bbf, WORD], // Sundanese
  [0x1bc0, 0x1bf3, WORD], // Batak
  [0x1c00, 0x1c37, WORD], // Lepcha
  [0x1c40, 0x1c49, WORD],
  [0x1c4d, 0x1c7d, WORD], // Ol Chiki (Santali)
  [0x1c80, 0x1c88, WORD], // Cyrillic Extended-C
  [0x1c90, 0x1cbf, WORD], // Georgian Mtavruli
  [0x1cd0, 0x1cfa, WORD], // Vedic marks
  [0x1d00, 0x1dff, WORD], // phonetic extensions, combining diacritics supplement
  [0x2c00, 0x2c7f, WORD], // Glagolitic, Latin Extended-C
  [0x2c80, 0x2ce4, WORD], // Coptic
  [0x2ceb, 0x2cf3, WORD],
  [0x2d00, 0x2d2d, WORD], // Georgian Supplement
  [0x2d30, 0x2d67, WORD], // Tifinagh (Tamazight)
  [0x2d6f, 0x2d6f, WORD],
  [0x2d7f, 0x2d7f, WORD],
  [0x2d80, 0x2dde, WORD], // Ethiopic Extended
  [0x2de0, 0x2dff, WORD], // Cyrillic Extended-A
  [0xa4d0, 0xa4fd, WORD], // Lisu
  [0xa500, 0xa60c, WORD], // Vai
  [0xa610, 0xa62b, WORD],
  [0xa640, 0xa69f, WORD], // Cyrillic Extended-B
  [0xa6a0, 0xa6f1, WORD], // Bamum
  [0xa717, 0xa71f, WORD], // tone letters
  [0xa722, 0xa7ff, WORD], // Latin Extended-D
  [0xa800, 0xa82c, WORD], // Syloti Nagri
  [0xa840, 0xa873, WORD], // Phags-pa
  [0xa880, 0xa8c5, WORD], // Saurashtra
  [0xa8d0, 0xa8d9, WORD],
  [0xa8e0, 0xa8ff, WORD], // Devanagari Extended
  [0xa900, 0xa92d, WORD], // Kayah Li
  [0xa930, 0xa953, WORD], // Rejang
  [0xa960, 0xa97c, WORD], // Hangul Jamo Extended-A
  [0xa980, 0xa9c0, ABUGIDA], // Javanese
  [0xa9cf, 0xa9d9, WORD],
  [0xa9e0, 0xa9fe, ABUGIDA], // Myanmar Extended-B
  [0xaa00, 0xaa36, WORD], // Cham
  [0xaa40, 0xaa59, WORD],
  [0xaa60, 0xaa7f, ABUGIDA], // Myanmar Extended-A
  [0xaa80, 0xaac2, ABUGIDA], // Tai Viet
  [0xaadb, 0xaadd, ABUGIDA],
  [0xaae0, 0xaaef, WORD], // Meetei Mayek Extensions
  [0xaaf2, 0xaaf6, WORD],
  [0xab01, 0xab2e, WORD], // Ethiopic Extended-A
  [0xab30, 0xab6f, WORD], // Latin Extended-E
  [0xab70, 0xabbf, WORD], // Cherokee Supplement
  [0xabc0, 0xabea, WORD], // Meetei Mayek (Manipuri)
  [0xabec, 0xabed, WORD],
  [0xabf0, 0xabf9, WORD],
  [0xd7b0, 0xd7fb, WORD], // Hangul Jamo Extended-B
  [0xffa0, 0xffdc, WORD], // half-width Hangul
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
