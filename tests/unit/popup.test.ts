// @vitest-environment jsdom
// The popup as a reader uses it, against a real background on fake-indexeddb: what it says after
// each action, and that the toolbar button and the page open in the tab follow.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { digestArticle, encodeSentPassages, pagePassages } from '../../src/core';
import { fromTab, makeBackground, type TabPages } from './helpers';
import { message, sendTo } from './messages';

const fake = vi.hoisted(() => ({
  call: null as null | ((type: string, req: unknown) => Promise<unknown>),
  stored: {} as Record<string, unknown>,
  listeners: [] as Array<(changes: Record<string, { newValue: unknown }>, area: string) => void>,
  toTabs: [] as Array<{ tabId: number; type: string; req: unknown }>,
}));

vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    runtime: {
      id: 'ext',
      sendMessage: sendTo(() => fake.call),
      openOptionsPage: async () => undefined,
      getURL: (p: string) => `chrome-extension://ext/${p}`,
    },
    tabs: {
      query: async () => [{ id: 7 }],
      create: async () => undefined,
      sendMessage: async (tabId: number, m: { type: string; req: unknown }) => {
        fake.toTabs.push({ tabId, ...m });
        return { ok: { left: true } };
      },
    },
    storage: {
      sync: {
        get: async () => fake.stored,
        set: async (items: Record<string, unknown>) => {
          Object.assign(fake.stored, items);
          for (const l of fake.listeners) l({ settings: { newValue: items.settings } }, 'sync');
        },
      },
      onChanged: { addListener: (l: (typeof fake.listeners)[number]) => void fake.listeners.push(l) },
    },
  },
}));

const library = JSON.parse(readFileSync(join(process.cwd(), 'tests/fixtures/articles/en-library.json'), 'utf8')) as { paragraphs: string[] };
const report = (url: string, title: string) => ({ url, title, digest: digestArticle(library.paragraphs.join('\n\n')), lang: 'en' });
const copy = report('https://b.example/copy', 'Copy');
const inTab = (): TabPages => ({ 7: { url: copy.url, page: { ...copy, fp: copy.digest.fp } } });

const status = () => document.getElementById('status')?.textContent ?? '';
const button = (id: string) => document.getElementById(id) as HTMLButtonElement;
const settled = () => vi.waitFor(() => expect(status()).not.toMatch(/^(Checking this page…)?$/));

async function openPopup(): Promise<void> {
  const parsed = new DOMParser().parseFromString(readFileSync(join(process.cwd(), 'src/popup/index.html'), 'utf8'), 'text/html');
  document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
  await import('../../src/popup/main');
  await settled();
}

/** The popup open on the copy in tab 7, with another page of its site (b.example) in the history. */
async function siteOfTwo(tabs: TabPages) {
  const bg = makeBackground(tabs);
  await bg.read(report('https://b.example/story', 'Story on the same site'));
  await bg.read(copy, fromTab(7, copy.url));
  fake.call = (type, req) => bg.call(type as never, req as never);
  await openPopup();
  return bg;
}

/** Clicks `id`, then the question's Yes once it is asked ("Forget all of <site>" asks the background first). */
async function confirm(id: string): Promise<void> {
  button(id).click();
  await vi.waitFor(() => expect(document.getElementById('confirm')?.hidden).toBe(false));
  button('confirm-yes').click();
}

beforeEach(() => {
  vi.resetModules();
  fake.stored = {};
  fake.listeners = [];
  fake.toTabs = [];
});
afterEach(() => {
  document.documentElement.replaceChildren();
  fake.call = null;
});

describe('the popup', () => {
  it('puts the list of matches right under the sentence that introduces it, and the count of links read after it', async () => {
    const bg = makeBackground({ 7: { url: copy.url, page: { ...copy, fp: copy.digest.fp }, linksRead: 2 } });
    await bg.read(report('https://a.example/story', 'Story'));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    const shown = [...document.querySelectorAll<HTMLElement>('#status, #status ~ *')].filter((e) => !e.hidden).map((e) => e.id);
    expect(shown.slice(0, 3)).toEqual(['status', 'matches', 'links-read']);
  });

  it('says that a page just read went into the history, where nothing like it was read before', async () => {
    const bg = makeBackground({ 7: { url: copy.url, page: { ...copy, fp: copy.digest.fp }, recorded: true } });
    await bg.read(copy, fromTab(7, copy.url));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe("Added to your history. You haven't read anything like this page before.");
    // Not recorded by this page load (within its dwell time): only that nothing matched.
    document.documentElement.replaceChildren();
    vi.resetModules();
    const seen = makeBackground(inTab());
    fake.call = (type, req) => seen.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe("You haven't read anything like this page before.");
  });

  it('tells what is new since the visit before on a page updated at its own address, as the notice does', async () => {
    const address = 'https://a.example/story';
    const body = library.paragraphs.join('\n\n');
    const updated = `${body}\n\nUpdate: the library now also lends sewing machines, and volunteers teach a repair class every second Saturday of the month.`;
    const sent = (text: string) => ({ url: address, title: 'Story', digest: digestArticle(text), lang: 'en', passages: encodeSentPassages(pagePassages(text)) });
    const bg = makeBackground({ 7: { url: address, page: { ...sent(updated), fp: digestArticle(updated).fp } } });
    await bg.read(sent(body), fromTab(3, address));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toMatch(/^You visited this page before\. You've read 9\d% of this — 1 new paragraph since then\.$/);
  });

  it('puts no space after a Chinese full stop between its sentences, and one after an English one', async () => {
    const { sentences } = await import('../../src/ui/i18n');
    expect(sentences([message('popupVisitedBefore', [], 'zh_CN'), message('popupReadElsewhereMany', ['5'], 'zh_CN')])).toBe('你之前访问过此页。你在别处读过这篇，共 5 处：');
    expect(sentences([message('popupVisitedBefore', []), message('popupReadElsewhereMany', ['5'])])).toMatch(/^You visited this page before\. \S/);
  });

  it('says so when a forget fails, rather than nothing', async () => {
    const bg = makeBackground(inTab());
    await bg.read(report('https://a.example/story', 'Story'));
    await bg.read(copy, fromTab(7, copy.url));
    fake.call = async (type, req) => {
      if (type === 'popup:forgetPage') throw Object.assign(new Error('disk I/O error'), { name: 'UnknownError' });
      return bg.call(type as never, req as never);
    };
    await openPopup();
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    await confirm('forget');
    await vi.waitFor(() => expect(status()).toMatch(/went wrong.*UnknownError/));
    process.off('unhandledRejection', onUnhandled);
    expect(unhandled).toEqual([]);
  });

  it('forgets the page open in the tab: not recorded at the end of its dwell, no "Not the same" for it, and the toolbar button follows', async () => {
    const bg = makeBackground(inTab());
    await bg.read(report('https://a.example/story', 'Story'));
    // Checked (the button says 1), the dwell time not reached yet.
    await bg.handlers['content:pageSeen'](copy, fromTab(7, copy.url));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(document.querySelectorAll('#matches button.not-same')).toHaveLength(1);
    const shown = bg.shown.length;
    await confirm('forget');
    await vi.waitFor(() => expect(status()).toBe('This page was forgotten.'));
    // The page open in the tab is told to leave this visit unread.
    expect(fake.toTabs).toEqual([{ tabId: 7, type: 'background:leaveUnread', req: { url: copy.url } }]);
    expect(button('forget').hidden).toBe(true);
    // The match is still listed (another page), but no pair naming the forgotten page can be made.
    expect(document.querySelectorAll('#matches li')).toHaveLength(1);
    expect(document.querySelectorAll('#matches button.not-same')).toHaveLength(0);
    expect(bg.shown.length).toBeGreaterThan(shown);
  });

  it('after "Forget all of <site>", lists no page of that site', async () => {
    const tabs = inTab();
    const bg = await siteOfTwo(tabs);
    expect(document.querySelectorAll('#matches li')).toHaveLength(1);
    await confirm('forget-site');
    await vi.waitFor(() => expect(status()).toBe('2 pages of b.example were forgotten.'));
    expect(document.querySelectorAll('#matches li')).toHaveLength(0);
    expect(fake.toTabs).toEqual([{ tabId: 7, type: 'background:leaveUnread', req: { site: 'b.example' } }]);
    // The toolbar button counts no match any more.
    expect(bg.shown.at(-1)?.[1].matches).toEqual([]);
    // The popup opened again on the page (which the forget left unread) says it was forgotten, and offers no "Forget this page".
    tabs[7] = { ...tabs[7], forgotten: true };
    vi.resetModules();
    await openPopup();
    expect(status()).toBe('This page was forgotten.');
    expect(button('forget').hidden).toBe(true);
  });

  it('says there is nothing to forget on a site none of whose pages is in the history, without asking', async () => {
    const bg = makeBackground({ 7: { url: 'https://links.example/list', page: null } });
    await bg.read(copy, fromTab(3, copy.url));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(button('forget-site').hidden).toBe(false);
    button('forget-site').click();
    await vi.waitFor(() => expect(status()).toBe('No page of links.example is in your history: there is nothing to forget.'));
    expect(document.getElementById('confirm')?.hidden).toBe(true);
    expect(button('forget-site').hidden).toBe(true);
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 1 });
  });

  it('brings the page and the site forgotten back with Undo, and says so', async () => {
    const bg = await siteOfTwo(inTab());
    const undo = button('undo-forget');
    expect(undo.closest('p')?.hidden).toBe(true);
    await confirm('forget');
    await vi.waitFor(() => expect(status()).toBe('This page was forgotten.'));
    expect(undo.closest('p')?.hidden).toBe(false);
    expect(undo.textContent).toBe('Undo');
    undo.click();
    await vi.waitFor(() => expect(status()).toMatch(/^Undone: it is back in the history\. You visited this page before\./));
    expect(undo.closest('p')?.hidden).toBe(true);
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 2 });
    expect(button('forget').hidden).toBe(false);
    await confirm('forget-site');
    await vi.waitFor(() => expect(status()).toBe('2 pages of b.example were forgotten.'));
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 0 });
    undo.click();
    await vi.waitFor(() => expect(status()).toMatch(/^Undone: 2 pages are back in the history\./));
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 2 });
    expect(document.querySelectorAll('#matches li')).toHaveLength(1);
  });

  /** The popup's Undo line. */
  const bar = () => document.getElementById('undo-forget-here') as HTMLElement;
  /** The popup closed after a forget on tab 7's page, and opened again there: once its Undo is offered. */
  async function reopenedAfterForget(tabs: TabPages): Promise<void> {
    tabs[7] = { ...tabs[7], forgotten: true };
    vi.resetModules();
    await openPopup();
    await vi.waitFor(() => expect(bar().hidden).toBe(false));
  }

  it('offers the Undo of a forget in the popup opened again (the first closed at a click outside it), saying what it undoes', async () => {
    const tabs = inTab();
    const bg = await siteOfTwo(tabs);
    expect(button('undo-forget').closest('p')?.hidden).toBe(true);
    await confirm('forget-site');
    await vi.waitFor(() => expect(status()).toBe('2 pages of b.example were forgotten.'));
    // Closed, and opened again on the same tab.
    await reopenedAfterForget(tabs);
    expect(bar().textContent).toBe('2 pages of b.example were forgotten. Undo');
    expect(bar().querySelector('bdi')?.textContent).toBe('b.example');
    button('undo-forget').click();
    await vi.waitFor(() => expect(status()).toMatch(/^Undone: 2 pages are back in the history\./));
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 2 });
    expect(bar().hidden).toBe(true);
    // Opened once more: nothing left to undo.
    vi.resetModules();
    await openPopup();
    await new Promise((r) => setTimeout(r, 50));
    expect(bar().hidden).toBe(true);
  });

  it('offers the Undo of this very page in the popup opened again without saying twice that it was forgotten', async () => {
    const tabs = inTab();
    await siteOfTwo(tabs);
    await confirm('forget');
    await vi.waitFor(() => expect(status()).toBe('This page was forgotten.'));
    await reopenedAfterForget(tabs);
    expect(status()).toBe('This page was forgotten.');
    expect(document.getElementById('undo-forget-text')?.textContent).toBe('');
    expect(bar().textContent?.trim()).toBe('Undo');
  });

  it('says when a forget can no longer be undone', async () => {
    const bg = makeBackground(inTab());
    await bg.read(copy, fromTab(7, copy.url));
    fake.call = (type, req) => (type === 'history:undoForget' ? Promise.resolve({ restored: 0, expired: true }) : bg.call(type as never, req as never));
    await openPopup();
    await confirm('forget');
    await vi.waitFor(() => expect(status()).toBe('This page was forgotten.'));
    button('undo-forget').click();
    await vi.waitFor(() => expect(status()).toMatch(/^That can no longer be undone\./));
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 0 });
  });

  it('writes a large number of pages forgotten as numbers are written elsewhere ("1,335 pages")', async () => {
    const bg = makeBackground(inTab());
    await bg.read(report('https://b.example/story', 'Story on the same site'));
    await bg.read(copy, fromTab(7, copy.url));
    fake.call = async (type, req) => {
      const answer = await bg.call(type as never, req as never);
      return type === 'popup:forgetSite' ? { ...(answer as object), forgotten: 1335 } : answer;
    };
    await openPopup();
    await confirm('forget-site');
    await vi.waitFor(() => expect(status()).toBe('1,335 pages of b.example were forgotten.'));
  });

  it('names a site in another script as the reader knows it (例子.example), and forgets it by its key', async () => {
    const here = report('http://xn--fsqu00a.example/copy', 'Copy');
    const bg = makeBackground({ 7: { url: here.url, page: { ...here, fp: here.digest.fp } } });
    await bg.read(report('http://xn--fsqu00a.example/story', 'Story on the same site'));
    await bg.read(here, fromTab(7, here.url));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    // On the site of the page in the tab, its path too: the site alone would not say which page it was.
    expect([...document.querySelectorAll('#matches li .meta bdi')].map((b) => b.textContent)).toEqual(['例子.example/story']);
    // The link's tooltip gives the whole address with the name as the reader knows it, the link itself the address.
    const a = document.querySelector<HTMLAnchorElement>('#matches li a');
    expect(a?.title).toBe('Story on the same site\nhttp://例子.example/story');
    expect(a?.href).toBe('http://xn--fsqu00a.example/story');
    expect(button('forget-site').textContent).toBe('Forget all of 例子.example');
    expect(button('pause-site').textContent).toBe('Pause on 例子.example');
    await confirm('forget-site');
    await vi.waitFor(() => expect(status()).toBe('2 pages of 例子.example were forgotten.'));
    expect(fake.toTabs).toEqual([{ tabId: 7, type: 'background:leaveUnread', req: { site: 'xn--fsqu00a.example' } }]);
  });

  it('tells two matches on one site apart by their paths, and names a match alone on its site by the site', async () => {
    const bg = makeBackground(inTab());
    await bg.read(report('https://a.example/2026/story', 'Story'));
    await bg.read(report('https://a.example/print/story', 'Story'));
    await bg.read(report('https://c.example/story', 'Story'));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    const places = [...document.querySelectorAll('#matches li .meta bdi')].map((b) => b.textContent).sort();
    expect(places).toEqual(['a.example/2026/story', 'a.example/print/story', 'c.example']);
    // Pages, not times: each was read once.
    expect(status()).toBe("You've read this before, on 3 other pages:");
  });

  it('shows another tab\'s list in a tab of its own ("See all" where no popup opens), using the tab\'s width; each title whole in its tooltip', async () => {
    const bg = makeBackground({ 9: { url: copy.url, page: { ...copy, fp: copy.digest.fp } } });
    await bg.read(report('https://a.example/story', 'A story whose title is long enough to be cut at the end of its one line'));
    fake.call = (type, req) => bg.call(type as never, req as never);
    history.replaceState(null, '', '?tab=9');
    try {
      await openPopup();
      expect(document.documentElement.classList.contains('in-tab')).toBe(true);
      const link = document.querySelector<HTMLAnchorElement>('#matches li a');
      expect(link?.title).toBe('A story whose title is long enough to be cut at the end of its one line\nhttps://a.example/story');
      expect(status()).toBe("You've read this before, elsewhere:");
    } finally {
      history.replaceState(null, '', location.pathname);
    }
  });

  it('says a page is still loading, not that it is of a kind never checked, while it has no content script yet', async () => {
    const bg = makeBackground({}, {}, undefined, undefined, { tabLoading: async () => true });
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe('This page is still loading: Déjà Read checks it once it has loaded.');
  });

  it('takes the dismissed match off the toolbar button after "Not the same"', async () => {
    const bg = makeBackground(inTab());
    await bg.read(report('https://a.example/story', 'Story'));
    await bg.read(copy, fromTab(7, copy.url));
    expect(bg.shown.at(-1)?.[1].matches).toHaveLength(1);
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    document.querySelector<HTMLButtonElement>('#matches button.not-same')?.click();
    // It names the page whose row went, then says what the list holds now.
    await vi.waitFor(() => expect(status()).toBe("“\u2068Story\u2069” (\u2068a.example\u2069) will not be shown as the same again. You visited this page before."));
    expect(bg.shown.at(-1)?.[1].matches).toEqual([]);
    // Opened again: a page visited before says so, and Undo says what it undoes (it stood alone).
    vi.resetModules();
    await openPopup();
    expect(status()).toBe('You visited this page before.');
    expect([document.getElementById('not-same-here')?.hidden, document.getElementById('not-same-text')?.textContent]).toEqual([false, 'You said 1 page you read is not the same as this one.']);
  });

  it('after "Not the same" in the notice, says so rather than "nothing like it", and takes it back', async () => {
    const tabs: TabPages = { 7: { url: copy.url, page: { ...copy, fp: copy.digest.fp }, recorded: true } };
    const bg = makeBackground(tabs);
    await bg.read(report('https://a.example/story', 'Story'));
    await bg.read(copy, fromTab(7, copy.url));
    // The notice's "Not the same", as the content script sends it.
    await bg.handlers['content:notSame']({ other: 'https://a.example/story' }, fromTab(7, copy.url));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    await settled();
    expect(status()).toBe('You said 1 page you read is not the same as this one.');
    expect([document.getElementById('not-same-here')?.hidden, document.getElementById('not-same-text')?.textContent]).toEqual([false, '']);
    button('same-again').click();
    await vi.waitFor(() => expect(status()).toBe("Pages like this one that you read are flagged again. You've read this before, elsewhere:"));
    expect([...document.querySelectorAll('#matches li a')].map((a) => a.textContent)).toEqual(['Story']);
    expect(document.getElementById('not-same-here')?.hidden).toBe(true);
    // The toolbar button counts the match again, and the pair is gone from the history.
    expect(bg.shown.at(-1)?.[1].matches.map((m) => m.url)).toEqual(['https://a.example/story']);
    expect(await (await bg.repository).notSamePairs()).toEqual([]);
  });

  it('says "Checking this page…" while the page is still being checked (just resumed), then what it found', async () => {
    const tabs: TabPages = { 7: { url: copy.url, page: null, checking: true } };
    const bg = makeBackground(tabs);
    await bg.read(report('https://a.example/story', 'Story'));
    fake.call = async (type, req) => {
      const answer = await bg.call(type as never, req as never);
      // The content script's check ends after the popup asked twice.
      if (type === 'popup:tabStatus' && (fake.toTabs.push({ tabId: 0, type, req }), fake.toTabs.length === 2)) tabs[7] = inTab()[7];
      return answer;
    };
    loadPopupHtmlOnly();
    await import('../../src/popup/main');
    await vi.waitFor(() => expect(status()).toBe('Checking this page…'));
    await vi.waitFor(() => expect(status()).toBe("You've read this before, elsewhere:"));
  });

  it('offers Resume on a site excluded as "www.example.com", and takes that exclusion away', async () => {
    const tabs: TabPages = { 7: { url: 'https://www.example.com/a', page: null } };
    const bg = makeBackground(tabs);
    fake.stored = { settings: { excludedSites: ['www.example.com', 'other.example'] } };
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe('Déjà Read is paused on this site: it is on the list of sites Déjà Read never reads, in Options.');
    expect(button('pause-site').hidden).toBe(false);
    expect(button('pause-site').textContent?.replace(/[\u2066-\u2069]/g, '')).toBe('Resume on www.example.com');
    button('pause-site').click();
    await vi.waitFor(() => expect((fake.stored.settings as { excludedSites: string[] }).excludedSites).toEqual(['other.example']));
  });

  it('resumes a page excluded by a path of its site and by a domain above it, taking both away, and no other', async () => {
    const tabs: TabPages = { 7: { url: 'https://news.example.com/reads/night-bus', page: null } };
    const bg = makeBackground(tabs);
    fake.stored = { settings: { excludedSites: ['news.example.com/reads', 'example.com', 'news.example.com/sport', 'other.example'] } };
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe('Déjà Read is paused on this site: it is on the list of sites Déjà Read never reads, in Options.');
    expect(button('pause-site').hidden).toBe(false);
    // The button names both, so that resuming the whole of example.com is not a surprise.
    expect(button('pause-site').textContent?.replace(/[\u2066-\u2069]/g, '')).toBe('Resume on news.example.com/reads and example.com');
    button('pause-site').click();
    await vi.waitFor(() => expect((fake.stored.settings as { excludedSites: string[] }).excludedSites).toEqual(['news.example.com/sport', 'other.example']));
    await vi.waitFor(() => expect(status()).not.toBe('Déjà Read is paused on this site: it is on the list of sites Déjà Read never reads, in Options.'));
  });

  it('says "paused on this part of the site" where only a path of the site is excluded', async () => {
    const bg = makeBackground({ 7: { url: 'https://news.example.com/reads/night-bus', page: null } });
    fake.stored = { settings: { excludedSites: ['news.example.com/reads', 'other.example'] } };
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe('Déjà Read is paused on this part of the site: it is on the list of sites Déjà Read never reads, in Options.');
    expect(button('pause-site').textContent?.replace(/[\u2066-\u2069]/g, '')).toBe('Resume on news.example.com/reads');
  });

  it("says a search engine's result page is never read, on a country domain the exclusions do not name", async () => {
    const bg = makeBackground({ 7: { url: 'https://www.google.com.tw/search?q=deepmind', page: null } });
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe('Search result pages are never read: your searches stay out of the history.');
  });

  it("says so too on a result page the suggested exclusions name (Baidu's), with no Resume that would change nothing", async () => {
    const bg = makeBackground({ 7: { url: 'https://www.baidu.com/s?wd=%E5%AE%87%E8%88%AA%E5%91%98', page: null } });
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openPopup();
    expect(status()).toBe('Search result pages are never read: your searches stay out of the history.');
    expect(button('pause-site').hidden).toBe(true);
  });
});

function loadPopupHtmlOnly(): void {
  const parsed = new DOMParser().parseFromString(readFileSync(join(process.cwd(), 'src/popup/index.html'), 'utf8'), 'text/html');
  document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
}
