// Accessibility in real Firefox: axe-core on every page of the add-on (popup, options, history,
// welcome) in the light and the dark colour scheme, set through Firefox's content colour-scheme
// preference (BiDi has no media emulation), so one browser per scheme. English only: Debian's
// Firefox ESR has no Chinese language pack. The notice is checked in Chromium
// (chromium-a11y.e2e.ts): BiDi cannot reach into its closed shadow root.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir, FIREFOX_PATH } from './browsers';
import { noticeShown, openAndSettle } from './checks';
import { findExtensionPage, goToExtensionPage, waitInPage } from './firefox-pages';
import { startSite, type Site } from './site';

const AXE_SOURCE = (createRequire(import.meta.url)('axe-core') as { source: string }).source;

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.close();
});

/** The violations axe finds in the page, each as "rule: target (why)". */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(async () => JSON.stringify(await (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<AxeResults> } }).axe.run(document, { resultTypes: ['violations'] })));
  return (JSON.parse(results) as AxeResults).violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary?.replace(/\s+/g, ' ')})`));
}

// layout.css.prefers-color-scheme.content-override: 0 dark, 1 light.
describe.each([
  ['light', 1],
  ['dark', 0],
] as const)('Firefox accessibility, %s', (scheme, override) => {
  let browser: Browser;
  let profile: string;
  let extensionPage: Page;
  let tabId: number;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'deja-read-firefox-a11y-'));
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir: profile,
      extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.enabled': false, 'layout.css.prefers-color-scheme.content-override': override },
    });
    await browser.installExtension(distDir('firefox'));
    extensionPage = await findExtensionPage(browser);
    // @ts-expect-error -- the WebExtension API of the add-on's page
    await extensionPage.evaluate(() => browser.storage.sync.set({ settings: { dwellSeconds: 0 } }));
    // An article and its copy read, so the popup and the history have something to show.
    const article = await browser.newPage();
    await openAndSettle(article, site.url('enA'));
    await openAndSettle(article, site.url('enB'));
    expect(await noticeShown(article)).toBe(true);
    tabId = await extensionPage.evaluate(async (u) => {
      // @ts-expect-error -- the WebExtension API of the add-on's page
      const tabs: Array<{ id: number; url?: string }> = await browser.tabs.query({});
      return tabs.find((t) => t.url === u)?.id ?? -1;
    }, site.url('enB'));
  });
  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('shows the pages in this colour scheme', async () => {
    await goToExtensionPage(extensionPage, '/src/welcome/index.html');
    expect(await extensionPage.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
  });

  it.each([
    ['the popup', '/src/popup/index.html?tab=', '#matches li'],
    ['the options', '/src/options/index.html', '#notice-shortcut:not(:empty)'],
    ['the history', '/src/history/index.html', '#list li.page'],
    ['the welcome page', '/src/welcome/index.html', 'h1:not(:empty)'],
  ])('%s has no axe violation', async (_what, path, ready) => {
    await goToExtensionPage(extensionPage, path.endsWith('=') ? `${path}${tabId}` : path);
    await waitInPage(extensionPage, (selector) => document.querySelector(selector) !== null, ready);
    if (path.includes('options')) {
      // The clear confirmation is checked open; and the notice's shortcut is Firefox's too.
      await extensionPage.evaluate(() => document.getElementById('clear')?.click());
      await waitInPage(extensionPage, () => { const b = document.getElementById('clear-yes'); return b !== null && b.checkVisibility(); });
      expect(await extensionPage.evaluate(() => document.getElementById('notice-shortcut')?.textContent)).toMatch(/^Alt\+Shift\+J moves to the notice/);
    }
    expect(await violations(extensionPage)).toEqual([]);
  });
});
