// @vitest-environment jsdom
// The link marks when the background cannot be reached: the links are asked about again once it
// answers, and a script whose extension was reloaded lets the page go.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { message } from './messages';

const fake = vi.hoisted(() => ({ id: 'ext' as string | undefined, failures: 0, asked: [] as string[][], readSince: [] as string[] }));
vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    runtime: {
      get id() {
        return fake.id;
      },
      sendMessage: async (m: { type: string; req: { keys: string[] } }) => {
        if (fake.failures > 0) {
          fake.failures--;
          throw new Error('Could not establish connection. Receiving end does not exist.');
        }
        fake.asked.push(m.req.keys);
        return { ok: { read: m.req.keys.filter((k) => k.includes('read') || fake.readSince.some((host) => k.includes(host))).map((key) => ({ key, date: 'Nov 1' })) } };
      },
    },
  },
}));

// jsdom lays nothing out and has no IntersectionObserver: one that never reports is enough here.
globalThis.IntersectionObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
} as unknown as typeof IntersectionObserver;

const { startLinkMarks } = await import('../../src/content/link-marks');

function page(hrefs: string[]): void {
  document.body.replaceChildren(
    ...hrefs.map((href) => {
      const p = document.createElement('p');
      const a = document.createElement('a');
      a.href = href;
      a.textContent = href;
      p.append(a);
      return p;
    }),
  );
}

afterEach(() => {
  fake.id = 'ext';
  fake.failures = 0;
  fake.asked = [];
  fake.readSince = [];
  delete (document as { visibilityState?: string }).visibilityState;
  document.body.replaceChildren();
  for (const host of document.querySelectorAll('[data-deja-read=overlay]')) host.remove();
});

describe('link marks', () => {
  it('asks again about links whose question went unanswered, at the next change of the page', async () => {
    page(['https://a.example/read-1', 'https://b.example/other']);
    // The background cannot be reached for longer than the question is retried.
    fake.failures = 1000;
    const marks = startLinkMarks(document);
    await vi.waitFor(() => expect(1000 - fake.failures).toBeGreaterThanOrEqual(4), { timeout: 8000 });
    expect(marks.readCount()).toBe(0);
    fake.failures = 0;
    // The page adds a link: the scan that follows asks about every link not answered yet.
    const p = document.createElement('p');
    const c = document.createElement('a');
    c.href = 'https://c.example/read-2';
    p.append(c);
    document.body.append(p);
    await vi.waitFor(() => expect(marks.readCount()).toBe(2), { timeout: 5000 });
    expect(fake.asked.flat().sort()).toEqual(['https://a.example/read-1', 'https://b.example/other', 'https://c.example/read-2'].map((u) => expect.stringContaining(new URL(u).host)));
    marks.stop();
  }, 15_000);

  it('marks a link whose page was read since, when the reader comes back to the tab, and after an in-page navigation', async () => {
    page(['https://a.example/read-1', 'https://b.example/story', 'https://c.example/story']);
    const marks = startLinkMarks(document);
    await vi.waitFor(() => expect(marks.readCount()).toBe(1), { timeout: 5000 });
    // b.example's story is read in another tab; the reader comes back.
    fake.readSince.push('b.example');
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(marks.readCount()).toBe(2), { timeout: 5000 });
    // Only the links not read were asked about again.
    expect(fake.asked.at(-1)?.some((k) => k.includes('a.example'))).toBe(false);
    // c.example's story is read in this tab, and the reader goes back to the list (no Navigation API in jsdom: popstate).
    fake.readSince.push('c.example');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await vi.waitFor(() => expect(marks.readCount()).toBe(3), { timeout: 5000 });
    marks.stop();
  });

  it('counts the pages read that the links lead to, a page linked over http and https once', async () => {
    page(['https://a.example/read-1', 'http://a.example/read-1', 'https://a.example/read-1?utm_source=feed', 'https://b.example/read-2', 'https://c.example/other']);
    const marks = startLinkMarks(document);
    await vi.waitFor(() => expect(marks.readCount()).toBe(2), { timeout: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(marks.readCount()).toBe(2);
    marks.stop();
  });

  it('reads a link again when the page gives it another address (a list reusing its elements)', async () => {
    page(['https://a.example/other', 'https://b.example/other']);
    const marks = startLinkMarks(document);
    await vi.waitFor(() => expect(fake.asked.flat()).toHaveLength(2), { timeout: 5000 });
    expect(marks.readCount()).toBe(0);
    document.querySelector('a')?.setAttribute('href', 'https://a.example/read-now');
    await vi.waitFor(() => expect(marks.readCount()).toBe(1), { timeout: 5000 });
    document.querySelector('a')?.setAttribute('href', 'https://a.example/other-again');
    await vi.waitFor(() => expect(marks.readCount()).toBe(0), { timeout: 5000 });
    marks.stop();
  }, 15_000);

  it('on an endless feed, keeps only the keys of links still on the page, and marks a link that comes back', async () => {
    const feed = (round: number) => Array.from({ length: 30 }, (_, i) => `https://feed.example/${round}/${i % 3 === 0 ? 'read' : 'post'}-${i}`);
    page(feed(0));
    const marks = startLinkMarks(document, 50);
    await vi.waitFor(() => expect(marks.readCount()).toBe(10), { timeout: 5000 });
    // The feed drops what scrolled away and shows new posts, round after round.
    for (let round = 1; round <= 5; round++) {
      page(feed(round));
      await vi.waitFor(() => expect(fake.asked.flat()).toHaveLength(30 * (round + 1)), { timeout: 5000 });
      // At most the limit, and the page's own links, are remembered.
      expect(marks.stats().keys).toBeLessThanOrEqual(50 + 30);
      expect(marks.readCount()).toBe(10);
    }
    // The first posts come back: asked about again, and marked as before.
    page(feed(0));
    await vi.waitFor(() => expect(fake.asked.flat()).toHaveLength(30 * 7), { timeout: 5000 });
    await vi.waitFor(() => expect(marks.readCount()).toBe(10), { timeout: 5000 });
    marks.stop();
  }, 30_000);

  it('stops, leaving nothing on the page, once its extension is gone', async () => {
    page(['https://a.example/read-1']);
    fake.id = undefined;
    const marks = startLinkMarks(document);
    await vi.waitFor(() => expect(document.querySelector('[data-deja-read=overlay]')).toBeNull(), { timeout: 3000 });
    expect(fake.asked).toEqual([]);
    // Later changes of the page start nothing.
    document.body.append(document.createElement('p'));
    await new Promise((r) => setTimeout(r, 1000));
    expect(fake.asked).toEqual([]);
    expect(marks.readCount()).toBe(0);
  }, 10_000);
});
