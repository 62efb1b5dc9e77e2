/// <reference types="chrome" />
// npm run bench:links -- [--links N] [--history N] [--runs N] [--json] [--no-build]
// What marking links costs, in real Chromium with the built extension (dist/chrome): a list page of
// N links (default 2,000; half of them to pages in the history, with tracking parameters) is loaded
// with link marks off and on, against a history of --history pages (default 10,000, imported
// through the options page). Per load: the page's main-thread CPU time and task time (DevTools
// Performance metrics), whose difference between on and off is what the marks cost the page; the
// content script's own figures (time reading the links, its longest slice, the background's answer
// time as the content script waited for it), asked of it as the popup asks; and the longest task
// the page's own 'longtask' observer saw. Medians of --runs loads; figures per 1,000 links.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import type { LinkStats } from '../src/content/link-marks';
import { CHROMIUM_PATH, chromiumArgs } from '../tests/e2e/browsers';
import { writeSyntheticHistory } from '../tests/e2e/synthetic-history';
import { BenchError } from './bench-error';
import { prepareChromiumBench } from './bench-prepare';

const ROOT = new URL('../', import.meta.url).pathname;
const EXT = join(ROOT, 'dist', 'chrome');
/** After the marks are drawn (or, with marks off, after the same wait), the metrics are read this much later. */
const SETTLE_MS = 1500;

interface Options {
  links: number;
  history: number;
  runs: number;
  json: boolean;
  build: boolean;
}

const USAGE = 'usage: npm run bench:links -- [--links N] [--history N] [--runs N] [--json] [--no-build]';

function parseArgs(argv: string[]): Options {
  const opts: Options = { links: 2000, history: 10_000, runs: 3, json: false, build: true };
  const whole = (flag: string, v: string | undefined, min: number, max: number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) throw new BenchError(`${flag} needs a whole number from ${min} to ${max}`, 2);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--links') opts.links = whole(a, argv[++i], 2, 20_000);
    else if (a === '--history') opts.history = whole(a, argv[++i], 0, 1_000_000);
    else if (a === '--runs') opts.runs = whole(a, argv[++i], 1, 20);
    else throw new BenchError(`unknown argument ${JSON.stringify(a)}; ${USAGE}`, 2);
  }
  opts.history = Math.max(opts.history, Math.ceil(opts.links / 2));
  return opts;
}

const log = (msg: string) => process.stderr.write(`bench:links: ${msg}\n`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The list page: N links, the even ones to pages the history holds. */
function listPage(n: number): string {
  const items = Array.from({ length: n }, (_, i) => `<li><a href="/p/${i}.html?utm_source=list&amp;ref_src=bench">Entry ${i}: a headline of a usual length for a list</a> <span>${i % 97} comments</span></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A list of ${n} links</title></head><body><h1>A list of ${n} links</h1><ol>${items}</ol></body></html>`;
}

interface Load {
  threadMs: number;
  taskMs: number;
  longtaskMs: number;
  stats?: LinkStats;
}

async function measure(context: BrowserContext, worker: Worker, url: string, marks: boolean, links: number): Promise<Load> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __longest: number };
    w.__longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await page.goto(url);
  await page.bringToFront();
  const ask = () =>
    worker.evaluate(async () => {
      const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
      if (tab?.id === undefined) return undefined;
      const reply = (await chrome.tabs.sendMessage(tab.id, { type: 'background:getPage', req: {} }).catch(() => undefined)) as { ok?: { linkStats?: LinkStats } } | undefined;
      return reply?.ok?.linkStats;
    });
  let stats: LinkStats | undefined;
  const deadline = Date.now() + 60_000;
  if (marks) {
    // Until every link has been read and answered.
    while (Date.now() < deadline) {
      stats = await ask();
      if (stats && stats.links >= links && stats.messages >= Math.ceil(stats.keys / 2000)) break;
      await page.waitForTimeout(200);
    }
    if (!stats || stats.links < links) throw new BenchError(`the marks did not finish on ${url}: ${JSON.stringify(stats)}`);
  } else await page.waitForTimeout(2000);
  await page.waitForTimeout(SETTLE_MS);
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  const metric = (name: string) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  const longtaskMs = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
  await page.close();
  return { threadMs: metric('ThreadTime'), taskMs: metric('TaskDuration'), longtaskMs, ...(stats ? { stats } : {}) };
}

async function main(argv: string[]): Promise<void> {
  const opts = parseArgs(argv);
  prepareChromiumBench({ build: opts.build, extension: EXT, log });

  const html = listPage(opts.links);
  const server = createServer((req, res) => {
    const ok = (req.url ?? '').startsWith('/list');
    res.writeHead(ok ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(ok ? html : 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const profile = mkdtempSync(join(tmpdir(), 'deja-read-bench-links-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs(EXT) });
  const rows: Array<{ marks: boolean } & Load> = [];
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
    const extensionId = new URL(worker.url()).host;
    // The history: the even links' pages first, then others spread over many sites.
    const read = Math.ceil(opts.links / 2);
    const file = join(profile, 'history.json');
    writeSyntheticHistory(file, opts.history, { urlOf: (i) => (i < read ? `${origin}/p/${i * 2}.html` : `https://site${i % 997}.example/article-${i}`) });
    log(`importing a history of ${opts.history} pages (${read} of them linked from the list)`);
    const options = await context.newPage();
    await options.goto(`chrome-extension://${extensionId}/src/options/index.html`);
    await options.locator('#stats').filter({ hasText: 'recorded' }).waitFor();
    await options.locator('#import-file').setInputFiles(file);
    await options.locator('#export-status').filter({ hasText: /^Imported|^Nothing/ }).waitFor({ timeout: 600_000 });
    log(await options.locator('#export-status').innerText());
    await options.close();

    for (const marks of [false, true]) {
      await worker.evaluate((m) => chrome.storage.sync.set({ settings: { dwellSeconds: 0, linkMarks: m ? 'on' : 'off' } }), marks);
      for (let run = 1; run <= opts.runs; run++) {
        const load = await measure(context, worker, `${origin}/list-${marks ? 'on' : 'off'}-${run}.html`, marks, opts.links);
        log(`marks ${marks ? 'on' : 'off'}, run ${run}: main thread CPU ${load.threadMs.toFixed(0)} ms, tasks ${load.taskMs.toFixed(0)} ms, longest task seen by the page ${load.longtaskMs.toFixed(0)} ms${load.stats ? `; content script: ${JSON.stringify(load.stats)}` : ''}`);
        rows.push({ marks, ...load });
      }
    }
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }

  const off = rows.filter((r) => !r.marks);
  const on = rows.filter((r) => r.marks);
  const per1000 = (ms: number) => (ms * 1000) / opts.links;
  const stats = (pick: (s: LinkStats) => number) => median(on.map((r) => (r.stats ? pick(r.stats) : 0)));
  const result = {
    links: opts.links,
    history: opts.history,
    runs: opts.runs,
    loadAverage: loadavg(),
    cores: cpus().length,
    mainThreadCpuMsPer1000: per1000(median(on.map((r) => r.threadMs)) - median(off.map((r) => r.threadMs))),
    taskMsPer1000: per1000(median(on.map((r) => r.taskMs)) - median(off.map((r) => r.taskMs))),
    scanMsPer1000: per1000(stats((s) => s.scanMs)),
    longestSliceMs: stats((s) => s.longestSliceMs),
    answerMsPer1000: per1000(stats((s) => s.answerMs)),
    messages: stats((s) => s.messages),
    longestTaskOnMs: median(on.map((r) => r.longtaskMs)),
    longestTaskOffMs: median(off.map((r) => r.longtaskMs)),
  };
  if (opts.json) {
    console.log(JSON.stringify(result));
    return;
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`link marks in ${CHROMIUM_PATH}, headless: a list of ${opts.links} links (half read), a history of ${opts.history} pages; median of ${opts.runs} loads`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores (wall times stretch under load; the main thread's CPU time does not)`);
  console.log(`per 1,000 links: page main-thread CPU added ${ms(result.mainThreadCpuMsPer1000)} (task time ${ms(result.taskMsPer1000)}), of which reading the links ${ms(result.scanMsPer1000)}`);
  console.log(`background answer (as the content script waited for it, ${result.messages} message(s)): ${ms(result.answerMsPer1000)} per 1,000 links`);
  console.log(`longest slice of link reading ${ms(result.longestSliceMs)}; longest task the page saw: ${ms(result.longestTaskOnMs)} with marks, ${ms(result.longestTaskOffMs)} without`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`bench:links: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = e instanceof BenchError ? e.exitCode : 1;
});
