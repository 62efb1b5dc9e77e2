/// <reference types="chrome" />
// npm run bench:store -- --records N [--queries Q] [--json] [--no-build]
// The history store measured where it runs: the built extension in real Chromium, its own
// IndexedDB, driven from its options page through the same messages the options page sends.
// Seeds N synthetic records (import path: staged chunks, one commit), times candidate lookups at
// distance 3 and 7, export and re-import, and reads the background service worker's JS heap
// over the Chrome DevTools Protocol.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { ALGORITHM, blocksOf, encodeSketch, siteOf, SKETCH_BUCKETS, toHex } from '../src/core';
import { jsonHead, JSON_TAIL } from '../src/storage/history-file';
import { CHUNK, IMPORT_CHUNK } from '../src/options/history-transfer';
import type { PageRecord } from '../src/storage';
import type { Reply } from '../src/messaging/protocol';
import { CHROMIUM_PATH, chromiumArgs } from '../tests/e2e/browsers';
import { BenchError } from './bench-error';

const ROOT = new URL('../', import.meta.url).pathname;
const EXT = join(ROOT, 'dist', 'chrome');

/** Records per seeding message (the background takes at most 10,000). */
// The options page's own chunk size, so the benchmark writes as an import does.
const SEED_CHUNK = IMPORT_CHUNK;
/** Records per export message, as the options page reads them. */
const EXPORT_CHUNK = CHUNK;
/** Queries run before the timed ones, not counted. */
const WARMUP = 50;
/** Share of records that belong to a cluster of near-duplicates, and how many clusters are open at once. */
const CLUSTER_SHARE = 0.3;
const OPEN_CLUSTERS = 64;
const MAX_FLIPS = 6;
const SAMPLE = 4096;
const MIB = 1024 * 1024;

interface Options {
  records: number;
  queries: number;
  json: boolean;
  build: boolean;
  seed: number;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { records: 100_000, queries: 1000, json: false, build: true, seed: 20240601 };
  const count = (flag: string, value: string | undefined, min: number, max: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < min || n > max) throw new BenchError(`${flag} needs a whole number from ${min} to ${max}`, 2);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--records') opts.records = count(a, argv[++i], 1, 10_000_000);
    else if (a === '--queries') opts.queries = count(a, argv[++i], 1000, 1_000_000);
    else if (a === '--seed') opts.seed = count(a, argv[++i], 0, 2 ** 32 - 1);
    else throw new BenchError(`unknown argument ${JSON.stringify(a)}; usage: npm run bench:store -- --records N [--queries Q] [--seed S] [--json] [--no-build]`, 2);
  }
  return opts;
}

const log = (msg: string) => process.stderr.write(`bench:store: ${msg}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// --- Synthetic history ---

/** sfc32: a small, fast, seedable generator of unsigned 32-bit integers. */
function generator(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next = () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

type Fp = [number, number];

class Synth {
  private readonly u32: () => number;
  constructor(seed: number) {
    this.u32 = generator(seed);
  }
  u32n(): number {
    return this.u32();
  }
  /** Uniform in [0, 1). */
  unit(): number {
    return this.u32() / 2 ** 32;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.unit() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.unit() * xs.length)];
  }
  fp(): Fp {
    return [this.u32(), this.u32()];
  }
  /** `fp` with `k` distinct bits flipped. */
  flip([hi, lo]: Fp, k: number): Fp {
    const bits = new Set<number>();
    while (bits.size < k) bits.add(this.u32() & 63);
    for (const bit of bits) {
      if (bit < 32) lo ^= 1 << bit;
      else hi ^= 1 << (bit - 32);
    }
    return [hi >>> 0, lo >>> 0];
  }
  hex16(): string {
    return toHex(this.u32(), this.u32());
  }
}

const WORDS = ['river', 'market', 'policy', 'garden', 'energy', 'climate', 'music', 'history', 'science', 'travel', 'design', 'health', 'school', 'coffee', 'winter', 'ocean', 'city', 'data', 'model', 'engine', 'rust', 'browser', 'privacy', 'election', 'budget', 'football', 'recipe', 'museum', 'satellite', 'language', 'village', 'harbor', 'festival', 'review', 'interview', 'guide', 'report', 'update', 'analysis', 'letter'];
const YEAR_MS = 365.25 * 86_400_000;

interface Cluster {
  fp: Fp;
  left: number;
  title: string;
  textHash: string;
  textLength: number;
  lang: string;
}

/**
 * The synthetic history, generated lazily in chunks so a million records never sit in memory at
 * once. 70 % of the records have independent random fingerprints; 30 % belong to clusters of 2-20
 * near-duplicates (a base fingerprint with 0-6 bits flipped per member: reposts and revisions on
 * other sites), several clusters open at a time so their members are spread over the history.
 * Sites follow a skewed popularity, visits are mostly 1. A sample of stored fingerprints is kept
 * for the lookup queries.
 */
function* syntheticHistory(n: number, chunkSize: number, rnd: Synth, now: number, sample: Fp[]): Generator<PageRecord[]> {
  const open: Cluster[] = [];
  const words = (lo: number, hi: number) => Array.from({ length: rnd.int(lo, hi) }, () => rnd.pick(WORDS));
  const lang = () => {
    const u = rnd.unit();
    return u < 0.78 ? 'en' : u < 0.9 ? 'zh' : u < 0.95 ? 'ja' : '';
  };
  let chunk: PageRecord[] = [];
  for (let i = 0; i < n; i++) {
    let fp: Fp;
    let title: string;
    let textHash: string;
    let textLength: number;
    let language: string;
    if (rnd.unit() < CLUSTER_SHARE) {
      if (open.length < OPEN_CLUSTERS) {
        const t = words(3, 9).join(' ');
        open.push({ fp: rnd.fp(), left: rnd.int(2, 20), title: t.charAt(0).toUpperCase() + t.slice(1), textHash: rnd.hex16(), textLength: 150 + Math.floor(rnd.unit() ** 2 * 6000), lang: lang() });
      }
      const k = Math.floor(rnd.unit() * open.length);
      const c = open[k];
      const flips = rnd.int(0, MAX_FLIPS);
      fp = rnd.flip(c.fp, flips);
      // The same text gives the same fingerprint and text hash; an edited one differs in both.
      textHash = flips === 0 ? c.textHash : rnd.hex16();
      title = rnd.unit() < 0.7 ? c.title : `${c.title} | ${rnd.pick(WORDS)}`;
      textLength = Math.max(0, c.textLength + rnd.int(-40, 40));
      language = c.lang;
      if (--c.left === 0) {
        open[k] = open[open.length - 1];
        open.pop();
      }
    } else {
      fp = rnd.fp();
      const t = words(3, 12).join(' ');
      title = t.charAt(0).toUpperCase() + t.slice(1);
      textHash = rnd.hex16();
      textLength = 150 + Math.floor(rnd.unit() ** 2 * 6000);
      language = lang();
    }
    const siteNo = Math.floor(rnd.unit() ** 2.5 * 3000);
    const host = `${rnd.unit() < 0.3 ? 'www.' : ''}${WORDS[siteNo % WORDS.length]}${siteNo}.example${siteNo % 3 === 0 ? '.org' : '.com'}`;
    const url = `${rnd.unit() < 0.95 ? 'https' : 'http'}://${host}/${2015 + (siteNo % 11)}/${words(2, 5).join('-')}-${i.toString(36)}${rnd.unit() < 0.1 ? `?ref=${rnd.pick(WORDS)}` : ''}`;
    const visits = rnd.unit() < 0.75 ? 1 : 2 + Math.floor(rnd.unit() ** 3 * 40);
    const firstSeen = now - Math.floor(rnd.unit() * 3 * YEAR_MS);
    const lastSeen = visits > 1 ? firstSeen + Math.floor(rnd.unit() * (now - firstSeen)) : firstSeen;
    const hex = toHex(fp[0], fp[1]);
    const [b0, b1, b2, b3] = blocksOf(hex);
    // A verification sketch of the real size (its content does not matter to the store).
    const sketch = encodeSketch({ size: textLength, mins: Uint8Array.from({ length: SKETCH_BUCKETS }, () => rnd.int(0, 255)) });
    chunk.push({ url, canonicalUrl: url, site: siteOf(url), title, fp: hex, b0, b1, b2, b3, algo: ALGORITHM, textHash, sketch, textLength, lang: language, firstSeen, lastSeen, visits });
    // Reservoir sample of stored fingerprints, for queries that hit.
    if (i < SAMPLE) sample.push(fp);
    else {
      const j = Math.floor(rnd.unit() * (i + 1));
      if (j < SAMPLE) sample[j] = fp;
    }
    if (chunk.length === chunkSize) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Lookup queries: 35 % stored fingerprints, 35 % stored ones with 1-6 bits flipped, 30 % random. */
function makeQueries(count: number, sample: Fp[], rnd: Synth): string[] {
  return Array.from({ length: count }, () => {
    const u = rnd.unit();
    const fp = u < 0.35 ? rnd.pick(sample) : u < 0.7 ? rnd.flip(rnd.pick(sample), rnd.int(1, MAX_FLIPS)) : rnd.fp();
    return toHex(fp[0], fp[1]);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

// --- The options page as a driver ---

interface BenchGlobals {
  __name?: unknown;
  benchSend: (type: string, req: unknown) => Promise<unknown>;
  benchExport?: Blob[];
}

/** Installs, in the options page, a sender that unwraps the background's `{ok}` / `{error}` replies. */
async function installDriver(page: Page): Promise<void> {
  // tsx compiles this file with esbuild's keepNames, which wraps nested functions in __name(...):
  // give the page that helper so the functions below run there as written.
  await page.evaluate('globalThis.__name = globalThis.__name || ((f) => f)');
  await page.evaluate(() => {
    const g = globalThis as unknown as BenchGlobals;
    g.benchSend = async (type, req) => {
      const reply = (await chrome.runtime.sendMessage({ type, req })) as Reply<unknown> | undefined;
      if (!reply) throw new Error(`${type}: no answer from the background`);
      if ('error' in reply) throw new Error(`${type}: ${reply.error.name}: ${reply.error.message}`);
      return reply.ok;
    };
  });
}

function send<T>(page: Page, type: string, req: unknown): Promise<T> {
  return page.evaluate(({ type, req }) => (globalThis as unknown as BenchGlobals).benchSend(type, req), { type, req }) as Promise<T>;
}

interface ImportOutcome {
  added: number;
  merged: number;
  unchanged: number;
}

// --- The background's heap over the DevTools protocol ---

interface DevToolsTarget {
  type: string;
  url: string;
  webSocketDebuggerUrl?: string;
}

async function devToolsPort(profile: string): Promise<number> {
  const file = join(profile, 'DevToolsActivePort');
  for (let i = 0; i < 100; i++) {
    if (existsSync(file)) {
      const port = Number(readFileSync(file, 'utf8').split('\n')[0]);
      if (port > 0) return port;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Chromium wrote no ${file}`);
}

/** Used JS heap of the extension's service worker after a full GC, in MiB. */
async function serviceWorkerHeapMB(port: number, extensionId: string): Promise<number> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as DevToolsTarget[];
  const target = targets.find((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${extensionId}/`));
  if (!target?.webSocketDebuggerUrl) throw new Error('the extension service worker is not among the DevTools targets');
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  ws.onmessage = (event) => {
    const msg = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
    const p = msg.id === undefined ? undefined : pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id as number);
    if (msg.error) p.reject(new Error(msg.error.message));
    else p.resolve(msg.result);
  };
  const call = (method: string) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params: {} }));
    });
  try {
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error(`cannot connect to ${target.webSocketDebuggerUrl}`));
    });
    ws.onerror = () => {
      for (const p of pending.values()) p.reject(new Error('DevTools connection failed'));
    };
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const { usedSize } = (await call('Runtime.getHeapUsage')) as { usedSize: number };
    return usedSize / MIB;
  } finally {
    ws.close();
  }
}

/** The options page's own heap (`performance.memory`), when the service worker cannot be reached. */
function optionsPageHeapMB(page: Page): Promise<number> {
  return page.evaluate(() => ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? NaN) / (1024 * 1024));
}

// --- The benchmark ---

interface Result {
  records: number;
  insertPerSec: number;
  findP50Ms: number;
  findP95Ms: number;
  findProbeP50Ms: number;
  findProbeP95Ms: number;
  exportPerSec: number;
  importPerSec: number;
  heapMB: { before: number; after: number };
}

interface Details {
  browser: string;
  queries: number;
  stageMs: number;
  commitMs: number;
  perQueryD3: string;
  perQueryD7: string;
  exportMs: number;
  exportReadMs: number;
  exportBytes: number;
  importMs: number;
  importParseMs: number;
  importStageMs: number;
  importCommitMs: number;
  heapSource: string;
}

async function run(opts: Options, context: BrowserContext, profile: string): Promise<{ result: Result; details: Details }> {
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  await installDriver(page);

  const port = await devToolsPort(profile).catch(() => 0);
  const browser = port ? (((await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { Browser?: string }).Browser ?? 'Chromium') : 'Chromium';
  let heapSource = 'extension service worker, after GC, over CDP';
  const heap = async (): Promise<number> => {
    if (heapSource.startsWith('extension') && typeof WebSocket !== 'undefined' && port) {
      try {
        return await serviceWorkerHeapMB(port, extensionId);
      } catch (e) {
        log(`cannot read the service worker's heap (${e instanceof Error ? e.message : String(e)}); falling back to the options page's performance.memory`);
      }
    } else if (heapSource.startsWith('extension')) log('no WebSocket in this Node (run it with --experimental-websocket); falling back to the options page heap');
    heapSource = "OPTIONS PAGE's performance.memory (NOT the background)";
    return optionsPageHeapMB(page);
  };

  await send(page, 'options:clear', {});
  const { pages: empty } = await send<{ pages: number }>(page, 'options:stats', {});
  if (empty !== 0) throw new Error(`the fresh profile's history holds ${empty} pages`);
  const heapBefore = await heap();

  // Seeding through the batched import path: chunks staged, then the commit applies them.
  const rnd = new Synth(opts.seed);
  const sample: Fp[] = [];
  const seedId = randomUUID();
  let staged = 0;
  let seq = 0;
  let stageMs = 0;
  let lastReport = 0;
  const t0 = performance.now();
  for (const chunk of syntheticHistory(opts.records, SEED_CHUNK, rnd, Date.now(), sample)) {
    const ms = await page.evaluate(
      async ({ importId, seq, pages }) => {
        const start = performance.now();
        await (globalThis as unknown as BenchGlobals).benchSend('options:importChunk', { importId, seq, pages });
        return performance.now() - start;
      },
      { importId: seedId, seq, pages: chunk },
    );
    seq++;
    stageMs += ms;
    staged += chunk.length;
    if (staged - lastReport >= opts.records / 10 || staged === opts.records) {
      log(`staged ${staged}/${opts.records} records (${seconds(performance.now() - t0)})`);
      lastReport = staged;
    }
  }
  const commit = await page.evaluate(
    async ({ importId, digest, chunks, pages }) => {
      const start = performance.now();
      for (;;) {
        const step = (await (globalThis as unknown as BenchGlobals).benchSend('options:importCommit', { importId, digest, chunks, pages })) as { done: boolean; outcome: ImportOutcome };
        if (step.done) return { ms: performance.now() - start, added: step.outcome.added };
      }
    },
    { importId: seedId, digest: randomBytes(32).toString('hex'), chunks: seq, pages: staged },
  );
  const added = commit.added;
  log(`committed: ${added} added (${seconds(commit.ms)}; ${seconds(performance.now() - t0)} in all)`);
  if (added !== opts.records) throw new Error(`seeding added ${added} of ${opts.records} records`);

  // Candidate lookups, one at a time, the same queries at distance 3 and 7.
  const queries = makeQueries(WARMUP + opts.queries, sample, rnd);
  const lookups = async (maxDistance: number) => {
    const r = await page.evaluate(
      async ({ queries, maxDistance, warmup }) => {
        const g = globalThis as unknown as BenchGlobals;
        const times: number[] = [];
        let matches = 0;
        let candidates = 0;
        for (let i = 0; i < queries.length; i++) {
          const start = performance.now();
          const res = (await g.benchSend('history:findSimilar', { fp: queries[i], maxDistance })) as { matches: unknown[]; candidates?: unknown };
          const ms = performance.now() - start;
          if (i >= warmup) {
            times.push(ms);
            matches += res.matches.length;
            // Records the index lookups returned before the distance filter, where the background says.
            candidates = typeof res.candidates === 'number' && candidates >= 0 ? candidates + res.candidates : -1;
          }
        }
        return { times, matches, candidates };
      },
      { queries, maxDistance, warmup: WARMUP },
    );
    const sorted = r.times.sort((a, b) => a - b);
    const perQuery = `${(r.matches / sorted.length).toFixed(2)} matches${r.candidates >= 0 ? ` of ${(r.candidates / sorted.length).toFixed(1)} candidates` : ''} per query`;
    log(`findSimilar at distance ≤ ${maxDistance}: ${sorted.length} queries, p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p95 ${percentile(sorted, 0.95).toFixed(2)} ms, ${perQuery}`);
    return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), perQuery };
  };
  const d3 = await lookups(3);
  const d7 = await lookups(7);

  // Export: the history read in chunks of 5000 and turned into the JSON file's text, as the
  // options page's exportHistory does (head, one string per chunk, tail, one Blob). The chunks stay
  // in the page as Blobs for the re-import.
  const exported = await page.evaluate(
    async ({ head, tail, limit }) => {
      const g = globalThis as unknown as BenchGlobals;
      const start = performance.now();
      const { pages: total } = (await g.benchSend('options:stats', {})) as { pages: number };
      const chunks: Blob[] = [];
      let done = 0;
      let readMs = 0;
      let after: string | undefined;
      for (;;) {
        const r0 = performance.now();
        const chunk = (await g.benchSend('options:exportChunk', { afterUrl: after, limit, format: 'json', first: done === 0 })) as { text: string; count: number; lastUrl?: string };
        readMs += performance.now() - r0;
        if (chunk.count === 0) break;
        chunks.push(new Blob([chunk.text]));
        done += chunk.count;
        after = chunk.lastUrl;
      }
      const blob = new Blob([head, ...chunks, tail], { type: 'application/json' });
      const ms = performance.now() - start;
      g.benchExport = chunks;
      return { ms, readMs, pages: done, total, bytes: blob.size };
    },
    { head: jsonHead(new Date()), tail: JSON_TAIL, limit: EXPORT_CHUNK },
  );
  log(`exported ${exported.pages} records, ${(exported.bytes / 1e6).toFixed(1)} MB of JSON (${seconds(exported.ms)}; chunk reads ${seconds(exported.readMs)})`);
  if (exported.pages !== opts.records || exported.total !== opts.records) throw new Error(`the export holds ${exported.pages} records (stats say ${exported.total}), expected ${opts.records}`);

  // Import: clear, then the exported records back through importChunk / importCommit.
  await send(page, 'options:clear', {});
  const { pages: cleared } = await send<{ pages: number }>(page, 'options:stats', {});
  if (cleared !== 0) throw new Error(`after options:clear the history still holds ${cleared} pages`);
  const imported = await page.evaluate(
    async ({ importId, digest }) => {
      const g = globalThis as unknown as BenchGlobals;
      const chunks = g.benchExport ?? [];
      const start = performance.now();
      let parseMs = 0;
      let stageMs = 0;
      let seq = 0;
      let count = 0;
      for (const chunk of chunks) {
        const p0 = performance.now();
        let text = await chunk.text();
        if (text.startsWith(',\n')) text = text.slice(2);
        const pages = JSON.parse(`[${text}]`) as unknown[];
        const s0 = performance.now();
        parseMs += s0 - p0;
        await g.benchSend('options:importChunk', { importId, seq, pages });
        stageMs += performance.now() - s0;
        seq++;
        count += pages.length;
      }
      const c0 = performance.now();
      let outcome: ImportOutcome;
      for (;;) {
        const step = (await g.benchSend('options:importCommit', { importId, digest, chunks: seq, pages: count })) as { done: boolean; outcome: ImportOutcome };
        if (step.done) {
          outcome = step.outcome;
          break;
        }
      }
      const end = performance.now();
      g.benchExport = undefined;
      return { ms: end - start, parseMs, stageMs, commitMs: end - c0, outcome, pages: count };
    },
    { importId: randomUUID(), digest: randomBytes(32).toString('hex') },
  );
  log(`imported ${imported.pages} records: ${imported.outcome.added} added (${seconds(imported.ms)}; parse ${seconds(imported.parseMs)}, staging ${seconds(imported.stageMs)}, commit (applying) ${seconds(imported.commitMs)})`);
  if (imported.outcome.added !== opts.records) throw new Error(`the re-import added ${imported.outcome.added} of ${opts.records} records`);

  const heapAfter = await heap();
  const round = (x: number, digits: number) => Number(x.toFixed(digits));
  return {
    result: {
      records: opts.records,
      insertPerSec: Math.round(opts.records / ((stageMs + commit.ms) / 1000)),
      findP50Ms: round(d3.p50, 3),
      findP95Ms: round(d3.p95, 3),
      findProbeP50Ms: round(d7.p50, 3),
      findProbeP95Ms: round(d7.p95, 3),
      exportPerSec: Math.round(exported.pages / (exported.ms / 1000)),
      importPerSec: Math.round(imported.pages / (imported.ms / 1000)),
      heapMB: { before: round(heapBefore, 2), after: round(heapAfter, 2) },
    },
    details: {
      browser,
      queries: opts.queries,
      stageMs,
      commitMs: commit.ms,
      perQueryD3: d3.perQuery,
      perQueryD7: d7.perQuery,
      exportMs: exported.ms,
      exportReadMs: exported.readMs,
      exportBytes: exported.bytes,
      importMs: imported.ms,
      importParseMs: imported.parseMs,
      importStageMs: imported.stageMs,
      importCommitMs: imported.commitMs,
      heapSource,
    },
  };
}

function printTable(r: Result, d: Details): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const rows: [string, string, string][] = [
    ['insert (apply chunks + commit)', `${n(r.insertPerSec)} records/s`, `applying ${seconds(d.stageMs)}, commit ${seconds(d.commitMs)}`],
    ['findSimilar, d ≤ 3', `p50 ${r.findP50Ms.toFixed(2)} ms, p95 ${r.findP95Ms.toFixed(2)} ms`, d.perQueryD3],
    ['findSimilar, d ≤ 7 (probes)', `p50 ${r.findProbeP50Ms.toFixed(2)} ms, p95 ${r.findProbeP95Ms.toFixed(2)} ms`, d.perQueryD7],
    ['export (JSON text)', `${n(r.exportPerSec)} records/s`, `${seconds(d.exportMs)}, of it chunk reads ${seconds(d.exportReadMs)}; ${(d.exportBytes / 1e6).toFixed(1)} MB`],
    ['import (parse + stage + commit)', `${n(r.importPerSec)} records/s`, `parse ${seconds(d.importParseMs)}, staging ${seconds(d.importStageMs)}, commit (applying) ${seconds(d.importCommitMs)}`],
    ['JS heap (MiB)', `before ${r.heapMB.before.toFixed(2)}, after ${r.heapMB.after.toFixed(2)}`, d.heapSource],
  ];
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  console.log(`history store: ${n(r.records)} records in ${d.browser} (dist/chrome, its own IndexedDB); ${n(d.queries)} lookup queries, one at a time`);
  for (const [a, b, c] of rows) console.log(`  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
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
  if (!existsSync(join(EXT, 'manifest.json'))) throw new BenchError('dist/chrome is not built: run "npm run build", or leave out --no-build', 2);

  const profile = mkdtempSync(join(tmpdir(), 'deja-read-bench-store-'));
  let context: BrowserContext | undefined;
  let closing: Promise<void> | undefined;
  const cleanup = () =>
    (closing ??= (async () => {
      await context?.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    })());
  const onSignal = () => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(`launching ${CHROMIUM_PATH}`);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      handleSIGINT: false,
      handleSIGTERM: false,
      args: chromiumArgs(EXT, ['--remote-debugging-port=0']),
    });
    const { result, details } = await run(opts, context, profile);
    if (opts.json) console.log(JSON.stringify(result));
    else printTable(result, details);
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  // Playwright's errors carry a call log after the first line.
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0].replace(/^page\.evaluate: (Error: )?/, '');
  console.error(`bench:store: ${message}`);
  process.exitCode = e instanceof BenchError ? e.exitCode : 1;
});
