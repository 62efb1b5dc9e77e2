// @vitest-environment jsdom
// The content script's lifecycle (src/content/index.ts) as a reader's page goes through it: each
// view checked and recorded once, whatever overlaps (a slow page, a single-page app moving on, a
// pause and resume, a background answering with an error). A scripted background, extraction,
// settings and Navigation API; each test loads a fresh copy of the script. At the end, the script
// with a real background (helpers.ts makeBackground): the notice, the toolbar button and the popup
// tell one story, and what the reader does in the popup or the history page while a page waits for
// its dwell time counts (a review, 28 November 2026).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { digestArticle, encodeSentPassages, pagePassages } from '../../src/core';
import { readFileSync } from 'node:fs';
import { everyPage, fromTab, makeBackground, type TabPages } from './helpers';

type Msg = { type: string; req: Record<string, unknown> };
type Extraction = { ok: true; article: unknown } | { ok: false; reason: string };

const fake = vi.hoisted(() => ({
  gen: 0,
  sent: [] as Array<{ type: string; req: Record<string, unknown>; at: string }>,
  /** How the background answers; by default pageSeen answers "not read" and pageRead "recorded". */
  answer: undefined as undefined | ((m: { type: string; req: Record<string, unknown> }) => Promise<unknown>),
  settings: {} as Record<string, unknown>,
  settingsListener: undefined as undefined | ((s: unknown) => void),
  /** Each extraction asked for: resolved by the test. */
  extractions: [] as Array<{ url: string; resolve: (e: unknown) => void }>,
  notices: [] as Array<{ url: string; title: string; kind?: string; at: string }>,
  /** Notices taken down. */
  removed: 0,
  runtimeId: 'ext' as string | undefined,
  /** The content script's answerers of the background's messages (routers). */
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
          if (fake.gen !== gen) return new Promise(() => undefined); // an earlier test's copy: silenced
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
const X = article('Article X', 'aaaaaaaaaaaaaaaa');
const Y = article('Article Y', 'bbbbbbbbbbbbbbbb');
const NONE: Extraction = { ok: false, reason: 'too little text' };

let navigation: EventTarget;
/** A same-document navigation as a single-page app makes it, with the Navigation API's event. */
function go(path: string, replace = false): void {
  navigation.dispatchEvent(new Event('navigate'));
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
}
const reads = () => fake.sent.filter((m) => m.type === 'content:pageRead');
const seens = () => fake.sent.filter((m) => m.type === 'content:pageSeen');

async function boot(opts: { prerendering?: boolean; settings?: Record<string, unknown>; path?: string } = {}): Promise<void> {
  fake.gen++;
  fake.sent = [];
  fake.routers = [];
  fake.answer = undefined;
  fake.settings = opts.settings ?? {};
  fake.settingsListener = undefined;
  fake.extractions = [];
  fake.notices = [];
  fake.removed = 0;
  fake.runtimeId = 'ext';
  history.replaceState(null, '', opts.path ?? '/a');
  navigation = new EventTarget();
  (window as unknown as { navigation: EventTarget }).navigation = navigation;
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
  Object.defineProperty(document, 'prerendering', { value: opts.prerendering ?? false, configurable: true });
  vi.resetModules();
  installMocks();
  await import('../../src/content/index');
}
/** A fresh page load whose first view, article X, is checked and recorded. */
async function bootAndRead(): Promise<void> {
  await boot();
  (await extraction(1)).resolve(X);
  await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
}
const extraction = async (n: number) => {
  await vi.waitFor(() => expect(fake.extractions.length).toBeGreaterThanOrEqual(n), { timeout: 8000, interval: 20 });
  return fake.extractions[n - 1];
};
/** A real extraction of a text, as the background's offscreen document would digest it. */
const realArticle = (title: string, body: string): Extraction => ({
  ok: true,
  article: { title, lang: 'en', passages: encodeSentPassages(pagePassages(body)), locators: [], digest: digestArticle(body) },
});
const EXT = { id: 'ext', url: 'chrome-extension://ext/src/popup/index.html' };
/** A message to the content script from an extension page, through its routers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers of several message types, as the routers give them ({ ok } or { error })
async function toContent(type: string, req: unknown): Promise<any> {
  const answers = await Promise.all(fake.routers.map((r) => r({ type, req }, EXT)));
  return answers.find((a) => a !== undefined) as never;
}
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

describe('the content script, over a page load', () => {
  it('checks a plain page once and records it once after the dwell time', async () => {
    await bootAndRead();
    expect(seens()).toHaveLength(1);
    await sleep(1500);
    expect(reads()).toHaveLength(1);
  }, 20_000);

  it('tells the background, when asked for the page, whether this page load has recorded its visit', async () => {
    await boot();
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    // As the background asks: from the extension's own origin.
    const getPage = () => fake.routers.map((r) => r({ type: 'background:getPage', req: {} }, { id: 'ext', url: 'chrome-extension://ext/background.js' })).find((p) => p !== undefined);
    await vi.waitFor(async () => expect(await getPage()).toMatchObject({ ok: { page: { url: location.href } } }));
    expect(await getPage()).not.toMatchObject({ ok: { recorded: true } });
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
    await vi.waitFor(async () => expect(await getPage()).toMatchObject({ ok: { recorded: true } }));
  }, 20_000);

  it('does not say the visit was recorded when the background answered that it was not (a private window left unrecorded)', async () => {
    await boot();
    fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0 } : { recorded: false } });
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
    await sleep(200);
    const answers = await Promise.all(fake.routers.map((r) => r({ type: 'background:getPage', req: {} }, { id: 'ext', url: 'chrome-extension://ext/background.js' })));
    expect(answers.find((a) => a !== undefined)).toMatchObject({ ok: { page: { url: location.href } } });
    expect(answers.find((a) => a !== undefined)).not.toMatchObject({ ok: { recorded: true } });
  }, 20_000);

  it('checks and records a page paused while it was being read, once resumed', async () => {
    await boot();
    const { DEFAULT_SETTINGS } = await import('../../src/settings/settings');
    const first = await extraction(1);
    fake.settings = { paused: true };
    fake.settingsListener!({ ...DEFAULT_SETTINGS, paused: true, dwellSeconds: 1, linkMarks: 'off' });
    fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0, ...(fake.settings.paused ? { skipped: 'paused' } : {}) } : { recorded: !fake.settings.paused } });
    first.resolve(X);
    await sleep(100);
    fake.settings = {};
    fake.settingsListener!({ ...DEFAULT_SETTINGS, dwellSeconds: 1, linkMarks: 'off' });
    (await extraction(2)).resolve(X);
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
    expect(seens().length).toBeGreaterThanOrEqual(1);
  }, 20_000);

  it('lets a slower check of the page the reader left go: the article now shown is the one checked, recorded and noticed', async () => {
    await boot();
    fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0, ...(m.req.title === 'Article X' ? { match: { url: 'https://other.example/x', title: 'X read before', kind: 'copy', when: 'yesterday' } } : {}) } : { recorded: true } });
    const first = await extraction(1);
    go('/b');
    (await extraction(2)).resolve(Y);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    await sleep(200);
    first.resolve(X);
    await sleep(2500);
    expect(reads().map((m) => [m.req.url, m.req.title])).toEqual([['http://localhost:3000/b', 'Article Y']]);
    expect(fake.notices).toEqual([]);
  }, 20_000);

  it('records the article shown when a slower check of the page left fails late', async () => {
    await boot();
    const first = await extraction(1);
    go('/b');
    (await extraction(2)).resolve(Y);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    first.resolve({ ok: false, reason: 'no answer from the extraction' });
    await vi.waitFor(() => expect(reads().map((m) => m.req.title)).toEqual(['Article Y']), { timeout: 4000 });
  }, 20_000);

  it('reads an article that the page writes in after loading, at the same address, and records it', async () => {
    await boot();
    (await extraction(1)).resolve(NONE); // "Loading…"
    await sleep(300);
    const p = document.createElement('p');
    p.textContent = 'The article, fetched and written in by the page.';
    document.body.append(p);
    try {
      (await extraction(2)).resolve(X);
      await vi.waitFor(() => expect(reads().map((m) => m.req.title)).toEqual(['Article X']), { timeout: 4000 });
      expect(seens()).toHaveLength(1);
    } finally {
      p.remove();
    }
  }, 20_000);

  it('reads the article that replaced the one checked, at the same address: the notice drawn for the first goes, and the new one is recorded', async () => {
    // Article X as the page shows it, and as its extraction locates it (its passages' first characters, spaces left out).
    const shownX = document.createElement('p');
    shownX.textContent = 'The first article opens with this sentence, long enough to be found.';
    document.body.append(shownX);
    const located = (a: Extraction, heads: string[]): Extraction => (a.ok ? { ok: true, article: { ...(a.article as object), locators: heads.map((head) => ({ head, tail: '', length: head.length })) } } : a);
    try {
      await boot();
      fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0, ...(m.req.title === 'Article X' ? { match: { url: 'https://other.example/x', title: 'X read before', kind: 'copy', when: 'yesterday' } } : {}) } : { recorded: true } });
      (await extraction(1)).resolve(located(X, ['Thefirstarticleopenswith']));
      await vi.waitFor(() => expect(fake.notices.map((n) => n.title)).toEqual(['X read before']), { timeout: 4000 });
      // The page's script shows another article in its place.
      shownX.textContent = 'A second article, about something else entirely, takes its place.';
      (await extraction(2)).resolve(located(Y, ['Asecondarticle,aboutsome']));
      await vi.waitFor(() => expect(reads().map((m) => m.req.title)).toEqual(['Article X', 'Article Y']), { timeout: 8000 });
      // One page load, one visit: Article Y is recorded as the visit that recorded X, and checked as it.
      const [readX, readY] = reads();
      expect(readX.req.visitId).toEqual(expect.any(String));
      expect(readY.req.visitId).toBe(readX.req.visitId);
      expect(seens().at(-1)?.req.visitId).toBe(readX.req.visitId);
      expect(seens().slice(0, -1).map((m) => m.req.visitId)).toEqual(seens().slice(0, -1).map(() => undefined));
      expect(fake.removed).toBeGreaterThan(0);
      // No notice of its own: the page load had its one chance.
      expect(fake.notices).toHaveLength(1);
    } finally {
      shownX.remove();
    }
  }, 20_000);

  it('does not read again an article page that only adds text under the article (comments)', async () => {
    const shownX = document.createElement('p');
    shownX.textContent = 'The first article opens with this sentence, long enough to be found.';
    document.body.append(shownX);
    const comments = document.createElement('p');
    try {
      await boot();
      (await extraction(1)).resolve(X.ok ? { ok: true, article: { ...(X.article as object), locators: [{ head: 'Thefirstarticleopenswith', tail: '', length: 24 }] } } : X);
      await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
      comments.textContent = 'First comment. Second comment.';
      document.body.append(comments);
      await sleep(2000);
      expect(fake.extractions).toHaveLength(1);
    } finally {
      shownX.remove();
      comments.remove();
    }
  }, 20_000);

  it('does not read again a page without an article that stays as it loaded', async () => {
    await boot();
    (await extraction(1)).resolve(NONE);
    await sleep(1800);
    expect(fake.extractions).toHaveLength(1);
  }, 20_000);

  it('looks again at a slow view whose address changed twice within the first look (a push, then its slug)', async () => {
    await bootAndRead();
    go('/b');
    await sleep(100);
    go('/b/its-title', true);
    (await extraction(2)).resolve(NONE);
    (await extraction(3)).resolve(Y);
    await vi.waitFor(() => expect(reads()).toHaveLength(2), { timeout: 4000 });
  }, 20_000);

  it('tells the background again about an article whose address the page changed (its toolbar button was cleared), and records it once', async () => {
    await bootAndRead();
    go('/a?utm_source=feed', true);
    (await extraction(2)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(2), { timeout: 4000 });
    expect(seens()[1].req).toMatchObject({ url: seens()[0].req.url, title: 'Article X' });
    await sleep(1500);
    expect(reads()).toHaveLength(1);
  }, 20_000);

  it('counts the same article once when a look at it between two addresses found nothing', async () => {
    await bootAndRead();
    go('/a?view=comments');
    (await extraction(2)).resolve({ ok: false, reason: 'extraction stopped' });
    (await extraction(3)).resolve(X);
    await sleep(2000);
    expect(reads()).toHaveLength(1);
  }, 20_000);

  it('counts a page read once when it is paused and resumed afterwards', async () => {
    await bootAndRead();
    const { DEFAULT_SETTINGS } = await import('../../src/settings/settings');
    fake.settingsListener!({ ...DEFAULT_SETTINGS, paused: true, dwellSeconds: 1, linkMarks: 'off' });
    fake.settingsListener!({ ...DEFAULT_SETTINGS, dwellSeconds: 1, linkMarks: 'off' });
    (await extraction(2)).resolve(X);
    // Checked again (the toolbar button comes back), not recorded again.
    await vi.waitFor(() => expect(seens()).toHaveLength(2));
    await sleep(2000);
    expect(reads()).toHaveLength(1);
  }, 20_000);

  it('checks nothing while the page is prerendered, even when it changes its address', async () => {
    await boot({ prerendering: true });
    go('/a?ref=x', true);
    await sleep(2500);
    expect(fake.extractions).toHaveLength(0);
  }, 20_000);

  it('asks again about an article whose check the background answered with an error, and records it', async () => {
    await boot();
    fake.answer = async (m) => (m.type === 'content:pageSeen' ? { error: { name: 'Error', message: 'the database could not be opened' } } : { ok: { recorded: true } });
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    fake.answer = undefined;
    go('/a?view=2');
    (await extraction(2)).resolve(X);
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
    expect(seens()).toHaveLength(2);
  }, 20_000);

  it('takes down the notice shown once the reader turns notices off, as a pause does', async () => {
    await boot();
    fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0, match: { url: 'https://other.example/x', title: 'Read before', kind: 'copy', when: 'yesterday' } } : { recorded: true } });
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(fake.notices).toHaveLength(1), { timeout: 4000 });
    const removed = fake.removed;
    const { DEFAULT_SETTINGS } = await import('../../src/settings/settings');
    fake.settingsListener!({ ...DEFAULT_SETTINGS, linkMarks: 'off', dwellSeconds: 1, showNotice: false });
    await vi.waitFor(() => expect(fake.removed).toBe(removed + 1));
    // Turned on again: no notice comes back (one chance a page load).
    fake.settingsListener!({ ...DEFAULT_SETTINGS, linkMarks: 'off', dwellSeconds: 1, showNotice: true });
    await sleep(300);
    expect(fake.notices).toHaveLength(1);
  }, 20_000);

  it('shows no notice once the reader turned notices off while the page waited for its dwell time', async () => {
    await boot();
    fake.settings = { dwellSeconds: 2 };
    fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0, match: { url: 'https://other.example/x', title: 'Read before', kind: 'copy', when: 'yesterday' } } : { recorded: true } });
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    const { DEFAULT_SETTINGS } = await import('../../src/settings/settings');
    fake.settings = { dwellSeconds: 2, showNotice: false };
    fake.settingsListener!({ ...DEFAULT_SETTINGS, linkMarks: 'off', dwellSeconds: 2, showNotice: false });
    await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
    await sleep(300);
    expect(fake.notices).toEqual([]);
  }, 20_000);

  it('runs one dwell when the article is checked anew while an earlier check still retries its question', async () => {
    await boot();
    const { DEFAULT_SETTINGS } = await import('../../src/settings/settings');
    let failFirst = true;
    fake.answer = async (m) => {
      if (m.type === 'content:pageSeen' && failFirst) {
        failFirst = false;
        throw new Error('Could not establish connection. Receiving end does not exist.');
      }
      return { ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0 } : { recorded: true } };
    };
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    fake.settingsListener!({ ...DEFAULT_SETTINGS, paused: true, dwellSeconds: 1, linkMarks: 'off' });
    fake.settingsListener!({ ...DEFAULT_SETTINGS, dwellSeconds: 1, linkMarks: 'off' });
    (await extraction(2)).resolve(X);
    await sleep(3000);
    expect(reads()).toHaveLength(1);
  }, 20_000);
});

// A fixture article, read from the working directory (under jsdom, import.meta.url is not a file address).
const en = JSON.parse(readFileSync(`${process.cwd()}/tests/fixtures/articles/en-library.json`, 'utf8')) as { title: string; paragraphs: string[] };
const body = en.paragraphs.join('\n\n');

describe('the content script with the background', () => {
  const repost = `${body}\n\nShare this article with your friends and family today.`;
  const readElsewhere = (bg: ReturnType<typeof makeBackground>, url = 'https://other.example/story', title = 'The story as read elsewhere') =>
    bg.read({ url, title, digest: digestArticle(body), lang: 'en', passages: encodeSentPassages(pagePassages(body)) }, fromTab(9, url));

  it('draws the notice at the end of the dwell time, naming the page read elsewhere', async () => {
    const bg = makeBackground({});
    await readElsewhere(bg);
    await boot({ settings: { dwellSeconds: 1 }, path: '/repost' });
    wire(bg);
    (await extraction(1)).resolve(realArticle('Repost', repost));
    await vi.waitFor(() => expect(fake.notices.map((n) => n.title)).toEqual(['The story as read elsewhere']), { timeout: 5000 });
    expect(reads()).toHaveLength(1);
  }, 30_000);

  it('draws no notice of a history the reader cleared while the page waited for its dwell time', async () => {
    const bg = makeBackground({});
    await readElsewhere(bg);
    await boot({ settings: { dwellSeconds: 2 }, path: '/repost' });
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
    await boot({ settings: { dwellSeconds: 2 }, path: '/repost' });
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
    await boot({ settings: { dwellSeconds: 2 }, path: '/repost' });
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

  it('counts one visit, and no visit before it, where the page replaces the article it recorded with another at the same address', async () => {
    const tabs: TabPages = {};
    const bg = makeBackground(tabs);
    const other = JSON.parse(readFileSync(`${process.cwd()}/tests/fixtures/articles/en-balcony.json`, 'utf8')) as { title: string; paragraphs: string[] };
    const shown = document.createElement('p');
    shown.textContent = body.slice(0, 200);
    document.body.append(shown);
    try {
      await boot({ settings: { dwellSeconds: 0 }, path: '/live' });
      wire(bg);
      const first = realArticle(en.title, body);
      const firstLocated = first.ok ? { ok: true as const, article: { ...(first.article as object), locators: [{ head: body.slice(0, 40).replace(/\s+/g, ''), tail: '', length: 40 }] } } : first;
      (await extraction(1)).resolve(firstLocated);
      await vi.waitFor(() => expect(reads()).toHaveLength(1), { timeout: 4000 });
      await vi.waitFor(async () => expect((await toContent('background:getPage', {})).ok.recorded).toBe(true));
      // The page's script shows another article in its place, at the same address.
      shown.textContent = other.paragraphs.join(' ').slice(0, 150);
      (await extraction(2)).resolve(realArticle(other.title, other.paragraphs.join('\n\n')));
      await vi.waitFor(() => expect(reads()).toHaveLength(2), { timeout: 8000 });
      const history = await everyPage(await bg.repository);
      expect(history.map((p) => [p.title, p.visits])).toEqual([[other.title, 1]]);
      expect(bg.shown.map(([, v]) => v.visitedBefore)).toEqual([false, false]);
      tabs[1] = (await toContent('background:getPage', {})).ok;
      const popup = await bg.handlers['popup:tabStatus']({ tabId: 1 }, { id: 'ext' } as never);
      expect(popup.state === 'checked' && popup.visitedBefore).toBe(false);
    } finally {
      shown.remove();
    }
  }, 30_000);

  it('tells the toolbar button "not visited before" when a page read for the first time is asked about again (the same article at a changed address)', async () => {
    const tabs: TabPages = {};
    const bg = makeBackground(tabs);
    await boot({ settings: { dwellSeconds: 1 }, path: '/first' });
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
    await boot({ settings: { dwellSeconds: 3 }, path: '/a?utm_source=feed' });
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(1));
    go('/a', true);
    (await extraction(2)).resolve(X);
    await vi.waitFor(() => expect(seens()).toHaveLength(2), { timeout: 4000 });
    // The popup names the page as it was checked.
    const got = await toContent('background:getPage', {});
    expect(got.ok.page.url).toMatch(/utm_source=feed$/);
    expect(await toContent('background:leaveUnread', { url: got.ok.page.url })).toEqual({ ok: { left: true } });
    // A popup opened again on this page load is told it was forgotten here.
    expect((await toContent('background:getPage', {})).ok.forgotten).toBe(true);
    await sleep(3500);
    expect(reads()).toHaveLength(0);
  }, 30_000);

  it('says the page load came by Back, Forward or a reload, for the page it loaded only', async () => {
    for (const type of ['back_forward', 'reload']) {
      const navigationEntries = vi.spyOn(performance, 'getEntriesByType').mockImplementation((t: string) => (t === 'navigation' ? [{ type } as unknown as PerformanceEntry] : []));
      await bootAndRead();
      expect(reads()[0].req).toMatchObject({ loadedAgain: true });
      navigationEntries.mockRestore();
    }
    await bootAndRead();
    expect(reads()[0].req).not.toHaveProperty('loadedAgain');
  }, 30_000);

  it("takes down a notice naming this page's own earlier version", async () => {
    await boot({ settings: { dwellSeconds: 1 }, path: '/story' });
    fake.answer = async (m) => ({ ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0, match: { url: location.href, title: 'Story', kind: 'earlier-visit', when: '3 days ago', fresh: { read: 0.7, parts: [[1], [3]] } } } : { recorded: true } });
    (await extraction(1)).resolve(X);
    await vi.waitFor(() => expect(fake.notices).toHaveLength(1), { timeout: 4000 });
    const removed = fake.removed;
    const got = await toContent('background:getPage', {});
    expect(await toContent('background:leaveUnread', { url: got.ok.page.url })).toEqual({ ok: { left: true } });
    expect(fake.removed).toBe(removed + 1);
  }, 30_000);
});
