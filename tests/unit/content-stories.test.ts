// @vitest-environment jsdom
// @vitest-environment-options {"url": "https://news.example/"}
// The content script together with a real background (helpers.ts makeBackground): the notice, the
// toolbar button and the popup tell one story, and what the reader does in the popup or the history
// page while a page waits for its dwell time counts (a review, 28 November 2026). The script is
// loaded under jsdom as content-lifecycle.test.ts loads it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { digestArticle, encodeSentPassages, pagePassages } from '../../src/core';
import { readFileSync } from 'node:fs';
const loadArticle = (name: string) => JSON.parse(readFileSync(`${process.cwd()}/tests/fixtures/articles/${name}.json`, 'utf8')) as { title: string; paragraphs: string[] };
import { fromTab, makeBackground, type TabPages } from './helpers';

type Msg = { type: string; req: Record<string, unknown> };
type Extraction = { ok: true; article: unknown } | { ok: false; reason: string };

const fake = vi.hoisted(() => ({
  gen: 0,
  sent: [] as Array<{ type: string; req: Record<string, unknown>; at: string }>,
  answer: undefined as undefined | ((m: { type: string; req: Record<string, unknown> }) => Promise<unknown>),
  settings: {} as Record<string, unknown>,
  settingsListener: undefined as undefined | ((s: unknown) => void),
  extractions: [] as Array<{ url: string; resolve: (e: unknown) => void }>,
  notices: [] as Array<{ url: string; title: string; kind?: string; at: string }>,
  removed: 0,
  runtimeId: 'ext' as string | undefined,
  routers: [] as Array<(message: unknown, sender: unknown) => Promise<unknown> | undefined>,
}));

function installMocks(): void {
  vi.doMock('../../src/ext', () => {
    const gen = fake.gen;
    return {
      default: {
        i18n: { getMessage: (k: string) => k, getUILanguage: () => 'en' },
        extension: { inIncognitoContext: false },
        runtime: {
          get id() {
            return fake.gen === gen ? fake.runtimeId : 'ext';
          },
          getURL: (p: string) => `chrome-extension://ext/${p}`,
          sendMessage: async (m: Msg) => {
            if (fake.gen !== gen) return new Promise(() => undefined);
            fake.sent.push({ ...m, at: location.href });
            if (fake.answer) return fake.answer(m);
            return { ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0 } : { recorded: true } };
          },
          onMessage: { addListener: () => undefined },
        },
        storage: { onChanged: { addListener: () => undefined } },
      },
      answerMessages: (router: (message: unknown, sender: unknown) => Promise<unknown> | undefined) => {
        if (fake.gen === gen) fake.routers.push(router);
      },
    };
  });
  vi.doMock('../../src/settings/settings-store', async () => {
    const { DEFAULT_SETTINGS } = await import('../../src/settings/settings');
    const gen = fake.gen;
    return {
      loadSettings: async () => ({ ...DEFAULT_SETTINGS, linkMarks: 'off', dwellSeconds: 1, ...fake.settings }),
      onSettingsChanged: (l: (s: unknown) => void) => {
        if (fake.gen === gen) fake.settingsListener = l;
      },
    };
  });
  vi.doMock('../../src/content/extract-off-page', () => {
    const gen = fake.gen;
    return {
      extractOffPage: () =>
        fake.gen !== gen
          ? new Promise(() => undefined)
          : new Promise((resolve) => {
              fake.extractions.push({ url: location.href, resolve });
            }),
    };
  });
  vi.doMock('../../src/content/handoff', () => {
    const gen = fake.gen;
    const drawing = {
      showNotice: (match: { title: string; kind?: string }) => {
        if (fake.gen === gen) fake.notices.push({ url: location.href, title: match.title, kind: match.kind, at: String(performance.now()) });
      },
      removeNotice: () => {
        if (fake.gen === gen) fake.removed++;
      },
      focusNotice: () => undefined,
      showNewParts: () => undefined,
      startLinkMarks: () => ({ readCount: () => 0, stats: () => ({}), stop: () => undefined }),
    };
    let loaded = false;
    return {
      drawingLoaded: () => (loaded ? drawing : undefined),
      loadDrawing: async () => ((loaded = true), drawing),
    };
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const article = (title: string, textHash: string): Extraction => ({
  ok: true,
  article: { title, lang: 'en', passages: '', locators: [], digest: { fp: '0123456789abcdef', textHash, words: 500, lang: 'en', sketch: '', passages: '', readSet: '' } },
});
/** A real extraction of a text, as the background's offscreen document would digest it. */
const realArticle = (title: string, body: string): Extraction => ({
  ok: true,
  article: { title, lang: 'en', passages: encodeSentPassages(pagePassages(body)), locators: [], digest: digestArticle(body) },
});
const X = article('Article X', 'aaaaaaaaaaaaaaaa');

let navigation: EventTarget;
function go(path: string, replace = false): void {
  navigation.dispatchEvent(new Event('navigate'));
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
}
const reads = () => fake.sent.filter((m) => m.type === 'content:pageRead');
const seens = () => fake.sent.filter((m) => m.type === 'content:pageSeen');
const EXT = { id: 'ext', url: 'chrome-extension://ext/src/popup/index.html' };
/** A message to the content script from an extension page, through its routers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of several message types, as the routers give them ({ ok } or { error })
async function toContent(type: string, req: unknown): Promise<any> {
  const answers = await Promise.all(fake.routers.map((r) => r({ type, req }, EXT)));
  return answers.find((a) => a !== undefined) as never;
}

async function boot(settings: Record<string, unknown> = {}, path = '/a'): Promise<void> {
  fake.gen++;
  fake.sent = [];
  fake.routers = [];
  fake.answer = undefined;
  fake.settings = settings;
  fake.settingsListener = undefined;
  fake.extractions = [];
  fake.notices = [];
  fake.removed = 0;
  fake.runtimeId = 'ext';
  history.replaceState(null, '', path);
  navigation = new EventTarget();
  (window as unknown as { navigation: EventTarget }).navigation = navigation;
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  Object.defineProperty(document, 'prerendering', { value: false, configurable: true });
  vi.resetModules();
  installMocks();
  await import('../../src/content/index');
}
const extraction = async (n: number) => {
  await vi.waitFor(() => expect(fake.extractions.length).toBeGreaterThanOrEqual(n), { timeout: 8000, interval: 20 });
  return fake.extractions[n - 1];
};
/** Routes the content script's messages to a real background's handlers, as tab 1 at the page's address. */
function wire(bg: ReturnType<typeof makeBackground>): void {
  fake.answer = async (m) => {
    try {
      const handle = bg.handlers[m.type as keyof typeof bg.handlers] as (req: unknown, sender: unknown) => Promise<unknown>;
      const res = await handle(JSON.parse(JSON.stringify(m.req)), fromTab(1, location.href));
      return { ok: JSON.parse(JSON.stringify(res)) };
    } catch (e) {
      return { error: { name: 'Error', message: (e as Error).message } };
    }
  };
}

afterEach(() => {
  fake.gen++;
});

const en = loadArticle('en-library');
const body = en.paragraphs.join('\n\n');

describe('the content script with the background', () => {
  const repost = `${body}\n\nShare this article with your friends and family today.`;
  const readElsewhere = (bg: ReturnType<typeof makeBackground>, url = 'https://other.example/story', title = 'The story as read elsewhere') =>
    bg.read({ url, title, digest: digestArticle(body), lang: 'en', passages: encodeSentPassages(pagePassages(body)) }, fromTab(9, url));

  it('draws the notice at the end of the dwell time, naming the page read elsewhere', async () => {
    const bg = makeBackground({});
    await readElsewhere(bg);
    await boot({ dwellSeconds: 1 }, '/repost');
    wire(bg);
    (await extraction(1)).resolve(realArticle('Repost', repost));
    await vi.waitFor(() => expect(fake.notices.map((n) => n.title)).toEqual(['The story as read elsewhere']), { timeout: 5000 });
    expect(reads()).toHaveLength(1);
  }, 30_000);

  it('draws no notice of a history the reader cleared while the page waited for its dwell time', async () => {
    const bg = makeBackground({});
    await readElsewhere(bg);
    await boot({ dwellSeconds: 2 }, '/repost');
    wire(bg);
    (await extraction(1)).resolve(realArticle('Repost', repost));
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    await sleep(50);
    expect(bg.shown.at(-1)![1].matches).toHaveLength(1);
    await bg.call('options:clear', {});
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 5000 });
    await sleep(300);
    expect(fake.notices).toEqual([]);
  }, 30_000);

  it('draws no notice of the one page the reader said, in the popup, is not the same, while the page waited', async () => {
    const tabs: TabPages = {};
    const bg = makeBackground(tabs);
    await readElsewhere(bg);
    await boot({ dwellSeconds: 2 }, '/repost');
    wire(bg);
    (await extraction(1)).resolve(realArticle('Repost', repost));
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    await vi.waitFor(async () => expect((await toContent('background:getPage', {})).ok.page).toBeTruthy());
    tabs[1] = (await toContent('background:getPage', {})).ok;
    await bg.call('popup:notSame', { url: tabs[1].page!.url, other: 'https://other.example/story' });
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 5000 });
    await sleep(300);
    expect(fake.notices).toEqual([]);
  }, 30_000);

  it('draws no notice naming a page the reader forgot in the history page while the page waited in a tab behind', async () => {
    const bg = makeBackground({});
    await readElsewhere(bg, 'https://clinic.example/results', 'Your test results');
    await boot({ dwellSeconds: 2 }, '/repost');
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    wire(bg);
    (await extraction(1)).resolve(realArticle('Repost', repost));
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    await sleep(50);
    expect((await bg.call('popup:forgetPage', { url: 'https://clinic.example/results' })).forgotten).toBe(true);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 5000 });
    await sleep(300);
    expect(fake.notices).toEqual([]);
  }, 30_000);

  it('tells the toolbar button "not visited before" when a page read for the first time is asked about again (the same article at a changed address)', async () => {
    const tabs: TabPages = {};
    const bg = makeBackground(tabs);
    await boot({ dwellSeconds: 1 }, '/first');
    wire(bg);
    (await extraction(1)).resolve(realArticle(en.title, body));
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
    await vi.waitFor(async () => expect((await toContent('background:getPage', {})).ok.recorded).toBe(true));
    go('/first?page=2', true);
    (await extraction(2)).resolve(realArticle(en.title, body));
    await vi.waitFor(() => expect(seens()).toHaveLength(2), { timeout: 4000 });
    await sleep(100);
    expect(bg.shown.map(([, v]) => v.visitedBefore)).toEqual([false, false]);
    tabs[1] = (await toContent('background:getPage', {})).ok;
    const popup = await bg.handlers['popup:tabStatus']({ tabId: 1 }, { id: 'ext' } as never);
    expect(popup.state === 'checked' && popup.visitedBefore).toBe(false);
  }, 30_000);
});

describe('"Forget this page" from the popup', () => {
  it('stops the visit of a page that changed its address since its check, with the same article shown (a tracking parameter taken off)', async () => {
    await boot({ dwellSeconds: 3 }, '/a?utm_source=feed');
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    go('/a', true);
    (await extraction(2)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(2), { timeout: 4000 });
    // The popup names the page as it was checked.
    const got = await toContent('background:getPage', {});
    expect(got.ok.page.url).toMatch(/utm_source=feed$/);
    expect(await toContent('background:leaveUnread', { url: got.ok.page.url })).toEqual({ ok: { left: true } });
    await sleep(3500);
    expect(reads()).toHaveLength(0);
  }, 30_000);

  it("takes down a notice naming this page's own earlier version", async () => {
    await boot({ dwellSeconds: 1 }, '/story');
    fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0, match: { url: location.href, title: 'Story', kind: 'earlier-visit', when: '3 days ago', fresh: { read: 0.7, parts: [[1], [3]] } } } : { recorded: true } });
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(fake.notices).toHaveLength(1), { timeout: 4000 });
    const removed = fake.removed;
    const got = await toContent('background:getPage', {});
    expect(await toContent('background:leaveUnread', { url: got.ok.page.url })).toEqual({ ok: { left: true } });
    expect(fake.removed).toBe(removed + 1);
  }, 30_000);
});
