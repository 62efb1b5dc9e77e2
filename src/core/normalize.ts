// Normalisation before fingerprinting: compatibility forms (full-width letters, ligatures, circled
// digits) fold to their plain form under NFKC, then case folds, then Traditional Chinese characters
// fold to Simplified (traditional.ts). Whitespace needs no collapsing: the tokenizer treats any run
// of it as one separator.
//
// Most text needs no more than a character-by-character fold: Chinese and Japanese text of Han,
// kana and CJK punctuation (whose full-width ，：？ NFKC turns into , : ?), with English words and
// their capitals. For text made only of such "plain" characters (plainFold), a scan reads the text
// as it is and folds each code unit, which gives exactly what it would read in normalizeText's
// result, and the text is not copied: normalising a Chinese text (and collecting the copy) cost
// about a third as much as the fingerprint's scan of it.

import { simplified, simplifiedTable } from './traditional';

export function normalizeText(text: string): string {
  return simplified(text.normalize('NFKC').toLowerCase());
}

/** The text with each lone surrogate (half of a character, as a cut may leave one) as U+FFFD, as UTF-8 writes it. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/**
 * The plain characters, as [first, last, shift]: each character's NFKC form lower-cased is the one
 * character `shift` places on (0: itself); and the spaces of SPACES, whose form is U+0020. Written
 * here, not asked of the engine at each start (the content script would pay for that on every
 * page): tests/unit/normalize.test.ts checks each against normalizeText. None is a combining mark,
 * a Hangul jamo, or any other character NFKC composes with the character before it or reorders, so
 * where every character is plain, the NFKC form of the text is the forms of its characters one
 * after another. Unassigned code points are left out.
 */
const PLAIN: ReadonlyArray<readonly [number, number, number]> = [
  [0x00, 0x40, 0], // ASCII but capitals
  [0x41, 0x5a, 0x20], // A-Z
  [0x5b, 0x7f, 0],
  [0xa1, 0xa7, 0], // ¡ ¢ £ ¤ ¥ ¦ §
  [0xa9, 0xa9, 0],
  [0xab, 0xae, 0],
  [0xb0, 0xb1, 0],
  [0xb6, 0xb7, 0],
  [0xbb, 0xbb, 0],
  [0xbf, 0xbf, 0],
  [0xc0, 0xd6, 0x20], // À-Ö
  [0xd7, 0xd7, 0], // ×
  [0xd8, 0xde, 0x20], // Ø-Þ
  [0xdf, 0xff, 0], // ß-ÿ
  [0x200b, 0x2010, 0], // zero-width space and joiners, marks of direction, hyphen
  [0x2012, 0x2016, 0], // dashes
  [0x2018, 0x2023, 0], // quotation marks, daggers, bullets
  [0x2027, 0x202e, 0],
  [0x2030, 0x2032, 0],
  [0x2035, 0x2035, 0],
  [0x2038, 0x203b, 0],
  [0x203d, 0x203d, 0],
  [0x3001, 0x3029, 0], // CJK punctuation and brackets
  [0x3030, 0x3035, 0],
  [0x303b, 0x303f, 0],
  [0x3041, 0x3096, 0], // hiragana
  [0x309d, 0x309e, 0], // ゝ ゞ
  [0x30a0, 0x30fe, 0], // katakana
  [0x3400, 0x4dbf, 0], // CJK Unified Ideographs Extension A
  [0x4e00, 0x9fff, 0], // CJK Unified Ideographs
  [0xff01, 0xff20, 0x21 - 0xff01], // full-width punctuation and digits
  [0xff21, 0xff3a, 0x61 - 0xff21], // full-width capitals
  [0xff3b, 0xff5e, 0x5b - 0xff3b], // full-width punctuation and small letters
];
/** No-break space, the spaces of General Punctuation, and the ideographic space: NFKC makes each U+0020. */
const SPACES = [0xa0, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x3000];

/** For each code unit: 1 if plain. */
let plain: Uint8Array | undefined;
/** For each plain code unit: what is added to it (modulo 2^16) to fold it; Han characters as they are. */
let folds: Uint16Array | undefined;
/** The same, with each Traditional character folding to its Simplified one. */
let foldsWithHan: Uint16Array | undefined;

/** The fold table of text without a Han character, which needs no Traditional one's table built. */
function baseFoldTable(): Uint16Array {
  if (folds === undefined) {
    plain = new Uint8Array(0x10000);
    folds = new Uint16Array(0x10000);
    for (const [first, last, shift] of PLAIN) {
      plain.fill(1, first, last + 1);
      folds.fill(shift & 0xffff, first, last + 1);
    }
    for (const c of SPACES) {
      plain[c] = 1;
      folds[c] = (0x20 - c) & 0xffff;
    }
  }
  return folds;
}

/** The fold table: a plain code unit `c` folds to `(c + table[c]) & 0xffff`. Built at the first use, from ranges. */
export function foldTable(): Uint16Array {
  if (foldsWithHan === undefined) {
    foldsWithHan = baseFoldTable().slice();
    // A Han character of the main blocks is plain and its own NFKC form: it folds to its Simplified one.
    const simple = simplifiedTable();
    for (let c = 0x3400; c <= 0x9fff; c++) if (simple[c] !== 0) foldsWithHan[c] = (simple[c] - c) & 0xffff;
  }
  return foldsWithHan;
}

/** A code unit above U+00FF: text without one is held by engines one byte a character. */
const WIDE = /[^\0-\xff]/;

/**
 * normalizeText(text) when each code unit of `text` is normalised alone and in its place, so that a
 * slice of it is the same slice of `text` normalised; else undefined. So it is for plain text
 * (plainFold), and for Latin-1 text whose form keeps its length: no Latin-1 character combines with
 * another, and those whose form is not one character (½, ¨) make it longer.
 */
export function normalizedInPlace(text: string): string | undefined {
  if (WIDE.test(text) && !plainFold(text)) return undefined;
  const normal = normalizeText(text);
  return normal.length === text.length ? normal : undefined;
}

/**
 * The fold table when `text` may be read through it: every code unit is plain, so what a scan
 * reads, folding each code unit, is normalizeText(text) exactly. Undefined when it is not, and for
 * text of Latin-1 alone, which engines hold one byte a character and normalise faster than this
 * check reads it: normalise those.
 */
export function plainFold(text: string): Uint16Array | undefined {
  if (!WIDE.test(text)) return undefined;
  baseFoldTable();
  const isPlain = plain as Uint8Array;
  // English text with curly quotes is plain too: the Traditional characters' table is built only for text with Han.
  let han = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isPlain[c] === 0) return undefined;
    if (c >= 0x3400) han = true;
  }
  return han ? foldTable() : (folds as Uint16Array);
}
