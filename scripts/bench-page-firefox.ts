// npm run bench:page:firefox -- [--runs N] [--marks-off] [--notice-off] [--paused] [--profile] [--json]
// What the add-on costs the page it reads, in real Firefox (puppeteer-core over WebDriver BiDi),
// where neither the Long Tasks API nor Chromium's traces exist. The pages of bench:page (a 10 MB
// article, an article of 59,000 elements: bench-page-site.ts) are loaded without and with the
// built add-on (dist/firefox; run `npm run build` first), and a timer in the page, set by a
// preload script before any of the page's own, runs every 4 ms and records how long the page's
// thread was held between two of its runs (TIMER, below). The window: from the page's load event until the add-on has
// recorded it (its history has one page more; dwell time 0) and a second more. Without the add-on,
// the same window as the slowest load with it, so both see the page's own work after its load.
// With --profile, Firefox's profiler runs while the add-on is installed, and each hold is told by
// whose code the page's thread was in (firefox-profile.ts): a hold can be two tasks back to back,
// the add-on's and Firefox's own. The most samples in the add-on's code within one hold bounds the
// add-on's longest task from above (the page's timer ran before and after it).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { distDir, FIREFOX_PATH } from '../tests/e2e/browsers';
import { findExtensionPage } from '../tests/e2e/firefox-pages';
import { PAGES, serve } from './bench-page-site';
import { attributeHolds, type Hold, profilerEnv, readProfile } from './firefox-profile';

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
  g.benchHoldsAt = [];
  g.benchFrom = Infinity;
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (last >= g.benchFrom) {
      const held = now - last - ${TICK};
      g.benchHeld = Math.max(g.benchHeld, held);
      if (held >= 50) g.benchStalls++;
      if (held >= 30) g.benchHolds.push(Math.round(held));
      if (held >= 8) g.benchHoldsAt.push([performance.timeOrigin + last, now - last]);
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
  /** The holds of 8 ms or more, from the timer's last run before each (ms since the epoch) to its next. */
  long: Hold[];
  /** The page's address. */
  url: string;
  /** The window measured, ms since the epoch. */
  from: number;
  to: number;
}

async function launch(profile: string, withAddOn: boolean, settings: Record<string, unknown>, profilerOut?: string): Promise<{ browser: Browser; extensionPage?: Page }> {
  const env = profilerOut ? { ...process.env, ...profilerEnv(profilerOut) } : undefined;
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, userDataDir: profile, env, extraPrefsFirefox: { 'browser.shell.checkDefaultBrowser': false, 'app.update.enabled': false } });
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
    const { held, stalls, holds, long, from } = await page.evaluate(() => {
      const g = globalThis as unknown as { benchHeld: number; benchStalls: number; benchHolds: number[]; benchHoldsAt: Array<[number, number]>; benchFrom: number };
      return { held: g.benchHeld, stalls: g.benchStalls, holds: g.benchHolds, long: g.benchHoldsAt, from: performance.timeOrigin + g.benchFrom };
    });
    return { heldMs: Math.round(held), stalls, holds, recordedMs, long: long.map(([at, ms]) => ({ at, ms })), url, from, to: Date.now() };
  } finally {
    await page.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main(argv: string[]): Promise<void> {
  let runs = 5;
  let json = false;
  let settings: Record<string, unknown> = {};
  let profiling = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--runs') runs = Number(argv[++i]);
    else if (argv[i] === '--json') json = true;
    // With link marks off: what the marks cost, by difference.
    else if (argv[i] === '--marks-off') settings = { ...settings, linkMarks: 'off' };
    // Without the notice (from the second load on, each page is one read before: the notice shows).
    else if (argv[i] === '--notice-off') settings = { ...settings, showNotice: false };
    // Installed but paused: nothing is read (the page is never recorded; the window is then 3 s).
    else if (argv[i] === '--paused') settings = { ...settings, paused: true };
    else if (argv[i] === '--profile') profiling = true;
    else throw new Error(`unknown argument ${argv[i]}; usage: npm run bench:page:firefox -- [--runs N] [--marks-off] [--notice-off] [--paused] [--profile] [--json]`);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a whole number ≥ 1');
  const { origin, server } = await serve(new Map(PAGES.map((p) => [p.path, p.html()])));
  const results: Array<{ page: string; addOn: boolean; loads: Load[] }> = [];
  const profilerDir = profiling ? mkdtempSync(join(tmpdir(), 'deja-read-bench-page-firefox-profiler-')) : null;
  const profilerOut = profilerDir ? join(profilerDir, 'profile.json') : undefined;
  const attributed: string[] = [];
  const addOnMost: Array<{ page: string; samples: number[] }> = [];
  try {
    const slowest = new Map<string, number>();
    for (const addOn of [true, false]) {
      const profile = mkdtempSync(join(tmpdir(), 'deja-read-bench-page-firefox-'));
      const { browser, extensionPage } = await launch(profile, addOn, settings, addOn ? profilerOut : undefined);
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
      if (addOn && profilerOut) {
        // Firefox writes the profile as it shuts down.
        for (let waited = 0; !existsSync(profilerOut) && waited < 30_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
        log(`reading Firefox's profile (${profilerOut})`);
        const prof = readProfile(profilerOut);
        for (const r of results.filter((x) => x.addOn)) {
          const most: number[] = [];
          r.loads.forEach((l, i) => {
            const shares = attributeHolds(prof, l.url, l.long);
            // A load whose samples had left the profiler's buffer (it keeps the last few minutes) tells nothing.
            if (shares.some((sh) => Object.values(sh.samples).some((n) => n > 0))) most.push(Math.max(...shares.map((sh) => sh.samples.addOn)));
            for (const share of shares) {
              if (share.hold.ms < 50) continue;
              const { addOn: a, firefoxScripts: f, page: pg, native: n } = share.samples;
              attributed.push(`  ${r.page}, load ${i + 1}: held ${Math.round(share.hold.ms)} ms; samples in the add-on's code ${a}${share.addOnFunction ? ` (mostly ${share.addOnFunction})` : ''}, in Firefox's own scripts ${f}${share.firefoxScript ? ` (mostly ${share.firefoxScript})` : ''}, in the page's ${pg}, in the browser's native work ${n}`);
            }
          });
          addOnMost.push({ page: r.page, samples: most });
        }
      }
    }
  } finally {
    server.close();
    if (profilerDir) rmSync(profilerDir, { recursive: true, force: true });
  }
  const summary = results.map((r) => ({ page: r.page, addOn: r.addOn, heldMedianMs: median(r.loads.map((l) => l.heldMs)), heldWorstMs: Math.max(...r.loads.map((l) => l.heldMs)), stallsMedian: median(r.loads.map((l) => l.stalls)), stallsMax: Math.max(...r.loads.map((l) => l.stalls)), recordedMedianMs: r.addOn ? median(r.loads.map((l) => l.recordedMs)) : null }));
  const addOnWork = addOnMost.map((m) => ({ page: m.page, loads: m.samples.length, mostInOneHoldMedian: m.samples.length ? median(m.samples) : null, mostInOneHoldWorst: m.samples.length ? Math.max(...m.samples) : null }));
  if (json) console.log(JSON.stringify({ runs, loadAverage: loadavg(), cores: cpus().length, summary, ...(profiling ? { addOnWork, attributed } : {}) }));
  else {
    console.log(`a ${TICK} ms timer in the page, Firefox ${FIREFOX_PATH}, headless; from the load event until the page is recorded and 1 s more; ${runs} loads each`);
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
    for (const s of summary) console.log(`  ${s.page.padEnd(24)} ${s.addOn ? 'with the add-on   ' : 'without the add-on'}  longest hold: median ${s.heldMedianMs} ms, worst ${s.heldWorstMs} ms; held 50 ms or more: median ${s.stallsMedian} times a load, at most ${s.stallsMax}${s.addOn ? `; recorded ${s.recordedMedianMs} ms after load (median)` : ''}`);
    if (profiling) {
      console.log(`Firefox's profiler, sampling each millisecond (it slows the page a little): the most samples in the add-on's code within one hold of the page's thread, about the add-on's longest task in ms`);
      for (const w of addOnWork) console.log(`  ${w.page.padEnd(24)} median ${w.mostInOneHoldMedian}, worst ${w.mostInOneHoldWorst} (${w.loads} of ${runs} loads in the profile${w.loads < runs ? '; the rest had left its buffer' : ''})`);
      console.log(`holds of 50 ms or more with the add-on, by whose code the page's thread was in:${attributed.length ? '' : ' none'}`);
      for (const line of attributed) console.log(line);
    }
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  log(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
