/// <reference types="chrome" />
// The built extension in real Chromium (Playwright): read an article, meet it again on another
// site, and see the badge, the notice and the popup say so; an unrelated article stays quiet.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, distDir } from './browsers';
import { browserVectors, expectVectorFingerprints, expectWellFormedExport, noticeText, openAndSettle, type ExportedDoc } from './checks';
import { startSite, type PageName, type Site } from './site';

let site: Site;
let context: BrowserContext;
let worker: Worker;
let extensionId: string;
let profile: string;

beforeAll(async () => {
  site = await startSite();
  profile = mkdtempSync(join(tmpdir(), 'deja-read-chromium-'));
  const ext = distDir('chrome');
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    acceptDownloads: true,
    args: [
      `--disable-extensions-except=${ext}`,
      `--load-extension=${ext}`,
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-gpu',
    ],
  });
  worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  extensionId = new URL(worker.url()).host;
});

afterAll(async () => {
  await context?.close();
  await site?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/**
 * The badge text and tooltip of the tab showing `page`, as the toolbar shows them. Without the
 * `tabs` permission the extension cannot see tab URLs, so the page is brought to the front and
 * the active tab is asked for.
 */
async function toolbarOf(page: Page): Promise<{ tabId: number; text: string; title: string }> {
  await page.bringToFront();
  return worker.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    const tabId = tab?.id;
    if (tabId === undefined) throw new Error('no active tab');
    return { tabId, text: await chrome.action.getBadgeText({ tabId }), title: await chrome.action.getTitle({ tabId }) };
  });
}

async function popupFor(tabId: number): Promise<{ status: string; items: string[]; links: string[] }> {
  const popup = await context.newPage();
  await popup.goto(`chrome-extension://${extensionId}/src/popup/index.html?tab=${tabId}`);
  await popup.locator('#status').filter({ hasNotText: 'Checking' }).waitFor();
  const result = {
    status: await popup.locator('#status').innerText(),
    items: await popup.locator('#matches li').allInnerTexts(),
    links: await popup.locator('#matches li a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href)),
  };
  await popup.close();
  return result;
}

describe.each([
  ['English', 'en'],
  ['Chinese', 'zh'],
] as const)('Chromium, %s pages', (_name, lang) => {
  const A = `${lang}A` as PageName;
  const B = `${lang}B` as PageName;
  const C = `${lang}C` as PageName;
  let page: Page;

  beforeAll(async () => {
    page = await context.newPage();
  });
  afterAll(async () => {
    await page.close();
  });

  it('says nothing on the first article', async () => {
    await openAndSettle(page, site.url(A));
    expect(await noticeText(page)).toBeNull();
    const toolbar = await toolbarOf(page);
    expect(toolbar.text).toBe('');
    expect((await popupFor(toolbar.tabId)).status).toContain("haven't read anything like this");
  });

  it('flags the same article on another site, with badge, tooltip, notice and popup', async () => {
    await openAndSettle(page, site.url(B));
    await expect.poll(() => noticeText(page)).toContain("You've read this before");
    expect(await noticeText(page)).toContain(site.title(A));
    const toolbar = await toolbarOf(page);
    expect(toolbar.text).toBe('1');
    expect(toolbar.title).toContain(site.title(A));

    const popup = await popupFor(toolbar.tabId);
    expect(popup.status).toContain("You've read this before");
    expect(popup.items).toHaveLength(1);
    expect(popup.items[0]).toContain(site.title(A));
    expect(popup.links).toEqual([site.url(A)]);
  });

  it('does not flag an unrelated article', async () => {
    await openAndSettle(page, site.url(C));
    expect(await noticeText(page)).toBeNull();
    const toolbar = await toolbarOf(page);
    expect(toolbar.text).toBe('');
    const popup = await popupFor(toolbar.tabId);
    expect(popup.status).toContain("haven't read anything like this");
    expect(popup.items).toHaveLength(0);
  });
});

/** Clicks Export on the options page and reads the downloaded file. */
async function exportedHistory(): Promise<{ doc: ExportedDoc; filename: string; status: string; path: string }> {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  const [download] = await Promise.all([options.waitForEvent('download'), options.getByRole('button', { name: /Export history/ }).click()]);
  const path = join(profile, `export-${Date.now()}.json`);
  await download.saveAs(path);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as ExportedDoc;
  await options.locator('#export-status').filter({ hasText: 'Exported' }).waitFor();
  const status = await options.locator('#export-status').innerText();
  await options.close();
  return { doc, filename: download.suggestedFilename(), status, path };
}

describe('Chromium, export', () => {
  it('downloads the history with every page read and well-formed fingerprints', async () => {
    const { doc, filename, status } = await exportedHistory();
    expect(filename).toMatch(/^deja-read-history-\d{4}-\d{2}-\d{2}\.json$/);
    expectWellFormedExport(doc, (['enA', 'enB', 'enC', 'zhA', 'zhB', 'zhC'] as const).map((p) => site.url(p)));
    expect(status).toBe('Exported 6 pages.');
  });
});

describe('Chromium, matching layers', () => {
  let page: Page;
  beforeAll(async () => {
    page = await context.newPage();
  });
  afterAll(async () => {
    await page.close();
  });

  it('flags a Chinese repost wrapped in 转载 boilerplate on another site', async () => {
    await openAndSettle(page, site.url('zhRepost'));
    await expect.poll(() => noticeText(page)).toContain(site.title('zhA'));
    expect((await toolbarOf(page)).text).toBe('2'); // the original and the other copy read earlier
  });

  it('flags a preview of an article read in full', async () => {
    await openAndSettle(page, site.url('enPreviewOfRead'));
    await expect.poll(() => noticeText(page)).toContain('part of a longer page you read');
    expect(await noticeText(page)).toContain(site.title('enA'));
  });

  it('flags the full article after its preview was read', async () => {
    await openAndSettle(page, site.url('enPreviewFirst'));
    expect(await noticeText(page)).toBeNull();
    await openAndSettle(page, site.url('enFullAfterPreview'));
    await expect.poll(() => noticeText(page)).toContain('contains most of what you read');
  });

  it('shows a revisit with tracking parameters as "visited before", not as a copy', async () => {
    await openAndSettle(page, `${site.url('enC')}?utm_source=newsletter&fbclid=abc#comments`);
    expect(await noticeText(page)).toBeNull();
    const toolbar = await toolbarOf(page);
    expect(toolbar).toMatchObject({ text: '✓', title: expect.stringContaining('visited this page before') });
    expect((await popupFor(toolbar.tabId)).status).toBe('You visited this page before.');
  });
});

describe('Chromium, test vectors', () => {
  it('fingerprints each vector page exactly as Node does', async () => {
    const page = await context.newPage();
    for (const name of browserVectors) await openAndSettle(page, site.vectorUrl(name));
    await page.close();
    expectVectorFingerprints((await exportedHistory()).doc, site);
  });
});

describe('Chromium, export, clear and import', () => {
  it('brings the history back exactly as it was', async () => {
    const { doc: before, path } = await exportedHistory();
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/src/options/index.html`);
    await expect.poll(() => options.locator('#stats').innerText()).toBe(`${before.pages.length} pages recorded.`);

    await options.getByRole('button', { name: 'Clear history…' }).click();
    await expect.poll(() => options.locator('#clear-question').innerText()).toContain(`Delete all ${before.pages.length} pages`);
    await options.getByRole('button', { name: 'Delete everything' }).click();
    await expect.poll(() => options.locator('#stats').innerText()).toBe('0 pages recorded.');

    await options.locator('#import-file').setInputFiles(path);
    await expect.poll(() => options.locator('#export-status').innerText()).toBe(
      `Imported ${before.pages.length} pages: ${before.pages.length} added, 0 merged with pages already here, 0 already up to date.`,
    );
    await options.locator('#import-file').setInputFiles(path);
    await expect.poll(() => options.locator('#export-status').innerText()).toBe('This file was imported before; nothing changed.');
    await options.close();
    expect((await exportedHistory()).doc.pages).toEqual(before.pages);
  });
});
