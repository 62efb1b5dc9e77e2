// The reader's settings: their shape, defaults, and how a stored object (possibly from an older
// version, or edited by hand in storage) becomes valid settings. Pure: the store is settings-store.ts.
import { isSearchResultPage, SENSITIVITY, type MatchSettings, type Sensitivity } from '../core';

/** Where links to pages read before are marked: every web page, search result pages only, or nowhere. */
export type LinkMarks = 'on' | 'search' | 'off';

export interface Settings {
  /** How similar two pages must be to count as read before. */
  sensitivity: Sensitivity;
  /** Minimum article length in word-equivalents for near-duplicates; null follows the sensitivity. */
  minWords: number | null;
  /** Seconds a tab must be visible before its page counts as read (0: at once). */
  dwellSeconds: number;
  /** Sites never read or recorded: host names ("mail.example.com", matching subdomains too) or host/path prefixes ("www.google.com/search"). */
  excludedSites: string[];
  /** Show the in-page notice (the toolbar badge is always on). */
  showNotice: boolean;
  /** Mark links to pages read before (see linkMarksAllowed). */
  linkMarks: LinkMarks;
  /** Record pages read in private windows (and mark links there). */
  recordPrivate: boolean;
  /** Paused everywhere: nothing is read or recorded. */
  paused: boolean;
}

/** Offered and pre-set on install: mail, banking and payments, search results. */
export const SUGGESTED_EXCLUSIONS: readonly string[] = [
  'mail.google.com',
  'outlook.live.com',
  'outlook.office.com',
  'mail.yahoo.com',
  'mail.qq.com',
  'mail.163.com',
  'paypal.com',
  'alipay.com',
  'chase.com',
  'bankofamerica.com',
  'wellsfargo.com',
  'icbc.com.cn',
  'ccb.com',
  'cmbchina.com',
  'www.google.com/search',
  'www.bing.com/search',
  'duckduckgo.com',
  'search.yahoo.com',
  'www.baidu.com/s',
  'www.sogou.com/web',
];

/**
 * The suggested exclusions that are search result pages: excluded from reading because a list of
 * results is not an article, not to keep the extension away, so links are marked there (unless
 * marks are off). Any other exclusion keeps marks away too.
 */
export const SEARCH_RESULT_EXCLUSIONS: readonly string[] = ['www.google.com/search', 'www.bing.com/search', 'duckduckgo.com', 'search.yahoo.com', 'www.baidu.com/s', 'www.sogou.com/web'];

export const DEFAULT_SETTINGS: Readonly<Settings> = Object.freeze({
  sensitivity: 'normal',
  minWords: null,
  dwellSeconds: 5,
  excludedSites: [...SUGGESTED_EXCLUSIONS],
  showNotice: true,
  linkMarks: 'on',
  recordPrivate: false,
  paused: false,
});

export const LIMITS = { dwellSeconds: 600, minWords: 5000, excludedSites: 500, siteLength: 200 } as const;

/**
 * Normalises what a reader typed or pasted as a site: a URL, a host, a host with a port, or
 * `*.example.com` (the same as example.com, which covers its subdomains): lowercase host (an
 * internationalised one in its ASCII form, as browsers give it), optional port and path (lowercase,
 * percent-encoded as in a URL), no scheme, credentials, query or fragment. A path ending in `*`
 * covers every path that starts so (`example.com/print*`: /print, /printable, /print/1); a `*`
 * anywhere else than there or in `*.` before the host is not taken (null), rather than kept as a
 * character that no address has.
 */
export function normalizeSitePattern(input: string): string | null {
  const given0 = input.trim().replace(/\\/g, '/');
  // A web address, or no scheme at all: not chrome://settings (a page no content script reads) or mailto:.
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(given0)?.[1].toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return null;
  const site = given0.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^/@]*@/, '');
  const wildcard = site.startsWith('*.');
  const s = site
    .replace(/^\*\./, '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '');
  const [given, ...path] = s.split('/');
  const port = /:\d+$/.exec(given)?.[0] ?? '';
  const typedPath = path.join('/');
  const stem = typedPath.replace(/\*+$/, '');
  if (stem.includes('*')) return null;
  // "example.com/*" is all of example.com.
  const prefix = stem !== typedPath && stem !== '';
  let host: string;
  let pathname = '';
  try {
    host = new URL(`http://${given.slice(0, given.length - port.length)}`).hostname.replace(/\.$/, '');
    if (stem) pathname = new URL(`http://x/${stem}`).pathname.toLowerCase() + (prefix ? '*' : '');
  } catch {
    return null;
  }
  // Labels not empty ("example..com"), a port a URL can have (1 to 65535).
  if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(host) || host.length + port.length > LIMITS.siteLength) return null;
  // One label is a host of a local network (localhost, intranet), which covers that host only
  // (isExcluded): not after "*." (meant as every site of a top-level domain), and not a word in
  // another script (不是网站 becomes xn--…).
  if (!host.includes('.') && (wildcard || host.startsWith('xn--'))) return null;
  if (port && !(Number(port.slice(1)) >= 1 && Number(port.slice(1)) <= 65_535)) return null;
  return `${host}${port}${pathname}`;
}

/** Whether a URL falls under an exclusion: the host or a subdomain of it, and the path if any (the path and below it; with a final `*`, any path starting so). */
export function isExcluded(url: string, patterns: readonly string[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  // "example.com." is example.com; paths are compared as the patterns keep them, in lower case.
  const host = u.hostname.toLowerCase().replace(/\.$/, '');
  const bare = host.replace(/^www\./, '');
  const pathname = u.pathname.toLowerCase();
  return patterns.some((p) => {
    const slash = p.indexOf('/');
    const hostPort = slash < 0 ? p : p.slice(0, slash);
    const pPath = slash < 0 ? '' : p.slice(slash);
    // A pattern with a port covers that port only (127.0.0.1:8080); one without covers every port.
    const colon = hostPort.indexOf(':');
    const pHost = colon < 0 ? hostPort : hostPort.slice(0, colon);
    if (colon >= 0 && (u.port || (u.protocol === 'https:' ? '443' : '80')) !== hostPort.slice(colon + 1)) return false;
    const pBare = pHost.replace(/^www\./, '');
    // A name of one label is a host of a local network (localhost, intranet), never a domain above
    // others: "com" or "cn" would otherwise leave every site under them unread.
    const hostMatches = bare === pBare || (pBare.includes('.') && bare.endsWith(`.${pBare}`));
    if (!hostMatches) return false;
    if (pPath.endsWith('*')) return pathname.startsWith(pPath.slice(0, -1));
    return pPath === '' || pathname === pPath || pathname.startsWith(`${pPath}/`);
  });
}

/** Valid settings from whatever was stored; unknown or bad values fall back to the defaults. */
export function parseSettings(stored: unknown): Settings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const d = DEFAULT_SETTINGS;
  const int = (v: unknown, max: number) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max ? v : undefined);
  const sites = Array.isArray(s.excludedSites)
    ? [...new Set(s.excludedSites.map((x) => (typeof x === 'string' ? normalizeSitePattern(x) : null)).filter((x): x is string => x !== null))].slice(0, LIMITS.excludedSites)
    : [...d.excludedSites];
  return {
    sensitivity: s.sensitivity === 'strict' || s.sensitivity === 'normal' || s.sensitivity === 'loose' ? s.sensitivity : d.sensitivity,
    minWords: s.minWords === null ? null : (int(s.minWords, LIMITS.minWords) ?? d.minWords),
    dwellSeconds: int(s.dwellSeconds, LIMITS.dwellSeconds) ?? d.dwellSeconds,
    excludedSites: sites,
    showNotice: typeof s.showNotice === 'boolean' ? s.showNotice : d.showNotice,
    linkMarks: s.linkMarks === 'on' || s.linkMarks === 'search' || s.linkMarks === 'off' ? s.linkMarks : d.linkMarks,
    recordPrivate: typeof s.recordPrivate === 'boolean' ? s.recordPrivate : d.recordPrivate,
    paused: typeof s.paused === 'boolean' ? s.paused : d.paused,
  };
}

/**
 * Whether the page at `url` is left unread: paused, its site excluded, or a search engine's result
 * page on any of its country domains (google.com.tw, google.co.jp…), excluded or not: a list of
 * results is not an article, and the reader's searches stay out of the history.
 */
export function heldFromReading(url: string, settings: Settings): boolean {
  return settings.paused || isExcluded(url, settings.excludedSites) || isSearchResultPage(url);
}

/**
 * Whether links are marked on the page at `url`: marks on (or on search engines only, and this is
 * a result page), not paused, the site not excluded (search result pages excepted, see
 * SEARCH_RESULT_EXCLUSIONS), and not in a private window unless private windows are recorded.
 */
export function linkMarksAllowed(url: string, settings: Settings, incognito: boolean): boolean {
  if (settings.linkMarks === 'off' || settings.paused || (incognito && !settings.recordPrivate)) return false;
  if (settings.linkMarks === 'search' && !isSearchResultPage(url)) return false;
  return !isExcluded(url, settings.excludedSites.filter((site) => !SEARCH_RESULT_EXCLUSIONS.includes(site)));
}

/** The matching settings the decision function uses. */
export function matchSettingsOf(settings: Settings): MatchSettings {
  const base = SENSITIVITY[settings.sensitivity];
  return settings.minWords === null ? base : { ...base, minWords: settings.minWords };
}
