// @vitest-environment jsdom
// The content script's lifecycle (src/content/index.ts) as a reader's page goes through it: each
// view checked and recorded once, whatever overlaps (a slow page, a single-page app moving on, a
// pause and resume, a background answering with an error). A scripted background, extraction,
// settings and Navigation API; each test loads a fresh copy of the script.
import { afterEach, describe, expect, it, vi } from 'vitest';

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
  notices: [] as Array<{ url: string; title: string; at: string }>,
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
    showNotice: (match: { title: string }) => {
      if (fake.gen === gen) fake.notices.push({ url: location.href, title: match.title, at: String(performance.now()) });
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

async function boot(opts: { prerendering?: boolean } = {}): Promise<void> {
  fake.gen++;
  fake.sent = [];
  fake.routers = [];
  fake.answer = undefined;
  fake.settings = {};
  fake.settingsListener = undefined;
  fake.extractions = [];
  fake.notices = [];
  fake.removed = 0;
  fake.runtimeId = 'ext';
  history.replaceState(null, '', '/a');
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
