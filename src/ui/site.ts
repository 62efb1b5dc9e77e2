// Helpers for showing URLs: the site name, and whether a URL is safe to open. A site is kept and
// compared by its ASCII name (core's siteOf) and shown by the name the reader knows (siteName:
// 例子.example, not xn--fsqu00a.example; core/idn.ts says when).
import { displayHost, isRouteFragment, parseWebUrl, siteOf } from '../core';
export { siteOf } from '../core';

/** The site of a page as shown to the reader. */
export function siteName(url: string): string {
  return displayHost(siteOf(url));
}

/** A site as the sites never read hold it ("example.com", "example.com:8080/reads"), as shown to the reader. */
export function sitePatternName(pattern: string): string {
  const host = /^[^/:]*/.exec(pattern)?.[0] ?? '';
  return displayHost(host) + pattern.slice(host.length);
}

/** Only web pages are opened from the history: never javascript:, data: or file: URLs. */
export function isOpenableUrl(url: string): boolean {
  return parseWebUrl(url) !== null;
}

/**
 * Where a page is: its site and path ("example.com/news/story?id=2"), so two pages of one site can
 * be told apart. Percent-escapes are shown as the characters they stand for.
 */
export function placeOf(url: string): string {
  const u = parseWebUrl(url);
  if (!u) return clipped(url);
  const rest = (u.pathname === '/' ? '' : u.pathname) + u.search + (isRouteFragment(u.hash) ? u.hash : '');
  let shown = rest;
  try {
    shown = decodeURI(rest);
  } catch {
    // An escape that is not UTF-8 stays escaped.
  }
  return clipped(siteName(url) + shown);
}

/** The most characters of an address shown as text: a page's address may be 8,000 long. */
export const SHOWN_ADDRESS_CHARS = 160;

/**
 * An address to show as text, cut after SHOWN_ADDRESS_CHARS characters (never inside one) with
 * "…": until 29 November 2026 an address of 7,000 characters made its row of the History page
 * 1,333 px tall (a review). The link itself keeps the whole address.
 */
export function clipped(text: string, max = SHOWN_ADDRESS_CHARS): string {
  if (text.length <= max) return text;
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join('')}…`;
}
