// npm run bench:page:firefox -- [--runs N] [--marks-off] [--notice-off] [--paused] [--json]
// What the add-on costs the page it reads, in real Firefox (puppeteer-core over WebDriver BiDi),
// where neither the Long Tasks API nor Chromium's traces exist. The pages of bench:page (a 10 MB
// article, an article of 59,000 elements: bench-page-site.ts) are loaded without and with the
// built add-on (dist/firefox; run `npm run build` first), and a timer in the page, set by a
// preload script before any of the page's own, runs every 4 ms and records how long the page's
// thread was held between two of its runs (TIMER, below). The window: from the page's load event until the add-on has
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

/**
 * The timer, set before the page's scripts. It runs every TICK ms; between two runs `gap` ms apart
 * the page's thread was held for at least gap − TICK ms at once (the next run was due by then) and
 * at most gap ms. A coarser timer blurs this: at 20 ms, a run 30 ms late meant a hold of 30 to 50 ms,
 * not the 50 ms or more this benchmark once counted it as.
 */
const TICK = 4;
const TIMER = `(() => {
  const g = globalThis;
  g.benchHeld = 0;
  g.benchStalls = 0;
  g.benchHolds = [];
  g.benchFrom = Infinity;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (last >= g.benchFrom) {
      const held = now - last - ${TICK};
      g.benchHeld = Math.max(g.benchHeld, held);
      if (held >= 50) g.benchStalls++;
      if (held >= 30) g.benchHolds.push(Math.round(held));
    }
    last = now;
  }, ${TICK});
  addEventListener('load', () => { g.benchFrom = performance.now(); });
})();`;

interface Load {
  /** The longest hold of the page's thread, ms (at least this; at most TICK ms more). */
  heldMs: number;
  /** Holds of 50 ms or more. */
  stalls: number;
  /** Every hold of 30 ms or more, ms, in order. */
  holds: number[];
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
    const { held, stalls, holds } = await page.evaluate(() => {
      const g = globalThis as unknown as { benchHeld: number; benchStalls: number; benchHolds: number[] };
      return { held: g.benchHeld, stalls: g.benchStalls, holds: g.benchHolds };
    });
    return { heldMs: Math.round(held), stalls, holds, recordedMs };
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
            log(`${p.name}, ${addOn ? 'with' : 'without'} the add-on, run ${run}: the thread held at most ${l.heldMs} ms at once, ${l.stalls} times 50 ms or more (holds of 30 ms or more: ${l.holds.join(', ') || 'none'})${addOn ? `; recorded ${l.recordedMs} ms after the load event` : ''}`);
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
  const summary = results.map((r) => ({ page: r.page, addOn: r.addOn, heldMedianMs: median(r.loads.map((l) => l.heldMs)), heldWorstMs: Math.max(...r.loads.map((l) => l.heldMs)), stallsMedian: median(r.loads.map((l) => l.stalls)), stallsMax: Math.max(...r.loads.map((l) => l.stalls)), recordedMedianMs: r.addOn ? median(r.loads.map((l) => l.recordedMs)) : null }));
  if (json) console.log(JSON.stringify({ runs, loadAverage: loadavg(), cores: cpus().length, summary }));
  else {
    console.log(`a ${TICK} ms timer in the page, Firefox ${FIREFOX_PATH}, headless; from the load event until the page is recorded and 1 s more; ${runs} loads each`);
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    for (const s of summary) console.log(`  ${s.page.padEnd(24)} ${s.addOn ? 'with the add-on   ' : 'without the add-on'}  longest hold: median ${s.heldMedianMs} ms, worst ${s.heldWorstMs} ms; held 50 ms or more: median ${s.stallsMedian} times a load, at most ${s.stallsMax}${s.addOn ? `; recorded ${s.recordedMedianMs} ms after load (median)` : ''}`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  log(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
