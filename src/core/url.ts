// URL identity: the site a page belongs to, and the canonical form of its address under which a
// revisit is recognised whatever tracking parameters or fragment the link carried.

/**
 * Query parameters that say how a reader arrived, never which page it is; removed from canonical
 * URLs. Names are matched case-insensitively; entries ending in "_" match as prefixes.
 */
export const TRACKING_PARAMETERS: readonly string[] = [
  // Campaign tags (Google Analytics and everyone who copied them), share tags
  'utm_',
  'share_',
  'mtm_', // Matomo
  'pk_', // Piwik
  // Click identifiers of ad and social networks
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'igsh',
  'srsltid',
  'rb_clickid',
  // Mail and marketing automation
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'vero_id',
  'oly_enc_id',
  'oly_anon_id',
  '_ga',
  '_gl',
  'cmpid',
  'ncid',
  'ocid',
  // Chinese sites and apps: Alibaba's spm/scm, WeChat's share context
  'spm',
  'scm',
  'from',
  'isappinstalled',
  'scene',
  'subscene',
  'clicktime',
  'enterid',
  'sessionid',
  'ascene',
  'wxfrom',
  // Referral markers
  'ref_src',
  'ref_url',
  'si',
];

// Looked up for every parameter of every link of a list page (link marks): a set and a few prefixes.
const TRACKING_NAMES = new Set(TRACKING_PARAMETERS.filter((t) => !t.endsWith('_')));
const TRACKING_PREFIXES = TRACKING_PARAMETERS.filter((t) => t.endsWith('_'));

function isTracking(name: string): boolean {
  const n = name.toLowerCase();
  return TRACKING_NAMES.has(n) || TRACKING_PREFIXES.some((t) => n.startsWith(t));
}

/** Longest URL a page may report or declare, as sent and as the URL parser writes it. */
export const MAX_URL_LENGTH = 8192;
/**
 * Longest address a history may hold: until 26 November 2026 the length was checked as sent only,
 * and the parser writes a character as up to nine ("€" as %E2%82%AC). An import takes such
 * addresses back (a reader's export must always restore), and the extension's pages may name them.
 */
export const MAX_STORED_URL_LENGTH = 9 * MAX_URL_LENGTH;

/**
 * The URL if `value` is a web page address (http or https, at most MAX_URL_LENGTH as written and as
 * the parser writes it: it escapes what it must, "é" as "%C3%A9", so an address can grow six times
 * over, and one longer than an import takes would make the reader's export impossible to restore);
 * else null.
 */
export function parseWebUrl(value: unknown, max = MAX_URL_LENGTH): URL | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) return null;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.href.length <= max ? u : null;
  } catch {
    return null;
  }
}

/** Host name without "www.", lowercased: the site a page belongs to ('' if the URL does not parse). */
export function siteOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

// Hosts under which unrelated people publish: a page there belongs to its own subdomain.
const SHARED_HOSTS = ['github.io', 'gitlab.io', 'blogspot.com', 'wordpress.com', 'tumblr.com', 'substack.com', 'netlify.app', 'vercel.app', 'pages.dev', 'herokuapp.com', 'appspot.com', 'web.app', 'firebaseapp.com', 'azurewebsites.net', 'neocities.org', 'glitch.me', 'medium.com'];
// Second-level labels under country codes that are registries, not sites (example.co.uk, example.com.cn).
const REGISTRY_LABELS = new Set(['co', 'com', 'net', 'org', 'gov', 'edu', 'ac', 'or', 'ne', 'go', 'gob', 'mil', 'nic', 'ltd', 'plc']);

/**
 * The part of a host name that one owner controls (an approximation of the registrable domain
 * without the whole public suffix list): "news.example.co.uk" → "example.co.uk".
 */
export function registrableDomain(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (/^[\d.]+$/.test(h) || h.includes(':') || !h.includes('.')) return h;
  const labels = h.split('.');
  const last2 = labels.slice(-2).join('.');
  let keep = 2;
  if (SHARED_HOSTS.includes(last2)) keep = 3;
  else if (labels.length >= 3 && labels[labels.length - 1].length === 2 && REGISTRY_LABELS.has(labels[labels.length - 2])) keep = 3;
  return labels.slice(-keep).join('.');
}

/** A query parameter's name as a server reads it ("utm%5Fsource" and "utm_source" alike). */
function parameterName(part: string): string {
  const raw = part.split('=', 1)[0].replace(/\+/g, ' ');
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The canonical form of an http(s) URL: fragment, credentials and tracking parameters removed (the
 * URL parser already lowercases the host and drops default ports). The parameters kept are kept
 * as written, not re-encoded, so `?q=a%20b` and `?q=a%20b&utm_source=x` give the same address.
 * Null for anything else.
 */
/**
 * Whether a fragment is a route (#/article/1, #!/article/1): a single-page app's address for one of
 * its pages, kept in the page's identity. Any other fragment is a place in the page, and dropped.
 */
export function isRouteFragment(hash: string): boolean {
  return /^#!?\//.test(hash);
}

export function canonicalizeUrl(url: string, max = MAX_URL_LENGTH): string | null {
  const u = parseWebUrl(url, max);
  if (!u) return null;
  // Each setter serialises the URL again: only what needs changing is set (the store's upgrade
  // takes every stored address through here).
  if (u.username || u.password) {
    u.username = '';
    u.password = '';
  }
  // An empty fragment or query ("…#", "…?") is in the address but not in `hash` or `search`; only
  // as those delimiters can "#" and "?" appear unescaped in it.
  if (!isRouteFragment(u.hash) && (u.hash || u.href.includes('#'))) u.hash = '';
  const search = u.search;
  const kept = search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !isTracking(parameterName(part)));
  const query = kept.length ? `?${kept.join('&')}` : '';
  if (query !== search || (!search && u.href.includes('?'))) u.search = query;
  return u.href;
}

/**
 * The page an address names: its canonical form (canonicalizeUrl), or the address itself if it is
 * not a web page's. The history keeps one record per page identity, so every variant of an address
 * (tracking parameters, fragment, host case, default port) finds and updates the same record. A
 * URL the page declares (rel=canonical) is deliberately not part of it: see docs/storage.md.
 */
export function pageIdentity(url: string): string {
  return canonicalizeUrl(url) ?? url;
}

/**
 * The same page identity over the other scheme (http and https), or undefined for any other: one
 * page, read over both (a site that moved to https, an old link to http), is one page to the reader.
 */
export function otherScheme(identity: string): string | undefined {
  if (identity.startsWith('https://')) return `http://${identity.slice(8)}`;
  if (identity.startsWith('http://')) return `https://${identity.slice(7)}`;
  return undefined;
}

/** One key for the addresses of one page over http and https (its https form): to compare two identities as pages. */
export function schemeFree(identity: string): string {
  return identity.startsWith('http://') ? `https://${identity.slice(7)}` : identity;
}

/** A page identity and, over http or https, the same over the other scheme: the addresses of one page. */
export function bothSchemes(identity: string): string[] {
  const other = otherScheme(identity);
  return other === undefined ? [identity] : [identity, other];
}

/**
 * The canonical URL of a page: the first URL it declares (rel=canonical, og:url) that is on the
 * same site, so a page cannot claim another site's identity; otherwise its own URL. Canonicalised.
 */
export function pickCanonicalUrl(pageUrl: string, declared: readonly string[]): string {
  const own = canonicalizeUrl(pageUrl) ?? pageUrl;
  const site = registrableDomain(new URL(own).hostname);
  for (const candidate of declared) {
    const c = canonicalizeUrl(candidate);
    if (c && registrableDomain(new URL(c).hostname) === site) return c;
  }
  return own;
}
