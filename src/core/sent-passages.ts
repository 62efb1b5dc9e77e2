// A page's passages as they travel from where the page was read to the background (what "what's
// new" compares with an earlier page's read set: each passage's hash, its size and its sampled
// runs), packed as bytes in base64. As JSON objects they took four times the text's own length (the
// corpus's texts: 17 KB for the median one of 4,100 characters, 66 KB for the longest), and they
// cross four messages a page: extraction → background → content script, then the check and the
// visit. Packed, about a quarter of that; every message carrying them costs the page, and the
// lookup's round trip, less.
//
// Layout: [version 1, count (varint)], then for each passage: its 24-bit hash (3 bytes, big-endian),
// chars, tokens and words × 3 (varints: words are word-equivalents, whole thirds), runs × 2 + 1 if
// it starts a paragraph (varint), and its runs (4 bytes each, big-endian).
import { fromBase64, toBase64 } from './base64';
import type { PagePassage } from './read-set';

const VERSION = 1;

/** The passages packed to send (their words in whole thirds, as `pagePassages` gives them: read-set.ts's inThirds). */
export function encodeSentPassages(passages: readonly PagePassage[]): string {
  const bytes = new Uint8Array(6 + passages.reduce((n, p) => n + 3 + 5 * 4 + 4 * p.runs.length, 0));
  let o = 0;
  const varint = (v: number) => {
    while (v >= 0x80) {
      bytes[o++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    bytes[o++] = v;
  };
  bytes[o++] = VERSION;
  varint(passages.length);
  for (const p of passages) {
    bytes[o++] = (p.hash >>> 16) & 0xff;
    bytes[o++] = (p.hash >>> 8) & 0xff;
    bytes[o++] = p.hash & 0xff;
    varint(p.chars);
    varint(p.tokens);
    varint(Math.round(p.words * 3));
    varint(p.runs.length * 2 + (p.para ? 1 : 0));
    for (const r of p.runs) {
      bytes[o++] = (r >>> 24) & 0xff;
      bytes[o++] = (r >>> 16) & 0xff;
      bytes[o++] = (r >>> 8) & 0xff;
      bytes[o++] = r & 0xff;
    }
  }
  return toBase64(bytes.subarray(0, o));
}

export interface SentPassageLimits {
  /** Passages a page may send. */
  passages: number;
  /** Sampled runs one passage may carry. */
  runs: number;
  /** The most characters, tokens or words one passage may count (the longest text read). */
  length: number;
}

/**
 * The passages a page sent, or null when `s` is not such a packing within `limits` (a page is
 * untrusted: what it sends is read as bytes, every count checked before it is used).
 */
export function decodeSentPassages(s: string, limits: SentPassageLimits): PagePassage[] | null {
  // The most bytes a packing within the limits takes, as base64.
  if (s.length > Math.ceil((6 + limits.passages * (3 + 5 * 4) + 4 * limits.runs * limits.passages) / 3) * 4) return null;
  const bytes = fromBase64(s);
  if (!bytes || bytes[0] !== VERSION) return null;
  let o = 1;
  const varint = (max: number): number => {
    let v = 0;
    for (let shift = 1; o < bytes.length && shift <= 128 ** 4; shift *= 128) {
      const b = bytes[o++];
      v += (b & 0x7f) * shift;
      if (b < 0x80) return v <= max ? v : -1;
    }
    return -1;
  };
  const count = varint(limits.passages);
  if (count < 0) return null;
  const out: PagePassage[] = [];
  for (let k = 0; k < count; k++) {
    if (o + 3 > bytes.length) return null;
    const hash = (bytes[o] << 16) | (bytes[o + 1] << 8) | bytes[o + 2];
    o += 3;
    const chars = varint(limits.length);
    const tokens = varint(limits.length);
    const words3 = varint(3 * limits.length);
    const runsAndPara = varint(2 * limits.runs + 1);
    if (chars < 0 || tokens < 0 || words3 < 0 || runsAndPara < 0) return null;
    const n = runsAndPara >>> 1;
    if (o + 4 * n > bytes.length) return null;
    const runs = new Array<number>(n);
    for (let i = 0; i < n; i++, o += 4) runs[i] = ((bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3]) >>> 0;
    out.push({ hash, chars, runs, tokens, para: (runsAndPara & 1) === 1, words: words3 / 3 });
  }
  return o === bytes.length ? out : null;
}
