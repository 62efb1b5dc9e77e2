/// <reference types="chrome" />
// npm run bench:import -- [--records N] [--lean] [--dist DIR] [--json]
// How the options page fares while it imports a large history file: a synthetic file of N records
// is chosen in the built extension's options page in real Chromium, and the page's long tasks
// (Long Tasks API: any task of 50 ms or more) are read from the moment the file is chosen until
// the page says how the import ended (read and checked in its worker, sent, applied by the
// background). --dist measures another build (an older commit's dist/chrome, for a before/after).
// --lean: records without sketch and text hash.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, chromiumArgs, distDir } from '../tests/e2e/browsers';
import { writeSyntheticHistory } from '../tests/e2e/synthetic-history';

interface Window {
  start: number;
  end: number;
  longest: number;
  longTasks: number;
  blocked: number;
  frames: number;
  maxGap: number;
  status: string;
}

function parseArgs(argv: string[]) {
  const opts = { records: 100_000, dist: distDir('chrome'), json: false, lean: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--records') opts.records = Number(argv[++i]);
    else if (argv[i] === '--dist') opts.dist = argv[++i];
    else if (argv[i] === '--json') opts.json = true;
    else if (argv[i] === '--lean') opts.lean = true;
    else throw new Error(`unknown argument ${argv[i]}; usage: npm run bench:import -- [--records N] [--lean] [--dist DIR] [--json]`);
  }
  if (!Number.isInteger(opts.records) || opts.records < 1) throw new Error('--records needs a whole number ≥ 1');
  return opts;
}

const log = (msg: string) => process.stderr.write(`bench:import: ${msg}\n`);

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'deja-read-bench-import-'));
  try {
    const file = join(dir, 'history.json');
    log(`writing ${opts.records} records…`);
    const bytes = writeSyntheticHistory(file, opts.records, { lean: opts.lean });
    const context = await chromium.launchPersistentContext(join(dir, 'profile'), { executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs(opts.dist) });
    try {
      const sw = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
      const page = await context.newPage();
      await page.goto(`chrome-extension://${new URL(sw.url()).host}/src/options/index.html`);
      await page.locator('#stats').filter({ hasText: 'recorded' }).waitFor();
      // tsx compiles this file with esbuild's keepNames, which wraps nested functions in __name(...).
      await page.evaluate('globalThis.__name = globalThis.__name || ((f) => f)');
      await page.evaluate(() => {
        const w = { start: 0, end: 0, longest: 0, longTasks: 0, blocked: 0, frames: 0, maxGap: 0, status: '', tasks: [] as Array<[number, number]> };
        Object.assign(globalThis, { bench: w });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.tasks.push([e.startTime, e.duration]);
        }).observe({ type: 'longtask', buffered: true });
        document.getElementById('import-file')?.addEventListener('change', () => (w.start = performance.now()), { capture: true });
        const status = document.getElementById('export-status') as HTMLElement;
        new MutationObserver(() => {
          const text = status.textContent ?? '';
          if (w.start && !w.end && /^Imported|Nothing was imported|failed/.test(text)) {
            w.end = performance.now();
            w.status = text;
          }
        }).observe(status, { childList: true, characterData: true, subtree: true });
        const frame = () => {
          if (w.start && !w.end) w.frames++;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
        // The page's event loop: a timer every 20 ms, and the longest it waited between two runs.
        let last = performance.now();
        setInterval(() => {
          const now = performance.now();
          if (w.start && !w.end) w.maxGap = Math.max(w.maxGap, now - last);
          last = now;
        }, 20);
      });
      log(`choosing the file (${(bytes / 1024 / 1024).toFixed(1)} MiB)…`);
      await page.locator('#import-file').setInputFiles(file);
      await page.waitForFunction(() => (globalThis as unknown as { bench: Window }).bench.end > 0, undefined, { timeout: 0, polling: 500 });
      // Long tasks are reported after they end; give the observer a moment.
      await page.waitForTimeout(500);
      const w = await page.evaluate(() => {
        const b = (globalThis as unknown as { bench: Window & { tasks: Array<[number, number]> } }).bench;
        const inside = b.tasks.filter(([start, duration]) => start + duration > b.start && start < b.end);
        return { ...b, tasks: undefined, longest: Math.max(0, ...inside.map(([, d]) => d)), longTasks: inside.length, blocked: inside.reduce((n, [, d]) => n + d, 0) };
      });
      const result = {
        records: opts.records,
        lean: opts.lean,
        fileMiB: +(bytes / 1024 / 1024).toFixed(1),
        dist: opts.dist,
        importSeconds: +((w.end - w.start) / 1000).toFixed(2),
        longestTaskMs: Math.round(w.longest),
        longTasks: w.longTasks,
        blockedMs: Math.round(w.blocked),
        framesDrawn: w.frames,
        timerGapMs: Math.round(w.maxGap),
        status: w.status,
      };
      if (opts.json) console.log(JSON.stringify(result));
      else
        console.log(
          `${result.records} ${opts.lean ? 'lean ' : ''}records (${result.fileMiB} MiB), ${result.dist}\n` +
            `  from choosing the file to the end of the import: ${result.importSeconds} s\n` +
            `  longest task on the page: ${result.longestTaskMs} ms; ${result.longTasks} tasks ≥ 50 ms, ${result.blockedMs} ms in all\n` +
            `  frames drawn meanwhile: ${result.framesDrawn}; longest wait of a 20 ms timer: ${result.timerGapMs} ms\n  status: ${result.status}`,
        );
    } finally {
      await context.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  log(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
