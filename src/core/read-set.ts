// What a page's record keeps so that a later page can be told, passage by passage, what the reader
// already read: the *read set*. Hashes only, never text. whatsNew (whats-new.ts) needs the earlier
// text itself, which the extension never stores; this is its hash-only counterpart.
//
// The set holds two kinds of keys: the 24-bit hash of every passage (an unchanged sentence is found
// whole), and a sample of the hashes of every run of READ_RUN tokens (words, Han/kana characters)
// within a passage, those whose hash is 0 modulo the sample rate (so two texts keep the same runs of
// what they share): an edited sentence keeps most of its runs, as in whatsNew's word-by-word
// comparison. Runs are taken within passages, as the page being read takes its own (pagePassages):
// a run across two passages is never looked for. The keys are stored as two Golomb-Rice coded sets,
// passages and runs: each key is mapped into [0, n · 2^p) for n keys, sorted, and the gaps written in
// p + about 1.5 bits; a key not in the set is taken for one with chance 2^-p. A passage's hash alone
// says it was read, so passages keep p = 12; a run is one piece of evidence among its passage's
// several, so runs keep p = 6. (Version 6; before, one set of both at p = 8, with runs across
// passages too, a quarter of those kept: a third larger.)
// A long page keeps its passages first; the run sample thins (the rate doubles) until the set holds
// at most READ_SET_CAP keys, and beyond that many passages only the first READ_SET_CAP are kept.
import { fromBase64, toBase64 } from './base64';
import { fmix32 } from './hash';
import { BMP_CLASS, WORD } from './scripts';
import { normalizedInPlace, normalizeText } from './normalize';
import { cutPassages, type Passage } from './passages';
import { PASSAGE_MIN_WORDS } from './passage-signature';
import { runHash, tokenize, type Tokens } from './tokens';

/** Tokens per run: the same as whatsNew's EDIT_RUN, so an edited passage is judged alike. */
export const READ_RUN = 6;
/** One run in this many is kept (by hash value), at most; a long page keeps fewer. */
export const RUN_SAMPLE = 4;
/** Bits of the Golomb-Rice parameter of passages: a passage not in the set passes for one with chance 2^-bits. */
export const READ_SET_BITS = 12;
/** The same for runs: a run not in the set passes for one with chance 2^-bits (whatsNewByHashes allows for it). */
export const READ_RUN_BITS = 6;
/** At most this many keys per page (about 2.5 KB, 3,300 base64 characters, were they all passages). */
export const READ_SET_CAP = 2048;
/** Longest stored form accepted (a cap's worth of keys at up to 12 bits, with room). */
export const MAX_READ_SET_LENGTH = 6000;
/** A passage is new when less than this share of it was read (as in whatsNew). */
const READ_SHARE = 0.5;
/**
 * Version 6: passages and runs in two sets, runs with fewer bits (READ_RUN_BITS) and within passages
 * only; keys as version 5.
 * Version 5: its keys hashed with Traditional characters read as Simplified (core/traditional.ts),
 * as signatures of version 6 are; otherwise as version 4, and read alike (a set of version 4 of a
 * Traditional or Japanese text keeps its keys unfolded, and a page read since finds fewer of its
 * parts read there).
 * Version 4: its passages cut as signatures of version 5 are (core/passage-signature.ts), at
 * paragraph ends too; version 3, as version 4's; version 2, as version 3's; version 1, as version
 * 2's. All are read alike, but that a short paragraph of its own not in a set of version 4 is new.
 */
const READ_SET_VERSION = 6;
/** Keeps a run key apart from a passage hash with the same value. */
const RUN_SALT = 0x5f1d3c2b;

export interface ReadSetOptions {
  /** Keep one run in `runSample` (a power of two; 0: no runs). */
  runSample: number;
  /** Golomb-Rice parameter of passages. */
  bits: number;
  /** Golomb-Rice parameter of runs. */
  runBits: number;
  cap: number;
}

export const READ_SET_OPTIONS: ReadSetOptions = { runSample: RUN_SAMPLE, bits: READ_SET_BITS, runBits: READ_RUN_BITS, cap: READ_SET_CAP };

/** A passage of the page being read, as the background gets it: no text. */
export interface PagePassage {
  /** Its 24-bit passage hash. */
  hash: number;
  /** Characters of its words and Han/kana (the unit of the read share). */
  chars: number;
  /** Hashes of its sampled runs (32 bits; those 0 modulo RUN_SAMPLE), in order. */
  runs: number[];
  /** Its tokens (words, Han/kana characters): it has tokens − READ_RUN + 1 runs in all. */
  tokens: number;
  /**
   * Its reading length in word-equivalents (1.5 Han/kana characters to a word), numbers left out:
   * what a new part must reach (PASSAGE_MIN_WORDS) to be told as one. A date, a time or a price is
   * no reading matter by itself: "Updated March 10, 2017, 10:15" or （2017年3月10日 10時15分 追記）
   * has fewer than six words of prose.
   */
  words: number;
  /** It starts a paragraph: a blank line (or nothing) comes before it in the text. */
  para: boolean;
}

/** The key of a run: its hash mixed apart from passage hashes. */
const runKey = (h: number) => fmix32(h ^ RUN_SALT);

/** Whether a run key is in the sample at rate `sample` (a power of two). */
const sampled = (key: number, sample: number) => (key & (sample - 1)) === 0;

/** Tokens of one passage at a time (cleared for each). */
const scratch: Tokens = { hashes: [], lengths: [] };

/**
 * For each passage of `text`, the keys of its READ_RUN-token runs in the sample at rate `sample`
 * (0: none), in order, and how many tokens it has. Each passage is read normalised, as a slice of
 * the text normalised where that is the same (normalizedInPlace), else normalised alone.
 */
function passageRuns(text: string, cut: readonly Passage[], sample: number, each: (runs: number[], tokens: number, k: number) => void): void {
  const whole = normalizedInPlace(text);
  cut.forEach((p, k) => {
    scratch.hashes.length = scratch.lengths.length = 0;
    const { hashes } = tokenize(whole !== undefined ? whole.slice(p.start, p.end) : normalizeText(text.slice(p.start, p.end)), scratch);
    const runs: number[] = [];
    if (sample) {
      for (let i = 0; i + READ_RUN <= hashes.length; i++) {
        const key = runKey(runHash(hashes, i, READ_RUN));
        if (sampled(key, sample)) runs.push(key);
      }
    }
    each(runs, hashes.length, k);
  });
}

/**
 * The passages of the page being read, each with the keys of its own sampled runs, and where each
 * is in `text` (for the page's own use: never sent with the hashes).
 */
export function pagePassages(text: string, runSample = RUN_SAMPLE, max = Infinity): Array<PagePassage & Pick<Passage, 'start' | 'end'>> {
  let previousEnd = 0;
  const all = cutPassages(text);
  const cut = all.length > max ? all.slice(0, max) : all;
  const out: Array<PagePassage & Pick<Passage, 'start' | 'end'>> = [];
  passageRuns(text, cut, runSample, (runs, tokens, k) => {
    const p = cut[k];
    const para = previousEnd === 0 || BLANK_LINE.test(text.slice(previousEnd, p.start));
    previousEnd = p.end;
    out.push({ hash: p.hash, chars: p.chars, start: p.start, end: p.end, runs, tokens, para, words: inThirds(proseWords(text, p.start, p.end, p.words)) });
  });
  return out;
}

/**
 * Words of prose in whole thirds (1.5 Han or kana characters to a word make k/3 for a whole k; the
 * sum as computed may be off in its last bit), so a passage's words are the same number once packed
 * and sent (sent-passages.ts) as where they were counted.
 */
export const inThirds = (words: number): number => Math.round(words * 3) / 3;

/** Whether a character is a decimal digit, ASCII or full-width (a token of these alone is a number). */
const isDigit = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0xff10 && c <= 0xff19);

/**
 * The words of `text` from `start` to `end`, as the tokenizer cuts them (letters and digits:
 * "10:15" is two), and how many of them are numbers (digits alone).
 */
function wordsIn(text: string, start: number, end: number): { words: number; numbers: number } {
  let words = 0;
  let numbers = 0;
  let inWord = false;
  let digits = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    // A surrogate half is a letter here: no astral digit makes a word a number.
    const word = c >= 0xd800 && c <= 0xdfff ? true : BMP_CLASS[c] === WORD;
    if (word) {
      digits = inWord ? digits && isDigit(c) : isDigit(c);
      inWord = true;
    } else if (inWord) {
      words++;
      if (digits) numbers++;
      inWord = false;
    }
  }
  return inWord ? { words: words + 1, numbers: digits ? numbers + 1 : numbers } : { words, numbers };
}

/** A web address written out: from its scheme or "www." to a space, a quote or CJK punctuation. */
const ADDRESS = /(?:https?:\/\/|www\.)[^\s<>"'\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+/gi;

/**
 * A passage's words of prose, of its `words` (word-equivalents): less its numbers ("Updated March
 * 10, 2017, at 10:15" is a dateline of 4) and the words of the web addresses it writes out. A
 * passage that is an address more than half (by characters) cites where something is ("Printed
 * from https://…", 转载自：海港日报 原文链接：https://…) and has none: until 29 November 2026 such a
 * line counted the words of its address, and a Chinese reprint's source line and "打印自 <address>"
 * were each "1 new paragraph" (a review).
 */
function proseWords(text: string, start: number, end: number, words: number): number {
  const { numbers } = wordsIn(text, start, end);
  let addressChars = 0;
  let addressWords = 0;
  const passage = text.slice(start, end);
  if (passage.includes('www.') || passage.includes('://')) {
    for (const m of passage.matchAll(ADDRESS)) {
      const at = start + m.index;
      const inAddress = wordsIn(text, at, at + m[0].length);
      addressChars += m[0].length;
      // Its numbers are among those above already.
      addressWords += inAddress.words - inAddress.numbers;
    }
  }
  if (addressChars * 2 > end - start) return 0;
  return Math.max(0, words - numbers - addressWords);
}

/** The read set of a text, encoded (base64). */
export function readSetOf(text: string, options: ReadSetOptions = READ_SET_OPTIONS): string {
  const cut = cutPassages(text);
  return keptSet(cut, options, (kept) => passageRuns(text, cut, options.runSample, (keys) => keys.forEach((key) => kept.add(key))));
}

/**
 * readSetOf(text) from every passage of the text as pagePassages gave them (runs at `runSample`),
 * without cutting and reading the text again: the extraction has them at hand for its own page.
 */
export function readSetOfPassages(passages: ReadonlyArray<Pick<PagePassage, 'hash' | 'runs'>>, options: ReadSetOptions = READ_SET_OPTIONS): string {
  return keptSet(passages, options, (kept) => passages.forEach((p) => p.runs.forEach((key) => kept.add(key))));
}

/** The set of the passages' hashes and, where there is room, of the sampled runs `addRuns` gives (in text order), encoded. */
function keptSet(cut: ReadonlyArray<{ hash: number }>, options: ReadSetOptions, addRuns: (kept: Set<number>) => void): string {
  const passages = [...new Set(cut.map((p) => p.hash))];
  let sample = options.runSample;
  let runs: number[] = [];
  if (sample && passages.length < options.cap) {
    const kept = new Set<number>();
    addRuns(kept);
    runs = [...kept];
    while (passages.length + runs.length > options.cap) {
      sample *= 2;
      runs = runs.filter((k) => sampled(k, sample));
    }
  } else sample = 0;
  // Runs are keyed on their high 24 bits (the low bits chose the sample); passages on their hash.
  return encodeReadSet(passages.slice(0, options.cap), runs.map((k) => k >>> 8), options, sample);
}

/**
 * A read set of given 24-bit keys, encoded as readSetOf encodes a text's (`runSample` as it chose):
 * for records made without their text, such as the store benchmark's synthetic history.
 */
export function readSetOfKeys(passages24: readonly number[], runs24: readonly number[], runSample = RUN_SAMPLE): string {
  const passages = passages24.slice(0, READ_SET_CAP);
  return encodeReadSet(passages, runs24.slice(0, READ_SET_CAP - passages.length), READ_SET_OPTIONS, runSample);
}

/** A paragraph break: a blank line (the extraction writes one around every block; a single line break only wraps). */
const BLANK_LINE = /\n[ \t\r\u00a0\u3000]*\n/;

/** A decoded read set. */
export interface ReadSet {
  /** Run sample rate the set was made with (0: no runs). */
  runSample: number;
  /** Chance that a run key not in the set is taken for one (2^-bits of its runs). */
  runFalse: number;
  /** Its passages were cut at paragraph ends too (version 4): a paragraph of its own not in it is new. */
  paragraphs: boolean;
  /** Whether a passage hash (24 bits) is in the set. */
  has(key24: number): boolean;
  /** Whether a run's key (the high 24 bits of a sampled run key) is in the set. */
  hasRun(key24: number): boolean;
}

/** Where a 24-bit key lands in [0, n · 2^bits), bits ≤ 24. Exact in doubles: key24 · n < 2^40, and the division is by a power of two. */
const slot = (key24: number, n: number, bits: number) => Math.floor((key24 * n) / 2 ** (24 - bits));

/** Writes bits into bytes, most significant first. */
class BitWriter {
  readonly out: Uint8Array;
  o: number;
  private acc = 0;
  private used = 0;
  constructor(size: number, at: number) {
    this.out = new Uint8Array(size);
    this.o = at;
  }
  /** Appends the low `count` bits of `value` (count ≤ 17). */
  write(value: number, count: number): void {
    this.acc = (this.acc << count) | value;
    this.used += count;
    while (this.used >= 8) {
      this.used -= 8;
      this.out[this.o++] = this.acc >>> this.used;
    }
    this.acc &= (1 << this.used) - 1;
  }
  /** Pads the last byte with zeros. */
  flush(): void {
    if (this.used) this.out[this.o++] = this.acc << (8 - this.used);
    this.acc = this.used = 0;
  }
}

/** Writes `keys24` (at most 0xffff) as a Golomb-Rice coded set with parameter `bits`, then pads to a byte. */
function writeSet(w: BitWriter, keys24: readonly number[], bits: number): void {
  const n = keys24.length;
  // Slots are below n · 2^bits ≤ 2^28; sorted as numbers by the typed array, each written once.
  const slots = new Uint32Array(n);
  for (let i = 0; i < n; i++) slots[i] = slot(keys24[i], n, bits);
  slots.sort();
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const s = slots[i];
    if (i > 0 && s === slots[i - 1]) continue;
    const gap = s - previous;
    previous = s;
    // A gap takes its quotient in ones, a zero and `bits` bits; the quotients add up to less than n.
    let q = gap >>> bits;
    for (; q >= 16; q -= 16) w.write(0xffff, 16);
    w.write(((1 << q) - 1) << 1, q + 1);
    w.write(gap & ((1 << bits) - 1), bits);
  }
  w.flush();
}

/** Bytes a set of n keys may take at most (its quotients add up to less than n). */
const setBytes = (n: number, bits: number) => Math.ceil((n * (bits + 2)) / 8) + 1;

/**
 * Version 6: version, passage bits (4 bits) and log2 of the run sample + 1 (4 bits, 0: no runs),
 * passage count (2 bytes), run bits, run count (2 bytes), the passage set's length in bytes (2),
 * then the two sets, each from a byte boundary.
 */
const HEADER = 9;

function encodeReadSet(passages24: readonly number[], runs24: readonly number[], options: Pick<ReadSetOptions, 'bits' | 'runBits'>, runSample: number): string {
  const nP = Math.min(passages24.length, 0xffff);
  const nR = Math.min(runs24.length, 0xffff);
  const w = new BitWriter(HEADER + setBytes(nP, options.bits) + setBytes(nR, options.runBits), HEADER);
  writeSet(w, nP < passages24.length ? passages24.slice(0, nP) : passages24, options.bits);
  const passageBytes = w.o - HEADER;
  writeSet(w, nR < runs24.length ? runs24.slice(0, nR) : runs24, options.runBits);
  w.out.set([READ_SET_VERSION, (options.bits << 4) | (runSample ? Math.log2(runSample) + 1 : 0), nP >>> 8, nP & 0xff, options.runBits, nR >>> 8, nR & 0xff, passageBytes >>> 8, passageBytes & 0xff]);
  return toBase64(w.out.subarray(0, w.o));
}

/** The read set in a stored string, or null if it is not one. */
export function decodeReadSet(encoded: string): ReadSet | null {
  const bytes = fromBase64(encoded);
  return bytes && decodeReadSetBytes(bytes);
}

/** A coded set's place in the bytes: its key count, Golomb-Rice bits, and first and end bit. */
interface SetSpan {
  n: number;
  bits: number;
  from: number;
  end: number;
}

/**
 * A read set's header: its version, log2 of its run sample + 1, and where its sets are (a set of
 * version 5 or before holds passages and runs in one); or null.
 */
function readSetHeader(bytes: Uint8Array): { version: number; sampleLog: number; passages: SetSpan; runs?: SetSpan } | null {
  const version = bytes[0];
  if (bytes.length < 4 || version < 1 || version > READ_SET_VERSION) return null;
  const bits = bytes[1] >>> 4;
  if (bits < 1 || bits > (version < 6 ? 12 : 15)) return null;
  const sampleLog = bytes[1] & 15;
  const n = (bytes[2] << 8) | bytes[3];
  if (version < 6) return { version, sampleLog, passages: { n, bits, from: 32, end: 8 * bytes.length } };
  if (bytes.length < HEADER) return null;
  const runBits = bytes[4];
  const passageBytes = (bytes[7] << 8) | bytes[8];
  if (runBits < 1 || runBits > 12 || HEADER + passageBytes > bytes.length) return null;
  const split = 8 * (HEADER + passageBytes);
  return { version, sampleLog, passages: { n, bits, from: 8 * HEADER, end: split }, runs: { n: (bytes[5] << 8) | bytes[6], bits: runBits, from: split, end: 8 * bytes.length } };
}

/** Whether a set's first key is whole (see isReadSetBytes). */
function firstKeyWhole(bytes: Uint8Array, { n, bits, from, end }: SetSpan): boolean {
  if (n === 0) return true;
  let at = from;
  while (at < end && (bytes[at >>> 3] >>> (7 - (at & 7))) & 1) at++;
  // The zero that ends the quotient, then the remainder's bits.
  return at + 1 + bits <= end;
}

/**
 * Whether decodeReadSetBytes accepts these bytes, without decoding them (an import checks every
 * record's read set: decoding took most of the time of a history of read sets). It accepts a
 * header and, in each set that counts keys, a first key whole: a list of keys that ends early is
 * read as a shorter set (duplicates shorten it when it is made), so nothing after the first key
 * can make it refuse.
 */
export function isReadSetBytes(bytes: Uint8Array): boolean {
  const header = readSetHeader(bytes);
  return !!header && firstKeyWhole(bytes, header.passages) && (!header.runs || firstKeyWhole(bytes, header.runs));
}

/** The slots of a coded set, or null when it counts keys and holds none whole. */
function readSlots(bytes: Uint8Array, { n, bits, from, end }: SetSpan): Set<number> | null {
  const slots = new Set<number>();
  let at = from;
  const get = () => (bytes[at >>> 3] >>> (7 - (at++ & 7))) & 1;
  let value = 0;
  for (let k = 0; k < n; k++) {
    let q = 0;
    while (at < end && get()) q++;
    if (at + bits > end) break; // duplicates shortened the list: the set ends here
    let r = 0;
    for (let b = 0; b < bits; b++) r = (r << 1) | get();
    value += q * 2 ** bits + r;
    slots.add(value);
  }
  return slots.size === 0 && n > 0 ? null : slots;
}

/** The read set in its stored bytes (the encoded string without its base64), or null. */
export function decodeReadSetBytes(bytes: Uint8Array): ReadSet | null {
  const header = readSetHeader(bytes);
  if (!header) return null;
  const { passages, runs } = header;
  const passageSlots = readSlots(bytes, passages);
  const runSlots = runs ? readSlots(bytes, runs) : passageSlots;
  if (!passageSlots || !runSlots) return null;
  const has = (key24: number) => passageSlots.has(slot(key24, passages.n, passages.bits));
  const { n, bits } = runs ?? passages;
  return {
    runSample: header.sampleLog ? 2 ** (header.sampleLog - 1) : 0,
    runFalse: 2 ** -bits,
    paragraphs: header.version >= 4,
    has,
    hasRun: runs ? (key24) => runSlots.has(slot(key24, n, bits)) : has,
  };
}

/** Where a page's title joins its headline to the site's name: " | ", " - ", " – ", " — ", " · ", "｜", "_" (标题_网站名). */
export const TITLE_PARTS = /\s+[|\-–—·:]\s+|\s*[｜_]\s*/;

/**
 * What the reader read of an earlier page besides its text: its title, which the extraction keeps
 * apart (Readability takes a headline that repeats the title out of the text). A copy that keeps the
 * headline in its text (a preview, a repost, a forum post quoting the article) would otherwise show
 * the article's own headline as its one new paragraph. Exact: the passage hashes of each title, and
 * of each of its parts, the headline without the site's name. Given the page's own title too, its
 * headline is no new paragraph either: Readability keeps a Chinese or Japanese headline in the text
 * (its test of a headline counts words between spaces), and an update's "（更新）" made one (until
 * 28 November 2026: "有 3 段是新的" for two added paragraphs, a Firefox review).
 */
export function titleRead(...titles: string[]): ReadSet {
  const hashes = new Set(titles.flatMap((title) => [title, ...title.split(TITLE_PARTS)]).flatMap((t) => cutPassages(t).map((p) => p.hash)));
  return { runSample: 0, runFalse: 0, paragraphs: true, has: (key24) => hashes.has(key24), hasRun: () => false };
}

export interface PassageVerdict {
  isNew: boolean;
  /** Characters of the passage taken as read. */
  readChars: number;
}

export interface HashedWhatsNew {
  /** Share of the page's characters read before (0..1). */
  read: number;
  /** One per passage of the page, in order. */
  passages: PassageVerdict[];
  /**
   * When what was read is the start of this page (a preview, then the full article): the share of
   * the page's characters up to the end of the last passage read; else undefined.
   */
  readUpTo?: number;
}

/** A read prefix counts as a preview when nearly all of it was read (new paragraphs inside it make a revision)... */
const PREFIX_READ = 0.95;
/** ...at most this little of what follows it... */
const AFTER_READ = 0.05;
/** ...and a good part of the page follows it (a paragraph added at the end is an update, not the rest of an article). */
const MAX_PREVIEW = 0.9;
/** What the page has before the part read, at most (a byline, a dateline: the preview's site had its own). */
const LEAD_IN = 0.05;

/** Hits of a passage's runs that runs not read give by chance more often than this are weak evidence of reading. */
const WEAK = 0.01;

/** The chance that at least `hits` of `runs` keys not in a set pass for keys in it, each with chance p. */
function chanceOfHits(runs: number, hits: number, p: number): number {
  let term = (1 - p) ** runs; // none of them
  let below = 0;
  for (let j = 0; j < hits; j++) {
    below += term;
    term *= ((runs - j) / (j + 1)) * (p / (1 - p));
  }
  return Math.max(0, 1 - below);
}

/**
 * What is new in the page whose passages are given, against the read set of an earlier page: a
 * passage whose hash is in the set was read; any other was read in the share of its sampled runs
 * found in the set, and is new when less than half was. A short passage may have no sampled run
 * (and a changed hash: cut differently, a word changed): it goes with its neighbours, read when the
 * nearest passages before and after it with evidence were both read, else new; unless it is a
 * paragraph of its own and the set was cut at paragraphs too (version 4): then it is new.
 */
export function whatsNewByHashes(set: ReadSet, passages: PagePassage[]): HashedWhatsNew {
  // The share read of each passage, or -1 when there is no evidence. From the share f of its
  // sampled runs found: its f·R runs (of R) were read, and a block of read runs covers READ_RUN − 1
  // tokens more than it has runs, as whatsNew counts the tokens of a shared run.
  const shares = passages.map((p, k) => {
    if (set.has(p.hash)) return 1;
    const runs = set.runSample ? p.runs.filter((k) => sampled(k, set.runSample)) : [];
    // A short paragraph of its own (a heading, a caption, an inserted line), cut alike in both pages: not read.
    if (!runs.length) return set.paragraphs && p.para && (k + 1 === passages.length || passages[k + 1].para) ? 0 : -1;
    const hits = runs.filter((k) => set.hasRun(k >>> 8)).length;
    // Of R runs not read, about R · runFalse pass for read: the share found, less those.
    const f = Math.max(0, (hits / runs.length - set.runFalse) / (1 - set.runFalse));
    const all = p.tokens - READ_RUN + 1;
    const share = f === 0 || all <= 0 ? f : Math.min(1, (f * all + READ_RUN - 1) / p.tokens);
    // Read on hits that runs not read would give by chance more often than WEAK: the neighbours decide.
    return share >= READ_SHARE && chanceOfHits(runs.length, hits, set.runFalse) > WEAK ? -1 : share;
  });
  // Whether the nearest passage with evidence before (after) each one was read.
  const before: boolean[] = [];
  const after: boolean[] = [];
  for (let k = 0, last = false; k < shares.length; k++) {
    before.push(last);
    if (shares[k] >= 0) last = shares[k] >= READ_SHARE;
  }
  for (let k = shares.length - 1, last = false; k >= 0; k--) {
    after[k] = last;
    if (shares[k] >= 0) last = shares[k] >= READ_SHARE;
  }
  let total = 0;
  let read = 0;
  const verdicts = passages.map((p, k): PassageVerdict => {
    const share = shares[k] >= 0 ? shares[k] : before[k] && after[k] ? 1 : 0;
    const readChars = share * p.chars;
    total += p.chars;
    read += readChars;
    return { isNew: share < READ_SHARE, readChars };
  });
  return { read: total ? read / total : 0, passages: verdicts, ...previewEnd(passages, verdicts, total) };
}

/**
 * Where the read part ends, when the read part is the start of the page (but for a short lead-in) and
 * something follows it. The end is the last read passage after which at most AFTER_READ of the rest
 * is in read passages: one passage far down taken for read (its hash passing by chance, or a
 * sentence the two pages share) does not move the end there. Partly read passages judged new (a
 * term the article repeats) are not counted as read: they are the rest of the article.
 */
function previewEnd(passages: PagePassage[], verdicts: PassageVerdict[], total: number): { readUpTo?: number } {
  const n = verdicts.length;
  if (!total) return {};
  // What the preview did not have before its start (a byline, a dateline, a source line: at most
  // LEAD_IN of the page) leads the part read, and stays new: the part read is still the page's start.
  let first = 0;
  let lead = 0;
  while (first < n && verdicts[first].isNew) lead += passages[first++].chars;
  if (first === n) return {};
  if (lead > LEAD_IN * total) first = 0;
  // What is read in read passages from each passage on.
  const readFrom = new Float64Array(n + 1);
  for (let k = n - 1; k >= 0; k--) readFrom[k] = readFrom[k + 1] + (verdicts[k].isNew ? 0 : verdicts[k].readChars);
  let upTo = 0;
  let prefix = 0;
  let readBefore = 0;
  let end: number | undefined;
  for (let k = 0; k < n - 1; k++) {
    upTo += passages[k].chars;
    if (upTo > MAX_PREVIEW * total) break;
    if (k >= first) {
      prefix += passages[k].chars;
      readBefore += verdicts[k].readChars;
    }
    if (!verdicts[k].isNew && readBefore >= PREFIX_READ * prefix && readFrom[k + 1] <= AFTER_READ * (total - upTo)) end = upTo;
  }
  return end === undefined ? {} : { readUpTo: end / total };
}

/** Of what was read, at most this share may lie outside the span a wrapper is around (a title, a byline read on both pages). */
const WRAPPED_EDGE = 0.05;
/** A page that wraps what was read holds at least this share of read text: its additions are a site's lines, not a thread around it. */
const WRAPPED_READ = 0.75;

/**
 * Whether the page is what was read, wrapped: new text before the part read and after it, none
 * inside it, and little of it. Asked of a page on another site than the one read: that is a repost
 * (转载), with the site's own lines around the article (a source line and a notice above it;
 * share, follow, related and copyright lines below it). An update of the article itself changes
 * its inside, its end or its start, not both ends alone (and comes at its own address, where this
 * is not asked); a thread or a digest holding the article holds far more than it. (The part read
 * is taken without a few read passages at its very ends: a title or byline both pages have.)
 */
function wrapped(passages: ReadonlyArray<Pick<PagePassage, 'chars'>>, verdicts: PassageVerdict[], parts: number[][], lines: number[][]): boolean {
  let total = 0;
  let read = 0;
  passages.forEach((p, k) => {
    total += p.chars;
    read += verdicts[k].readChars;
  });
  if (!parts.length || !total || !(read >= WRAPPED_READ * total)) return false;
  const { first, last } = readSpan(verdicts, read);
  // New text at either end: a part, or a line too short to be one (a source line that is mostly
  // its address, a byline), as the site's lines are.
  const before = lines.some((part) => part[part.length - 1] < first);
  const after = lines.some((part) => part[0] > last);
  return before && after && parts.every((part) => part[part.length - 1] < first || part[0] > last);
}

/**
 * The span of the part read, as the indices of its first and last passage: from either end, read
 * passages are left out while they hold at most WRAPPED_EDGE of what was read (`read`: characters).
 */
function readSpan(verdicts: PassageVerdict[], read: number): { first: number; last: number } {
  let first = 0;
  for (let edge = 0; first < verdicts.length && edge + verdicts[first].readChars <= WRAPPED_EDGE * read; first++) edge += verdicts[first].readChars;
  let last = verdicts.length - 1;
  for (let edge = 0; last >= 0 && edge + verdicts[last].readChars <= WRAPPED_EDGE * read; last--) edge += verdicts[last].readChars;
  return { first, last };
}

/**
 * The new parts of a page, each the indices of its new passages: a run of consecutive new passages
 * within one paragraph. A new paragraph is one part; a sentence added inside an old one is one too.
 * These are what the notice counts ("3 new paragraphs") and what "Show what's new" steps through.
 * `elsewhere`: the page read was on another site; then a page that only wraps what was read in
 * lines of its own (wrapped()) has none: nothing new.
 */
export function newParts(passages: Array<Pick<PagePassage, 'para' | 'words' | 'chars'>>, verdicts: PassageVerdict[], { elsewhere = false, partOf = false } = {}): number[][] {
  const parts: number[][] = [];
  let current: number[] | undefined;
  verdicts.forEach((v, k) => {
    if (!v.isNew) current = undefined;
    else if (current && !passages[k].para) current.push(k);
    else parts.push((current = [k]));
  });
  // A line of a few words ("Printed from example.com", a byline, "Advertisement", a dateline) is no
  // new reading matter: not counted or marked as a new part (its words still count as not read).
  let kept = parts.filter((part) => part.reduce((n, k) => n + passages[k].words, 0) >= PASSAGE_MIN_WORDS);
  // An excerpt of what was read (a preview, a teaser: `partOf`) ends, or starts, with a line of its
  // own: "Read the full story", "Subscribe to continue", 打开APP阅读全文. A part of one passage before
  // or after the part read is that, not news: an update adds to the whole article, not to a part of it.
  if (partOf && kept.length) {
    const { first, last } = readSpan(verdicts, verdicts.reduce((n, v) => n + v.readChars, 0));
    kept = kept.filter((part) => !(part.length === 1 && (part[0] < first || part[0] > last)));
  }
  return elsewhere && wrapped(passages, verdicts, kept, parts) ? [] : kept;
}
