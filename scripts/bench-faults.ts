/// <reference types="chrome" />
// npm run bench:faults -- [--tabs N] [--visits V] [--gap S] [--kill-every MS] [--dist DIR] [--json] [--no-build]
// Visits lost or counted twice when the background is stopped while tabs record: the built
// extension in real Chromium, N tabs each reading V pages in turn (one every S seconds), the
// service worker stopped every MS milliseconds (CDP ServiceWorker.stopAllWorkers) until the last
// page is opened; then the history is read back once it has settled.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM_PATH, chromiumArgs } from '../tests/e2e/browsers';
import { startSite } from '../tests/e2e/site';

interface Options {
  tabs: number;
  visits: number;
  gapSeconds: number;
  killEveryMs: number;
  json: boolean;
  build: boolean;
  /** Another build of the extension (for example an older one, to compare). */
  dist?: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { tabs: 25, visits: 5, gapSeconds: 4, killEveryMs: 1000, json: false, build: true };
  const num = (flag: string, v: string | undefined, min: number, max: number) => {
    const n = Number(v);
    if (v === undefined || !Number.isFinite(n) || n < min || n > max) throw new Error(`${flag} needs a number from ${min} to ${max}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--tabs') opts.tabs = num(a, argv[++i], 1, 100);
    else if (a === '--visits') opts.visits = num(a, argv[++i], 1, 50);
    else if (a === '--gap') opts.gapSeconds = num(a, argv[++i], 0.5, 60);
    else if (a === '--kill-every') opts.killEveryMs = num(a, argv[++i], 100, 60_000);
    else if (a === '--dist') opts.dist = argv[++i];
    else if (a === '--json') opts.json = true;
    else if (a === '--no-build') opts.build = false;
    else throw new Error(`unknown argument ${JSON.stringify(a)}`);
  }
  return opts;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const root = new URL('../', import.meta.url).pathname;
  if (opts.build && !opts.dist) execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  const log = (s: string) => (opts.json ? process.stderr : process.stdout).write(`${s}\n`);
  const site = await startSite();
  const profile = mkdtempSync(join(tmpdir(), 'deja-read-bench-faults-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs(opts.dist ?? join(root, 'dist', 'chrome')) });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const extensionId = new URL(worker.url()).host;
    const control = await context.newPage();
    await control.goto(`chrome-extension://${extensionId}/src/options/index.html`);
    await control.evaluate(() => chrome.storage.sync.set({ settings: { dwellSeconds: 0 } }));
    const cdp = await context.newCDPSession(control);
    await cdp.send('ServiceWorker.enable');

    const visitsByUrl = async (): Promise<Map<string, number>> => {
      for (let attempt = 0; ; attempt++) {
        try {
          const reply = (await control.evaluate(() => chrome.runtime.sendMessage({ type: 'options:exportChunk', req: { limit: 10000, format: 'json', first: true } }))) as { ok: { text: string } };
          return new Map((JSON.parse(`[${reply.ok.text}]`) as Array<{ url: string; visits: number }>).map((p) => [p.url, p.visits]));
        } catch (e) {
          if (attempt > 20) throw e;
          await sleep(500);
        }
      }
    };

    // Every tab reads its own addresses: tab t, visit v.
    const urlOf = (t: number, v: number) => `${site.url(v % 2 ? 'enC' : 'zhA')}?tab=${t}&visit=${v}`;
    let killing = true;
    let kills = 0;
    const killer = (async () => {
      while (killing) {
        await sleep(opts.killEveryMs);
        if (killing) {
          await cdp.send('ServiceWorker.stopAllWorkers').catch(() => undefined);
          kills++;
        }
      }
    })();
    const tabs: Page[] = await Promise.all(Array.from({ length: opts.tabs }, () => context.newPage()));
    const t0 = performance.now();
    for (let v = 0; v < opts.visits; v++) {
      await Promise.all(tabs.map((tab, t) => tab.goto(urlOf(t, v)).catch(() => undefined)));
      await sleep(opts.gapSeconds * 1000);
    }
    killing = false;
    await killer;
    log(`${opts.tabs} tabs × ${opts.visits} visits in ${((performance.now() - t0) / 1000).toFixed(1)} s, background stopped ${kills} times`);

    // Let the retries land: until the history stops changing for 10 s (or 2 minutes in all).
    let last = '';
    let stableSince = performance.now();
    const settleStart = performance.now();
    let history = await visitsByUrl();
    while (performance.now() - stableSince < 10_000 && performance.now() - settleStart < 120_000) {
      await sleep(1000);
      history = await visitsByUrl();
      const now = JSON.stringify([...history]);
      if (now !== last) stableSince = performance.now();
      last = now;
    }
    let recorded = 0;
    let lost = 0;
    let duplicated = 0;
    for (let t = 0; t < opts.tabs; t++) {
      for (let v = 0; v < opts.visits; v++) {
        const n = history.get(urlOf(t, v)) ?? 0;
        recorded += Math.min(n, 1);
        lost += n === 0 ? 1 : 0;
        duplicated += Math.max(0, n - 1);
      }
    }
    const result = { tabs: opts.tabs, visits: opts.tabs * opts.visits, gapSeconds: opts.gapSeconds, killEveryMs: opts.killEveryMs, kills, recorded, lost, duplicated };
    if (opts.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else log(`visits: ${result.visits}, recorded ${recorded}, lost ${lost}, counted twice ${duplicated}`);
  } finally {
    await context.close();
    await site.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
