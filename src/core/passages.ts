// Passages: a text cut into sentences, each hashed to 32 bits (24 of them where a passage is kept by itself), so that a copy can be found inside any
// page however much surrounds it, and what is new in a revision can be told passage by passage.
//
// Cutting depends only on the characters and on paragraph ends (a blank line, which the extraction
// writes around every block), never on single line breaks (extracted HTML wraps lines wherever its
// source did): a passage ends after a sentence terminal (. ! ? followed by a space or by a Han or
// kana character, or 。！？ and other scripts' full stops anywhere, with any closing quotes or
// brackets), and at a paragraph end (since signature version 5). A run without terminals (a list,
// code-like lines, a heading stuck to its first sentence, text in a script without them) is cut by
// its content: after a candidate token (one in 16, by the token's hash) that comes at least
// CUT_GAP_WORDS after the candidate before it. That depends only on the tokens around the cut, not
// on where the passage began, so the same run is cut the same way in any page, whatever comes
// before it (since signature version 3; version 2 counted from the passage's start, and a copy
// inside other text could be cut differently all through: docs/matching.md).
// A passage's hash covers its words and Han/kana characters only (NFKC, lower case, Traditional
// characters as Simplified: traditional.ts; punctuation, spacing and line breaks ignored).
import { fmix32, SEED_A, stepA } from './hash';
import { ABUGIDA, astralClass, BMP_CLASS, isHanOrKana, isRunClass, WORD } from './scripts';
import { simplifiedTableFor } from './traditional';
import type { ScriptCounts } from './text-stats';

export interface Passage {
  /** The passage is `text.slice(start, end)` of the text it was cut from (trimmed of spaces). */
  start: number;
  end: number;
  /** 24-bit hash of its normalised words and characters (the top 24 bits of the signature's 32-bit hash). */
  hash: number;
  /** Reading length in word-equivalents (1.5 Han/kana characters count as one word). */
  words: number;
  /** Characters of its words and Han/kana runs (punctuation and spaces not counted). */
  chars: number;
}

/** Candidates for a content-defined cut: tokens whose hash has its top CUT_BITS bits zero (1 in 16). */
const CUT_BITS = 4;
const CUT_SHIFT = 32 - CUT_BITS;
/** A candidate is a cut when the candidate before it is at least this far back (word-equivalents)… */
export const CUT_GAP_WORDS = 16;
/** …and the passage is at least this long: a sentence shorter than this is never cut by its content (as in version 2). */
export const MIN_CUT_WORDS = 40;
/** A passage is cut unconditionally at this length (word-equivalents). */
export const HARD_MAX_WORDS = 120;
/** Positions are counted in thirds of a word-equivalent: a word is 3, a Han/kana character 2 (1.5 to a word). */
const WORD_UNITS = 3;
const CHAR_UNITS = 2;
const GAP_UNITS = CUT_GAP_WORDS * WORD_UNITS;

const CJK_CHARS_PER_WORD = 1.5;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xa0 || c === 0x3000 || c === 0x0c || c === 0x0b;
}

/** Terminals that end a sentence only before a space or the end: . ! ? (and their full-width forms). */
function isLatinTerminal(c: number): boolean {
  return c === 0x2e || c === 0x21 || c === 0x3f || c === 0xff0e || c === 0xff01 || c === 0xff1f || c === 0x2026;
}

/**
 * Terminals that end a sentence wherever they stand: 。｡ and the CJK full-width ！？ when not
 * followed by a space; and the full stops of other scripts, which nothing else uses: the danda and
 * double danda of Indic scripts । ॥, Myanmar ။, Khmer ។ ៕ (since signature version 3: version 2 cut
 * such text by its content only), Syriac ܀ ܁ ܂, Tibetan shads ། ༎ ༏ ༐ ༑ ༒ (a syllable before a shad
 * often keeps its tsheg), Ethiopic ። ፧ ፨, Canadian syllabics ᙮, Mongolian ᠃ and Manchu ᠉, Lisu ꓿,
 * Vai ꘎ ꘏, Bamum ꛳, Javanese ꧉, Meetei Mayek ꫰ ꯫.
 */
function isCjkTerminal(c: number): boolean {
  if (c < 0x700) return false;
  if (c >= 0x3002) return c === 0x3002 || c === 0xff61 || c === 0xff01 || c === 0xff1f || c === 0xa4ff || c === 0xa60e || c === 0xa60f || c === 0xa6f3 || c === 0xa9c9 || c === 0xaaf0 || c === 0xabeb;
  return c <= 0x702 || c === 0x964 || c === 0x965 || (c >= 0xf0d && c <= 0xf12) || c === 0x104b || c === 0x1362 || c === 0x1367 || c === 0x1368 || c === 0x166e || c === 0x17d4 || c === 0x17d5 || c === 0x1803 || c === 0x1809;
}

/**
 * Han and kana put no space after a sentence, so a half-width terminal right before one ends a
 * sentence too (since signature version 4): Chinese typed with half-width punctuation
 * (他来了.我走了!你呢?好), Japanese with ．, also before an opening quote or bracket and one.
 * Only a row (from `i`, closers included, to `j`) of one
 * full stop, or of ! and ? alone, after a letter, a digit, a Han or kana character or a closer:
 * ... and ?. in Chinese text are an ellipsis and code inside a sentence (每个...的值, 运算符?.有),
 * and so is punctuation after punctuation (#!命令, ，?是).
 */
function endsBetweenHan(text: string, i: number, j: number): boolean {
  if (i === 0) return false;
  let next = j;
  while (next < text.length && isOpener(text.charCodeAt(next))) next++;
  if (!isHanOrKana(text.charCodeAt(next))) return false;
  const before = text.charCodeAt(i - 1);
  if (!isHanOrKana(before) && !isCloser(before) && !(before < 0x80 && BMP_CLASS[before] === WORD)) return false;
  let terminals = 0;
  let stops = 0;
  for (let k = i; k < j; k++) {
    const t = text.charCodeAt(k);
    if (isCloser(t)) continue;
    terminals++;
    if (t === 0x2026) return false;
    if (t === 0x2e || t === 0xff0e) stops++;
  }
  return stops === 0 || terminals === 1;
}

/** Whether only spaces, tabs and carriage returns come from `k` to the next line feed: a blank line. */
function blankLineAfter(text: string, k: number): boolean {
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x0a) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0xa0 && c !== 0x3000) return false;
  }
  return false;
}

/** Opening quotes and brackets: “ ‘ ( and the CJK 〈《「『【〔〖〘〚〝（［｛｢. */
function isOpener(c: number): boolean {
  return c === 0x201c || c === 0x2018 || c === 0x28 || (c >= 0x3008 && c <= 0x301a && c % 2 === 0 && c !== 0x3012) || c === 0x301d || c === 0xff08 || c === 0xff3b || c === 0xff5b || c === 0xff62;
}

/** Closing quotes and brackets that belong to the sentence they follow. */
function isCloser(c: number): boolean {
  return (
    c === 0x22 || c === 0x27 || c === 0x29 || c === 0x5d || c === 0x7d || c === 0x2019 || c === 0x201d || c === 0x203a || c === 0xbb ||
    // CJK closing brackets 〉》」』】〕〗〙〛, the closing double prime quotes 〞〟, and the full-width ＂＇）］｝ and half-width ｣.
    (c >= 0x3009 && c <= 0x301b && c % 2 === 1 && c !== 0x3013) || c === 0x301e || c === 0x301f || c === 0xff02 || c === 0xff07 || c === 0xff09 || c === 0xff3d || c === 0xff5d || c === 0xff63
  );
}

/**
 * Characters whose NFKC form or lower case may change a passage's hash: anything outside ASCII but
 * plain Han and kana, and punctuation that NFKC maps to other punctuation (the hash ignores it).
 */
function needsNormalizing(c: number): boolean {
  if (c < 0x80 || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x3041 && c <= 0x3096) || (c >= 0x30a1 && c <= 0x30fa)) return false;
  if ((c >= 0x2010 && c <= 0x2027) || (c >= 0x2030 && c <= 0x205e) || (c >= 0x3000 && c <= 0x3035) || (c >= 0x303b && c <= 0x303f)) return false;
  return !((c >= 0xff01 && c <= 0xff0f) || (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) || (c >= 0xff5b && c <= 0xff65));
}

const out = { hash: 0, words: 0, chars: 0 };

/** The 32-bit passage hash from the running FNV-1a state over its tokens and its length (its top 24 bits are the short hash). */
function passageHash(a: number, chars: number): number {
  return fmix32(a ^ Math.imul(chars, 0x9e3779b1));
}

/**
 * Hashes the tokens of `s` (already normalised, or needing none): each word's code points followed
 * by a boundary mark, each Han/kana/Thai character on its own. Fills `out`.
 */
function hashTokens(s: string): void {
  const simple = simplifiedTableFor(s);
  let a = SEED_A;
  let inWord = false;
  let words = 0;
  let runChars = 0;
  let chars = 0;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    let cls: number;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
      }
      cls = astralClass(c);
    } else {
      const sc = simple[c];
      if (sc !== 0) c = sc;
      cls = BMP_CLASS[c];
    }
    if (cls === WORD) {
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      a = stepA(a, c);
      chars++;
      if (!inWord) words++;
      inWord = true;
      continue;
    }
    if (inWord) {
      a = stepA(a, 0x20);
      inWord = false;
    }
    if (isRunClass(cls)) {
      a = stepA(a, c);
      chars++;
      runChars++;
    }
  }
  if (inWord) a = stepA(a, 0x20);
  out.hash = passageHash(a, chars);
  out.words = words + runChars / CJK_CHARS_PER_WORD;
  out.chars = chars;
}

/** Whether a Han/kana (or other run) character is a candidate for a content-defined cut: its Fibonacci hash's top bits are zero. */
const isCandidateChar = (c: number) => Math.imul(c, 0x9e3779b1) >>> CUT_SHIFT === 0;

/** Cuts a text into passages, in order. Passages without a word or Han/kana character are dropped. */
export function cutPassages(text: string): Passage[] {
  const passages: Passage[] = [];
  scanPassages(text, (start, end, hash, words, chars) => void passages.push({ start, end, hash: hash >>> 8, words, chars }));
  return passages;
}

/** Receives each passage: its span, 32-bit hash, length in word-equivalents and in characters. */
export type PassageSink = (start: number, end: number, hash: number, words: number, chars: number) => void;

/**
 * Scans a text's passages in order, without building objects. One pass: the hash is computed while
 * cutting, and a passage is re-hashed from its normalised form only when it holds a character
 * whose NFKC form or lower case may differ. Given `counts`, it also counts the text's scripts for
 * textStats, exactly as countScripts does (it reads the same characters, with the same classes).
 */
export function scanPassages(text: string, emit: PassageSink, counts?: ScriptCounts): void {
  // Loop state lives in locals, not captured by a closure, so the engine keeps it in registers.
  const len = text.length;
  const simple = simplifiedTableFor(text);
  const sink = (s: string, from: number, to: number, normalize: boolean, a: number, words: number, runChars: number, chars: number, inWord: boolean) => finishPassage(emit, s, from, to, normalize, a, words, runChars, chars, inWord);
  let start = 0;
  let normalize = false;
  let a = SEED_A;
  let words = 0;
  let runChars = 0;
  let chars = 0;
  let inWord = false;
  /** The running hash of the word being read (ASCII letters lower-cased): whether it is a candidate for a cut. */
  let w = SEED_A;
  // Where the text is (in thirds of a word-equivalent), and where the last candidate for a
  // content-defined cut was: never reset at a cut, so a cut depends only on the text around it.
  let units = 0;
  let lastCandidate = -GAP_UNITS;
  /** Where the row of terminals and closers that a terminal at or before i starts ends (0: none found yet). */
  let rowEnd = 0;
  /** Whether that row ends a sentence before a Han or kana character (endsBetweenHan): decided once a row, as its end is found. */
  let rowBetweenHan = false;
  // The counts of textStats: cheap to keep in the loop, written out at the end if asked for.
  let latinWords = 0;
  let hanKana = 0;
  let kana = 0;
  let hangul = 0;
  let abugida = 0;
  let thai = 0;
  let cyrillic = 0;

  for (let i = 0; i < len; i++) {
    let c = text.charCodeAt(i);
    let cls: number;
    if (c < 0x80) {
      cls = BMP_CLASS[c];
      if (cls === WORD) {
        if (c >= 0x41 && c <= 0x5a) c += 0x20;
        a = stepA(a, c);
        chars++;
        if (!inWord) {
          words++;
          latinWords++;
          inWord = true;
          w = SEED_A;
        }
        w = stepA(w, c);
        continue;
      }
    } else {
      // A Traditional character is read as its Simplified one, for its hash and for the cuts alike.
      const sc = simple[c];
      if (sc !== 0) c = sc;
      if (c >= 0x4e00 && c <= 0x9fff && !inWord) {
        // The commonest character of Chinese text, a Han character of the main block after no word:
        // what the run branch below does for it, in short (it needs no normalising, is no terminal,
        // and counts as Han). About 1.6 times as fast on generated Chinese text, scanned alone.
        a = stepA(a, c);
        chars++;
        runChars++;
        hanKana++;
        units += CHAR_UNITS;
        let cutHere = false;
        if (isCandidateChar(c)) {
          cutHere = units - lastCandidate >= GAP_UNITS;
          lastCandidate = units;
        }
        if (cutHere ? words + runChars / CJK_CHARS_PER_WORD >= MIN_CUT_WORDS : words + runChars / CJK_CHARS_PER_WORD >= HARD_MAX_WORDS) {
          sink(text, start, i + 1, normalize, a, words, runChars, chars, inWord);
          start = i + 1;
          normalize = false;
          a = SEED_A;
          words = runChars = chars = 0;
        }
        continue;
      }
      if (!normalize && needsNormalizing(c)) normalize = true;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < len) {
        const d = text.charCodeAt(i + 1);
        cls = d >= 0xdc00 && d <= 0xdfff ? astralClass(((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) : 0;
      } else {
        cls = c >= 0xdc00 && c <= 0xdfff ? 0 : BMP_CLASS[c];
      }
      if (cls === WORD) {
        a = stepA(a, c);
        chars++;
        if (!inWord) {
          words++;
          latinWords++;
          inWord = true;
          w = SEED_A;
        }
        w = stepA(w, c);
        if (c >= 0xac00 && c <= 0xd7a3) hangul++;
        else if (c >= 0x400 && c <= 0x52f) cyrillic++;
        continue;
      }
    }
    // Whether a token (a word, a Han/kana character) ended here, and a candidate far enough after the last.
    let token = false;
    let cutHere = false;
    if (inWord) {
      a = stepA(a, 0x20);
      inWord = false;
      token = true;
      units += WORD_UNITS;
      if (fmix32(w) >>> CUT_SHIFT === 0) {
        cutHere = units - lastCandidate >= GAP_UNITS;
        lastCandidate = units;
      }
    }
    if (isRunClass(cls)) {
      a = stepA(a, c);
      chars++;
      runChars++;
      token = true;
      units += CHAR_UNITS;
      if (isCandidateChar(c)) {
        cutHere ||= units - lastCandidate >= GAP_UNITS;
        lastCandidate = units;
      }
      // (For a character outside the BMP, c is its high surrogate: not counted, as in countScripts.)
      if (isHanOrKana(c)) hanKana++;
      else if (cls === ABUGIDA) {
        abugida++;
        if (c <= 0xe4e) thai++;
      }
      if (c >= 0x3041 && c <= 0x30ff) kana++;
    } else if (c === 0x0a && blankLineAfter(text, i + 1)) {
      // A paragraph ends here (a blank line: the extraction writes one around every block), so a
      // line with no sentence end (a heading, a caption, an inserted "Related:") stands alone
      // rather than joining the sentence after it. A single line break is ignored: text wraps anywhere.
      sink(text, start, i, normalize, a, words, runChars, chars, inWord);
      start = i;
      normalize = inWord = false;
      a = SEED_A;
      words = runChars = chars = 0;
      continue;
    } else if (cls === 0 && (isLatinTerminal(c) || isCjkTerminal(c))) {
      // A sentence terminal, with the closers after it, ends the passage before a space, at the
      // end, or at once for a CJK full stop. Every terminal of one row of them has the row's end
      // as its own: it is found once (a row of 80,000 dots inside a word was read 80,000 times).
      if (rowEnd <= i) {
        rowEnd = i + 1;
        while (rowEnd < len && (isCloser(text.charCodeAt(rowEnd)) || isLatinTerminal(text.charCodeAt(rowEnd)) || isCjkTerminal(text.charCodeAt(rowEnd)))) rowEnd++;
        rowBetweenHan = endsBetweenHan(text, i, rowEnd);
      }
      const j = rowEnd;
      if (isCjkTerminal(c) || j >= len || isSpace(text.charCodeAt(j)) || rowBetweenHan) {
        for (let k = i + 1; k < j; k++) if (needsNormalizing(text.charCodeAt(k))) normalize = true;
        sink(text, start, j, normalize, a, words, runChars, chars, inWord);
        start = j;
        normalize = inWord = false;
        a = SEED_A;
        words = runChars = chars = 0;
        i = j - 1;
        continue;
      }
    }
    if (token && (cutHere ? words + runChars / CJK_CHARS_PER_WORD >= MIN_CUT_WORDS : words + runChars / CJK_CHARS_PER_WORD >= HARD_MAX_WORDS)) {
      // After the whole character: a character outside the BMP (c its high surrogate) keeps its low half.
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < len && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
      sink(text, start, i + 1, normalize, a, words, runChars, chars, inWord);
      start = i + 1;
      normalize = inWord = false;
      a = SEED_A;
      words = runChars = chars = 0;
    }
  }
  sink(text, start, len, normalize, a, words, runChars, chars, inWord);
  if (counts) Object.assign(counts, { latinWords, hanKana, kana, hangul, abugida, thai, cyrillic });
}

/** Ends the passage `text[start, end)` whose running state is given, emitting it if it holds a token. */
function finishPassage(emit: PassageSink, text: string, start: number, end: number, normalize: boolean, a: number, words: number, runChars: number, chars: number, inWord: boolean): void {
  // A passage of no word as written may have words in its NFKC form (mathematical bold letters, circled digits).
  if (chars === 0 && !normalize) return;
  let s = start;
  let e = end;
  while (s < e && isSpace(text.charCodeAt(s))) s++;
  while (e > s && isSpace(text.charCodeAt(e - 1))) e--;
  if (normalize) {
    hashTokens(text.slice(s, e).normalize('NFKC').toLowerCase());
    if (out.chars > 0) emit(s, e, out.hash, out.words, out.chars);
    return;
  }
  if (inWord) a = stepA(a, 0x20);
  emit(s, e, passageHash(a, chars), words + runChars / CJK_CHARS_PER_WORD, chars);
}
