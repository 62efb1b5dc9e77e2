/// <reference types="chrome" />
// npm run demo [-- --no-build]: shows what the reader sees, without a display. Builds the
// extension, serves our fixture articles on 127.0.0.1, reads an article and then a copy of it in
// headless Chromium (English and Chinese pairs), and writes screenshots of the in-page notice, the
// notice of a revision with what is new and its marks ("Show what's new"), the popup, the options
// page, the history page and a list of links with those read marked, into demo-out/, in the English
// and the Chinese UI, each in the light and the dark colour scheme. It also writes the stores'
// screenshots (1280×800: store-<ui>-<n>-<view>.png): the pages on site names as a reader would meet
// them (reserved example domains, resolved to the local server by Chromium's
// --host-resolver-rules), the first article read three days before, and the popup drawn over the
// page as it opens from the toolbar.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_PATH, chromiumArgs, distDir } from '../tests/e2e/browsers';
import { linkPages, LINKS } from '../tests/e2e/link-pages';
import { startSite, type PageName, type Site } from '../tests/e2e/site';
import { showWhatsNew } from './notice-cdp';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'demo-out');
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

interface Ui {
  /** File name prefix. */
  name: 'en' | 'zh';
  /** The browser's UI language (--lang and locale), when not the default English. */
  lang?: string;
  /** The pair read in this UI whose copy is shown: the original, then the copy. */
  shown: [PageName, PageName];
  /** The other pair, read first so the history holds more than one group. */
  other: [PageName, PageName];
  /** An article, then its revision with new paragraphs ("what's new"). */
  whatsNew: [PageName, PageName];
}

/** The site each fixture site's pages are shown on (RFC 2606 names: they can never be someone's real site). */
const HOSTS: Record<string, string> = { courier: 'news.example.com', digest: 'weekend.example.org', reposts: 'forum.example.net' };
let port = 0;
/** A page's address on its site name; Chromium resolves every one of them to the local server. */
const publicUrl = (local: string) => {
  const u = new URL(local);
  const host = HOSTS[u.pathname.split('/')[1]];
  return host ? `http://${host}${u.pathname}` : local;
};
const hostRules = () => Object.values(HOSTS).map((h) => `MAP ${h} 127.0.0.1:${port}`).join(', ');
/** The store's screenshot size. */
const STORE = { width: 1280, height: 800 };
const DAY_MS = 86_400_000;

const UIS: Ui[] = [
  { name: 'en', shown: ['enA', 'enB'], other: ['zhA', 'zhRepost'], whatsNew: ['enC', 'enBalconyRevised'] },
  { name: 'zh', lang: 'zh-CN', shown: ['zhA', 'zhRepost'], other: ['enA', 'enB'], whatsNew: ['zhC', 'zhBalconyRevised'] },
];

const args = process.argv.slice(2);
for (const a of args) {
  if (a !== '--no-build') {
    console.error(`demo: unknown option ${a} (the only option is --no-build)`);
    process.exit(2);
  }
}

if (!existsSync(CHROMIUM_PATH)) {
  console.error(`demo: Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium", or set CHROMIUM_PATH to a Chromium binary.`);
  process.exit(2);
}

if (!args.includes('--no-build')) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
const ext = distDir('chrome');
if (!existsSync(join(ext, 'manifest.json'))) {
  console.error('demo: dist/chrome is not built: run "npm run build" first (or drop --no-build).');
  process.exit(2);
}

// Without a CJK font the Chinese screenshots show boxes instead of characters: say so.
const cjk = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
if (cjk.status === 0 && !cjk.stdout.trim())
  console.warn('demo: no Chinese font installed, so Chinese text will show as boxes: install one with "apt-get install -y fonts-noto-cjk".');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, or fails saying what was awaited. */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** Opens a page and waits until the extension has checked it (as the e2e suite does). */
async function openAndSettle(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await sleep(1500);
}

/** Whether the in-page notice is on the page and visible (its content is in a closed shadow root). */
function noticeShown(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const box = document.querySelector('[data-deja-read=notice]')?.getBoundingClientRect();
    return !!box && box.width > 0 && box.height > 0;
  });
}

/** The id of the tab showing `page`: brought to the front, then asked for as the active tab. */
async function tabIdOf(worker: Worker, page: Page): Promise<number> {
  await page.bringToFront();
  return worker.evaluate(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    if (tab?.id === undefined) throw new Error('no active tab');
    return tab.id;
  });
}

const profiles: string[] = [];
const contexts: BrowserContext[] = [];
let site: Site | undefined;
const written: string[] = [];
let interrupted = false;

async function cleanUp(): Promise<void> {
  for (const c of contexts.splice(0)) await c.close().catch(() => undefined);
  await site?.close().catch(() => undefined);
  site = undefined;
  for (const p of profiles.splice(0)) rmSync(p, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    void cleanUp().finally(() => process.exit(130));
  });
}

async function shoot(page: Page, ui: Ui, scheme: Scheme, view: string, fullPage = false): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await sleep(150);
  const path = join(outDir, `${ui.name}-${scheme}-${view}.png`);
  await page.screenshot({ path, fullPage });
  written.push(path);
}

async function demo(ui: Ui): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), `deja-read-demo-${ui.name}-`));
  profiles.push(profile);
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    ...(ui.lang ? { locale: ui.lang } : {}),
    viewport: { width: 1280, height: 800 },
    args: chromiumArgs(ext, [...(ui.lang ? [`--lang=${ui.lang}`] : []), `--host-resolver-rules=${hostRules()}`]),
  });
  contexts.push(context);
  try {
    await visitAndShoot(ui, context);
  } finally {
    contexts.splice(contexts.indexOf(context), 1);
    await context.close().catch(() => undefined);
    profiles.splice(profiles.indexOf(profile), 1);
    rmSync(profile, { recursive: true, force: true });
  }
}

async function visitAndShoot(ui: Ui, context: BrowserContext): Promise<void> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  const extPage = (path: string) => `chrome-extension://${extensionId}/src/${path}`;
  // Pages count as read at once (the default waits 5 s of visibility).
  await worker.evaluate(() => chrome.storage.sync.set({ settings: { dwellSeconds: 0 } }));
  if (!site) throw new Error('site not started');
  const s = site;

  // The other pair first, so the history has more than one group.
  const other = await context.newPage();
  for (const name of ui.other) await openAndSettle(other, publicUrl(s.url(name)));
  await other.close();

  // The pair shown: the original, read three days ago, then the copy with the notice (before it shrinks to a tab).
  const article = await context.newPage();
  await openAndSettle(article, publicUrl(s.url(ui.shown[0])));
  await backdate(worker, 3 * DAY_MS);
  await article.goto(publicUrl(s.url(ui.shown[1])));
  await until(`the notice on ${ui.shown[1]}`, () => noticeShown(article));
  await sleep(600); // the notice's entrance animation
  for (const scheme of SCHEMES) await shoot(article, ui, scheme, 'notice');

  // What's new: the article, then its revision with three paragraphs added; the notice, then the marks.
  const revised = await context.newPage();
  await openAndSettle(revised, s.url(ui.whatsNew[0]));
  await revised.goto(s.url(ui.whatsNew[1]));
  await until(`the notice on ${ui.whatsNew[1]}`, () => noticeShown(revised));
  await sleep(600);
  for (const scheme of SCHEMES) await shoot(revised, ui, scheme, 'whats-new-notice');
  const cdp = await context.newCDPSession(revised);
  await showWhatsNew(revised, cdp, ui.name === 'zh' ? '显示新内容' : "Show what's new");
  await until('the marks of what is new', async () => (await showWhatsNew(revised, cdp)) > 0);
  for (const scheme of SCHEMES) await shoot(revised, ui, scheme, 'whats-new-marks');
  await cdp.detach();
  await revised.close();

  // The popup for that tab, opened as a page the size of the real popup.
  const tabId = await tabIdOf(worker, article);
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 380, height: 520 });
  await popup.goto(`${extPage('popup/index.html')}?tab=${tabId}`);
  await until('the popup', async () => (await popup.locator('#pause-all').innerText()) !== '' && (await popup.locator('#matches li').count()) > 0);
  for (const scheme of SCHEMES) await shoot(popup, ui, scheme, 'popup');
  await popup.close();

  // Links read, marked on a list of links: a page read at one address, the same text read at
  // another, and one not read; the date of the second shown as the pointer rests on it.
  const list = await context.newPage();
  await list.setViewportSize({ width: 900, height: 360 });
  for (const path of [LINKS.a, LINKS.b]) await openAndSettle(list, s.at(path));
  await list.goto(s.at(LINKS.list));
  await list.hover('#list li:nth-child(2) a');
  await sleep(1500); // the marks are drawn once the background has answered (a closed shadow root: nothing to wait on)
  for (const scheme of SCHEMES) await shoot(list, ui, scheme, 'link-marks');
  await list.close();

  const options = await context.newPage();
  await options.setViewportSize({ width: 1000, height: 800 });
  await options.goto(extPage('options/index.html'));
  await until('the options page', async () => /\d/.test(await options.locator('#stats').innerText()));
  for (const scheme of SCHEMES) await shoot(options, ui, scheme, 'options', true);
  await options.close();

  const history = await context.newPage();
  await history.setViewportSize({ width: 1000, height: 800 });
  await history.goto(extPage('history/index.html'));
  await until(
    'the history page',
    async () => (await history.locator('#list li.page').count()) > 0 && /\d/.test(await history.locator('#summary').innerText()),
  );
  for (const scheme of SCHEMES) await shoot(history, ui, scheme, 'history', true);
  await history.close();

  await storeShots(context, ui, article, `${extPage('popup/index.html')}?tab=${tabId}`, extPage);
  await article.close();
}

/** Moves every page in the history back by `ms`, as if read that long ago (straight in the extension's database: the demo only). */
async function backdate(worker: Worker, ms: number): Promise<void> {
  await worker.evaluate(
    (by) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('deja-read');
        open.onerror = () => reject(new Error('cannot open the history'));
        open.onsuccess = () => {
          // The pages in their blocks, the dates column beside them, and the write count, so the
          // background reads its columns again before it next writes (docs/storage.md).
          const tx = open.result.transaction(['blocks', 'columns', 'meta'], 'readwrite');
          const blocks = tx.objectStore('blocks');
          const columns = tx.objectStore('columns');
          const meta = tx.objectStore('meta');
          type Block = { pages: Array<{ firstSeen: number; lastSeen: number } | null> };
          const cursor = blocks.openCursor();
          cursor.onsuccess = () => {
            const c = cursor.result;
            if (!c) return;
            const block = c.value as Block;
            c.update({ pages: block.pages.map((p) => p && { ...p, firstSeen: p.firstSeen - by, lastSeen: p.lastSeen - by }) });
            c.continue();
          };
          const seen = columns.openCursor(IDBKeyRange.bound(['seen', 0], ['seen', Infinity]));
          seen.onsuccess = () => {
            const c = seen.result;
            if (!c) return;
            c.update((c.value as Float64Array).map((t) => (t ? t - by : 0)));
            c.continue();
          };
          const m = meta.get('store');
          m.onsuccess = () => {
            if (m.result) meta.put({ ...m.result, gen: m.result.gen + 1 }, 'store');
          };
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(new Error('cannot write the history'));
        };
      }),
    ms,
  );
}

/** The stores' screenshots, light scheme: the page with its notice and the popup open over it, the history, the options. */
async function storeShots(context: BrowserContext, ui: Ui, article: Page, popupUrl: string, extPage: (path: string) => string): Promise<void> {
  await article.emulateMedia({ colorScheme: 'light' });
  const pageShot = await article.screenshot();
  const popup = await context.newPage();
  await popup.setViewportSize({ width: 380, height: 520 });
  await popup.emulateMedia({ colorScheme: 'light' });
  await popup.goto(popupUrl);
  await until('the popup', async () => (await popup.locator('#matches li').count()) > 0);
  await sleep(150);
  // As tall as its content, as the browser sizes a popup.
  const height = await popup.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  const popupShot = await popup.screenshot({ clip: { x: 0, y: 0, width: 380, height: Math.min(520, height) } });
  await popup.close();
  // The popup hangs from the toolbar at the top right, over the page, as the browser shows it.
  const canvas = await context.newPage();
  await canvas.setViewportSize(STORE);
  const img = (png: Buffer, style: string) => `<img style="position:absolute;${style}" src="data:image/png;base64,${png.toString('base64')}">`;
  await canvas.setContent(
    `<body style="margin:0;overflow:hidden">${img(pageShot, 'left:0;top:0')}${img(popupShot, 'right:12px;top:6px;border:1px solid #c8c8d0;border-radius:8px;box-shadow:0 10px 36px rgba(0,0,0,.32)')}</body>`,
  );
  const first = join(outDir, `store-${ui.name}-1-notice-and-popup.png`);
  await canvas.screenshot({ path: first });
  written.push(first);
  await canvas.close();
  for (const [n, view, path] of [[2, 'history', 'history/index.html'], [3, 'options', 'options/index.html']] as const) {
    const p = await context.newPage();
    await p.setViewportSize(STORE);
    await p.emulateMedia({ colorScheme: 'light' });
    await p.goto(extPage(path));
    await sleep(800);
    const file = join(outDir, `store-${ui.name}-${n}-${view}.png`);
    await p.screenshot({ path: file });
    written.push(file);
    await p.close();
  }
}

try {
  mkdirSync(outDir, { recursive: true });
  site = await startSite(linkPages());
  port = Number(new URL(site.url('enA')).port);
  for (const ui of UIS) await demo(ui);
  console.log(`demo: wrote ${written.length} screenshots:`);
  for (const path of written) console.log(`  ${relative(root, path)}`);
} catch (e) {
  if (!interrupted) console.error(`demo: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
