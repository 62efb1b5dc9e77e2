// The built add-on in real Firefox (puppeteer-core over WebDriver BiDi). BiDi cannot navigate a
// tab to a moz-extension:// URL, so the extension's own pages are reached from the welcome page
// the add-on opens on install, by setting location.href from inside it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distDir, FIREFOX_PATH } from './browsers';
import { browserVectors, expectVectorFingerprints, expectWellFormedExport, foundByPage, noticeShown, openAndSettle, type ExportedDoc } from './checks';
import { findExtensionPage, goToExtensionPage as goToPage, waitInPage } from './firefox-pages';
import { SCRIPTED, scriptedPages, UPDATED_IN_PLACE, updatedInPlacePages } from './hostile-pages';
import { hostileLinkPath, linkPages, LINKS } from './link-pages';
import { writeSyntheticHistory } from './synthetic-history';
import { componentPages, componentPath, componentRevisionPath, loadArticle, startSite, type PageName, type Site } from './site';

let site: Site;
let browser: Browser;
let profile: string;
/** A tab showing one of the add-on's pages, with the full `browser.*` API. */
let extensionPage: Page;

/** Sends the add-on's page to another of its pages. */
const goToExtensionPage = (path: string) => goToPage(extensionPage, path);

const PLAIN_HOST = 'news.example.com';

beforeAll(async () => {
  site = await startSite({ ...scriptedPages(), ...linkPages(), ...componentPages(), ...updatedInPlacePages() });
  profile = mkdtempSync(join(tmpdir(), 'deja-read-firefox-'));
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    userDataDir: profile,
    // A site on a name of its own (resolved to this machine) over plain HTTP is not a secure context, as 127.0.0.1 is.
    extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.enabled': false, 'network.dns.localDomains': PLAIN_HOST },
  });
  await browser.installExtension(distDir('firefox'));
  extensionPage = await findExtensionPage(browser);
  // Pages count as read at once (the default waits 5 s of visibility).
  // @ts-expect-error -- the WebExtension API of the add-on's page
  await extensionPage.evaluate(() => browser.storage.sync.set({ settings: { dwellSeconds: 0 } }));
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** The id of the tab showing `url`, asked of the add-on. */
function tabIdOf(url: string): Promise<number> {
  return extensionPage.evaluate(async (u) => {
    // @ts-expect-error -- the WebExtension API of the add-on's page
    const tabs: Array<{ id: number; url?: string }> = await browser.tabs.query({});
    const tab = tabs.find((t) => t.url === u);
    if (!tab) throw new Error(`no tab shows ${u}`);
    return tab.id;
  }, url);
}

/** What the popup shows for a tab (the popup page opened in the add-on's own tab). */
async function popupFor(url: string): Promise<{ status: string; items: string[]; links: string[] }> {
  const tabId = await tabIdOf(url);
  await goToExtensionPage(`/src/popup/index.html?tab=${tabId}`);
  await waitInPage(extensionPage, () => !document.getElementById('status')?.textContent?.includes('Checking'));
  return extensionPage.evaluate(() => ({
    status: document.getElementById('status')?.textContent ?? '',
    items: [...document.querySelectorAll('#matches li')].map((li) => li.textContent ?? ''),
    links: [...document.querySelectorAll<HTMLAnchorElement>('#matches li a')].map((a) => a.href),
  }));
}

/** The history page's rows (link and the line under it) for the page at `url` or any address starting with it. */
async function historyRowsOf(url: string): Promise<Array<{ href: string; meta: string }>> {
  await goToExtensionPage('/src/history/index.html');
  await waitInPage(extensionPage, () => /^Showing/.test(document.getElementById('summary')?.textContent ?? ''));
  await extensionPage.evaluate((query) => {
    const box = document.getElementById('search') as HTMLInputElement;
    box.value = query;
    box.dispatchEvent(new Event('input'));
  }, new URL(url).pathname);
  await waitInPage(extensionPage, () => /matching pages?/.test(document.getElementById('summary')?.textContent ?? ''));
  const rows = await extensionPage.evaluate(() => [...document.querySelectorAll('li.page')].map((li) => ({ href: li.querySelector('a')?.href ?? '', meta: li.querySelector('.meta')?.textContent ?? '' })));
  return rows.filter((r) => r.href.startsWith(url));
}

describe.each([
  ['English', 'en'],
  ['Chinese', 'zh'],
] as const)('Firefox, %s pages', (_name, lang) => {
  const A = `${lang}A` as PageName;
  const B = `${lang}B` as PageName;
  const C = `${lang}C` as PageName;
  let page: Page;

  beforeAll(async () => {
    page = await browser.newPage();
  });
  afterAll(async () => {
    await page.close();
  });

  it('says nothing on the first article', async () => {
    await openAndSettle(page, site.url(A));
    expect(await noticeShown(page)).toBe(false);
    // Recorded (dwell time 0 here): the popup says it went into the history.
    await expect.poll(async () => (await popupFor(site.url(A))).status).toBe("Added to your history. You haven't read anything like this page before.");
  });

  it('flags the same article on another site, and the popup lists the first', async () => {
    await openAndSettle(page, site.url(B));
    await expect.poll(() => noticeShown(page)).toBe(true);
    // The page's own script cannot search the notice's text (window.find reaches into closed roots).
    expect(await foundByPage(page)).toEqual([]);

    const popup = await popupFor(site.url(B));
    expect(popup.status).toContain("You've read this before");
    expect(popup.items).toHaveLength(1);
    expect(popup.items[0]).toContain(site.title(A));
    expect(popup.links).toEqual([site.url(A)]);
  });

  it('does not flag an unrelated article', async () => {
    await openAndSettle(page, site.url(C));
    expect(await noticeShown(page)).toBe(false);
    const popup = await popupFor(site.url(C));
    expect(popup.status).toContain("haven't read anything like this");
    expect(popup.items).toHaveLength(0);
  });
});

/** Clicks Export on the options page and keeps the document it hands to the download. */
async function exportedHistory(): Promise<{ doc: ExportedDoc; status: string; text: string }> {
  await goToExtensionPage('/src/options/index.html');
  await extensionPage.evaluate(() => {
    const w = window as unknown as { exported: Promise<string> };
    const original = URL.createObjectURL.bind(URL);
    w.exported = new Promise((resolve) => {
      URL.createObjectURL = (blob: Blob | MediaSource) => {
        if (blob instanceof Blob) void blob.text().then(resolve);
        return original(blob);
      };
    });
  });
  await extensionPage.click('#export');
  const text = await extensionPage.evaluate(() => (window as unknown as { exported: Promise<string> }).exported);
  await waitInPage(extensionPage, () => document.getElementById('export-status')?.textContent?.startsWith('Exported'));
  const status = await extensionPage.evaluate(() => document.getElementById('export-status')?.textContent ?? '');
  return { doc: JSON.parse(text) as ExportedDoc, status, text };
}


describe('Firefox, export', () => {
  it('exports the history with every page read and well-formed fingerprints', async () => {
    const { doc, status } = await exportedHistory();
    expectWellFormedExport(doc, (['enA', 'enB', 'enC', 'zhA', 'zhB', 'zhC'] as const).map((p) => site.url(p)));
    expect(status).toBe('Exported 6 pages.');
  });
});

describe('Firefox, the history kept from clean-up', () => {
  it('marks the add-on\'s storage persistent, without a prompt: Firefox does not evict it when the disk runs low', async () => {
    // Without unlimitedStorage it stays best-effort (persisted() false), and persist() would ask the reader.
    await waitInPage(extensionPage, () => navigator.storage.persisted());
    expect(await extensionPage.evaluate(() => navigator.permissions.query({ name: 'persistent-storage' }).then((p) => p.state))).toBe('granted');
  });
});

describe('Firefox, matching layers', () => {
  let page: Page;
  beforeAll(async () => {
    page = await browser.newPage();
  });
  afterAll(async () => {
    await page.close();
  });

  it('flags a Chinese repost wrapped in 转载 boilerplate on another site', async () => {
    await openAndSettle(page, site.url('zhRepost'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    expect((await popupFor(site.url('zhRepost'))).items.join(' ')).toContain(site.title('zhA'));
  });

  it('opens, from the notice, the list of every earlier page that matches: in a tab beside the page, where Firefox opens the popup only from its toolbar', async () => {
    await openAndSettle(page, site.url('zhRepost'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    const expected = await popupFor(site.url('zhRepost'));
    expect(expected.links.length).toBeGreaterThanOrEqual(2);
    const tabId = await tabIdOf(site.url('zhRepost'));
    await page.bringToFront();
    // The reader clicks "See all", at the right end of the notice's heading line (BiDi cannot reach
    // into the notice's frame; the mouse can): the box stands 8 px inside the frame (room for its
    // shadow), its text 15 px inside the box, and the heading's line is 20 px tall.
    const host = await page.evaluate(() => document.querySelector('[data-deja-read=notice]')?.getBoundingClientRect().toJSON() as DOMRect);
    const before = await browser.pages();
    await page.mouse.click(host.right - 8 - 15 - 20, host.top + 8 + 13 + 10);
    const listPage = async () => {
      // A tab the add-on opened, not its own page (which popupFor sent to the popup's page above).
      for (const p of await browser.pages()) {
        if (p === extensionPage || before.includes(p)) continue;
        const href = await p.evaluate(() => location.href).catch(() => '');
        if (href.includes(`/src/popup/index.html?tab=${tabId}`)) return p;
      }
      return undefined;
    };
    await expect.poll(listPage, { timeout: 15_000 }).toBeDefined();
    const list = (await listPage()) as Page;
    await waitInPage(list, () => !document.getElementById('status')?.textContent?.includes('Checking'));
    expect(await list.evaluate(() => [...document.querySelectorAll<HTMLAnchorElement>('#matches li a')].map((a) => a.href))).toEqual(expected.links);
    expect(await noticeShown(page)).toBe(true);
    await list.close();
  });

  it('flags a preview of an article read in full', async () => {
    await openAndSettle(page, site.url('enPreviewOfRead'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    const popup = await popupFor(site.url('enPreviewOfRead'));
    expect(popup.items[0]).toContain(site.title('enA'));
    expect(popup.items[0]).toContain('part of a longer page you read');
    expect(popup.items[0]).toContain('nothing new');
  });

  it('flags the full article after its preview was read', async () => {
    await openAndSettle(page, site.url('enPreviewFirst'));
    expect(await noticeShown(page)).toBe(false);
    await openAndSettle(page, site.url('enFullAfterPreview'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    expect((await popupFor(site.url('enFullAfterPreview'))).items[0]).toContain('contains what you read');
    expect((await popupFor(site.url('enFullAfterPreview'))).items[0]).toMatch(/read the first [5-7]\d%/);
  });

  it('flags a short preview of an article read in full, too far for the fingerprint: found through its passages', async () => {
    await openAndSettle(page, site.url('enTeaserOfRead'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    const popup = await popupFor(site.url('enTeaserOfRead'));
    expect(popup.items[0]).toContain(site.title('enFullAfterPreview'));
    expect(popup.items[0]).toContain('part of a longer page you read');
  });

  it('flags the full article at another URL after its short preview was read', async () => {
    await openAndSettle(page, site.url('enTeaserFirst'));
    expect(await noticeShown(page)).toBe(false);
    await openAndSettle(page, site.url('enFullAfterTeaser'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    const popup = await popupFor(site.url('enFullAfterTeaser'));
    expect(popup.items[0]).toContain(site.title('enTeaserFirst'));
    expect(popup.items[0]).toContain('contains what you read');
    expect(popup.items[0]).toMatch(/read the first [1-3]\d%/);
  });

  it('flags a long thread that quotes an article read in full, thirty times its length: found by all the thread\'s passages', async () => {
    await openAndSettle(page, site.url('enThreadQuoting'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    const popup = await popupFor(site.url('enThreadQuoting'));
    expect(popup.items[0]).toContain('contains what you read');
    expect(popup.items[0]).toContain(loadArticle('en-bridges').title);
  });

  it('shows a revisit with tracking parameters as "visited before", not as a copy, and keeps one record with both visits', async () => {
    const url = `${site.url('enC')}?utm_source=newsletter&fbclid=abc#comments`;
    await openAndSettle(page, url);
    expect(await noticeShown(page)).toBe(false);
    expect((await popupFor(url)).status).toBe('You visited this page before.');
    // One page, one record: the history lists it once, under its own address, read twice.
    await expect.poll(() => historyRowsOf(site.url('enC')), { timeout: 15_000 }).toEqual([{ href: site.url('enC'), meta: expect.stringContaining('2 visits') }]);
    expect((await recordedUrls()).filter((u) => u.startsWith(site.url('enC')))).toEqual([site.url('enC')]);
  });

  it('flags a repost of a long read (a megabyte of text, extracted away from the page)', async () => {
    await openAndSettle(page, site.url('longRead'));
    await expect.poll(async () => (await popupFor(site.url('longRead'))).status, { timeout: 30_000 }).toContain("haven't read anything like this");
    await openAndSettle(page, site.url('longReadRepost'));
    await expect.poll(() => noticeShown(page), { timeout: 30_000 }).toBe(true);
    expect((await popupFor(site.url('longReadRepost'))).items.join(' ')).toContain(site.title('longRead'));
  });
});

describe('Firefox, options and history pages', () => {
  it('keeps a setting changed in the options page', async () => {
    await goToExtensionPage('/src/options/index.html');
    await waitInPage(extensionPage, () => document.querySelector<HTMLInputElement>('input[name="sensitivity"][value="normal"]')?.checked === true);
    await extensionPage.click('input[name="sensitivity"][value="strict"]');
    await waitInPage(extensionPage, () => document.getElementById('settings-status')?.textContent === 'Saved.');
    await goToExtensionPage('/src/welcome/index.html');
    await goToExtensionPage('/src/options/index.html');
    await waitInPage(extensionPage, () => document.querySelector<HTMLInputElement>('input[name="sensitivity"][value="strict"]')?.checked === true);
    await extensionPage.click('input[name="sensitivity"][value="normal"]');
    await waitInPage(extensionPage, () => document.getElementById('settings-status')?.textContent === 'Saved.');
  });

  it('lists the history with copies grouped under the page they repeat', async () => {
    await goToExtensionPage('/src/history/index.html');
    await waitInPage(extensionPage, () => /^Showing \d+ of \d+ pages\.$/.test(document.getElementById('summary')?.textContent ?? ''));
    const groups = await extensionPage.evaluate(() =>
      [...document.querySelectorAll('li.page')].map((li) => [...li.querySelectorAll('a')].map((a) => a.href)),
    );
    const withA = groups.find((g) => g.includes(site.url('zhA')));
    expect(withA?.sort()).toEqual([site.url('zhA'), site.url('zhB'), site.url('zhRepost')].sort());
  });
});

describe('Firefox, test vectors', () => {
  it('fingerprints each vector page exactly as Node does', async () => {
    // Each page stays until it is recorded (the megabyte one takes a while on a busy machine). The
    // add-on opens each in a tab of its own: over BiDi, a navigation was at times never reported
    // (CI runs of f9916e3 and 7c5aaf9: not even the parse in 30 s, nor in two tries of 10 s, where
    // this test takes 3-7 s in all). What is asserted is each page recorded and fingerprinted.
    for (const name of browserVectors) {
      const url = site.vectorUrl(name);
      // @ts-expect-error -- the WebExtension API of the add-on's page
      const tabId = await extensionPage.evaluate(async (u: string) => (await browser.tabs.create({ url: u, active: true })).id as number, url);
      await expect.poll(async () => (await recordedUrls()).includes(url), { timeout: 30_000 }).toBe(true);
      // @ts-expect-error -- the WebExtension API of the add-on's page
      await extensionPage.evaluate((id: number) => browser.tabs.remove(id), tabId);
    }
    expectVectorFingerprints((await exportedHistory()).doc, site);
  }, 120_000);
});

describe('Firefox, export, clear and import', () => {
  it('brings the history back exactly as it was, with the pairs marked "Not the same"', async () => {
    await goToExtensionPage('/src/options/index.html');
    // As the popup sends it when the reader says enB is not the same as enA.
    const said = await extensionPage.evaluate(
      // @ts-expect-error -- the WebExtension API of the add-on's page
      (url: string, other: string) => browser.runtime.sendMessage({ type: 'popup:notSame', req: { url, other } }),
      site.url('enB'),
      site.url('enA'),
    );
    expect(said).toEqual({ ok: {} });
    const { doc: before, text } = await exportedHistory();
    expect(before.notSame).toContainEqual(expect.objectContaining({ a: site.url('enA'), b: site.url('enB') }));
    const path = join(profile, 'history.json');
    writeFileSync(path, text);
    const statusText = () => extensionPage.evaluate(() => document.getElementById('export-status')?.textContent ?? '');

    await extensionPage.click('#clear');
    await waitInPage(extensionPage, () => !document.getElementById('clear-confirm')?.hidden);
    await extensionPage.click('#clear-yes');
    await waitInPage(extensionPage, () => document.getElementById('stats')?.textContent === '0 pages recorded.');

    const input = (await extensionPage.$('#import-file')) as ElementHandle<HTMLInputElement> | null;
    if (!input) throw new Error('no file input');
    await input.uploadFile(path);
    await expect.poll(statusText, { timeout: 20_000 }).toBe(`Imported ${before.pages.length} pages: ${before.pages.length} added, 0 merged with pages already here, 0 already up to date.`);
    const after = (await exportedHistory()).doc;
    expect(after.pages).toEqual(before.pages);
    expect(after.notSame).toEqual(before.notSame);

    // The same backup with its first record damaged: the reader is asked, and has the other pages back.
    const clear = async () => {
      await extensionPage.click('#clear');
      await waitInPage(extensionPage, () => !document.getElementById('clear-confirm')?.hidden);
      await extensionPage.click('#clear-yes');
      await waitInPage(extensionPage, () => document.getElementById('stats')?.textContent === '0 pages recorded.');
    };
    await clear();
    const damaged = join(profile, 'damaged.json');
    writeFileSync(damaged, JSON.stringify({ ...before, pages: before.pages.map((p, i) => (i === 0 ? { ...p, fp: 'not a fingerprint' } : p)) }));
    // exportedHistory() loaded the options page again: its file input is a new one.
    const upload = async (file: string) => {
      const fresh = (await extensionPage.$('#import-file')) as ElementHandle<HTMLInputElement> | null;
      if (!fresh) throw new Error('no file input');
      await fresh.uploadFile(file);
    };
    await upload(damaged);
    const question = () => extensionPage.evaluate(() => (document.getElementById('import-ask')?.hidden ? '' : (document.getElementById('import-ask-question')?.textContent ?? '')));
    await expect.poll(question, { timeout: 20_000 }).toMatch(`1 of the ${before.pages.length} pages in this file cannot be imported: Page 1: `);
    expect(await extensionPage.evaluate(() => document.getElementById('import-ask-yes')?.textContent)).toBe(`Import the other ${before.pages.length - 1} pages`);
    await extensionPage.click('#import-ask-yes');
    await expect.poll(statusText, { timeout: 20_000 }).toBe(
      `Imported ${before.pages.length - 1} pages: ${before.pages.length - 1} added, 0 merged with pages already here, 0 already up to date. Left out 1 page that could not be imported.`,
    );
    expect((await exportedHistory()).doc.pages).toEqual(before.pages.slice(1));
    await clear();
    await upload(path);
    await expect.poll(statusText, { timeout: 20_000 }).toMatch(/^Imported /);
    expect((await exportedHistory()).doc.pages).toEqual(before.pages);
  });

  it('says in the options page loaded next, once, that an import stopped when its page was left before anything was added', async () => {
    const { doc: before } = await exportedHistory();
    const path = join(profile, 'large-history.json');
    writeSyntheticHistory(path, 60_000);
    const statusText = () => extensionPage.evaluate(() => document.getElementById('export-status')?.textContent ?? '');
    const input = (await extensionPage.$('#import-file')) as ElementHandle<HTMLInputElement> | null;
    if (!input) throw new Error('no file input');
    await input.uploadFile(path);
    // The file is being read and sent (the first half of the bar): the reader leaves the page.
    await expect.poll(statusText, { timeout: 30_000, interval: 50 }).toMatch(/^Importing… (1\d|[2-4]\d)%$/);
    await goToExtensionPage('/src/options/index.html');
    await expect.poll(statusText, { timeout: 10_000 }).toMatch(/^An import stopped at .+: its page was closed or reloaded before anything was added to your history\. To import the file, choose it again\.$/);
    await goToExtensionPage('/src/options/index.html');
    await waitInPage(extensionPage, () => /recorded/.test(document.getElementById('stats')?.textContent ?? ''));
    await new Promise((r) => setTimeout(r, 1000));
    expect(await statusText()).toBe('');
    expect((await exportedHistory()).doc.pages).toEqual(before.pages);
  });
});

/** The URLs recorded in the history, asked of the background from the add-on's page. */
async function recordedPages(): Promise<Array<{ url: string; title: string }>> {
  return extensionPage.evaluate(async () => {
    // @ts-expect-error -- the WebExtension API of the add-on's page
    const reply = await browser.runtime.sendMessage({ type: 'options:exportChunk', req: { limit: 10000, format: 'json', first: true } });
    return (JSON.parse(`[${reply.ok.text}]`) as Array<{ url: string; title: string }>).map(({ url, title }) => ({ url, title }));
  });
}
const recordedUrls = async () => (await recordedPages()).map((p) => p.url);

describe('Firefox, a site served over plain HTTP', () => {
  it('reads an article on a page that is not a secure context', async () => {
    const page = await browser.newPage();
    try {
      const url = `http://${PLAIN_HOST}:${new URL(site.url('enA')).port}${new URL(site.url('enA')).pathname}`;
      await openAndSettle(page, url);
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      await expect.poll(async () => (await historyRowsOf(url)).length, { timeout: 15_000 }).toBe(1);
    } finally {
      await page.close();
    }
  });
});

describe('Firefox, in-page navigation and a hostile page', () => {
  it('keeps one record for a single-page app that changes its address without changing its article', async () => {
    const page = await browser.newPage();
    await page.goto(site.at(SCRIPTED.spa));
    await new Promise((r) => setTimeout(r, 8000));
    // One record, under the address the page had when it was checked (the first or an early ?view=N).
    expect((await recordedUrls()).filter((u) => u.startsWith(site.at(SCRIPTED.spa)))).toHaveLength(1);
    await page.close();
  });

  it('reads an article that the page writes in after it loaded, at the same address', async () => {
    const page = await browser.newPage();
    await page.goto(site.at(SCRIPTED.writtenLater));
    // Its first look finds "Loading…": the article is read at a look after it (1.5 s on).
    await expect.poll(async () => (await recordedUrls()).includes(site.at(SCRIPTED.writtenLater)), { timeout: 15_000 }).toBe(true);
    await page.close();
  });

  it('reads the article a page shows in place of the one it loaded with, and takes down the notice drawn for that one', async () => {
    const reading = await browser.newPage();
    await reading.goto(site.at(SCRIPTED.plain));
    await expect.poll(async () => (await recordedUrls()).includes(site.at(SCRIPTED.plain)), { timeout: 15_000 }).toBe(true);
    await reading.close();
    const page = await browser.newPage();
    await page.goto(site.at(SCRIPTED.swappedLater));
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-deja-read=notice]') !== null), { timeout: 10_000 }).toBe(true);
    await expect.poll(async () => (await recordedPages()).find((p) => p.url === site.at(SCRIPTED.swappedLater))?.title, { timeout: 15_000 }).toBe(loadArticle('en-balcony').title);
    expect(await page.evaluate(() => document.querySelector('[data-deja-read=notice]'))).toBeNull();
    await page.close();
  });

  it('records the next article a single-page app shows at a new address, with no reload', async () => {
    const page = await browser.newPage();
    await page.goto(site.at(SCRIPTED.spaNext));
    const next = `${site.at(SCRIPTED.spaNext)}?candidate=2`;
    await expect.poll(async () => (await recordedUrls()).includes(next), { timeout: 15_000 }).toBe(true);
    expect((await recordedUrls()).filter((u) => u.startsWith(site.at(SCRIPTED.spaNext))).sort()).toEqual([site.at(SCRIPTED.spaNext), next]);
    await page.close();
  });

  it('shows a page swapping its text faster than the dwell time nothing, and records nothing', async () => {
    // @ts-expect-error -- the WebExtension API of the add-on's page
    await extensionPage.evaluate(() => browser.storage.sync.set({ settings: { dwellSeconds: 3 } }));
    try {
      const page = await browser.newPage();
      await page.goto(site.at(SCRIPTED.hostileFast));
      await new Promise((r) => setTimeout(r, 9000));
      expect(await page.evaluate(() => (window as unknown as { __seen: unknown[] }).__seen)).toEqual([]);
      expect((await recordedUrls()).filter((u) => u.startsWith(site.at(SCRIPTED.hostileFast)))).toEqual([]);
      await page.close();
    } finally {
      // @ts-expect-error -- the WebExtension API of the add-on's page
      await extensionPage.evaluate(() => browser.storage.sync.set({ settings: { dwellSeconds: 0 } }));
    }
  });
});

describe("Firefox, what's new since it was read", () => {
  let page: Page;
  beforeAll(async () => {
    page = await browser.newPage();
  });
  afterAll(async () => {
    await page.close();
  });
  type PageState = { highlights: number; height: number; width: number; paragraphs: string; elements: number; mutations: string[] };
  const pageState = () => page.evaluate(() => (window as unknown as { pageState(): PageState }).pageState());

  it('gives the share read of a revision at another URL; "Show what\'s new", reached by keyboard, scrolls to the first new paragraph, and the page sees no change', async () => {
    await openAndSettle(page, site.url('enBalconyRead'));
    await openAndSettle(page, site.url('enBalconyRevised'));
    await expect.poll(() => noticeShown(page)).toBe(true);
    const before = await pageState();
    expect(before.mutations).toEqual([]);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    // The notice's content is in a frame BiDi cannot read: the reader's keys reach it. The page has
    // no link, so Tab goes to the notice: its "See all" (two pages read match: the article, and the
    // same article read at another address), its title link, then "Show what's new".
    for (let k = 0; k < 3; k++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    // The first new paragraph is brought into view, a quarter down the window.
    await expect
      .poll(() => page.evaluate(() => {
        const r = document.querySelector('p.added')?.getBoundingClientRect();
        return !!r && scrollY > 0 && r.top >= 0 && r.bottom <= innerHeight / 2;
      }))
      .toBe(true);
    expect(await pageState()).toEqual(before);
    const popup = await popupFor(site.url('enBalconyRevised'));
    expect(popup.items[0]).toMatch(/read [6-8]\d%/);
  });

  it('finds the new paragraphs of a revision drawn in shadow roots: "Show what\'s new" scrolls to the first', async () => {
    const components = await browser.newPage();
    await openAndSettle(components, site.url('enBalconyRead'));
    await openAndSettle(components, site.at(componentRevisionPath));
    await expect.poll(() => noticeShown(components)).toBe(true);
    expect(await components.evaluate(() => scrollY)).toBe(0);
    // Tab: the page's one link, then the notice's "See all" (two pages read match), its title link,
    // then "Show what's new".
    for (let k = 0; k < 4; k++) await components.keyboard.press('Tab');
    await components.keyboard.press('Enter');
    // The first new paragraph (the second of the story, inside two shadow roots) is brought into view.
    await expect
      .poll(() => components.evaluate(() => {
        const story = document.querySelector('x-story')?.shadowRoot?.querySelector('x-story-body')?.shadowRoot;
        const r = story?.querySelectorAll('p')[1]?.getBoundingClientRect();
        return !!r && scrollY > 0 && r.top >= 0 && r.bottom <= innerHeight / 2;
      }))
      .toBe(true);
    await components.close();
  });

  it('marks in the history the page read before (a copy on its site had three parts not read), and does not say so while that copy, read then, is listed with it', async () => {
    await goToExtensionPage('/src/history/index.html');
    await waitInPage(extensionPage, () => /^Showing/.test(document.getElementById('summary')?.textContent ?? ''));
    // Found by its title's words: the history shows its latest 50 pages at first, and this run reads more.
    await extensionPage.evaluate(() => {
      const box = document.getElementById('search') as HTMLInputElement;
      box.value = 'cold balcony';
      box.dispatchEvent(new Event('input'));
    });
    await waitInPage(extensionPage, () => /matching pages?/.test(document.getElementById('summary')?.textContent ?? ''));
    // The background keeps the mark: a page read before was met again in a fuller copy on its site.
    type Listed = { url: string; changed?: { parts: number; where?: string }; copies: Array<{ url: string; changed?: { parts: number; where?: string } }> };
    const listed = await extensionPage.evaluate(
      // @ts-expect-error -- the WebExtension API of the add-on's page
      async () => ((await browser.runtime.sendMessage({ type: 'history:list', req: { query: 'cold balcony', limit: 50 } })) as { ok: { items: Listed[] } }).ok.items,
    );
    const marked = listed.flatMap((i) => [i, ...i.copies]).filter((p) => p.changed?.parts === 3 && p.changed.where);
    expect(marked.length).toBeGreaterThan(0);
    // The History page lists that copy (the revision), read at that moment, in the same group: the
    // parts were read there, and "a copy on … had 3 parts you had not read" would say otherwise.
    const groups = await extensionPage.evaluate(() => [...document.querySelectorAll('li.page')].map((li) => ({ links: [...li.querySelectorAll('a')].map((a) => a.href), changed: [...li.querySelectorAll('.changed')].map((c) => c.textContent ?? '') })));
    const group = groups.find((g) => marked.some((m) => g.links.includes(m.url)));
    expect(group?.links).toContain(site.url('enBalconyRevised'));
    expect(group?.changed.filter((c) => /had 3 parts you had not read/.test(c))).toEqual([]);
  });

  it('tells what is new in an article updated at its own address since the visit before: "Show what\'s new" scrolls to it, and the popup tells the same', async () => {
    const address = site.at(UPDATED_IN_PLACE);
    await openAndSettle(page, address);
    await expect.poll(async () => (await recordedUrls()).includes(address), { timeout: 15_000 }).toBe(true);
    await openAndSettle(page, address);
    await expect.poll(() => noticeShown(page), { timeout: 15_000 }).toBe(true);
    // Tab reaches the notice's title link, then "Show what's new" (no "See all": no page elsewhere matches).
    for (let k = 0; k < 2; k++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.evaluate(() => {
        const r = document.querySelector('p.added')?.getBoundingClientRect();
        return !!r && r.top >= 0 && r.bottom <= innerHeight;
      }))
      .toBe(true);
    const popup = await popupFor(address);
    expect(popup.status).toMatch(/^You visited this page before\. You've read \d+% of this — 1 new paragraph since then\.$/);
  });
});

/** Sets the add-on's settings (on top of the suite's: pages read at once). */
async function setSettings(settings: Record<string, unknown>): Promise<void> {
  // @ts-expect-error -- the WebExtension API of the add-on's page
  await extensionPage.evaluate((s) => browser.storage.sync.set({ settings: { dwellSeconds: 0, ...s } }), settings);
}

/**
 * What is drawn over each of the first `count` links, or just right of it (`beside`), as the screen
 * shows it (base64 PNG). The overlay's root is closed and Firefox gives no test a way into it that a
 * page would not have: the marks are checked by what they draw, against the same page drawn without
 * them.
 */
async function shotsOfLinks(page: Page, count: number, where: 'over' | 'beside' = 'over'): Promise<string[]> {
  const rects = await page.evaluate((n) => [...document.links].slice(0, n).map((a) => a.getBoundingClientRect().toJSON() as DOMRect), count);
  const shots: string[] = [];
  for (const r of rects) {
    const x = where === 'over' ? r.left : r.right;
    const width = where === 'over' ? r.width : 34;
    shots.push(await page.screenshot({ clip: { x: Math.round(x), y: Math.round(r.top), width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(r.height)) }, encoding: 'base64' }));
  }
  return shots;
}

/** What is drawn over the link to `href`, the page scrolled as it is (a screenshot, base64 PNG). */
async function overLink(page: Page, href: string): Promise<string> {
  const r = await page.evaluate((h) => {
    const a = [...document.links].find((l) => l.getAttribute('href') === h);
    if (!a) throw new Error(`no link to ${h}`);
    const rect = a.getBoundingClientRect();
    // The clip is in the document's coordinates.
    return { x: rect.left + window.scrollX, y: rect.top + window.scrollY, width: rect.width, height: rect.height };
  }, href);
  return page.screenshot({ clip: { x: Math.round(r.x), y: Math.round(r.y), width: Math.max(1, Math.round(r.width)), height: Math.max(1, Math.round(r.height)) }, encoding: 'base64' });
}

/**
 * Takes the screenshots `shoot` takes with link marks on, then again with them off: for each,
 * whether the two differ (a mark was drawn there).
 */
async function differsWithMarksOff(shoot: () => Promise<string[]>): Promise<boolean[]> {
  const marked = await shoot();
  await setSettings({ linkMarks: 'off' });
  const plain = await shoot();
  await setSettings({});
  return marked.map((shot, i) => shot !== plain[i]);
}

describe('Firefox, links read', () => {
  it('marks a link to a page read (tracking parameters and all) and to its copy read elsewhere, not an unread one', async () => {
    const page = await browser.newPage();
    await openAndSettle(page, site.at(LINKS.a));
    await openAndSettle(page, site.at(LINKS.b));
    await openAndSettle(page, site.at(LINKS.list));
    await new Promise((r) => setTimeout(r, 1000));
    const marked = await shotsOfLinks(page, 3);
    const besideMarked = await shotsOfLinks(page, 3, 'beside');
    expect(await page.evaluate(() => [document.querySelectorAll('[data-deja-read=overlay]').length, document.querySelector('[data-deja-read=overlay]')?.shadowRoot ?? null])).toEqual([1, null]);
    const popup = await popupFor(site.at(LINKS.list));
    expect(popup.status).toBeTruthy();
    expect(await extensionPage.evaluate(() => document.getElementById('links-read')?.textContent)).toBe('Links on this page lead to 2 pages you’ve read.');

    await setSettings({ linkMarks: 'off' });
    await openAndSettle(page, site.at(LINKS.list));
    expect(await page.evaluate(() => document.querySelectorAll('[data-deja-read=overlay]').length)).toBe(0);
    const plain = await shotsOfLinks(page, 3);
    const besidePlain = await shotsOfLinks(page, 3, 'beside');
    await setSettings({});
    expect(marked.map((shot, i) => shot !== plain[i])).toEqual([true, true, false]);
    // The words after each link ("12 comments") look as they do with no marks: a mark hides nothing of the page.
    expect(besideMarked.map((shot, i) => shot !== besidePlain[i])).toEqual([false, false, false]);
    await page.close();
  });

  it('shows the notice on a copy whose page allows no script and no request of its own (a strict CSP)', async () => {
    const page = await browser.newPage();
    await openAndSettle(page, site.at(LINKS.a));
    await openAndSettle(page, site.strictAt(LINKS.b));
    await expect.poll(() => noticeShown(page)).toBe(true);
    await page.close();
  });

  it('marks the links of a page that draws them only after it has loaded', async () => {
    const page = await browser.newPage();
    await openAndSettle(page, site.at(LINKS.a));
    const drawn = async () => {
      await openAndSettle(page, site.at(LINKS.late));
      await waitInPage(page, () => document.links.length === 2);
      await new Promise((r) => setTimeout(r, 1000));
      return shotsOfLinks(page, 2);
    };
    const differs = await differsWithMarksOff(drawn);
    await page.close();
    expect(differs).toEqual([true, false]);
  });

  it('marks the links that scroll into view, in the document and in a box that scrolls', async () => {
    const page = await browser.newPage();
    await openAndSettle(page, site.at(LINKS.a));
    await openAndSettle(page, site.at(LINKS.b));
    const scrolledTo = async () => {
      await openAndSettle(page, site.at(LINKS.long));
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await new Promise((r) => setTimeout(r, 1000));
      const end = await overLink(page, LINKS.b);
      await page.evaluate(() => {
        window.scrollTo(0, 0);
        const box = document.getElementById('box');
        if (box) box.scrollTop = box.scrollHeight;
      });
      await new Promise((r) => setTimeout(r, 1000));
      return [end, await overLink(page, LINKS.a)];
    };
    const differs = await differsWithMarksOff(scrolledTo);
    await page.close();
    // The link to B at the end of the list, and the one to A at the end of the box, drew a mark.
    expect(differs).toEqual([true, true]);
  });

  it('lets a hostile page of 200 links, half of them read, observe exactly what it observes when none is', async () => {
    const path = join(profile, 'links-history.json');
    writeSyntheticHistory(path, 100, { urlOf: (i) => site.at(hostileLinkPath('h', i * 2)) });
    await goToExtensionPage('/src/options/index.html');
    const input = (await extensionPage.$('#import-file')) as ElementHandle<HTMLInputElement> | null;
    if (!input) throw new Error('no file input');
    await input.uploadFile(path);
    await expect.poll(() => extensionPage.evaluate(() => document.getElementById('export-status')?.textContent ?? ''), { timeout: 30_000 }).toMatch(/^Imported 100 pages/);
    // The two lists have the same text: the second would be "read before", and its notice is not what this test is about.
    await setSettings({ showNotice: false });
    const page = await browser.newPage();
    // Firefox ESR 140's WebDriver BiDi sets the viewport, then refuses the screen orientation that puppeteer sets after it.
    await page.setViewport({ width: 1000, height: 5600 }).catch((e: unknown) => {
      if (!String(e).includes('setScreenOrientationOverride')) throw e;
    });
    const observe = async (p: string) => {
      await page.goto(site.at(p));
      const before = await page.evaluate('window.__before');
      await new Promise((r) => setTimeout(r, 4000));
      const shots = await shotsOfLinks(page, 8);
      for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
      await page.mouse.move(30, 200);
      await page.mouse.move(60, 600);
      const after = await page.evaluate('window.__observe()');
      // The page focuses its first link (read, in the first list), which brings its tip, then searches
      // for the marks' and the tip's words (window.find reaches into closed roots).
      await page.evaluate(() => document.links[0].focus());
      await new Promise((r) => setTimeout(r, 300));
      const found = await foundByPage(page);
      return { before, after, shots, found };
    };
    const half = await observe(LINKS.hostileHalf);
    const none = await observe(LINKS.hostileNone);
    await setSettings({});
    await page.close();
    expect(half.before).toEqual(none.before);
    expect(half.after).toEqual(none.after);
    expect((half.after as { mutations: string[] }).mutations).toContain('childList|html||div|');
    // The even links (read) were drawn with a mark, the odd ones as if there were none.
    expect(half.shots.map((shot, i) => shot !== none.shots[i])).toEqual([true, false, true, false, true, false, true, false]);
    expect([half.found, none.found]).toEqual([[], []]);
  });

  it('keeps a page of 2,000 links responsive while it marks them', async () => {
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(() => {
      const w = window as unknown as { __gap: number };
      w.__gap = 0;
      let last = 0;
      const tick = () => {
        const now = performance.now();
        if (last && now > 1500) w.__gap = Math.max(w.__gap, now - last);
        last = now;
        setTimeout(tick, 10);
      };
      tick();
    });
    await openAndSettle(page, site.at(LINKS.many));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await page.evaluate(() => document.querySelectorAll('[data-deja-read=overlay]').length)).toBe(1);
    // The page's own timer kept running: no task of ours held its thread for long (figures: npm run bench:links).
    expect(await page.evaluate(() => (window as unknown as { __gap: number }).__gap)).toBeLessThan(200);
    await page.close();
  });
});

describe.each(['en', 'zh'] as const)('Firefox, a page built of web components (%s)', (lang) => {
  it('flags the article it draws in shadow roots as one read', async () => {
    const A = `${lang}A` as PageName;
    const url = site.at(componentPath(lang));
    const page = await browser.newPage();
    await openAndSettle(page, site.url(A));
    await openAndSettle(page, url);
    await expect.poll(() => noticeShown(page)).toBe(true);
    expect((await popupFor(url)).links).toContain(site.url(A));
    await page.close();
  });
});

describe('Firefox, what a page may learn of the notice', () => {
  it("draws the notice in no font of the page's: none of the faces the page defines loads for the title read before", async () => {
    const page = await browser.newPage();
    try {
      await openAndSettle(page, site.at(LINKS.fontsRead));
      await openAndSettle(page, site.at(LINKS.fontsCopy));
      await expect.poll(() => noticeShown(page)).toBe(true);
      // The notice names the page read before (its title, with an emoji and Han, is what the faces would draw).
      expect((await popupFor(site.at(LINKS.fontsCopy))).items[0]).toContain('Fireworks over the old bridges');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await page.evaluate('window.__fonts()')).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("hands the page nothing the notice says when the reader's mouse goes over it or the reader tabs into it", async () => {
    const page = await browser.newPage();
    try {
      await openAndSettle(page, site.at(LINKS.fontsRead));
      await openAndSettle(page, site.at(LINKS.fontsCopy));
      await expect.poll(() => noticeShown(page)).toBe(true);
      // The reader's mouse moves over the notice, across its title and buttons…
      const box = await page.evaluate(() => document.querySelector('[data-deja-read=notice]')?.getBoundingClientRect().toJSON() as DOMRect);
      await page.mouse.move(box.left - 40, box.top - 40);
      for (let i = 0; i <= 12; i++) await page.mouse.move(box.left + (box.width * (i + 0.5)) / 13, box.top + (box.height * ((i % 6) + 0.5)) / 6, { steps: 3 });
      await page.mouse.move(box.left - 40, box.top - 40);
      // …then Tab goes through the page into the notice (the page has no link: its first stop is the notice).
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      // Through both of its stops (its title, its buttons).
      let inNotice = 0;
      for (let i = 0; i < 8 && inNotice < 2; i++) {
        await page.keyboard.press('Tab');
        if ((await page.evaluate(() => document.activeElement?.getAttribute('data-deja-read'))) === 'notice') inNotice++;
      }
      expect(inNotice).toBe(2);
      const reached = (await page.evaluate('window.__reached()')) as string[];
      // The page reads nothing of what the notice says: not the title read before, not its address, not
      // the notice's words (the frame's title, for screen readers, says only what the notice's presence
      // says); nor the frame's address, which holds the add-on's per-install UUID (the same on every
      // site: an identifier of the reader)…
      expect(reached.filter((r) => /Fireworks|🔥|年度|fonts\/read|just now|same text|Nothing new|Dismiss|Not the same|moz-extension/.test(r))).toEqual([]);
      // …though it got hold of the notice's closed root (the events name nodes in it), and found there
      // the frame, whose document it cannot open (another origin).
      expect(reached).toContain('frame:null');
    } finally {
      await page.close();
    }
  });
});
