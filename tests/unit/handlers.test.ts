import type { Runtime } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { createHandlers, type BackgroundDeps } from '../../src/background/handlers';
import type { PageVerdict } from '../../src/messaging/protocol';
import { openDejaReadDB, PageRepository } from '../../src/storage';
import { loadArticle } from '../e2e/site';

const en = loadArticle('en-library');
const other = loadArticle('en-balcony');
const text = (a: { paragraphs: string[] }) => a.paragraphs.join('\n\n');

function setup(tabPages: Record<number, { url: string; title: string; fp: string } | null> = {}) {
  const shown: Array<[number, PageVerdict]> = [];
  let clock = 1_000_000;
  const repository = openDejaReadDB().then((db) => new PageRepository(db));
  const deps: BackgroundDeps = {
    repository: () => repository,
    now: () => (clock += 1000),
    showOnTab: async (tabId, verdict) => void shown.push([tabId, verdict]),
    askTab: async (tabId) => {
      if (!(tabId in tabPages)) throw new Error('Could not establish connection. Receiving end does not exist.');
      return tabPages[tabId];
    },
  };
  return { handlers: createHandlers(deps), shown, repository };
}

const fromTab = (id: number): Runtime.MessageSender => ({ id: 'ext', tab: { id, index: 0, highlighted: false, active: true, pinned: false, incognito: false } });

describe('content:pageSeen', () => {
  it('records a new page quietly, then flags its copy at another URL and shows it on that tab', async () => {
    const { handlers, shown, repository } = setup();
    const first = await handlers['content:pageSeen']({ url: 'https://a.example/story', title: en.title, text: text(en), lang: 'en' }, fromTab(1));
    expect(first.matches).toEqual([]);
    expect(first.visitedBefore).toBe(false);
    expect(first.fp).toMatch(/^[0-9a-f]{16}$/);

    const copy = await handlers['content:pageSeen'](
      { url: 'https://b.example/repost', title: 'Reposted', text: `${text(en)}\n\nShare this article.`, lang: '' },
      fromTab(2),
    );
    expect(copy.matches.map((m) => [m.url, m.title])).toEqual([['https://a.example/story', en.title]]);
    expect(shown.map(([tab, v]) => [tab, v.matches.length])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    const repo = await repository;
    expect(await repo.count()).toBe(2);
    expect((await repo.get('https://b.example/repost'))?.lang).toBe('en');
  });

  it('tells a revisit of the same URL apart from a copy, and does not match the page with itself', async () => {
    const { handlers } = setup();
    const report = { url: 'https://a.example/story', title: en.title, text: text(en), lang: 'en' };
    await handlers['content:pageSeen'](report, fromTab(1));
    const again = await handlers['content:pageSeen'](report, fromTab(1));
    expect(again.visitedBefore).toBe(true);
    expect(again.matches).toEqual([]);
  });

  it('does not flag an unrelated article', async () => {
    const { handlers } = setup();
    await handlers['content:pageSeen']({ url: 'https://a.example/1', title: en.title, text: text(en), lang: 'en' }, fromTab(1));
    const v = await handlers['content:pageSeen']({ url: 'https://a.example/2', title: other.title, text: text(other), lang: 'en' }, fromTab(1));
    expect(v.matches).toEqual([]);
  });

  it('refuses reports that are not web pages, and keeps hostile titles as plain text', async () => {
    const { handlers, repository } = setup();
    await expect(handlers['content:pageSeen']({ url: 'javascript:alert(1)', title: 'x', text: text(en), lang: '' }, fromTab(1))).rejects.toThrow(/http/);
    await expect(handlers['content:pageSeen']({ url: 'https://a.example/', title: 'x', text: 42 } as never, fromTab(1))).rejects.toThrow(/text/);
    const hostile = '<img src=x onerror=alert(1)>'.repeat(100);
    await handlers['content:pageSeen']({ url: 'https://a.example/h', title: hostile, text: text(en), lang: 'en' }, fromTab(1));
    const stored = await (await repository).get('https://a.example/h');
    expect(stored?.title.startsWith('<img src=x onerror=alert(1)>')).toBe(true);
    expect(stored?.title.length).toBe(500);
  });
});

describe('popup:tabStatus', () => {
  it('lists the earlier pages that match the page in the tab', async () => {
    const { handlers } = setup();
    await handlers['content:pageSeen']({ url: 'https://a.example/story', title: en.title, text: text(en), lang: 'en' }, fromTab(1));
    const seen = await handlers['content:pageSeen']({ url: 'https://b.example/copy', title: 'Copy', text: text(en), lang: 'en' }, fromTab(2));
    // Tab 2 has no content script in this setup (a browser page, say).
    expect((await handlers['popup:tabStatus']({ tabId: 2 }, { id: 'ext' })).state).toBe('unsupported');

    const withTabs = setup({ 7: { url: 'https://b.example/copy', title: 'Copy', fp: seen.fp }, 8: null });
    await withTabs.handlers['content:pageSeen']({ url: 'https://a.example/story', title: en.title, text: text(en), lang: 'en' }, fromTab(1));
    const checked = await withTabs.handlers['popup:tabStatus']({ tabId: 7 }, { id: 'ext' });
    expect(checked.state === 'checked' && checked.matches.map((m) => m.url)).toEqual(['https://a.example/story']);
    expect((await withTabs.handlers['popup:tabStatus']({ tabId: 8 }, { id: 'ext' })).state).toBe('not-article');
  });
});

describe('forgetting', () => {
  it('forgets a page from the popup and a site from the options', async () => {
    const { handlers } = setup();
    await handlers['content:pageSeen']({ url: 'https://a.example/1', title: en.title, text: text(en), lang: 'en' }, fromTab(1));
    await handlers['content:pageSeen']({ url: 'https://b.example/2', title: other.title, text: text(other), lang: 'en' }, fromTab(1));
    expect(await handlers['popup:forgetPage']({ url: 'https://a.example/1' }, { id: 'ext' })).toEqual({ forgotten: true });
    expect(await handlers['options:forgetSite']({ site: 'www.B.example' }, { id: 'ext' })).toEqual({ forgotten: 1 });
    expect(await handlers['options:stats']({}, { id: 'ext' })).toEqual({ pages: 0 });
  });
});
