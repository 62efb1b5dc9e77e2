/// <reference types="chrome" />
// Accessibility in real Chromium: axe-core on every page of the extension (popup, options, history,
// welcome) and on the in-page notice, in the light and the dark colour scheme, in the English and
// the Chinese UI: no violation. And the keyboard: the notice's shortcut, the clear confirmation's
// Escape, the import control's visible focus.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { chromium, type BrowserContext, type Frame, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, chromiumArgs, distDir } from './browsers';
import { escapeFromNotice, noticeShown, openAndSettle } from './checks';
import { startSite, type Site } from './site';
import { writeSyntheticHistory } from './synthetic-history';

const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;
const SCHEMES = ['light', 'dark'] as const;

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The violations axe finds in the page (or in the part `include` selects), each as "rule: target…". */
async function violations(page: Page | Frame, include?: string): Promise<string[]> {
  await page.evaluate(AXE_SOURCE); // through the DevTools protocol: the extension pages' CSP allows no injected script
  const results = await page.evaluate(
    async (sel) => JSON.stringify(await (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResults> } }).axe.run(sel ? { include: [[sel]] } : document, { resultTypes: ['violations'] })),
    include ?? '',
  );
  return (JSON.parse(results) as AxeResults).violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary?.replace(/\s+/g, ' ')})`));
}

/**
 * The notice's frame (the extension's page in an <iframe> inside the host's closed root), with the
 * text it draws as generated content (src/content/drawn-text.ts) made text nodes, the same text in
 * the same elements: axe judges the contrast and names of text in the DOM only.
 */
async function noticeFrameAsText(page: Page): Promise<Frame> {
  const frame = page.frames().find((f) => f.url().includes('/src/notice/index.html'));
  if (!frame) throw new Error('no notice');
  await frame.evaluate(() => {
    for (const e of document.querySelectorAll('[data-text]')) {
      // Before what else it holds (the heading's line holds "See all"), as the generated content stands.
      e.prepend(e.getAttribute('data-text') ?? '');
      e.removeAttribute('data-text');
    }
  });
  return frame;
}

describe.each([
  ['English', undefined],
  ['Chinese', 'zh-CN'],
] as const)('Chromium accessibility, %s UI', (_name, lang) => {
  let context: BrowserContext;
  let worker: Worker;
  let profile: string;
  let extPage: (path: string) => string;
  let tabId: number;
  let article: Page;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'deja-read-a11y-'));
    const ext = distDir('chrome');
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, ...(lang ? { locale: lang } : {}), args: chromiumArgs(ext, lang ? [`--lang=${lang}`] : []) });
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const id = new URL(worker.url()).host;
    extPage = (path) => `chrome-extension://${id}/src/${path}`;
    await worker.evaluate(() => chrome.storage.sync.set({ settings: { dwellSeconds: 0 } }));
    // An article, a preview of it and a copy of it read, so the popup, the history and the notice
    // have something to show (the notice names one of two pages matched, and offers the list of both).
    article = await context.newPage();
    await openAndSettle(article, site.url('enA'));
    await openAndSettle(article, site.url('enPreviewOfRead'));
    await openAndSettle(article, site.url('enB'));
    expect(await noticeShown(article)).toBe(true);
    await article.bringToFront();
    tabId = await worker.evaluate(async () => (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id ?? -1);
  });
  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const pages: Array<[string, string, string]> = [
    ['the popup', 'popup/index.html?tab=', '#matches li'],
    ['the options', 'options/index.html', '#excluded li, #notice-shortcut:not(:empty)'],
    ['the history', 'history/index.html', '#list li.page'],
    ['the welcome page', 'welcome/index.html', 'h1:not(:empty)'],
  ];

  it.each(pages)('%s has no axe violation, light or dark', async (_what, path, ready) => {
    const page = await context.newPage();
    await page.goto(extPage(path.endsWith('=') ? `${path}${tabId}` : path));
    await page.locator(ready).first().waitFor();
    // In the reader's language, down to the tab's title.
    expect(await page.title()).toMatch(lang ? /^似曾读过/ : /^Déjà Read/);
    // What is hidden is not checked: the clear confirmation is opened first.
    if (path.startsWith('options')) {
      await page.locator('#clear').click();
      await page.locator('#clear-yes').waitFor();
    }
    for (const scheme of SCHEMES) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await violations(page), `${path}, ${scheme}`).toEqual([]);
    }
    if (path.startsWith('options')) {
      // And the question an import with a bad record asks (answered "Import nothing": the history stays as it was).
      const file = join(profile, 'one-bad-record.json');
      writeSyntheticHistory(file, 3, { lastVisits: 0 });
      await page.locator('#import-file').setInputFiles(file);
      await page.locator('#import-ask-yes').waitFor();
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await violations(page), `${path}, the import's question, ${scheme}`).toEqual([]);
      }
      await page.keyboard.press('Escape');
      await page.locator('#import-ask').waitFor({ state: 'hidden' });
    }
    if (path.startsWith('history')) {
      // And the offer to undo a forget, taken (the history stays as it was).
      await page.locator('li.page > button.forget').first().click();
      await page.locator('.confirm button.destructive').first().click();
      await page.locator('#undo-bar:not([hidden])').waitFor();
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await violations(page), `${path}, the offer to undo, ${scheme}`).toEqual([]);
      }
      await page.locator('#undo').click();
      await page.locator('#undo').waitFor({ state: 'hidden' });
    }
    await page.close();
  });

  it.runIf(!lang)('finds what it should: the dark "Delete everything" in the red it had before (2.9:1)', async () => {
    const page = await context.newPage();
    await page.goto(extPage('options/index.html'));
    await page.locator('#clear').click();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await violations(page)).toEqual([]);
    await page.addStyleTag({ content: '.destructive { color: #c0392b; }' });
    expect((await violations(page)).join('\n')).toMatch(/^color-contrast: #clear-yes /);
    await page.close();
  });

  it.runIf(!lang)('moves focus into the notice with its shortcut, and does nothing where no notice is shown', async () => {
    await article.bringToFront();
    await article.evaluate(() => (document.querySelector('a') as HTMLElement | null)?.focus());
    const focusedBefore = await article.evaluate(() => document.activeElement?.tagName);
    expect(focusedBefore).toBe('A');
    // The shortcut is registered; headless Chromium does not hand synthetic keys to extension
    // commands, so the background's part (background/shortcut.ts) is played here: the message it sends the tab.
    const commands = await worker.evaluate(() => chrome.commands.getAll());
    expect(commands.find((c) => c.name === 'focus-notice')?.shortcut).toBe('Alt+Shift+J');
    const focusNotice = () => worker.evaluate((id) => chrome.tabs.sendMessage(id, { type: 'background:focusNotice', req: {} }), tabId);
    await focusNotice();
    await expect.poll(() => article.evaluate(() => document.activeElement?.getAttribute('data-deja-read'))).toBe('notice');
    await escapeFromNotice(article);
    // No notice: the page sees no focus change and no event at all.
    await article.evaluate(() => {
      (document.querySelector('a') as HTMLElement).focus();
      (window as unknown as { seen: string[] }).seen = [];
      for (const type of ['keydown', 'keyup', 'focusout', 'blur']) window.addEventListener(type, (e) => (window as unknown as { seen: string[] }).seen.push(e.type), true);
    });
    await focusNotice();
    await new Promise((r) => setTimeout(r, 300));
    expect(await article.evaluate(() => [document.activeElement?.tagName, (window as unknown as { seen: string[] }).seen])).toEqual(['A', []]);
    await openAndSettle(article, site.url('enB')); // the notice again, for the next test
  });

  it.runIf(!lang)('closes the clear confirmation with Escape, and shows where keyboard focus is on the import control', async () => {
    const page = await context.newPage();
    await page.goto(extPage('options/index.html'));
    await page.locator('#clear').click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('clear-no');
    await page.keyboard.press('Escape');
    expect(await page.locator('#clear-confirm').isHidden()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('clear');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.locator('#export-csv').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('import-file');
    const ring = await page.locator('label.button').evaluate((l) => getComputedStyle(l).outlineStyle);
    expect(ring).toBe('solid');
    await page.close();
  });

  it('the in-page notice has no axe violation, light or dark', async () => {
    const frame = await noticeFrameAsText(article);
    // The notice: its text and its eight buttons (see all, as two pages match; dismiss, not the same,
    // the tab, and "Show what's new" with previous, next and clear, there even while hidden: the
    // notice has one size).
    const drawn = await frame.evaluate(() => ({ text: document.querySelector('.head')?.firstChild?.textContent, buttons: document.querySelectorAll('button').length, seeAll: document.querySelector('.head button')?.textContent }));
    expect(drawn).toEqual({ text: lang ? '这篇你读过' : "You've read this before", buttons: 8, seeAll: lang ? '查看全部 2 篇' : 'See all 2' });
    // Both of its states: open, and shrunk to its tab.
    for (const shrunk of [false, true]) {
      await frame.evaluate((pill) => {
        document.querySelector('section.box')?.toggleAttribute('hidden', pill);
        document.querySelector('button.pill')?.toggleAttribute('hidden', !pill);
      }, shrunk);
      // What is measured is the notice as it stays, not its fade in (an opacity animation of a quarter second).
      await new Promise((r) => setTimeout(r, 400));
      for (const scheme of SCHEMES) {
        await article.emulateMedia({ colorScheme: scheme });
        expect(await violations(frame, '.frame'), `${shrunk ? 'shrunk' : 'open'}, ${scheme}`).toEqual([]);
      }
    }
  });
});
