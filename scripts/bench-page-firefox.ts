// npm run bench:page:firefox -- [--runs N] [--marks-off] [--notice-off] [--paused] [--json]
// What the add-on costs the page it reads, in real Firefox (puppeteer-core over WebDriver BiDi),
// where neither the Long Tasks API nor Chromium's traces exist. The pages of bench:page (a 10 MB
// article, an article of 59,000 elements: bench-page-site.ts) are loaded without and with the
// built add-on (dist/firefox; run `npm run build` first), and a timer in the page, set by a
// preload script before any of the page's own, runs every 20 ms and records how late it ran: a
// timer late by L ms waited for the page's thread to be free for about L ms, so the longest
// lateness bounds the longest task. The window: from the page's load event until the add-on has
// recorded it (its history has one page more; dwell time 0) and a second more. Without the add-on,
// the same window as the slowest load with it, so both see the page's own work after its load.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { distDir, FIREFOX_PATH } from '../tests/e2e/browsers';
import { findExtensionPage } from '../tests/e2e/firefox-pages';
import { PAGES, serve } from './bench-page-site';

const log = (msg: string) => process.stderr.write(`bench:page:firefox: ${msg}\n`);

/** The timer, set before the page's scripts: its longest lateness from `benchFrom` on. */
const TIMER = `(() => {
  const g = globalThis;
  g.benchLate = 0;
  g.benchStalls = 0;
  g.benchFrom = Infinity;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (last >= g.benchFrom) {
      g.benchLate = Math.max(g.benchLate, now - last - 20);
      // The thread held 50 ms or more at once (the timer 30 ms or more late).
      if (now - last - 20 >= 30) g.benchStalls++;
    }
    last = now;
  }, 20);
  addEventListener('load', () => { g.benchFrom = performance.now(); });
})();`;

interface Load {
  /** How late the timer ran at worst, ms. */
  lateMs: number;
  /** Times it ran 30 ms late or more: the thread held for 50 ms or more. */
  stalls: number;
  /** From the load event to the page being recorded (with the add-on), ms. */
  recordedMs: number;
}

async function launch(profile: string, withAddOn: boolean, settings: Record<string, unknown>): Promise<{ browser: Browser; extensionPage?: Page }> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, userDataDir: profile, extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.enabled': false } });
  if (!withAddOn) return { browser };
  await browser.installExtension(distDir('firefox'));
  const extensionPage = await findExtensionPage(browser);
  // Pages count as read at once (the default waits 5 s of visibility).
  await extensionPage.evaluate((more) => (globalThis as unknown as { browser: { storage: { sync: { set(v: unknown): Promise<void> } } } }).browser.storage.sync.set({ settings: { dwellSeconds: 0, ...more } }), settings);
  return { browser, extensionPage };
}

/** Pages in the add-on's history, asked of its background. */
async function historyCount(extensionPage: Page): Promise<number> {
  return extensionPage.evaluate(async () => {
    const reply = (await (globalThis as unknown as { browser: { runtime: { sendMessage(m: unknown): Promise<{ ok?: { pages: number } }> } } }).browser.runtime.sendMessage({ type: 'options:stats', req: {} })) ?? {};
    return reply.ok?.pages ?? -1;
  });
}

async function load(browser: Browser, url: string, extensionPage: Page | undefined, windowMs: number, recording: boolean): Promise<Load> {
  const page = await browser.newPage();
  try {
    await page.evaluateOnNewDocument(TIMER);
    const before = extensionPage ? await historyCount(extensionPage) : 0;
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    const loaded = Date.now();
    let recordedMs = 0;
    if (extensionPage && recording) {
      for (;;) {
        if ((await historyCount(extensionPage)) > before) break;
        if (Date.now() - loaded > 60_000) throw new Error(`${url} was not recorded within 60 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      recordedMs = Date.now() - loaded;
      await new Promise((r) => setTimeout(r, 1000));
    } else await new Promise((r) => setTimeout(r, windowMs));
    const { late, stalls } = await page.evaluate(() => {
      const g = globalThis as unknown as { benchLate: number; benchStalls: number };
      return { late: g.benchLate, stalls: g.benchStalls };
    });
    return { lateMs: Math.round(late), stalls, recordedMs };
  } finally {
    await page.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main(argv: string[]): Promise<void> {
  let runs = 5;
  let json = false;
  let settings: Record<string, unknown> = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--json') json = true;
    // With link marks off: what the marks cost, by difference.
    else if (argv[i] === '--marks-off') settings = { ...settings, linkMarks: 'off' };
    // Without the notice (from the second load on, each page is one read before: the notice shows).
    else if (argv[i] === '--notice-off') settings = { ...settings, showNotice: false };
    // Installed but paused: nothing is read (the page is never recorded; the window is then 3 s).
    else if (argv[i] === '--paused') settings = { ...settings, paused: true };
    else throw new Error(`unknown argument ${argv[i]}; usage: npm run bench:page:firefox -- [--runs N] [--marks-off] [--notice-off] [--paused] [--json]`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a whole number ≥ 1');
  const { origin, server } = await serve(new Map(PAGES.map((p) => [p.path, p.html()])));
  const results: Array<{ page: string; addOn: boolean; loads: Load[] }> = [];
  try {
    const slowest = new Map<string, number>();
    for (const addOn of [true, false]) {
      const profile = mkdtempSync(join(tmpdir(), 'deja-read-bench-page-firefox-'));
      const { browser, extensionPage } = await launch(profile, addOn, settings);
      try {
        for (const p of PAGES) {
          const loads: Load[] = [];
          for (let run = 1; run <= runs; run++) {
            const l = await load(browser, `${origin}/${p.path}/${addOn ? 'with' : 'without'}-${run}.html`, extensionPage, (slowest.get(p.path) ?? 2000) + 1000, !settings.paused);
            loads.push(l);
            log(`${p.name}, ${addOn ? 'with' : 'without'} the add-on, run ${run}: the timer ran at worst ${l.lateMs} ms late, ${l.stalls} times 30 ms or more${addOn ? `; recorded ${l.recordedMs} ms after the load event` : ''}`);
          }
          if (addOn && !settings.paused) slowest.set(p.path, Math.max(...loads.map((l) => l.recordedMs)));
          results.push({ page: p.name, addOn, loads });
        }
      } finally {
        await browser.close();
        rmSync(profile, { recursive: true, force: true });
      }
    }
  } finally {
    server.close();
  }
  const summary = results.map((r) => ({ page: r.page, addOn: r.addOn, lateMedianMs: median(r.loads.map((l) => l.lateMs)), lateWorstMs: Math.max(...r.loads.map((l) => l.lateMs)), stallsMedian: median(r.loads.map((l) => l.stalls)), stallsMax: Math.max(...r.loads.map((l) => l.stalls)), recordedMedianMs: r.addOn ? median(r.loads.map((l) => l.recordedMs)) : null }));
  if (json) console.log(JSON.stringify({ runs, loadAverage: loadavg(), cores: cpus().length, summary }));
  else {
    console.log(`a 20 ms timer in the page, Firefox ${FIREFOX_PATH}, headless; from the load event until the page is recorded and 1 s more; ${runs} loads each`);
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    for (const s of summary) console.log(`  ${s.page.padEnd(24)} ${s.addOn ? 'with the add-on   ' : 'without the add-on'}  timer late at worst: median ${s.lateMedianMs} ms, worst ${s.lateWorstMs} ms; held 50 ms or more: median ${s.stallsMedian} times a load, at most ${s.stallsMax}${s.addOn ? `; recorded ${s.recordedMedianMs} ms after load (median)` : ''}`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  log(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
