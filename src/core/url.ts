// URL identity: the site of a page, and the canonical form under which revisits are recognised.

/** Host name without "www.", lowercased: the site a page belongs to ('' if the URL does not parse). */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}
