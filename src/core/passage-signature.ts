// The passage signature kept with each page: hashes only, never text. It holds the PASSAGE_CAP
// smallest 32-bit hashes of the page's distinct passages (all of them for a page of up to that
// many). Choosing by hash value makes the sample consistent: a passage two pages share is kept by
// both or, beyond the smaller of their cut-off values, by neither, so the shares computed on the
// samples estimate the shares of the whole texts without bias, whatever surrounds the copy. The
// smallest of them (anchorCount) are the page's entries in the passage index (the second retrieval path).
import { fromBase64, toBase64 } from './base64';
import { scanPassages } from './passages';
import type { ScriptCounts } from './text-stats';

/** Passages shorter than this (word-equivalents) are left out: headings, "Share this", "Advertisement". */
export const PASSAGE_MIN_WORDS = 6;
/** At most this many passage hashes are kept per page (4 bytes each). */
export const PASSAGE_CAP = 96;
/** The smallest this many hashes are always among the page's entries in the passage index: its anchors. */
export const ANCHOR_COUNT = 12;
/** Every hash below 1/2^ANCHOR_SHARE_BITS of the hash range is an anchor too (anchorCount), up to ANCHOR_CAP anchors. */
export const ANCHOR_SHARE_BITS = 2;
export const ANCHOR_CAP = 36;
/**
 * A lookup asks the passage index for the page's smallest this many hashes: as many as every page
 * is indexed under at least, so a revision that kept a share s of the passages unchanged is found,
 * whatever its fingerprint, unless none of the 12 smallest of either side is one of them:
 * about (1 − s)^(PROBE_COUNT + LEAD_COUNT), 0.3 % for a third kept. (3 until 28 November 2026:
 * 45 of 200 such revisions missed in tests/unit/passages.test.ts, none with 12.)
 */
export const PROBE_COUNT = 12;
/** ...and compares every hash it keeps with each earlier page's smallest this many: the page's leads. */
export const LEAD_COUNT = 2;
/**
 * Version 6 holds the same as version 5, of passages hashed and cut with Traditional Chinese
 * characters read as Simplified (core/traditional.ts), so a 轉載 in the other script has the same
 * passages. Signatures of version 5 are read and compared alike: for text without a Traditional
 * character (English, Simplified Chinese) the two are the same; a Traditional or Japanese page kept
 * at version 5 keeps its unfolded hashes.
 * Version 5 holds the same as version 4, of passages cut at paragraph ends too (a blank line: the
 * extraction writes one around every block), so that a line without a sentence end (a heading, a
 * caption, an inserted "Related:" or 关注公众号 line) stands alone rather than changing the hash of
 * the sentence after it. Signatures of version 4 are read and compared alike.
 * Version 4 holds the same as version 3, of passages cut as core/passages.ts cuts them since then: a
 * half-width . ! ? right before a Han or kana character ends a sentence (Chinese typed with
 * half-width punctuation shared 47 % of its passages with the same text in full-width, 95 % since).
 * Only such rows cut differently (0.08 % of the Chinese corpus's passages, none of the English), so
 * signatures of version 3 are read and compared alike.
 * Version 3 holds the same as version 2, of passages cut as core/passages.ts cuts them since then: a
 * run without sentence ends is cut where its own tokens say, wherever it stands. Version 2 cut such
 * runs counting from each passage's start, so they came out differently inside other text; in
 * sentences of fewer than 40 words the two cut alike, and signatures of both are read and compared
 * alike (about 96 % of a Chinese page's hashes, 91 % of another's, are the same in both:
 * docs/fingerprint.md). Version 2 keeps 32-bit hashes. Version 1 kept 24 (the top 24 of the same
 * hash): among 10^6 pages of a few hundred passages each, a page's smallest 24-bit hashes are each
 * shared by several unrelated pages, so the passage index returned strangers for every lookup.
 * Signatures of version 1 are still read, and compared with others on 24 bits.
 */
const SIGNATURE_VERSION = 6;
/** Versions read: those of 32-bit hashes, and 1. */
const READ_VERSIONS = new Set([1, 2, 3, 4, 5, SIGNATURE_VERSION]);

export interface PassageSignature {
  /** Distinct passages of the page at least PASSAGE_MIN_WORDS long. */
  count: number;
  /** The smallest min(count, PASSAGE_CAP) of their hashes, ascending. */
  hashes: Uint32Array;
  /** Bits of each hash: 32, or 24 in a signature of version 1. */
  bits: 24 | 32;
  /** Characters of each kept passage (parallel to `hashes`); only on a signature computed from text, never stored. */
  chars?: Uint32Array;
}

/** The signature of a text. */
export function passageSignature(text: string): PassageSignature {
  return passageSignatureWith(text, PASSAGE_MIN_WORDS, PASSAGE_CAP);
}

/**
 * The signature with other choices: for measuring alternatives, never stored. Given `counts`, the
 * scan also counts the text's scripts for textStats (see scanPassages).
 */
export function passageSignatureWith(text: string, minWords: number, cap: number, counts?: ScriptCounts): PassageSignature {
  // Hashes and lengths in typed arrays (no object per passage), then sorted; lengths are looked up
  // only for the few kept.
  let hashes = new Uint32Array(256);
  let lengths = new Uint32Array(256);
  let n = 0;
  scanPassages(text, (_s, _e, hash, words, chars) => {
    if (words < minWords) return;
    if (n === hashes.length) {
      const h = new Uint32Array(2 * n);
      h.set(hashes);
      hashes = h;
      const l = new Uint32Array(2 * n);
      l.set(lengths);
      lengths = l;
    }
    hashes[n] = hash;
    lengths[n++] = chars;
  }, counts);
  const sorted = hashes.slice(0, n).sort();
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i];
  const kept = sorted.slice(0, Math.min(distinct, cap));
  const chars = new Uint32Array(kept.length);
  const last = kept.length ? kept[kept.length - 1] : -1;
  const where = new Map<number, number>();
  kept.forEach((h, k) => where.set(h, k));
  for (let i = n - 1; i >= 0; i--) if (hashes[i] <= last && where.has(hashes[i])) chars[where.get(hashes[i]) as number] = lengths[i];
  return { count: distinct, hashes: kept, bits: 32, chars };
}

/** Largest hash value the signature holds every passage up to. */
function cutoff(s: PassageSignature): number {
  return s.count > s.hashes.length ? s.hashes[s.hashes.length - 1] : s.bits === 32 ? 0xffffffff : 0xffffff;
}

/** The signature on 24 bits, as version 1 kept it (hashes that become equal kept once). */
function short(s: PassageSignature): PassageSignature {
  if (s.bits === 24) return s;
  const hashes: number[] = [];
  const chars: number[] = [];
  s.hashes.forEach((h, i) => {
    const v = h >>> 8;
    if (hashes.length && hashes[hashes.length - 1] === v) return;
    hashes.push(v);
    if (s.chars) chars.push(s.chars[i]);
  });
  return { count: s.count - (s.hashes.length - hashes.length), hashes: Uint32Array.from(hashes), bits: 24, ...(s.chars ? { chars: Uint32Array.from(chars) } : {}) };
}

/** Two signatures on the same number of bits: the longer ones shortened when one is of version 1. */
function alike(a: PassageSignature, b: PassageSignature): [PassageSignature, PassageSignature] {
  return a.bits === b.bits ? [a, b] : [short(a), short(b)];
}

/**
 * How many of its smallest hashes are a page's anchors: its ANCHOR_COUNT smallest, and every hash
 * below 1/2^ANCHOR_SHARE_BITS of the range (a quarter of its passages, on average), up to
 * ANCHOR_CAP. The ANCHOR_COUNT smallest alone find a part of a longer page from the part itself
 * (the part's smallest hash among the longer page's anchors) with chance 1 − (1 − f)^ANCHOR_COUNT for
 * a part holding a share f of the longer page's passages: 97 % for a quarter, 72 % for a tenth. A
 * hash below the threshold is an anchor of every page that holds it, whatever surrounds it, so a
 * part holding n passages is found with chance 1 − (3/4)^n (99 % from 15 passages: a short news
 * item inside a forum thread), up to a longer page of ANCHOR_CAP × 4 passages (about 2,500 words);
 * beyond, its ANCHOR_CAP smallest. A page of up to 48 passages has ANCHOR_COUNT anchors.
 * (Until 28 November 2026 the threshold was a sixteenth, the cap 48: a part of 15 passages was
 * missed with chance (15/16)^15, 38 %.)
 */
export function anchorCount(s: PassageSignature): number {
  const below = 2 ** (s.bits - ANCHOR_SHARE_BITS);
  const most = Math.min(ANCHOR_CAP, s.hashes.length);
  let k = 0;
  while (k < most && s.hashes[k] < below) k++;
  return Math.min(s.hashes.length, Math.max(ANCHOR_COUNT, k));
}

/** The page's passage-index entries (anchorCount; the first PROBE_COUNT are what a lookup asks, the first LEAD_COUNT what every page keeps at hand). */
export function anchorsOf(s: PassageSignature): number[] {
  return Array.from(s.hashes.subarray(0, anchorCount(s)));
}

/**
 * Whether the second retrieval path finds the earlier page from the current one. A lookup asks the
 * index for its PROBE_COUNT smallest hashes among every earlier page's ANCHOR_COUNT, and compares
 * every hash it keeps (its PASSAGE_CAP smallest) with every earlier page's LEAD_COUNT smallest (kept
 * in memory). When the earlier page is a part of the current one holding a share f of its
 * passages, the part's smallest hash is among the current page's kept hashes with chance
 * 1 − (1 − f)^PASSAGE_CAP (always, when the current page has no more than PASSAGE_CAP passages): a
 * copy of a short page is found inside a page with fifty times its passages, and a page whose text
 * has few sentence ends (long passages) inside ordinary text. Comparing the current page's
 * ANCHOR_COUNT smallest only, as lookups did until November 2026, found it with chance
 * 1 − (1 − f)^ANCHOR_COUNT: two times in three for a part of a tenth. When the current page is the
 * part, the earlier page's anchors are asked for its smallest hashes, and its leads compared with
 * all of them. The second smallest lead (and third probe) cover a part whose smallest passage was
 * cut differently at its edge.
 */
export function shareAnchor(current: PassageSignature, earlier: PassageSignature): boolean {
  const [a, b] = alike(current, earlier);
  return sharesAny(a, b, PROBE_COUNT, anchorCount(b)) || sharesAny(a, b, PASSAGE_CAP, LEAD_COUNT);
}

/** Whether the `firstCount` smallest hashes of `a` and the `secondCount` smallest of `b` (of the same bits) have one in common. */
function sharesAny(a: PassageSignature, b: PassageSignature, firstCount: number, secondCount: number): boolean {
  const n = Math.min(firstCount, a.hashes.length);
  const m = Math.min(secondCount, b.hashes.length);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a.hashes[i] === b.hashes[j]) return true;
    if (a.hashes[i] < b.hashes[j]) i++;
    else j++;
  }
  return false;
}

export interface PassageOverlap {
  /** Passages of both samples below the common cut-off that the two pages share. */
  shared: number;
  /** Passages of `a` and of `b` below the common cut-off. */
  inA: number;
  inB: number;
  /** Share of a's text (by characters when a was computed from text, else by passages) found in b. */
  aInB: number;
  /** Share of b's passages found in a. */
  bInA: number;
}

/** What two pages' passages have in common, estimated on their consistent samples. */
export function passageOverlap(first: PassageSignature, second: PassageSignature): PassageOverlap {
  const [a, b] = alike(first, second);
  const t = Math.min(cutoff(a), cutoff(b));
  let shared = 0;
  let inA = 0;
  let inB = 0;
  let charsA = 0;
  let sharedCharsA = 0;
  let i = 0;
  let j = 0;
  const ha = a.hashes;
  const hb = b.hashes;
  while (i < ha.length && ha[i] <= t) {
    const c = a.chars ? a.chars[i] : 1;
    while (j < hb.length && hb[j] < ha[i] && hb[j] <= t) {
      j++;
      inB++;
    }
    if (j < hb.length && hb[j] === ha[i]) {
      shared++;
      sharedCharsA += c;
      j++;
      inB++;
    }
    charsA += c;
    inA++;
    i++;
  }
  while (j < hb.length && hb[j] <= t) {
    j++;
    inB++;
  }
  return { shared, inA, inB, aInB: charsA ? sharedCharsA / charsA : 0, bInA: inB ? shared / inB : 0 };
}

/** Where a page's passages can be looked for by their short (24-bit) hashes: a set of them, or a stored read set. */
export interface PassageLookup {
  has(hash24: number): boolean;
}

/** Every passage of a page, by its short (24-bit) hash: what heldIn looks in. */
export const passageSet = (hashes: Iterable<number>): PassageLookup => new Set(hashes);

/**
 * How much of an earlier page the page being read holds, when that page has all its passages at
 * hand (`all`: the content script sends them; a stored page's read set holds them, up to 2,048)
 * rather than its signature's sample: each passage the earlier signature kept is looked for among
 * them all. Exact for an earlier page whose signature kept every passage, however long the page
 * that holds it (where samples of both would share only the few passages each sample happens to
 * keep); on a longer one's sample, which is uniform over its passages, an estimate. Another page's
 * 24-bit hash meets one of them by chance about once in 16 million (once in 256 in a read set).
 */
export function heldIn(earlier: PassageSignature, all: PassageLookup): { found: number; share: number } {
  const shift = earlier.bits === 32 ? 8 : 0;
  let found = 0;
  for (const h of earlier.hashes) if (all.has(h >>> shift)) found++;
  return { found, share: earlier.hashes.length ? found / earlier.hashes.length : 0 };
}

// Boundary form: base64 of [version, count as 2 bytes (capped at 65535), then each hash in 4 bytes
// (3 in version 1)]: at most 4 + 4 × ⌈(3 + 4 × PASSAGE_CAP) / 3⌉ characters.
export function encodePassages(s: PassageSignature): string {
  const size = s.bits === 32 ? 4 : 3;
  const bytes = new Uint8Array(3 + size * s.hashes.length);
  bytes[0] = s.bits === 32 ? SIGNATURE_VERSION : 1;
  const count = Math.min(s.count, 0xffff);
  bytes[1] = count >>> 8;
  bytes[2] = count & 0xff;
  s.hashes.forEach((h, k) => {
    for (let i = 0; i < size; i++) bytes[3 + size * k + i] = (h >>> (8 * (size - 1 - i))) & 0xff;
  });
  return toBase64(bytes);
}

/**
 * The signature with each kept passage's length in characters, from the page's own passages (as its
 * content script sends them, in 24-bit keys): the stored form keeps no lengths, and without them a
 * page's share held in another is counted in passages, where a text's signature (the benchmark's)
 * weighs characters. A site's many short lines then weighed as much as an article's long sentences:
 * issue 42 of a newsletter was taken for issue 41 on 14 of its 18 passages, 61 % of its characters
 * (review 50, FP-7). Unchanged where a kept passage is not among `passages`.
 */
export function withPassageChars(s: PassageSignature, passages: ReadonlyArray<{ hash: number; chars: number }>): PassageSignature {
  const shift = s.bits === 32 ? 8 : 0;
  const lengths = new Map<number, number>();
  for (const p of passages) if (!lengths.has(p.hash)) lengths.set(p.hash, p.chars);
  const chars = new Uint32Array(s.hashes.length);
  for (let i = 0; i < s.hashes.length; i++) {
    const c = lengths.get(s.hashes[i] >>> shift);
    if (c === undefined) return s;
    chars[i] = c;
  }
  return { ...s, chars };
}

/** The signature in a stored string, or null if it is not one (an unknown version, damaged, out of order). */
export function decodePassages(encoded: string): PassageSignature | null {
  const bytes = fromBase64(encoded);
  return bytes && decodePassageBytes(bytes);
}

/** The signature in its stored bytes (the stored string without its base64), or null. */
export function decodePassageBytes(bytes: Uint8Array): PassageSignature | null {
  if (bytes.length < 3 || !READ_VERSIONS.has(bytes[0])) return null;
  const size = bytes[0] === 1 ? 3 : 4;
  if ((bytes.length - 3) % size !== 0) return null;
  const count = (bytes[1] << 8) | bytes[2];
  const n = (bytes.length - 3) / size;
  if (n > PASSAGE_CAP || n > count || (n < PASSAGE_CAP && n !== count)) return null;
  const hashes = new Uint32Array(n);
  for (let k = 0; k < n; k++) {
    let h = 0;
    for (let i = 0; i < size; i++) h = h * 256 + bytes[3 + size * k + i];
    hashes[k] = h;
    if (k > 0 && hashes[k] <= hashes[k - 1]) return null;
  }
  return { count, hashes, bits: size === 4 ? 32 : 24 };
}
