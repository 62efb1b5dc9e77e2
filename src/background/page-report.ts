// Checks what a content script sent before anything is matched or stored: a page is untrusted
// input, and a broken or hostile one must not reach the database.
import { decodePassages, decodeSketch, isFingerprintHex, MAX_URL_LENGTH, parseWebUrl, type ArticleDigest } from '../core';
import { MAX_TEXT_LENGTH } from '../content/extract';
import type { PageReport } from '../messaging/protocol';

export const MAX_TITLE_LENGTH = 500;
/** Far more than an encoded sketch or passage signature takes (about 350 and 390 characters). */
const MAX_ENCODED_LENGTH = 1024;

const VISIT_ID = /^[A-Za-z0-9-]{8,64}$/;
const LANG = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

const isEncoded = (value: unknown, decode: (s: string) => unknown): value is string => typeof value === 'string' && value.length <= MAX_ENCODED_LENGTH && decode(value) !== null;

/** The digest a report carries, or why it is not one. */
function parseDigest(input: unknown): ArticleDigest {
  if (!input || typeof input !== 'object') throw new TypeError('page report: digest must be an object');
  const { fp, words, lang, textHash, sketch, passages } = input as Record<string, unknown>;
  if (!isFingerprintHex(fp) || !isFingerprintHex(textHash)) throw new TypeError('page report: digest fingerprints must be 16 hex digits');
  if (typeof words !== 'number' || !Number.isInteger(words) || words < 0 || words > MAX_TEXT_LENGTH) throw new TypeError('page report: digest words out of range');
  if (!isEncoded(sketch, decodeSketch) || !isEncoded(passages, decodePassages)) throw new TypeError('page report: digest sketch or passages undecodable');
  return { fp, words, lang: typeof lang === 'string' && LANG.test(lang) ? lang.toLowerCase() : 'und', textHash, sketch, passages };
}

export function parsePageReport(input: unknown): PageReport {
  if (!input || typeof input !== 'object') throw new TypeError('page report must be an object');
  const { url, title, digest, lang, canonical, visitId } = input as Record<string, unknown>;
  const parsed = parseWebUrl(url);
  if (!parsed) throw new TypeError('page report: only http(s) pages of a sane URL length are recorded');
  return {
    url: parsed.href,
    title: typeof title === 'string' ? title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_LENGTH) : '',
    digest: parseDigest(digest),
    lang: typeof lang === 'string' && LANG.test(lang) ? lang.toLowerCase() : '',
    canonical: Array.isArray(canonical) ? canonical.filter((c): c is string => typeof c === 'string' && c.length <= MAX_URL_LENGTH).slice(0, 4) : [],
    ...(typeof visitId === 'string' && VISIT_ID.test(visitId) ? { visitId } : {}),
  };
}
