/// <reference types="chrome" />
// Faults and attacks, in real Chromium: the background stopped (CDP ServiceWorker.stopAllWorkers)
// at random moments while tabs record and an import runs; an import abandoned part-way; a page
// that navigates in place; a hostile page that swaps its text to learn which article was read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALGORITHM, blocksOf } from '../../src/core';
import { jsonChunk, jsonHead, JSON_TAIL, type PageRecord } from '../../src/storage';
import { CHROMIUM_PATH, chromiumArgs, distDir } from './browsers';
import { SCRIPTED, scriptedPages } from './hostile-pages';
import { loadArticle, startSite, type Site } from './site';

let site: Site;
let context: BrowserContext;
let extensionId: string;
let profile: string;
/** An extension page kept open to send the background messages and to stop its worker through CDP. */
let control: Page;
let cdp: CDPSession;

beforeAll(async () => {
  site = await startSite(scriptedPages());
  profile = mkdtempSync(join(tmpdir(), 'deja-read-chromium-faults-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs(distDir('chrome')) });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  extensionId = new URL(worker.url()).host;
  control = await context.newPage();
  await control.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  cdp = await context.newCDPSession(control);
  await cdp.send('ServiceWorker.enable');
  await setDwell(0);
});

afterAll(async () => {
  await context?.close();
  await site?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function setDwell(seconds: number): Promise<void> {
  await control.evaluate((dwellSeconds) => chrome.storage.sync.set({ settings: { dwellSeconds } }), seconds);
}

/** Sends the background a message from the extension page, as the options page does, retrying while its worker restarts. */
async function ask<T>(type: string, req: unknown): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      const reply = (await control.evaluate(([type, req]) => chrome.runtime.sendMessage({ type, req }), [type, req] as const)) as { ok?: T; error?: { message: string } } | undefined;
      if (reply && 'ok' in reply) return reply.ok as T;
      throw new Error(reply?.error?.message ?? 'no answer');
    } catch (e) {
      if (i >= 10) throw e;
      await sleep(300);
    }
  }
}

/** Every record of the history, through the export messages. */
async function history(): Promise<Map<string, { visits: number; title: string; fp: string }>> {
  const out = new Map<string, { visits: number; title: string; fp: string }>();
  let after: number | undefined;
  for (;;) {
    const chunk = await ask<{ text: string; count: number; next?: number }>('options:exportChunk', { after, limit: 5000, format: 'json', first: out.size === 0 });
    if (chunk.count === 0) return out;
    for (const p of JSON.parse(`[${chunk.text.replace(/^,\n/, '')}]`) as PageRecord[]) out.set(p.url, { visits: p.visits, title: p.title, fp: p.fp });
    after = chunk.next;
  }
}

const stopWorker = () => cdp.send('ServiceWorker.stopAllWorkers');

/**
 * Stops the background every 0.3–1.2 s (often enough that an import of a few seconds is cut
 * several times) until `stop()`, which resolves to how many times it was stopped.
 */
function keepStopping(): { stop(): Promise<number> } {
  let killing = true;
  let kills = 0;
  const killer = (async () => {
    while (killing) {
      await sleep(300 + Math.random() * 900);
      if (!killing) break;
      await stopWorker().catch(() => undefined);
      kills++;
    }
  })();
  return {
    async stop() {
      killing = false;
      await killer;
      return kills;
    },
  };
}

/** A history file of `n` pages nobody visited in this browser. */
function importFile(n: number, tag: string): { name: string; mimeType: string; buffer: Buffer; pages: PageRecord[] } {
  const pages: PageRecord[] = Array.from({ length: n }, (_, i) => {
    const fp = (Math.imul(i + 1, 2654435761) >>> 0).toString(16).padStart(8, '0') + (Math.imul(i + 7, 40503) >>> 0).toString(16).padStart(8, '0');
    const [b0, b1, b2, b3] = blocksOf(fp);
    const url = `https://${tag}.example/articles/${i}`;
    return { url, canonicalUrl: url, site: `${tag}.example`, title: `Imported ${i}`, fp, b0, b1, b2, b3, algo: ALGORITHM, textLength: 400, lang: 'en', firstSeen: 1_600_000_000_000 + i, lastSeen: 1_600_000_100_000 + i, visits: 1 + (i % 3) };
  });
  const text = jsonHead(new Date()) + jsonChunk(pages, true) + JSON_TAIL;
  return { name: `${tag}.json`, mimeType: 'application/json', buffer: Buffer.from(text), pages };
}

async function openImport(file: ReturnType<typeof importFile>): Promise<Page> {
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  await options.locator('#stats').filter({ hasText: 'recorded' }).waitFor();
  await options.setInputFiles('#import-file', { name: file.name, mimeType: file.mimeType, buffer: file.buffer });
  return options;
}

describe('Chromium, an import abandoned part-way', () => {
  it('leaves the history as it was, and a later restart undoes none of the visits made since', async () => {
    const reading = await context.newPage();
    await reading.goto(site.url('enA'));
    await expect.poll(async () => (await history()).get(site.url('enA'))?.visits, { timeout: 15_000 }).toBe(1);

    const file = importFile(60_000, 'abandoned');
    const options = await openImport(file);
    // The file is being read and sent (the first half of the bar; applying is the second): the
    // reader closes the tab.
    await options.locator('#export-status').filter({ hasText: /^Importing… (1\d|[2-4]\d)%$/ }).waitFor({ timeout: 30_000 });
    await options.close();
    // The options page opened next says what became of it, once.
    const reopened = await context.newPage();
    await reopened.goto(`chrome-extension://${extensionId}/src/options/index.html`);
    await expect.poll(() => reopened.locator('#export-status').innerText(), { timeout: 10_000 }).toMatch(/^An import stopped at .+: its page was closed or reloaded before anything was added to your history\. To import the file, choose it again\.$/);
    await reopened.reload();
    await reopened.locator('#stats').filter({ hasText: '1 page recorded' }).waitFor();
    await sleep(1000);
    expect(await reopened.locator('#export-status').innerText()).toBe('');
    await reopened.close();
    await stopWorker();
    const after = await history();
    expect([...after.keys()]).toEqual([site.url('enA')]);

    // The reader reads on; the background is stopped and restarted again: nothing is undone.
    await reading.goto(site.url('enA'));
    await expect.poll(async () => (await history()).get(site.url('enA'))?.visits, { timeout: 15_000 }).toBe(2);
    await stopWorker();
    await sleep(500);
    const later = await history();
    expect(later.size).toBe(1);
    expect(later.get(site.url('enA'))?.visits).toBe(2);
    await reading.close();
  });
});

describe('Chromium, the background stopped at random moments', () => {
  it('loses and duplicates no visit, and imports the whole file once, while tabs record and an import runs', async () => {
    const before = await history();
    // Four chunks of the options page's 5,000, applied in one transaction of about half a second (a
    // larger one might not fit between two stops): the import is cut between and within them.
    const file = importFile(20_000, 'faults');
    const tabs = 4;
    const urls = Array.from({ length: tabs }, (_, i) => `${site.url('zhC')}?reader=${i}`);

    const stopping = keepStopping();
    try {
      const options = await openImport(file);
      // Each page is read in two tabs (two visits), while the import runs; the tabs stay open.
      const pages: Page[] = [];
      for (let round = 0; round < 2; round++) {
        for (const url of urls) {
          const p = await context.newPage();
          pages.push(p);
          await p.goto(url);
          await sleep(300);
        }
      }
      await expect.poll(() => options.locator('#export-status').innerText(), { timeout: 240_000, interval: 2000 }).toMatch(/^Imported|failed/);
      expect(await options.locator('#export-status').innerText()).toMatch(/^Imported 20,000 pages: 20,000 added/);
      expect(await stopping.stop()).toBeGreaterThanOrEqual(3);

      // Visits sent while the worker was down arrive once it is back.
      const expected = new Map(before);
      for (const p of file.pages) expected.set(p.url, { visits: p.visits, title: p.title, fp: p.fp });
      const visitsOf = (h: Map<string, { visits: number }>) => urls.map((u) => h.get(u)?.visits ?? 0);
      await expect.poll(async () => visitsOf(await history()), { timeout: 90_000, interval: 1000 }).toEqual(urls.map(() => 2));
      const after = await history();
      for (const u of urls) expected.set(u, { visits: 2, title: after.get(u)?.title ?? '', fp: after.get(u)?.fp ?? '' });
      // The history is what a run without faults gives: every page, each counted as often as it was read or imported.
      expect(after.size).toBe(expected.size);
      expect([...after].filter(([url, r]) => JSON.stringify(r) !== JSON.stringify(expected.get(url)))).toEqual([]);
      await Promise.all([options, ...pages].map((p) => p.close()));
    } finally {
      await stopping.stop();
    }
  }, 300_000);
});

describe('Chromium, the background stopped every second with nothing else to wake it', () => {
  it('imports the whole file: each chunk gets to a background woken for it', async () => {
    // No tab records anything: only the import's messages start the background. Before the page
    // woke it, a chunk posted while it was stopped was lost at every try (stop 21's CI run).
    const file = importFile(20_000, 'quiet');
    const stopping = keepStopping();
    try {
      const options = await openImport(file);
      await expect.poll(() => options.locator('#export-status').innerText(), { timeout: 120_000, interval: 1000 }).toMatch(/^Imported|failed/);
      expect(await options.locator('#export-status').innerText()).toMatch(/^Imported 20,000 pages: 20,000 added/);
      expect(await stopping.stop()).toBeGreaterThanOrEqual(1);
      const after = await history();
      expect(file.pages.filter((p) => after.get(p.url)?.fp !== p.fp)).toEqual([]);
      await options.close();
    } finally {
      await stopping.stop();
    }
  }, 180_000);
});

describe('Chromium, in-page navigation', () => {
  it('keeps one record for a single-page app that changes its address without changing its article', async () => {
    const page = await context.newPage();
    await page.goto(site.at(SCRIPTED.spa));
    await sleep(8000);
    const records = [...(await history()).keys()].filter((u) => u.startsWith(site.at(SCRIPTED.spa)));
    // One record, under the address the page had when it was checked (the first or an early ?view=N).
    expect(records).toHaveLength(1);
    // Nothing on the page says it was read before: it is not a copy of itself.
    expect(await page.evaluate(() => document.querySelector('[data-deja-read=notice]'))).toBeNull();
    await page.close();
  });

  it('reads an article that the page writes in after it loaded, at the same address', async () => {
    const page = await context.newPage();
    await page.goto(site.at(SCRIPTED.writtenLater));
    // Its first look finds "Loading…": the article is read at a look after it (1.5 s on).
    await expect.poll(async () => (await history()).get(site.at(SCRIPTED.writtenLater))?.title, { timeout: 15_000 }).toBe(loadArticle('en-ferry').title);
    await page.close();
  });

  it('reads the article a page shows in place of the one it loaded with, and takes down the notice drawn for that one', async () => {
    // The article the page loads with was read before (the control page).
    const reading = await context.newPage();
    await reading.goto(site.at(SCRIPTED.plain));
    await expect.poll(async () => (await history()).has(site.at(SCRIPTED.plain)), { timeout: 15_000 }).toBe(true);
    await reading.close();
    const page = await context.newPage();
    await page.goto(site.at(SCRIPTED.swappedLater));
    await expect.poll(() => page.evaluate(() => document.querySelector('[data-deja-read=notice]') !== null), { timeout: 10_000 }).toBe(true);
    // 2.5 s on, the page shows another article: it is read at the look 5 s on, and recorded under its own title.
    await expect.poll(async () => (await history()).get(site.at(SCRIPTED.swappedLater))?.title, { timeout: 15_000 }).toBe(loadArticle('en-balcony').title);
    // Both articles were recorded (the dwell time is 0 here) in one page load: one visit.
    expect((await history()).get(site.at(SCRIPTED.swappedLater))?.visits).toBe(1);
    expect(await page.evaluate(() => document.querySelector('[data-deja-read=notice]'))).toBeNull();
    await page.close();
  });

  it('records the next article a single-page app shows at a new address, with no reload', async () => {
    const page = await context.newPage();
    await page.goto(site.at(SCRIPTED.spaNext));
    const next = `${site.at(SCRIPTED.spaNext)}?candidate=2`;
    await expect.poll(async () => (await history()).has(next), { timeout: 15_000 }).toBe(true);
    expect([...(await history()).keys()].filter((u) => u.startsWith(site.at(SCRIPTED.spaNext))).sort()).toEqual([site.at(SCRIPTED.spaNext), next]);
    await page.close();
  });
});

describe('Chromium, what a hostile page can learn', () => {
  it('sees nothing before the dwell time, and at most one notice per page load', async () => {
    await setDwell(3);
    try {
        // The reader reads one article (the control page: the notice-free original).
        const reading = await context.newPage();
        await reading.goto(site.at(SCRIPTED.plain));
        await expect.poll(async () => (await history()).has(site.at(SCRIPTED.plain)), { timeout: 15_000 }).toBe(true);
        await reading.close();

        // Swapping faster than the dwell time: the page sees nothing, and nothing is recorded.
        const fast = await context.newPage();
        await fast.goto(site.at(SCRIPTED.hostileFast));
        await sleep(9_000);
        expect(await fast.evaluate(() => (window as unknown as { __seen: unknown[] }).__seen)).toEqual([]);
        expect([...(await history()).keys()].filter((u) => u.startsWith(site.at(SCRIPTED.hostileFast)))).toEqual([]);
        await fast.close();

        // Staying past the dwell time on an unread article, then swapping to the read one: the page
        // load had its one chance, with an article never read, so no notice comes.
        const slow = await context.newPage();
        await slow.goto(site.at(SCRIPTED.hostileSlow));
        await sleep(11_000);
        expect(await slow.evaluate(() => (window as unknown as { __seen: unknown[] }).__seen)).toEqual([]);
        await slow.close();

        // A page load showing the read article from the start gets the notice, after the dwell time only.
        const copy = await context.newPage();
        await copy.goto(site.url('enB'));
        await sleep(1500);
        expect(await copy.evaluate(() => document.querySelector('[data-deja-read=notice]'))).toBeNull();
        await expect.poll(() => copy.evaluate(() => document.querySelector('[data-deja-read=notice]') !== null), { timeout: 10_000 }).toBe(true);
        // It takes its size once its frame has drawn it (a size that says nothing about the title read before).
        await expect.poll(() => copy.evaluate(() => document.querySelector('[data-deja-read=notice]')!.getBoundingClientRect().width)).toBeGreaterThan(0);
        await copy.close();
    } finally {
      await setDwell(0);
    }
  });
});


describe('Chromium, a background started anew', () => {
  it('checks and records an article that a page of its own site read before resembles, as the first thing it is asked', async () => {
    const original = await context.newPage();
    await original.goto(site.url('enC'));
    await expect.poll(async () => (await history()).has(site.url('enC')), { timeout: 15_000 }).toBe(true);
    await original.close();
    // Chrome stops an idle background; the next page the reader opens wakes one that holds nothing but the fingerprints.
    await stopWorker();
    const updated = await context.newPage();
    await updated.goto(site.at(SCRIPTED.balconyAdded));
    await expect.poll(() => updated.evaluate(() => document.querySelector('[data-deja-read=notice]') !== null), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => (await history()).has(site.at(SCRIPTED.balconyAdded)), { timeout: 15_000 }).toBe(true);
    await updated.close();
  });
});
