/// <reference types="chrome" />
// npm run bench:page -- [--runs N] [--extension DIR] [--json] [--no-build] [--profile] [--cost [--idle SECONDS] [--pages plain,bare,shell,words] [--marks-off]] [--whatsnew] [--scroll]
// What the extension costs the page it reads, measured where it happens: two generated pages
// (a ~10 MB article and an article of 59,000 elements, our own text) served from 127.0.0.1 and
// loaded in real Chromium without and with the built extension (dist/chrome). Each load is traced
// (Chrome DevTools Protocol): the figures are the tasks of the page's main thread, the longest of
// all and the longest in which extension code ran (wall and CPU time), median of N loads. A
// 'longtask' PerformanceObserver registered by an init script before the page loads shows what
// the page itself can see. --extension DIR measures another build (an older one, to compare). With the extension, a load counts once the page is in the history (checked, then
// recorded: the dwell time is set to 0), so every task the extension adds is inside the window.
// --whatsnew measures instead what "Show what's new" costs: a 10,000-word article is read, then its
// revision with a new paragraph after every eighth; from the reader's click on the notice's button
// until the new parts are marked and a second has passed, the page's main-thread tasks (finding
// the passages in the DOM, drawing the boxes).
// --scroll measures what scrolling costs: the 59,000-element article (thousands of paragraphs with
// links) is loaded with link marks off, then on (or as the settings of --extension's build have
// them), left to settle, then scrolled by the mouse wheel, 400 px every 150 ms for 40 steps, while
// traced: the page's main-thread CPU in that time, its longest task, and the time Chromium spent
// computing IntersectionObserver targets.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';
import { CHROMIUM_PATH, chromiumArgs, chromiumBaseArgs } from '../tests/e2e/browsers';
import { BenchError } from './bench-error';
import { showWhatsNew } from './notice-cdp';
import { articleAndRevision, COST_PAGES, PAGES, serve } from './bench-page-site';

const ROOT = new URL('../', import.meta.url).pathname;
const EXT = join(ROOT, 'dist', 'chrome');
/** How long to keep observing after the page is recorded (or, without the extension, after load). */
const SETTLE_MS = 1500;
/** A load whose page is not recorded by then counts as skipped by the extension. */
const RECORD_TIMEOUT_MS = 60_000;

interface Options {
  runs: number;
  /** The unpacked extension to load; dist/chrome (built first) unless given. */
  extension: string;
  json: boolean;
  build: boolean;
  /** Sample the page's thread too, and name the functions the longest extension task ran. */
  profile: boolean;
  /** Measure instead what the extension costs every page: a page that is not an article, and a 10,000-word article against Readability alone. */
  cost: boolean;
  /** With --cost: seconds to keep watching each page after it has loaded (and been checked). */
  idle: number;
  /** With --cost: only these pages (by path: plain, bare, words). */
  costPages?: string[];
  /** With --cost: link marks turned off in the settings (what the marks cost, by difference). */
  marksOff: boolean;
  /** Measure "Show what's new" on a 10,000-word article instead. */
  whatsNew: boolean;
  /** Measure scrolling the 59,000-element article instead, link marks off and on. */
  scroll: boolean;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { runs: 3, extension: EXT, json: false, build: true, profile: false, cost: false, idle: 60, whatsNew: false, marksOff: false, scroll: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--profile') opts.profile = true;
    else if (a === '--cost') opts.cost = true;
    else if (a === '--marks-off') opts.marksOff = true;
    else if (a === '--pages') {
      const names = (argv[++i] ?? '').split(',');
      const known = COST_PAGES.map((p) => p.path as string);
      if (!names.every((n) => known.includes(n))) throw new BenchError(`--pages takes some of ${known.join(', ')}, separated by commas`, 2);
      opts.costPages = names;
    }
    else if (a === '--idle') {
      const n = Number(argv[++i]);
      if (!Number.isFinite(n) || n < 0 || n > 600) throw new BenchError('--idle needs a number of seconds from 0 to 600', 2);
      opts.idle = n;
    }
    else if (a === '--whatsnew') opts.whatsNew = true;
    else if (a === '--scroll') opts.scroll = true;
    else if (a === '--extension') {
      const dir = argv[++i];
      if (!dir) throw new BenchError('--extension needs the folder of an unpacked Chrome build', 2);
      opts.extension = resolve(dir);
      opts.build = false;
    } else if (a === '--runs') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 1 || n > 50) throw new BenchError('--runs needs a whole number from 1 to 50', 2);
      opts.runs = n;
    } else throw new BenchError(`unknown argument ${JSON.stringify(a)}; usage: npm run bench:page -- [--runs N] [--extension DIR] [--json] [--no-build] [--profile] [--cost [--idle SECONDS] [--pages plain,bare,shell,words] [--marks-off]] [--whatsnew] [--scroll]`, 2);
  }
  return opts;
}

const log = (msg: string) => process.stderr.write(`bench:page: ${msg}\n`);

// --- Measuring ---

interface Load {
  /** Longest task on the page's main thread, ms of wall time (0 when none reached 50 ms). */
  longest: number;
  /** Longest task on the page's main thread in which extension code ran: wall time, and thread (CPU) time, ms. */
  extLongest: number;
  extLongestCpu: number;
  /** Sum of the wall time of extension tasks over 50 ms, ms. */
  extOver50: number;
  /** Tasks in which extension code ran, and the longest of them that the page's 'longtask' observer saw. */
  extTasks: number;
  longtask: number;
  /** Whether the extension recorded the page (always false without it). */
  recorded: boolean;
  /** What the longest extension task spent its time on, for the log. */
  worstParts: string;
}

/** Registered before any of the page's own code: what the page itself can see of long tasks. */
const OBSERVER = `(() => {
  const tasks = [];
  Object.defineProperty(window, '__benchLongTasks', { value: tasks });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) tasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
})();`;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: {
    data?: {
      url?: string;
      frame?: string;
      functionName?: string;
      lineNumber?: number;
      columnNumber?: number;
      startTime?: number;
      cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
      timeDeltas?: number[];
    };
    beginData?: { url?: string };
  };
}

/** Trace events that mean script ran. */
const SCRIPT_EVENTS = new Set(['FunctionCall', 'EvaluateScript', 'TimerFire', 'v8.callFunction']);

/**
 * The page's main-thread tasks, from a trace: the thread is the one that parsed the page's HTML; a
 * task is a top-level event there (a posted task, or a microtask checkpoint run between tasks).
 * The generated pages run no script of their own, so a task in which script ran is the
 * extension's (its content script; the observer's callbacks are microseconds).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/**
 * With --profile: the functions sampled between `start` and `end` (trace microseconds) on the
 * page's thread, by self time, from the V8 sampling profiler's chunks in the same trace.
 */
function sampledFunctions(events: TraceEvent[], tid: number, start: number, end: number): string {
  const nodes = new Map<number, ProfileNode>();
  const self = new Map<string, number>();
  const profiles = new Map(events.filter((e) => e.name === 'Profile' && e.tid === tid).map((e) => [e.id, e.args?.data?.startTime ?? e.ts]));
  const clock = new Map<string | undefined, number>();
  for (const e of events) {
    if (e.name !== 'ProfileChunk' || !profiles.has(e.id)) continue;
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) nodes.set(n.id, n);
    const samples = e.args?.data?.cpuProfile?.samples ?? [];
    const deltas = e.args?.data?.timeDeltas ?? [];
    let t = clock.get(e.id) ?? profiles.get(e.id) ?? 0;
    samples.forEach((id, i) => {
      const next = t + (deltas[i] ?? 0);
      if (next >= start && next <= end) {
        const f = nodes.get(id)?.callFrame;
        const name = f ? `${f.functionName || '(anonymous)'} ${(f.url ?? '').split('/').pop() ?? ''}:${(f.lineNumber ?? 0) + 1}` : `node ${id}`;
        self.set(name, (self.get(name) ?? 0) + (next - t) / 1000);
      }
      t = next;
    });
    clock.set(e.id, t);
  }
  return [...self].sort((x, y) => y[1] - x[1]).slice(0, 8).map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`).join(', ');
}

interface Task {
  /** Trace microseconds. */
  start: number;
  end: number;
  tid: number;
  wall: number;
  cpu: number;
  extension: boolean;
  /** Wall time of the events inside the task, by name (nested events counted in each). */
  parts: Map<string, number>;
}

function tasksOf(events: TraceEvent[], url: string): Task[] {
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url);
  if (!parse) throw new Error(`the trace shows no parsing of ${url}`);
  return tasksOnThread(events, parse.pid, parse.tid);
}

function tasksOnThread(events: TraceEvent[], pid: number, tid: number): Task[] {
  const onThread = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined);
  onThread.sort((x, y) => x.ts - y.ts || (y.dur ?? 0) - (x.dur ?? 0));
  const tasks: Task[] = [];
  let end = -Infinity;
  for (const e of onThread) {
    const dur = e.dur ?? 0;
    const script = SCRIPT_EVENTS.has(e.name) || (e.name === 'BlinkScheduler_PerformMicrotaskCheckpoint' && dur >= 1000);
    if (e.ts >= end) {
      tasks.push({ start: e.ts, end: e.ts + dur, tid: e.tid, wall: dur / 1000, cpu: (e.tdur ?? dur) / 1000, extension: script, parts: new Map() });
      end = e.ts + dur;
    } else {
      const task = tasks[tasks.length - 1];
      if (script) task.extension = true;
      const d = e.args?.data;
      const name = e.name === 'FunctionCall' && d?.url ? `FunctionCall ${d.functionName || '(anonymous)'} ${d.url.split('/').pop() ?? ''}:${d.lineNumber ?? 0}:${d.columnNumber ?? 0}` : e.name;
      task.parts.set(name, (task.parts.get(name) ?? 0) + dur / 1000);
    }
  }
  return tasks;
}

/** The biggest parts of a task, for the log: "FunctionCall 40 ms, Layout 30 ms, …". */
function partsOf(task: Task | undefined): string {
  if (!task) return '';
  const top = [...task.parts].sort((x, y) => y[1] - x[1]).slice(0, 5);
  return top.map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join(', ');
}

/** Whether the extension's history holds `url`, read from its own IndexedDB in the service worker. */
function recorded(worker: Worker, url: string): Promise<boolean> {
  return worker.evaluate(
    (u) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('deja-read');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('blocks')) {
            db.close();
            resolve(false);
            return;
          }
          // A few pages: every block is read (the store keeps pages in blocks by number, docs/storage.md).
          const get = db.transaction('blocks').objectStore('blocks').getAll();
          get.onsuccess = () => {
            db.close();
            resolve((get.result as Array<{ pages: Array<{ url: string } | null> }>).some((b) => b.pages.some((p) => p?.url === u)));
          };
          get.onerror = () => {
            db.close();
            resolve(false);
          };
        };
      }),
    url,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(context: BrowserContext, worker: Worker | undefined, url: string, profile = false): Promise<Load> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    const categories = ['toplevel', 'devtools.timeline', 'v8', ...(profile ? ['disabled-by-default-v8.cpu_profiler', 'blink_gc', 'disabled-by-default-blink_gc', 'v8.gc'] : [])];
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    let wasRecorded = false;
    if (worker) {
      const end = Date.now() + RECORD_TIMEOUT_MS;
      while (!(wasRecorded = await recorded(worker, url)) && Date.now() < end) await sleep(100);
    }
    await sleep(SETTLE_MS);
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    const longtasks = await page.evaluate(() => (window as unknown as { __benchLongTasks: number[] }).__benchLongTasks);
    const tasks = tasksOf(events, url);
    const ext = tasks.filter((t) => t.extension);
    const max = (xs: number[]) => Math.max(0, ...xs);
    const worst = ext.reduce<Task | undefined>((w, t) => (!w || t.wall > w.wall ? t : w), undefined);
    return {
      worstParts: partsOf(worst) + (profile && worst ? `; sampled: ${sampledFunctions(events, worst.tid, worst.start, worst.end)}` : ''),
      longest: max(tasks.map((t) => t.wall).filter((d) => d >= 50)),
      extLongest: max(ext.map((t) => t.wall)),
      extLongestCpu: max(ext.map((t) => t.cpu)),
      extOver50: ext.filter((t) => t.wall >= 50).reduce((a, t) => a + t.wall, 0),
      extTasks: ext.length,
      longtask: max(longtasks),
      recorded: wasRecorded,
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
  }
}

interface CostLoad {
  /** CPU time (thread time) of the tasks in which extension code ran, ms: until the page was checked (and recorded), and after. */
  loadCpu: number;
  idleCpu: number;
  tasks: number;
  idleTasks: number;
  /** The longest of those tasks, wall ms. */
  longest: number;
  /** Each of those tasks while the page loaded: CPU ms and what it ran, for the log. */
  detail: string;
}

/**
 * What the extension costs one load of `url`: the page is loaded and checked (an article is also
 * recorded, the dwell time being 0), then watched for `idleSeconds` more, as a tab the reader
 * keeps open.
 */
async function measureCost(context: BrowserContext, worker: Worker, url: string, article: boolean, idleSeconds: number, profile = false): Promise<CostLoad> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    const categories = ['toplevel', 'devtools.timeline', 'v8', ...(profile ? ['disabled-by-default-v8.cpu_profiler'] : [])];
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
    const started = Date.now();
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    if (article) {
      const end = Date.now() + RECORD_TIMEOUT_MS;
      while (!(await recorded(worker, url)) && Date.now() < end) await sleep(100);
    }
    await sleep(SETTLE_MS);
    const idleFrom = Date.now() - started;
    await sleep(idleSeconds * 1000);
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    const tasks = tasksOf(events, url).filter((t) => t.extension);
    const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url);
    // Trace time of the end of the checking: the page started parsing within moments of the navigation.
    const idleStart = (parse?.ts ?? 0) + idleFrom * 1000;
    const idle = tasks.filter((t) => t.start >= idleStart);
    const sum = (ts: Task[]) => ts.reduce((n, t) => n + t.cpu, 0);
    const detail = tasks
      .filter((t) => t.start < idleStart)
      .map((t) => `${t.cpu.toFixed(1)} ms [${[...t.parts].sort((x, y) => y[1] - x[1]).slice(0, 2).map(([name, ms]) => `${name.split(' ')[0]} ${ms.toFixed(1)}`).join(', ')}]`)
      .join('; ');
    // With --profile: where the extension's tasks spent their time, by function (sampled).
    const sampled = profile
      ? tasks.filter((t) => t.start < idleStart).map((t) => sampledFunctions(events, t.tid, t.start, t.end)).filter(Boolean).join(' | ')
      : '';
    return { loadCpu: sum(tasks) - sum(idle), idleCpu: sum(idle), tasks: tasks.length, idleTasks: idle.length, longest: Math.max(0, ...tasks.map((t) => t.wall)), detail: sampled ? `${detail}; sampled: ${sampled}` : detail };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
  }
}

/** What Readability alone costs the page's thread on `url`, run in the page as extensions commonly do (wall ms). */
async function readabilityInPage(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.addScriptTag({ path: join(ROOT, 'node_modules', '@mozilla', 'readability', 'Readability.js') });
    return await page.evaluate(() => {
      const R = (window as unknown as { Readability: new (d: Document) => { parse(): unknown } }).Readability;
      const t0 = performance.now();
      new R(document.cloneNode(true) as Document).parse();
      return performance.now() - t0;
    });
  } finally {
    await page.close();
  }
}

async function costMain(opts: Options): Promise<void> {
  const costPages = COST_PAGES.filter((p) => !opts.costPages || opts.costPages.includes(p.path));
  const html = new Map<string, string>(COST_PAGES.map((p) => [p.path, p.html()]));
  const { origin, server } = await serve(html);
  const rows: Array<{ page: string; runs: number; loadCpuMs: number; idleCpuMs: number; idleSeconds: number; tasks: number; idleTasks: number; longestMs: number; readabilityMs?: number }> = [];
  try {
    const readability = new Map<string, number[]>();
    await withBrowser(undefined, async (context) => {
      for (const p of costPages.filter((x) => x.article)) {
        const times: number[] = [];
        for (let run = 1; run <= opts.runs; run++) times.push(await readabilityInPage(context, `${origin}/${p.path}/readability-${run}.html`));
        log(`${p.name}: Readability alone in the page: ${times.map((t) => `${t.toFixed(0)} ms`).join(', ')}`);
        readability.set(p.path, times);
      }
    });
    await withBrowser(opts.extension, async (context, worker) => {
      if (!worker) throw new BenchError('the extension did not start');
      for (const p of costPages) {
        const loads: CostLoad[] = [];
        for (let run = 1; run <= opts.runs; run++) {
          const load = await measureCost(context, worker, `${origin}/${p.path}/cost-${run}.html`, p.article, opts.idle, opts.profile);
          log(`${p.name}, run ${run}: extension CPU ${load.loadCpu.toFixed(1)} ms in ${load.tasks - load.idleTasks} tasks while the page loaded and was checked, then ${load.idleCpu.toFixed(1)} ms in ${load.idleTasks} tasks over ${opts.idle} s; longest task ${load.longest.toFixed(0)} ms; the tasks: ${load.detail}`);
          loads.push(load);
        }
        const r = readability.get(p.path);
        rows.push({
          page: p.name,
          runs: loads.length,
          loadCpuMs: median(loads.map((l) => l.loadCpu)),
          idleCpuMs: median(loads.map((l) => l.idleCpu)),
          idleSeconds: opts.idle,
          tasks: median(loads.map((l) => l.tasks - l.idleTasks)),
          idleTasks: median(loads.map((l) => l.idleTasks)),
          longestMs: median(loads.map((l) => l.longest)),
          readabilityMs: r && median(r),
        });
      }
    }, opts.marksOff ? { linkMarks: 'off' } : {});
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  if (opts.json) {
    console.log(JSON.stringify({ browser: CHROMIUM_PATH, extension: opts.extension, linkMarks: !opts.marksOff, loadAverage: loadavg(), cores: cpus().length, rows }));
    return;
  }
  console.log(`what the extension costs a page, in ${CHROMIUM_PATH}, headless; CPU (thread) time of the page's tasks in which extension code ran, from a trace; median of ${opts.runs} loads${opts.marksOff ? '; link marks off' : ''}`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const table = [
    ['page', 'extension CPU, load and check', `then over ${opts.idle} s`, 'longest extension task', 'Readability alone, in the page'],
    ...rows.map((r) => [r.page, `${ms(r.loadCpuMs)} (${r.tasks} tasks)`, `${ms(r.idleCpuMs)} (${r.idleTasks} tasks)`, ms(r.longestMs), r.readabilityMs === undefined ? '-' : `${ms(r.readabilityMs)} (wall)`]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table) console.log(`  ${row.map((c, i) => c.padEnd(widths[i])).join('  ')}`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

interface Row {
  page: string;
  extension: boolean;
  runs: number;
  /** Medians over the runs, ms. */
  longestMs: number;
  extLongestMs: number;
  extLongestCpuMs: number;
  extOver50Ms: number;
  longtaskMs: number;
  /** The longest extension task of the worst run, ms. */
  extLongestMaxMs: number;
  /** Loads the extension recorded (checked and saved), out of `runs`. */
  recorded: number;
}

async function withBrowser<T>(extension: string | undefined, body: (context: BrowserContext, worker: Worker | undefined) => Promise<T>, settings: Record<string, unknown> = {}): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'deja-read-bench-page-'));
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: extension ? chromiumArgs(extension) : chromiumBaseArgs(),
    });
    await context.addInitScript({ content: OBSERVER });
    let worker: Worker | undefined;
    if (extension) {
      worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
      // Pages count as read at once, so the whole of the extension's work falls in the window.
      await worker.evaluate((more) => chrome.storage.sync.set({ settings: { dwellSeconds: 0, ...more } }), settings);
      // The welcome tab opened on install is not part of the measurement.
      for (const p of context.pages()) if (p.url().startsWith('chrome-extension://')) await p.close();
    }
    return await body(context, worker);
  } finally {
    await context?.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  }
}

interface ShowLoad {
  longest: number;
  longestCpu: number;
  /** The most CPU any one task took (wall times stretch under load, thread times do not). */
  maxCpu: number;
  cpu: number;
  tasks: number;
  boxes: number;
}

interface ScrollLoad {
  /** CPU of the page's main thread while scrolling, its longest task (wall, and that task's CPU), IntersectionObserver computations. */
  cpu: number;
  longest: number;
  longestCpu: number;
  intersections: number;
  frames: number;
  /** What the tasks held, by event (wall ms), for the log. */
  parts: string;
  /** With --profile: the functions sampled, by time inside them (their callees included). */
  functions: string;
}

interface CpuProfile {
  nodes: Array<ProfileNode & { children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

/** The functions of a CPU profile by inclusive time (each counted once per sample), the top 10. */
function inclusiveTimes(profile: CpuProfile): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)?.callFrame;
      if (!f || ['(root)', '(idle)', '(program)'].includes(f.functionName)) continue;
      const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return [...total].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`).join(', ');
}

const SCROLL_STEPS = 40;

/** One run of --scroll: load the page, let the extension check it and draw, then trace while the wheel scrolls it. */
async function measureScroll(context: BrowserContext, worker: Worker, url: string, profile = false): Promise<ScrollLoad> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    const end = Date.now() + RECORD_TIMEOUT_MS;
    while (!(await recorded(worker, url)) && Date.now() < end) await sleep(100);
    await sleep(3000);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'blink'] }, transferMode: 'ReportEvents' });
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    await page.mouse.move(400, 300);
    for (let i = 0; i < SCROLL_STEPS; i++) {
      await page.mouse.wheel(0, 400);
      await sleep(150);
    }
    await sleep(500);
    const functions = profile ? inclusiveTimes(((await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile) : '';
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    // The page's main thread: the one that drew the frames (the only page open).
    const frames = new Map<string, number>();
    for (const e of events) if (e.name === 'WebFrameWidgetImpl::UpdateLifecycle') frames.set(`${e.pid}:${e.tid}`, (frames.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
    const busiest = [...frames].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (!busiest) throw new Error('the trace shows no frame drawn');
    const [pid, tid] = busiest.split(':').map(Number);
    const tasks = tasksOnThread(events, pid, tid);
    const longest = tasks.reduce<Task | undefined>((w, t) => (!w || t.wall > w.wall ? t : w), undefined);
    const onMain = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X');
    return {
      cpu: tasks.reduce((a, t) => a + t.cpu, 0),
      longest: longest?.wall ?? 0,
      longestCpu: longest?.cpu ?? 0,
      intersections: onMain.filter((e) => e.name === 'IntersectionObserverController::computeIntersections').reduce((a, e) => a + (e.dur ?? 0) / 1000, 0),
      frames: onMain.filter((e) => e.name === 'WebFrameWidgetImpl::UpdateLifecycle').length,
      functions,
      parts: partsOf({ ...tasks[0], parts: tasks.reduce((all, t) => { for (const [k, v] of t.parts) all.set(k, (all.get(k) ?? 0) + v); return all; }, new Map<string, number>()) }),
    };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
  }
}

async function mainScroll(opts: Options): Promise<void> {
  const node = PAGES.find((p) => p.path === 'nodes');
  if (!node) throw new Error('no 59,000-element page');
  const html = new Map<string, string>([['nodes', node.html()]]);
  const { origin, server } = await serve(html);
  const rows: Array<{ marks: string; runs: number; cpuMs: number; longestMs: number; longestCpuMs: number; intersectionsMs: number; frames: number }> = [];
  try {
    for (const linkMarks of ['off', 'on']) {
      await withBrowser(
        opts.extension,
        async (context, worker) => {
          if (!worker) throw new BenchError('no service worker');
          const loads: ScrollLoad[] = [];
          for (let run = 1; run <= opts.runs; run++) {
            const load = await measureScroll(context, worker, `${origin}/nodes/scroll-${linkMarks}-${run}.html`, opts.profile);
            log(`link marks ${linkMarks}, run ${run}: while scrolling, CPU ${load.cpu.toFixed(0)} ms on the page's thread in ${load.frames} frames, longest task ${load.longest.toFixed(0)} ms (CPU ${load.longestCpu.toFixed(0)} ms), IntersectionObserver ${load.intersections.toFixed(0)} ms; the tasks held ${load.parts}${load.functions ? `; sampled: ${load.functions}` : ''}`);
            loads.push(load);
          }
          const m = (f: (l: ScrollLoad) => number) => Math.round(median(loads.map(f)));
          rows.push({ marks: linkMarks, runs: loads.length, cpuMs: m((l) => l.cpu), longestMs: m((l) => l.longest), longestCpuMs: m((l) => l.longestCpu), intersectionsMs: m((l) => l.intersections), frames: m((l) => l.frames) });
        },
        { linkMarks },
      );
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  if (opts.json) {
    console.log(JSON.stringify({ browser: CHROMIUM_PATH, extension: opts.extension, steps: SCROLL_STEPS, loadAverage: loadavg(), cores: cpus().length, rows }));
    return;
  }
  console.log(`scrolling the 59,000-element article by the wheel, ${SCROLL_STEPS} steps of 400 px, in ${CHROMIUM_PATH}, headless, extension ${opts.extension}; the page's main thread, median of ${opts.runs} loads`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  for (const r of rows) console.log(`  link marks ${r.marks}: CPU ${r.cpuMs} ms in ${r.frames} frames, longest task ${r.longestMs} ms (its CPU ${r.longestCpuMs} ms), IntersectionObserver ${r.intersectionsMs} ms`);
}

/** One run of --whatsnew: read the article, open its revision, click "Show what's new", trace from the click. */
async function measureShow(context: BrowserContext, worker: Worker, oldUrl: string, newUrl: string): Promise<ShowLoad> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  try {
    const until = async (what: string, ok: () => Promise<boolean>) => {
      const end = Date.now() + RECORD_TIMEOUT_MS;
      while (!(await ok())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await sleep(100);
      }
    };
    await page.goto(oldUrl, { waitUntil: 'load' });
    await until('the article to be recorded', () => recorded(worker, oldUrl));
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel', 'devtools.timeline', 'v8', 'blink.user_timing'] }, transferMode: 'ReportEvents' });
    await page.goto(newUrl, { waitUntil: 'load' });
    await until('the revision to be recorded', () => recorded(worker, newUrl));
    await until('the notice', () => page.evaluate(() => document.querySelector('[data-deja-read=notice]') !== null));
    await sleep(SETTLE_MS);
    await page.evaluate(() => performance.mark('deja-read-show'));
    await showWhatsNew(page, cdp, "Show what's new");
    let boxes = 0;
    await until('the marks', async () => (boxes = await showWhatsNew(page, cdp)) > 0);
    await sleep(SETTLE_MS);
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    const mark = events.find((e) => e.name === 'deja-read-show');
    if (!mark) throw new Error('the trace holds no mark of the click');
    const after = tasksOf(events, newUrl).filter((t) => t.start >= mark.ts);
    const worst = after.reduce<Task | undefined>((w, t) => (!w || t.wall > w.wall ? t : w), undefined);
    return { longest: worst?.wall ?? 0, longestCpu: worst?.cpu ?? 0, maxCpu: Math.max(0, ...after.map((t) => t.cpu)), cpu: after.reduce((a, t) => a + t.cpu, 0), tasks: after.length, boxes };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
  }
}

async function mainWhatsNew(opts: Options): Promise<void> {
  const html = new Map<string, string>();
  let added = 0;
  for (let run = 1; run <= opts.runs; run++) {
    const pages = articleAndRevision(4000 + run, 10_000);
    html.set(`wn-old-${run}`, pages.old);
    html.set(`wn-new-${run}`, pages.revised);
    added = pages.added;
  }
  const { origin, server } = await serve(html);
  const loads: ShowLoad[] = [];
  try {
    await withBrowser(opts.extension, async (context, worker) => {
      if (!worker) throw new BenchError('no service worker');
      for (let run = 1; run <= opts.runs; run++) {
        const load = await measureShow(context, worker, `${origin}/wn-old-${run}/page.html`, `${origin}/wn-new-${run}/page.html`);
        log(`run ${run}: from the click, ${load.tasks} tasks, longest ${load.longest.toFixed(1)} ms (CPU ${load.longestCpu.toFixed(1)} ms), most CPU in one task ${load.maxCpu.toFixed(1)} ms, CPU ${load.cpu.toFixed(1)} ms in all; ${load.boxes} boxes drawn`);
        loads.push(load);
      }
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  const result = {
    article: '10,000 words',
    newParagraphs: added,
    runs: loads.length,
    longestTaskMs: Math.round(median(loads.map((l) => l.longest)) * 10) / 10,
    longestTaskCpuMs: Math.round(median(loads.map((l) => l.longestCpu)) * 10) / 10,
    worstLongestTaskMs: Math.round(Math.max(...loads.map((l) => l.longest)) * 10) / 10,
    maxTaskCpuMs: Math.round(Math.max(...loads.map((l) => l.maxCpu)) * 10) / 10,
    cpuMs: Math.round(median(loads.map((l) => l.cpu)) * 10) / 10,
    loadAverage: loadavg(),
  };
  if (opts.json) console.log(JSON.stringify(result));
  else {
    console.log(`"Show what's new" on a 10,000-word article with ${added} new paragraphs, in ${CHROMIUM_PATH}, headless; the page's main thread from the click until the marks are drawn and a second more, median of ${loads.length} runs`);
    console.log(`  longest task ${result.longestTaskMs} ms (its CPU ${result.longestTaskCpuMs} ms; worst run ${result.worstLongestTaskMs} ms), most CPU in one task in any run ${result.maxTaskCpuMs} ms, CPU in all ${result.cpuMs} ms; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores`);
  }
}

async function main(argv: string[]): Promise<void> {
  const opts = parseArgs(argv);
  if (!existsSync(CHROMIUM_PATH)) throw new BenchError(`Chromium not found at ${CHROMIUM_PATH}: install it with "apt-get install -y chromium", or set CHROMIUM_PATH to a Chromium binary.`, 2);
  if (opts.build) {
    log('npm run build');
    try {
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
    } catch {
      throw new BenchError('npm run build failed (its output is above)');
    }
  }
  if (!existsSync(join(opts.extension, 'manifest.json'))) throw new BenchError(`${opts.extension} holds no built extension: run "npm run build", or leave out --no-build`, 2);
  if (opts.cost) return costMain(opts);
  if (opts.whatsNew) return mainWhatsNew(opts);
  if (opts.scroll) return mainScroll(opts);

  const html = new Map(PAGES.map((p) => [p.path, p.html()]));
  for (const p of PAGES) log(`${p.name}: ${((html.get(p.path) ?? '').length / 1024 / 1024).toFixed(1)} MB of HTML`);
  const { origin, server } = await serve(html);
  const rows: Row[] = [];
  try {
    for (const extension of [false, true]) {
      await withBrowser(extension ? opts.extension : undefined, async (context, worker) => {
        for (const p of PAGES) {
          const loads: Load[] = [];
          for (let run = 1; run <= opts.runs; run++) {
            const load = await measure(context, worker, `${origin}/${p.path}/${extension ? 'with' : 'without'}-${run}.html`, opts.profile);
            const ms = (x: number) => `${x.toFixed(0)} ms`;
            log(
              `${p.name}, ${extension ? 'with' : 'without'} the extension, run ${run}: longest task ${ms(load.longest)}; extension: ${load.extTasks} tasks, longest ${ms(load.extLongest)} (CPU ${ms(load.extLongestCpu)}), ${ms(load.extOver50)} in tasks over 50 ms; 'longtask' saw at most ${ms(load.longtask)}${extension ? (load.recorded ? '' : ' (NOT recorded)') : ''}${extension ? `; the longest extension task held: ${load.worstParts}` : ''}`,
            );
            loads.push(load);
          }
          rows.push({
            page: p.name,
            extension,
            runs: loads.length,
            longestMs: Math.round(median(loads.map((l) => l.longest))),
            extLongestMs: Math.round(median(loads.map((l) => l.extLongest))),
            extLongestCpuMs: Math.round(median(loads.map((l) => l.extLongestCpu))),
            extOver50Ms: Math.round(median(loads.map((l) => l.extOver50))),
            longtaskMs: Math.round(median(loads.map((l) => l.longtask))),
            extLongestMaxMs: Math.round(Math.max(...loads.map((l) => l.extLongest))),
            recorded: loads.filter((l) => l.recorded).length,
          });
        }
      });
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }

  if (opts.json) {
    console.log(JSON.stringify({ browser: CHROMIUM_PATH, extension: opts.extension, linkMarks: !opts.marksOff, loadAverage: loadavg(), cores: cpus().length, rows }));
    return;
  }
  console.log(`the page's main thread in ${CHROMIUM_PATH}, headless, extension ${opts.extension}; tasks from a trace, median of ${opts.runs} loads`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} cores: wall times stretch when other processes take the CPU, thread (CPU) times do not`);
  const table = [
    ['page', 'extension', 'longest task', 'longest extension task (worst load)', 'its CPU time', 'extension tasks over 50 ms', "'longtask' saw"],
    ...rows.map((r) => [
      r.page,
      r.extension ? `with (recorded ${r.recorded}/${r.runs})` : 'without',
      `${r.longestMs} ms`,
      r.extension ? `${r.extLongestMs} ms (${r.extLongestMaxMs} ms)` : '-',
      r.extension ? `${r.extLongestCpuMs} ms` : '-',
      r.extension ? `${r.extOver50Ms} ms in all` : '-',
      `${r.longtaskMs} ms`,
    ]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  for (const row of table) console.log(`  ${row.map((c, i) => c.padEnd(widths[i])).join('  ')}`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0];
  console.error(`bench:page: ${message}`);
  process.exitCode = e instanceof BenchError ? e.exitCode : 1;
});
