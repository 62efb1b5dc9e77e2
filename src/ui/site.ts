// Helpers for showing URLs: the site name, and whether a URL is safe to open.
import { isRouteFragment, parseWebUrl, siteOf } from '../core';
export { siteOf } from '../core';

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
  if (!u) return url;
  const rest = (u.pathname === '/' ? '' : u.pathname) + u.search + (isRouteFragment(u.hash) ? u.hash : '');
  try {
    return siteOf(url) + decodeURI(rest);
  } catch {
    return siteOf(url) + rest; // an escape that is not UTF-8 stays escaped
  }
}
