// @vitest-environment jsdom
// Titles, URLs and sites we did not write, as each page and the in-page notice show them: every
// one inside an isolating element, without the override characters that would show its letters
// in another order ("Invoice \u202Efdp.exe" as "Invoice exe.pdf") or reverse the text after it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MatchSummary } from '../../src/messaging/protocol';
import { bidiSafe, isolate, localizedNodes } from '../../src/ui/bidi';
import { message } from './messages';

const fake = vi.hoisted(() => ({
  replies: {} as Record<string, unknown>,
  stored: {} as Record<string, unknown>,
  messages: null as null | ((key: string, subs: string[]) => string),
}));

const api = vi.hoisted(() => ({
  i18n: { getMessage: (key: string, subs: string[] = []) => fake.messages?.(key, subs) ?? '', getUILanguage: () => 'en' },
  runtime: {
    id: 'ext',
    sendMessage: async (m: { type: string }) => ({ ok: fake.replies[m.type] }),
    openOptionsPage: async () => undefined,
    getURL: (p: string) => `chrome-extension://x/${p}`,
  },
  tabs: { query: async () => [{ id: 1 }], create: async () => undefined },
  storage: { sync: { get: async () => fake.stored, set: async () => undefined }, onChanged: { addListener: () => undefined } },
}));
vi.mock('../../src/ext', () => ({ default: api }));

/** What no untrusted text may bring to the screen: embeddings and overrides, C0 and C1 controls (the page's own line breaks between tags aside). */
// eslint-disable-next-line no-control-regex -- the controls are what it finds
const NOT_SHOWN = /[\u202A-\u202E\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const TITLE = 'Invoice \u202Efdp.exe\u001B';
const URL_ONLY = 'https://files.example/invoice?name=%E2%80%AE';
const NOW = Date.now();
const hostile = (url: string, title: string): MatchSummary => ({ url, title, fp: '0123456789abcdef', distance: 0, kind: 'same-text', firstSeen: NOW - 9e6, lastSeen: NOW - 6e6, visits: 1 });
/** Everything the pages below are given that came from web pages. */
// The history page shows where each page is, its site and path ("%E2%80%AE" as the character it escapes).
const PLACES = ['news.example/a', 'files.example/invoice?name=\u202E'];
const UNTRUSTED = [TITLE, URL_ONLY, 'files.example', 'news.example', 'reader.example', ...PLACES].map(bidiSafe);

/**
 * Every text node holding untrusted text is exactly that text, alone in a <bdi dir="auto">; each
 * untrusted string is shown at least once; no override character reaches the screen or a tooltip.
 */
function expectIsolated(root: ParentNode, mustShow: string[]): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const shown = new Set<string>();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    expect(text).not.toMatch(NOT_SHOWN);
    const untrusted = UNTRUSTED.filter((u) => text.includes(u));
    if (untrusted.length === 0) continue;
    expect(node.parentElement?.localName, text).toBe('bdi');
    expect(node.parentElement?.getAttribute('dir')).toBe('auto');
    expect(UNTRUSTED).toContain(text);
    shown.add(text);
  }
  for (const el of root.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      expect(attr.value).not.toMatch(NOT_SHOWN);
      // Text drawn as generated content (src/content/drawn-text.ts) carries its untrusted parts isolated.
      // Each isolate is exactly one untrusted text, and none is outside one.
      if (attr.name === 'data-text') {
        const isolates = [...attr.value.matchAll(/\u2068([^\u2069]*)\u2069/g)].map((m) => m[1]);
        for (const text of isolates) expect(UNTRUSTED).toContain(text);
        const outside = attr.value.replace(/\u2068[^\u2069]*\u2069/g, '');
        for (const u of UNTRUSTED) expect(outside, u).not.toContain(u);
        for (const text of isolates) shown.add(text);
      }
      if (attr.name === 'aria-label' && attr.value.includes(bidiSafe(TITLE))) expect(attr.value).toContain(isolate(TITLE));
    }
  }
  for (const u of mustShow) expect(shown, u).toContain(bidiSafe(u));
}

function loadPage(path: string): void {
  const html = readFileSync(join(process.cwd(), 'src', path), 'utf8');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
}

beforeEach(() => {
  fake.messages = (key, subs) => message(key, subs);
  fake.replies = {};
  fake.stored = {};
  vi.resetModules();
});
afterEach(() => {
  document.documentElement.replaceChildren();
});

describe('bidiSafe', () => {
  it('drops embeddings and overrides, and balances isolates so none can leak out', () => {
    expect(bidiSafe('Invoice \u202Efdp.exe')).toBe('Invoice fdp.exe');
    expect(bidiSafe('a\u2069\u202Eb')).toBe('ab'); // a stray PDI would close the isolate around it
    expect(bidiSafe('\u2067שלום')).toBe('\u2067שלום\u2069'); // an open isolate would take our PDI
    expect(bidiSafe('مرحبا world')).toBe('مرحبا world');
  });

  it('drops C0 and C1 controls, which the screen draws as boxes, and makes line breaks and tabs spaces', () => {
    expect(bidiSafe('Control \u0007\u001B[31mred\u001B[0m\u0085next\tline\r\nend\u007F\u009B')).toBe('Control [31mred[0m next line  end');
    expect(bidiSafe('\u0000\u202E')).toBe('');
  });

  it('fills a message with nodes in their places', () => {
    const b = document.createElement('b');
    b.textContent = '\u2066x';
    const nodes = localizedNodes('popupSiteForgotten', [3, b]);
    const p = document.createElement('p');
    p.append(...nodes);
    expect(p.textContent).toBe('3 pages of \u2066x were forgotten.');
    expect(p.childNodes[2]).toBe(b);
  });
});

describe('untrusted text on screen', () => {
  it("the toolbar button's tooltip", async () => {
    const { badgeFor } = await import('../../src/background/badge');
    const { title } = badgeFor({ fp: '0123456789abcdef', algo: 'x', matches: [hostile('https://news.example/a', TITLE)], visitedBefore: false });
    expect(title).toMatch(/^Déjà Read: you've read this before — \u2068Invoice fdp\.exe\u2069$/);
  });

  it('the popup: titles, URLs and sites of matches, and the site in the buttons', async () => {
    loadPage('popup/index.html');
    fake.replies['popup:tabStatus'] = { state: 'checked', page: { url: 'https://reader.example/now', title: 'Now', fp: '0123456789abcdef' }, matches: [hostile('https://news.example/a', TITLE), hostile(URL_ONLY, '')], visitedBefore: false };
    await import('../../src/popup/main');
    await vi.waitFor(() => expect(document.querySelectorAll('#matches li')).toHaveLength(2));
    expectIsolated(document.body, [TITLE, URL_ONLY, 'files.example', 'news.example', 'reader.example']);
    expect(document.getElementById('forget-site')?.textContent).toBe('Forget all of reader.example');
  });

  it('the history page: titles, URLs and sites of pages and of their copies', async () => {
    loadPage('history/index.html');
    fake.replies['history:list'] = { items: [{ ...hostile('https://news.example/a', TITLE), visits: 2, copies: [hostile(URL_ONLY, '')] }], done: true };
    fake.replies['options:stats'] = { pages: 2 };
    await import('../../src/history/main');
    await vi.waitFor(() => expect(document.getElementById('summary')?.textContent).toMatch(/Showing/));
    expectIsolated(document.body, [TITLE, URL_ONLY, ...PLACES]);
  });

  it('the options page: excluded sites, and what the reader typed as a site', async () => {
    loadPage('options/index.html');
    fake.stored = { settings: { excludedSites: ['news.example'] } };
    fake.replies['options:stats'] = { pages: 0 };
    await import('../../src/options/main');
    await vi.waitFor(() => expect(document.querySelectorAll('#excluded li bdi')).toHaveLength(1));
    const input = document.getElementById('new-site') as HTMLInputElement;
    input.value = TITLE;
    document.getElementById('add-site')?.dispatchEvent(new Event('submit', { cancelable: true }));
    expect(document.getElementById('settings-status')?.textContent).toMatch(/Invoice fdp\.exe/);
    expectIsolated(document.body, [TITLE, 'news.example']);
  });

  it('the in-page notice: the title and site of the page read before', async () => {
    const { renderNotice } = await import('../../src/notice/view');
    const frame = document.implementation.createHTMLDocument('notice');
    renderNotice(frame, { match: { ...hostile('https://news.example/a', TITLE), when: '2 hours ago' }, more: 0, canShowNew: false, room: 1000 }, () => undefined);
    expectIsolated(frame.body, [TITLE, 'news.example']);
    // What follows the title is the notice's own text, outside the title's isolate.
    expect(frame.querySelector('.meta')?.getAttribute('data-text')).toMatch(/^ — \u2068news\.example\u2069, /);
    const other = document.implementation.createHTMLDocument('notice');
    renderNotice(other, { match: { ...hostile(URL_ONLY, ''), when: '2 hours ago' }, more: 0, canShowNew: false, room: 1000 }, () => undefined);
    expectIsolated(other.body, [URL_ONLY, 'files.example']);
  });
});
