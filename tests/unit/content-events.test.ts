// @vitest-environment jsdom
// The content script takes only the browser's own events where a made-up one would let the page ask
// the background about it again at will (design.md, "What a page may learn").
import { describe, expect, it, vi } from 'vitest';
import { message } from './messages';

const fake = vi.hoisted(() => ({
  sent: [] as Array<{ type: string }>,
  /** Whether the visit's message is lost on the way (a background stopped before it answered). */
  loseVisits: false,
  routes: [] as Array<(message: unknown, sender: unknown) => Promise<unknown> | undefined>,
}));

vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    extension: { inIncognitoContext: false },
    runtime: {
      id: 'ext',
      getURL: (p: string) => `chrome-extension://ext/${p}`,
      sendMessage: async (m: { type: string }) => {
        fake.sent.push(m);
        if (m.type === 'content:pageRead' && fake.loseVisits) throw new Error('Could not establish connection. Receiving end does not exist.');
        return { ok: m.type === 'content:pageSeen' ? { fp: '0123456789abcdef', more: 0 } : {} };
      },
      onMessage: { addListener: () => undefined },
    },
  },
  answerMessages: (route: (typeof fake.routes)[number]) => void fake.routes.push(route),
}));
vi.mock('../../src/settings/settings-store', async () => {
  const { DEFAULT_SETTINGS } = await import('../../src/settings/settings');
  return { loadSettings: async () => ({ ...DEFAULT_SETTINGS, linkMarks: 'off', dwellSeconds: 1, showNotice: false }), onSettingsChanged: () => undefined };
});
vi.mock('../../src/content/extract-off-page', () => ({
  extractOffPage: async () => ({
    ok: true,
    article: { title: 'T', lang: 'en', passages: '', locators: [], digest: { fp: '0123456789abcdef', textHash: 'fedcba9876543210', words: 500, lang: 'en', sketch: '', passages: '', readSet: '' } },
  }),
}));

const asked = (type: string) => fake.sent.filter((m) => m.type === type).length;
/** The content script of this page, loaded anew, once it has checked the page (and the answer is taken). */
async function loaded(): Promise<void> {
  vi.resetModules();
  fake.sent = [];
  fake.routes = [];
  await import('../../src/content/index');
  await vi.waitFor(() => expect(asked('content:pageSeen')).toBe(1), { timeout: 5000 });
  await new Promise((resolve) => setTimeout(resolve, 50));
}
/** A message to the content script from the popup (an extension page), through its routers. */
const fromPopup = (type: string, req: unknown) => Promise.all(fake.routes.map((route) => route({ type, req }, { id: 'ext', url: 'chrome-extension://ext/src/popup/index.html' })));

describe('the content script', () => {
  it('records the page at the end of its dwell time, unless the reader forgot it from the popup meanwhile', async () => {
    expect(document.visibilityState).toBe('visible');
    await loaded();
    await vi.waitFor(() => expect(asked('content:pageRead')).toBe(1), { timeout: 3000 });
    await loaded();
    expect(await fromPopup('background:leaveUnread', { url: 'https://elsewhere.example/' })).toContainEqual({ ok: { left: false } });
    expect(await fromPopup('background:leaveUnread', { url: location.href })).toContainEqual({ ok: { left: true } });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(asked('content:pageRead')).toBe(0);
  }, 15_000);

  it('does not send its visit again once the reader forgot the page from the popup (the visit sent again would record it anew)', async () => {
    fake.loseVisits = true;
    try {
      await loaded();
      // The dwell time (1 s) ends and the visit goes out; its answer is lost, and it would be sent again after 0.5 s.
      await vi.waitFor(() => expect(asked('content:pageRead')).toBe(1), { timeout: 3000 });
      expect(await fromPopup('background:leaveUnread', { url: location.href })).toContainEqual({ ok: { left: true } });
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(asked('content:pageRead')).toBe(1);
    } finally {
      fake.loseVisits = false;
    }
  }, 15_000);

  it('asks about its page once, however many "back from the cache" events the page makes up', async () => {
    vi.resetModules();
    fake.sent = [];
    await import('../../src/content/index');
    const asked = () => fake.sent.filter((m) => m.type === 'content:pageSeen').length;
    await vi.waitFor(() => expect(asked()).toBe(1), { timeout: 5000 });
    // The answer taken: the page now counts as checked, and a real return from the cache would tell it again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = 0; i < 20; i++) window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked()).toBe(1);
  }, 15_000);
});
