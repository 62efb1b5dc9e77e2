// Checks what a content script sent before anything is matched or stored: a page is untrusted
// input, and a broken or hostile one must not reach the database.
import { decodePassages, decodeSentPassages, decodeSketch, fromBase64, isReadSetBytes, wellFormed, MAX_READ_SET_LENGTH, isFingerprintHex, MAX_URL_LENGTH, parseWebUrl, type ArticleDigest } from '../core';
import { MAX_PAGE_PASSAGES, MAX_TEXT_LENGTH } from '../content/extract-limits';
import type { PagePassage } from '../core';
import type { PageReport } from '../messaging/protocol';
import { LIMITS, VISIT_ID } from '../storage/history-import';

export const MAX_TITLE_LENGTH = 500;

/**
 * A title as kept: white space as one space, at most MAX_TITLE_LENGTH code units, never cut
 * between the two halves of a character, and no half of one left alone (a file written as UTF-8,
 * a CSV export, holds U+FFFD in its place: the title would not come back as it was).
 */
export function keptTitle(title: string): string {
  let t = title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_LENGTH);
  if (/[\uD800-\uDBFF]$/.test(t)) t = t.slice(0, -1);
  return wellFormed(t);
}
/** Far more than an encoded sketch or passage signature takes (about 350 and 390 characters). */
const MAX_ENCODED_LENGTH = 1024;

const LANG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;
/** A page's language tag as kept (lower case), or `fallback`: no longer than an import takes, so every record exports and imports back. */
const langTag = (value: unknown, fallback: string): string => (typeof value === 'string' && value.length <= LIMITS.langLength && LANG.test(value) ? value.toLowerCase() : fallback);

/** Sampled runs one passage may carry: a passage is at most 120 word-equivalents (180 Han characters), about 45 at 1 in 4. */
const MAX_RUNS = 256;

/** A page's passages as hashes, or undefined when absent or malformed (what's new is then not told). */
const parsePassages = (input: unknown): PagePassage[] | undefined =>
  (typeof input === 'string' && decodeSentPassages(input, { passages: MAX_PAGE_PASSAGES, runs: MAX_RUNS, length: MAX_TEXT_LENGTH })) || undefined;

/** A page report as checked: its passages unpacked. */
export type CheckedReport = Omit<PageReport, 'passages'> & { passages?: PagePassage[] };

const isEncoded = (value: unknown, decode: (s: string) => unknown): value is string => typeof value === 'string' && value.length <= MAX_ENCODED_LENGTH && decode(value) !== null;

/** The digest a report carries, or why it is not one; its read set only where it is to be kept. */
function parseDigest(input: unknown, keepReadSet: boolean): ArticleDigest {
  if (!input || typeof input !== 'object') throw new TypeError('page report: digest must be an object');
  const { fp, words, lang, textHash, sketch, passages, readSet } = input as Record<string, unknown>;
  if (!isFingerprintHex(fp) || !isFingerprintHex(textHash)) throw new TypeError('page report: digest fingerprints must be 16 hex digits');
  if (typeof words !== 'number' || !Number.isInteger(words) || words < 0 || words > MAX_TEXT_LENGTH) throw new TypeError('page report: digest words out of range');
  if (!isEncoded(sketch, decodeSketch) || !isEncoded(passages, decodePassages)) throw new TypeError('page report: digest sketch or passages undecodable');
  // A read set beyond its cap (about 2.7 KB encoded) or undecodable is dropped: the page is still
  // recorded. A report that is only looked up leaves it out unread.
  const set = keepReadSet && typeof readSet === 'string' && readSet.length <= MAX_READ_SET_LENGTH && isReadSetBytes(fromBase64(readSet) ?? new Uint8Array()) ? readSet : '';
  return { fp, words, lang: langTag(lang, 'und'), textHash, sketch, passages, readSet: set };
}

/**
 * A content script's report, checked. `readSet: false` for a report that is only looked up (the
 * check of a page, the popup): its read set, which only a recorded visit keeps, is left out unread.
 */
export function parsePageReport(input: unknown, { readSet = true } = {}): CheckedReport {
  if (!input || typeof input !== 'object') throw new TypeError('page report must be an object');
  const { url, title, digest, lang, canonical, visitId, loadedAgain, passages } = input as Record<string, unknown>;
  const pagePassages = parsePassages(passages);
  const parsed = parseWebUrl(url);
  if (!parsed) throw new TypeError('page report: only http(s) pages of a sane URL length are recorded');
  return {
    url: parsed.href,
    title: typeof title === 'string' ? keptTitle(title) : '',
    digest: parseDigest(digest, readSet),
    lang: langTag(lang, ''),
    canonical: Array.isArray(canonical) ? canonical.filter((c): c is string => typeof c === 'string' && c.length <= MAX_URL_LENGTH).slice(0, 4) : [],
    ...(typeof visitId === 'string' && VISIT_ID.test(visitId) ? { visitId } : {}),
    ...(loadedAgain === true ? { loadedAgain: true as const } : {}),
    ...(pagePassages ? { passages: pagePassages } : {}),
  };
}
