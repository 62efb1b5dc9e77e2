// Checks what a content script sent before anything is fingerprinted or stored: a page is
// untrusted input, and a broken or hostile one must not reach the database.
import { MAX_URL_LENGTH, parseWebUrl } from '../core';
import type { PageReport } from '../messaging/protocol';

export const MAX_TITLE_LENGTH = 500;
/** Longer texts are fingerprinted on their first part: about 600 pages of a book. */
export const MAX_TEXT_LENGTH = 2_000_000;

const VISIT_ID = /^[A-Za-z0-9-]{8,64}$/;

export function parsePageReport(input: unknown): PageReport {
  if (!input || typeof input !== 'object') throw new TypeError('page report must be an object');
  const { url, title, text, lang, canonical, visitId } = input as Record<string, unknown>;
  const parsed = parseWebUrl(url);
  if (!parsed) throw new TypeError('page report: only http(s) pages of a sane URL length are recorded');
  if (typeof text !== 'string') throw new TypeError('page report: text must be a string');
  return {
    url: parsed.href,
    title: typeof title === 'string' ? title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_LENGTH) : '',
    text: text.length > MAX_TEXT_LENGTH ? text.slice(0, MAX_TEXT_LENGTH) : text,
    lang: typeof lang === 'string' && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(lang) ? lang.toLowerCase() : '',
    canonical: Array.isArray(canonical) ? canonical.filter((c): c is string => typeof c === 'string' && c.length <= MAX_URL_LENGTH).slice(0, 4) : [],
    ...(typeof visitId === 'string' && VISIT_ID.test(visitId) ? { visitId } : {}),
  };
}
