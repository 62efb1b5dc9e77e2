// Helpers for showing URLs: the site name, and whether a URL is safe to open.
import { parseWebUrl } from '../core';
export { siteOf } from '../core';

/** Only web pages are opened from the history: never javascript:, data: or file: URLs. */
export function isOpenableUrl(url: string): boolean {
  return parseWebUrl(url) !== null;
}
