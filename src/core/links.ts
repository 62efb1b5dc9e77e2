// Link keys: the page a link leads to, as the history names it (pageIdentity), so a list of links
// can be checked against the history without opening any of them. Search engines send clicks
// through a redirect of their own; where that redirect carries its target in the link itself, the
// target is taken from it. Nothing is ever fetched: a redirect whose target is only known to the
// engine (Baidu's and Sogou's /link?url=<token>) stays what it is, a link to the engine.
import { fromBase64 } from './base64';
import { pageIdentity, parseWebUrl } from './url';

/** Redirects nested deeper than this are left as they are (an engine's redirect to itself, twice, is already odd). */
const MAX_UNWRAP = 3;

const GOOGLE_HOST = /^(www\.)?google\.[a-z]{2,3}(\.[a-z]{2})?$/;
const BING_HOST = /^(www\.|cn\.)?bing\.com$/;
const DDG_HOST = /^(html\.|lite\.|www\.)?duckduckgo\.com$/;
const BAIDU_HOST = /^(www\.|m\.)?baidu\.com$/;
const SOGOU_HOST = /^(www\.|m\.|wap\.)?sogou\.com$/;
/** Yahoo! (search.yahoo.com, Yahoo! JAPAN's search.yahoo.co.jp, Taiwan's tw.search.yahoo.com). */
const YAHOO_HOST = /^([a-z]{2}\.)?search\.yahoo\.(com|co\.jp)$/;
/** 360 搜索 (so.com) and 神马搜索 (sm.cn, its mobile hosts). */
const SO360_HOST = /^(www\.|m\.)?so\.com$/;
const SHENMA_HOST = /^([a-z0-9-]+\.)*sm\.cn$/;
/** Yandex (its country domains) and ya.ru. */
const YANDEX_HOST = /^(www\.)?(yandex\.[a-z]{2,3}(\.[a-z]{2})?|ya\.ru)$/;
/** Other engines whose result pages are at /search: Naver, Daum, Ecosia, Brave, Startpage. */
const AT_SEARCH = new Set(['search.naver.com', 'm.search.naver.com', 'search.daum.net', 'm.search.daum.net', 'www.ecosia.org', 'search.brave.com', 'www.startpage.com']);

/** The value of a query parameter, decoded; undefined if absent. */
const param = (u: URL, name: string) => u.searchParams.get(name) ?? undefined;

/** A parameter's value if it is a web address itself. */
const webTarget = (value: string | undefined) => (value === undefined ? null : parseWebUrl(value));

/** Bing's `u` parameter: "a1" then the target in base64url without padding. */
function bingTarget(u: string | undefined): URL | null {
  if (!u?.startsWith('a1')) return null;
  let b64 = u.slice(2).replace(/-/g, '+').replace(/_/g, '/');
  b64 += '='.repeat((4 - (b64.length % 4)) % 4);
  const bytes = fromBase64(b64);
  if (!bytes) return null;
  try {
    return parseWebUrl(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}

/** The target of one search-engine redirect, or null if `u` is not one whose target it carries. */
function redirectTarget(u: URL): URL | null {
  const host = u.hostname;
  const path = u.pathname;
  if (GOOGLE_HOST.test(host)) {
    // /url?q=… (results), /url?url=… (results opened from elsewhere), /amp/s/host/path (AMP viewer).
    if (path === '/url') return webTarget(param(u, 'q')) ?? webTarget(param(u, 'url'));
    const amp = /^\/amp\/(s\/)?(.+)$/.exec(path);
    if (amp) return parseWebUrl(`${amp[1] ? 'https' : 'http'}://${amp[2]}${u.search}`);
    return null;
  }
  if (BING_HOST.test(host)) return path === '/ck/a' ? bingTarget(param(u, 'u')) : null;
  if (DDG_HOST.test(host)) return path === '/l/' || path === '/l' ? webTarget(param(u, 'uddg')) : null;
  // Baidu and Sogou: their /link?url= carries a token only the engine can resolve (not an
  // address), so it is left alone; a plain address in `url` (some mobile and transcoding links) is taken.
  if (BAIDU_HOST.test(host) || SOGOU_HOST.test(host)) return webTarget(param(u, 'url'));
  return null;
}

/** The address a link leads to: search-engine redirects that carry their target unwrapped; null if not a web address. */
export function linkTarget(href: string): string | null {
  let u = parseWebUrl(href);
  if (!u) return null;
  for (let i = 0; i < MAX_UNWRAP; i++) {
    const next = redirectTarget(u);
    if (!next) break;
    u = next;
  }
  return u.href;
}

/** The key of a link: the identity of the page it leads to (see linkTarget and pageIdentity); null if not a web page. */
export function linkKey(href: string): string | null {
  const target = linkTarget(href);
  return target === null ? null : pageIdentity(target);
}

/**
 * Whether an address is a search engine's result page (Google, Bing, DuckDuckGo, Baidu, Sogou,
 * Yahoo!, 360, 神马, Yandex, Naver, Daum, Ecosia, Brave, Startpage): never read (a list of results
 * is no article, and the reader's searches do not go into the history), and where "marks on
 * search engines only" draws them.
 */
export function isSearchResultPage(url: string): boolean {
  const u = parseWebUrl(url);
  if (!u) return false;
  const { hostname: host, pathname: path } = u;
  if (GOOGLE_HOST.test(host)) return path === '/search';
  if (BING_HOST.test(host)) return path === '/search';
  if (DDG_HOST.test(host)) return path === '/' || path === '/html' || path === '/html/' || path === '/lite' || path === '/lite/';
  if (BAIDU_HOST.test(host)) return path === '/s';
  if (SOGOU_HOST.test(host)) return path === '/web' || path === '/sogou';
  if (YAHOO_HOST.test(host)) return path === '/search';
  if (SO360_HOST.test(host) || SHENMA_HOST.test(host)) return path === '/s';
  if (YANDEX_HOST.test(host)) return path === '/search' || path === '/search/';
  if (AT_SEARCH.has(host)) return path === '/search' || path === '/search.naver' || path === '/do/search' || path === '/sp/search';
  return false;
}
