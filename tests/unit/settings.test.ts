import { describe, expect, it, vi } from 'vitest';
import { visibleTimer } from '../../src/content/dwell';

/** A dwell timer counting from now. */
const afterVisibleFor = (doc: Document, seconds: number, done: () => void) => {
  const dwell = visibleTimer(doc, seconds, done);
  dwell.resume();
  return dwell.stop;
};
import { DEFAULT_SETTINGS, heldFromReading, isExcluded, linkMarksAllowed, matchSettingsOf, normalizeSitePattern, parseSettings, SUGGESTED_EXCLUSIONS } from '../../src/settings/settings';

describe('settings', () => {
  it("holds every search engine's result page from reading, on any country domain, as the excluded sites and a pause", () => {
    const none = { ...DEFAULT_SETTINGS, excludedSites: [] };
    for (const url of ['https://www.google.com.tw/search?q=x', 'https://www.google.co.jp/search?q=x', 'https://google.de/search?q=x', 'https://www.baidu.com/s?wd=x', 'https://duckduckgo.com/?q=x']) expect(heldFromReading(url, none)).toBe(true);
    for (const url of ['https://www.google.com.tw/', 'https://news.google.com/articles/x', 'https://example.com/search?q=x']) expect(heldFromReading(url, none)).toBe(false);
    expect(heldFromReading('https://mail.example.com/1', { ...none, excludedSites: ['mail.example.com'] })).toBe(true);
    expect(heldFromReading('https://example.com/a', { ...none, paused: true })).toBe(true);
  });

  it('start private by default: mail, banking and search results excluded, private windows off', () => {
    const s = parseSettings(undefined);
    expect(s).toEqual(DEFAULT_SETTINGS);
    expect(s.recordPrivate).toBe(false);
    expect(s.excludedSites).toEqual([...SUGGESTED_EXCLUSIONS]);
  });

  it('turn anything stored, old or damaged, into valid settings', () => {
    const s = parseSettings({ sensitivity: 'paranoid', minWords: -5, dwellSeconds: 1e9, excludedSites: ['HTTPS://Mail.Example.com/inbox?x=1', 42, 'not a host!', 'mail.example.com/inbox'], showNotice: 'yes', paused: true });
    expect(s).toMatchObject({ sensitivity: 'normal', minWords: null, dwellSeconds: 5, showNotice: true, paused: true });
    expect(s.excludedSites).toEqual(['mail.example.com/inbox']);
    expect(parseSettings({ minWords: null, dwellSeconds: 0 })).toMatchObject({ minWords: null, dwellSeconds: 0 });
  });

  it('apply a minimum length over the sensitivity', () => {
    expect(matchSettingsOf(parseSettings({ sensitivity: 'strict' })).maxDistance).toBe(3);
    expect(matchSettingsOf(parseSettings({ minWords: 300 })).minWords).toBe(300);
  });

  it('exclude a site with its subdomains, and a path prefix only where given', () => {
    const sites = ['example.com', 'www.search.example/results'];
    expect(isExcluded('https://example.com/a', sites)).toBe(true);
    expect(isExcluded('https://www.example.com/a', sites)).toBe(true);
    expect(isExcluded('https://mail.example.com/a', sites)).toBe(true);
    expect(isExcluded('https://notexample.com/a', sites)).toBe(false);
    expect(isExcluded('https://search.example/results?q=1', sites)).toBe(true);
    expect(isExcluded('https://search.example/results/2', sites)).toBe(true);
    expect(isExcluded('https://search.example/resultsx', sites)).toBe(false);
    expect(isExcluded('https://search.example/about', sites)).toBe(false);
    expect(normalizeSitePattern('  https://News.Example.com/world/  ')).toBe('news.example.com/world');
    expect(normalizeSitePattern('javascript:alert(1)')).toBeNull();
  });

  it('take whatever a reader pastes: a URL, a host, a host with a port, *.example.com', () => {
    const pasted = ['http://127.0.0.1:8080/', 'https://user:pw@Intranet.Example:8443/wiki/Page?x=1#top', '*.bank.example', 'news.example.com', 'HTTPS://www.Shop.Example/'];
    const sites = pasted.map(normalizeSitePattern);
    expect(sites).toEqual(['127.0.0.1:8080', 'intranet.example:8443/wiki/page', 'bank.example', 'news.example.com', 'www.shop.example']);
    const covered = (url: string) => isExcluded(url, sites as string[]);
    expect(covered('http://127.0.0.1:8080/article')).toBe(true);
    expect(covered('http://127.0.0.1:9090/article')).toBe(false);
    expect(covered('https://intranet.example:8443/wiki/page/2')).toBe(true);
    expect(covered('https://intranet.example/wiki/page/2')).toBe(false);
    expect(covered('https://online.bank.example/account')).toBe(true);
    expect(covered('https://shop.example/item')).toBe(true);
    // A port given as the scheme's default is the same site.
    expect(isExcluded('https://secure.example/a', [normalizeSitePattern('secure.example:443') as string])).toBe(true);
    // One label is a local host, but not after "*." (a whole top-level domain) or in another script (a word, not a site).
    expect(['localhost', 'intranet:8080', 'http://localhost/wiki'].map(normalizeSitePattern)).toEqual(['localhost', 'intranet:8080', 'localhost/wiki']);
    for (const bad of ['*.example', '*.com', 'https://*.org/', '不是网站', 'bücher']) expect(normalizeSitePattern(bad), bad).toBeNull();
    // …and covers that host only: "com" typed alone leaves no .com site unread.
    const com = normalizeSitePattern('COM') as string;
    expect([isExcluded('http://com/', [com]), isExcluded('https://www.example.com/a', [com]), isExcluded('http://wiki.localhost/a', ['localhost'])]).toEqual([true, false, false]);
    for (const bad of ['', '   ', 'not a site', '*.', 'http://', 'a b.example', '[::1]', 'chrome://settings', 'mailto:someone@example.com', 'ftp://files.example', 'example.com:99999', 'example.com:0', 'example..com']) expect(normalizeSitePattern(bad), bad).toBeNull();
    // A backslash is the slash a URL parser takes it for: a path, not the whole site.
    expect(normalizeSitePattern('example.com\\Path')).toBe('example.com/path');
    expect(normalizeSitePattern('intra_net.example:65535')).toBe('intra_net.example:65535');
  });

  it('take a path ending in * as every path starting so, and refuse a * anywhere else', () => {
    const sites = ['a.test/p*', 'https://Example.com/search**/', 'b.test/*', 'c.test/docs/*'].map(normalizeSitePattern);
    expect(sites).toEqual(['a.test/p*', 'example.com/search*', 'b.test', 'c.test/docs/*']);
    expect(sites.map((s) => normalizeSitePattern(s as string))).toEqual(sites); // as stored, read again
    const covered = (url: string) => isExcluded(url, sites as string[]);
    for (const url of ['http://www.a.test/p', 'http://a.test/print/1', 'https://example.com/searches?q=x', 'https://b.test/anything', 'https://c.test/docs/a']) expect(covered(url), url).toBe(true);
    for (const url of ['http://a.test/', 'http://a.test/x/p', 'https://example.com/sea', 'https://c.test/docs']) expect(covered(url), url).toBe(false);
    for (const bad of ['a.test/*/print', 'a.test/p*x', 'a*.test', '*a.test/p']) expect(normalizeSitePattern(bad), bad).toBeNull();
  });

  it('cover what the reader meant: a host with a final dot, a path in another case or script, a host in its own script', () => {
    const sites = ['mail.google.com', 'example.com/Wiki/Private', 'docs.example/文档', 'bücher.example'].map(normalizeSitePattern);
    expect(sites).toEqual(['mail.google.com', 'example.com/wiki/private', 'docs.example/%e6%96%87%e6%a1%a3', 'xn--bcher-kva.example']);
    const covered = (url: string) => isExcluded(url, sites as string[]);
    expect(covered('https://mail.google.com./mail/u/0/')).toBe(true);
    expect(covered('https://example.com/Wiki/Private/notes')).toBe(true);
    expect(covered('https://example.com/wiki/private')).toBe(true);
    expect(covered('https://example.com/Wiki/Public')).toBe(false);
    expect(covered('https://docs.example/文档/2')).toBe(true);
    expect(covered('https://bücher.example/buch')).toBe(true);
  });
});

describe('dwell time', () => {
  function fakeDocument(state: 'visible' | 'hidden') {
    const listeners = new Set<() => void>();
    const doc = {
      visibilityState: state,
      addEventListener: (_: string, f: () => void) => listeners.add(f),
      removeEventListener: (_: string, f: () => void) => listeners.delete(f),
    };
    const set = (s: 'visible' | 'hidden') => {
      doc.visibilityState = s;
      listeners.forEach((f) => f());
    };
    return { doc: doc as unknown as Document, set };
  }

  it('counts only the time the page is visible', () => {
    vi.useFakeTimers();
    const { doc, set } = fakeDocument('hidden');
    const read = vi.fn();
    afterVisibleFor(doc, 5, read);
    vi.advanceTimersByTime(60_000); // opened in a background tab
    expect(read).not.toHaveBeenCalled();
    set('visible');
    vi.advanceTimersByTime(3000);
    set('hidden');
    vi.advanceTimersByTime(60_000);
    expect(read).not.toHaveBeenCalled();
    set('visible');
    vi.advanceTimersByTime(2001);
    expect(read).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });

  it('never fires for a page closed (or navigated away) before the dwell time', () => {
    vi.useFakeTimers();
    const { doc } = fakeDocument('visible');
    const read = vi.fn();
    const cancel = afterVisibleFor(doc, 5, read);
    vi.advanceTimersByTime(4000);
    cancel();
    vi.advanceTimersByTime(10_000);
    expect(read).not.toHaveBeenCalled();
    vi.useRealTimers();
  });

  it('keeps the time counted while a single-page app\'s new address is checked, and counts on from there', () => {
    vi.useFakeTimers();
    const { doc } = fakeDocument('visible');
    const read = vi.fn();
    const dwell = visibleTimer(doc, 5, read);
    dwell.resume();
    vi.advanceTimersByTime(4000);
    dwell.pause();
    vi.advanceTimersByTime(60_000);
    expect(read).not.toHaveBeenCalled();
    dwell.resume();
    vi.advanceTimersByTime(999);
    expect(read).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2);
    expect(read).toHaveBeenCalledTimes(1);
    // Once read, resuming again reads nothing more.
    dwell.resume();
    vi.advanceTimersByTime(10_000);
    expect(read).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
  });

  it('fires at once with a dwell time of 0 on a visible page', () => {
    const { doc } = fakeDocument('visible');
    const read = vi.fn();
    afterVisibleFor(doc, 0, read);
    expect(read).toHaveBeenCalledTimes(1);
  });
});

describe('link marks setting', () => {
  const article = 'https://news.example/2026/11/story';
  const results = 'https://www.google.com/search?q=tool+libraries';
  const allowed = (changes: Record<string, unknown>, url: string, incognito = false) => linkMarksAllowed(url, parseSettings(changes), incognito);

  it('is on everywhere by default, search result pages included although they are never read', () => {
    expect(parseSettings(undefined).linkMarks).toBe('on');
    expect(allowed({}, article)).toBe(true);
    for (const url of [results, 'https://www.bing.com/search?q=a', 'https://duckduckgo.com/?q=a', 'https://www.baidu.com/s?wd=a', 'https://www.sogou.com/web?query=a']) {
      expect(isExcluded(url, DEFAULT_SETTINGS.excludedSites), url).toBe(true);
      expect(allowed({}, url), url).toBe(true);
    }
  });

  it('can be limited to search engines, or turned off', () => {
    expect(allowed({ linkMarks: 'search' }, article)).toBe(false);
    expect(allowed({ linkMarks: 'search' }, results)).toBe(true);
    expect(allowed({ linkMarks: 'off' }, results)).toBe(false);
    expect(allowed({ linkMarks: 'off' }, article)).toBe(false);
  });

  it('keeps away from excluded sites and while paused, and from private windows unless they are recorded', () => {
    expect(allowed({}, 'https://mail.google.com/mail/u/0/')).toBe(false);
    expect(allowed({ excludedSites: ['news.example'] }, article)).toBe(false);
    expect(allowed({ paused: true }, results)).toBe(false);
    expect(allowed({}, article, true)).toBe(false);
    expect(allowed({ recordPrivate: true }, article, true)).toBe(true);
  });

  it('falls back to on for anything else stored', () => {
    expect(parseSettings({ linkMarks: 'sometimes' }).linkMarks).toBe('on');
    expect(parseSettings({ linkMarks: 'search' }).linkMarks).toBe('search');
  });
});
