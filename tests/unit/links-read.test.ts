// The background's answer to a list page: which of its links lead to pages read, and how.
import { describe, expect, it } from 'vitest';
import { digestArticle, linkKey } from '../../src/core';
import { createRouter } from '../../src/messaging/router';
import { linkKeysForOneMessage, MAX_LINK_KEYS } from '../../src/messaging/protocol';
import { loadArticle } from '../e2e/site';
import { fromTab, makeBackground } from './helpers';

const en = loadArticle('en-library');
const other = loadArticle('en-balcony');
const body = (a: { paragraphs: string[] }) => a.paragraphs.join('\n\n');
const report = (url: string, a = en, extra: Record<string, unknown> = {}) => ({ url, title: a.title, digest: digestArticle(body(a)), lang: 'en', ...extra });

const LIST = 'https://list.example/today';
const A = 'https://a.example/2026/11/tool-library';
const B = 'https://b.example/reposts/tool-library';
const C = 'https://c.example/never-read';
const keys = (hrefs: string[]) => hrefs.map((h) => linkKey(h) as string);

describe('links read', () => {
  it('marks a page read, its exact copy read elsewhere (naming the first), and not an unread one', async () => {
    const bg = makeBackground();
    await bg.read(report(A), fromTab(1, A));
    await bg.read(report(B, en, { title: 'Reposted: tool library' }), fromTab(2, B));
    const asked = keys([`${A}?utm_source=list&fbclid=x#comments`, B, C]);
    const answer = await bg.handlers['content:linksRead']({ keys: asked }, fromTab(3, LIST));
    expect(answer.off).toBeUndefined();
    expect(answer.read.map((r) => [r.key, r.copyOf, r.firstReadAt])).toEqual([
      [A, undefined, undefined],
      // Read there, its text read first on another site: the site, not a title it shares.
      [B, undefined, 'a.example'],
    ]);
    expect(answer.read[0].date).toMatch(/^Nov 1[45], 2023$/); // the clock's day, in the machine's time zone
    // Read today: the tip says so rather than the date; the next day, "yesterday"; two days on, it gives the date.
    expect(answer.read[0].today).toBe(true);
    expect(answer.read[0]).not.toHaveProperty('yesterday');
    bg.clock.now += 86_400_000;
    const nextDay = (await bg.handlers['content:linksRead']({ keys: asked }, fromTab(3, LIST))).read[0];
    expect([nextDay.today, nextDay.yesterday]).toEqual([undefined, true]);
    bg.clock.now += 86_400_000;
    const later = (await bg.handlers['content:linksRead']({ keys: asked }, fromTab(3, LIST))).read[0];
    expect([later.today, later.yesterday]).toEqual([undefined, undefined]);
  });

  it('answers a list page first thing in a background started anew, and then a page, warm', async () => {
    const bg = makeBackground();
    await bg.read(report(A), fromTab(1, A));
    bg.restart();
    const asked = keys([A, C]);
    expect((await bg.handlers['content:linksRead']({ keys: asked }, fromTab(3, LIST))).read.map((r) => r.key)).toEqual([A]);
    // The columns it read (fingerprints and keys) are not all an index needs: building them after
    // the answer threw, uncaught, in the background (vitest fails a run on it).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await bg.read(report(B), fromTab(2, B))).matches.map((m) => m.url)).toEqual([A]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await bg.handlers['content:linksRead']({ keys: asked }, fromTab(3, LIST))).read.map((r) => r.key)).toEqual([A]);
  });

  it('marks a link to the canonical address of a page read at another address of its site', async () => {
    const bg = makeBackground();
    const amp = 'https://news.example/amp/story-7';
    await bg.read(report(amp, other, { canonical: ['https://news.example/story-7'] }), fromTab(1, amp));
    const answer = await bg.handlers['content:linksRead']({ keys: keys(['https://news.example/story-7?utm_medium=rss', 'https://news.example/story-8']) }, fromTab(2, LIST));
    expect(answer.read).toEqual([{ key: 'https://news.example/story-7', date: expect.any(String), today: true, copyOf: other.title }]);
  });

  it('marks a link given over http:// to a page read over https://, and the other way round, once each', async () => {
    const bg = makeBackground();
    await bg.read(report(A), fromTab(1, A));
    const plain = 'http://c.example/old-story';
    await bg.read(report(plain, other), fromTab(2, plain));
    const asked = keys([A.replace('https:', 'http:'), 'https://c.example/old-story', C]);
    const answer = await bg.handlers['content:linksRead']({ keys: asked }, fromTab(3, LIST));
    expect(answer.read.map((r) => r.key).sort()).toEqual([asked[0], asked[1]].sort());
    // Read over both schemes: one mark, of the visit read last.
    await bg.read(report(A.replace('https:', 'http:')), fromTab(4, A.replace('https:', 'http:')));
    expect((await bg.handlers['content:linksRead']({ keys: [A] }, fromTab(3, LIST))).read.map((r) => r.key)).toEqual([A]);
  });

  it('answers the keys as sent, each once, however many variants of a page are asked', async () => {
    const bg = makeBackground();
    await bg.read(report(A), fromTab(1, A));
    const answer = await bg.handlers['content:linksRead']({ keys: [A, `${A}#x`, A] }, fromTab(2, LIST));
    expect(answer.read.map((r) => r.key).sort()).toEqual([A, `${A}#x`]);
  });

  it('says off where marks are not drawn: excluded site, paused, marks off or search only, private window', async () => {
    const cases: Array<[Parameters<typeof makeBackground>[1], string, boolean]> = [
      [{ excludedSites: ['list.example'] }, LIST, false],
      [{ paused: true }, LIST, false],
      [{ linkMarks: 'off' }, LIST, false],
      [{ linkMarks: 'search' }, LIST, false],
      [{ linkMarks: 'search' }, 'https://www.google.com/search?q=tool+library', false],
      [{}, LIST, true],
    ];
    for (const [settings, page, incognito] of cases) {
      const bg = makeBackground({}, settings);
      await bg.read(report(A), fromTab(1, A));
      const sender = fromTab(2, page);
      sender.tab!.incognito = incognito;
      const answer = await bg.handlers['content:linksRead']({ keys: [A] }, sender);
      const expectOn = settings?.linkMarks === 'search' && page.includes('google');
      expect(answer, JSON.stringify([settings, page, incognito])).toEqual(expectOn ? { read: [expect.objectContaining({ key: A })] } : { read: [], off: true });
    }
  });

  it('refuses frames, a page on another site than its tab, extension pages, and bad keys', async () => {
    const bg = makeBackground();
    const frame = { ...fromTab(1, LIST), frameId: 3 };
    await expect(bg.handlers['content:linksRead']({ keys: [A] }, frame)).rejects.toThrow(/frame/);
    const elsewhere = fromTab(1, LIST);
    elsewhere.tab!.url = 'https://other.example/';
    await expect(bg.handlers['content:linksRead']({ keys: [A] }, elsewhere)).rejects.toThrow(/site/);
    // 2,000 keys of 8,000 characters (a query of 2,000 parameters each) cost the background 2.5 s to read: refused.
    const heavy = Array.from({ length: 2000 }, (_, i) => `${A}?n=${i}&` + 'a=1&'.repeat(1995));
    for (const req of [{}, { keys: 'x' }, { keys: [42] }, { keys: [''] }, { keys: ['x'.repeat(9000)] }, { keys: Array(MAX_LINK_KEYS + 1).fill(A) }, { keys: heavy }]) {
      await expect(bg.handlers['content:linksRead'](req as never, fromTab(1, LIST))).rejects.toThrow(TypeError);
    }
    // The content script sends such keys a message's worth at a time: each taken.
    const first = linkKeysForOneMessage(heavy);
    expect(first.length).toBeGreaterThan(1);
    expect(first.length).toBeLessThan(200);
    expect((await bg.handlers['content:linksRead']({ keys: first }, fromTab(1, LIST))).read).toEqual([]);
    expect(linkKeysForOneMessage(['x'.repeat(8000)])).toHaveLength(1);
    const route = createRouter(bg.handlers, (s) => (s.tab ? 'content' : 'extension-page'));
    expect(await route({ type: 'content:linksRead', req: { keys: [A] } }, { id: 'ext', url: 'chrome-extension://ext/src/popup/index.html' })).toEqual({ error: { name: 'Forbidden', message: expect.any(String) } });
  });
});

describe('the popup', () => {
  it('is told how many links on the page lead to pages read, article or not', async () => {
    const bg = makeBackground({ 4: { url: LIST, page: null, linksRead: 3 }, 5: { url: LIST, page: null } });
    expect(await bg.call('popup:tabStatus', { tabId: 4 })).toEqual({ state: 'not-article', url: LIST, linksRead: 3 });
    expect(await bg.call('popup:tabStatus', { tabId: 5 })).toEqual({ state: 'not-article', url: LIST });
  });
});
