/// <reference types="chrome" />
// npm run bench:store -- --records N [--queries Q] [--upgrade-from 2] [--no-passages] [--no-read-sets] [--profile] [--profile-import] [--profile-export] [--profile-search] [--json] [--no-build] [--extension DIR]
// The history store measured where it runs: the built extension in real Chromium, its own
// IndexedDB, driven from its options page through the same messages the options page sends.
// Seeds N synthetic records with passage signatures (import path, as ten imports of N/10 each, so
// the rate of the last tenth shows), measures the database's size in the profile, times the whole
// lookup a page's opening asks for (`content:pageSeen`, sent from the content script's own world
// in a tab: every matching layer and the verification), warm and with the background's worker just
// restarted, the fingerprint block lookups alone at distance 3 and 7, export and re-import, and
// reads the background service worker's JS heap over the Chrome DevTools Protocol. With
// `--upgrade-from 2`, also times the upgrade of an N-record version 2 database.
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { ALGORITHM, blocksOf, decodePassages, encodePassages, encodeSentPassages, encodeSketch, pageIdentity, pagePassages, PASSAGE_CAP, siteOf, SKETCH_BUCKETS, toHex } from '../src/core';
import { jsonHead, JSON_TAIL } from '../src/storage/history-file';
import { CHUNK, IMPORT_CHUNK } from '../src/options/history-transfer';
import type { PageRecord } from '../src/storage';
import type { Reply } from '../src/messaging/protocol';
import { CHROMIUM_PATH, chromiumArgs } from '../tests/e2e/browsers';
import { BenchError } from './bench-error';
import { editHashes, extensionIndexedDbBytes, percentile, smallestHashes, syntheticReadSet } from './bench-store-data';

const ROOT = new URL('../', import.meta.url).pathname;
const BUILT = join(ROOT, 'dist', 'chrome');

/** Records per seeding message (the background takes at most 10,000). */
// The options page's own chunk size, so the benchmark writes as an import does.
const SEED_CHUNK = IMPORT_CHUNK;
/** Records per export message, as the options page reads them. */
const EXPORT_CHUNK = CHUNK;
/** Queries run before the timed ones, not counted. */
const WARMUP = 50;
/** Cold round trips of the floor message (the worker stopped before each). */
const COLD_FLOOR_ROUNDS = 30;
/** Lookups timed each with the background's worker just restarted (of 20, one slow start decided the 95th percentile). */
const COLD_RUNS = 60;
/** The seeding goes in this many imports, timed each. */
const SEED_PARTS = 10;
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
  upgradeFrom?: 2;
  /** Seed records without passage signatures (no anchors): what the passage index costs the writes, by difference. */
  noPassages: boolean;
  /** Seed records without read sets, as the benchmark seeded them before 25 November 2026 (smaller blocks; nothing for "what's new" to decode). */
  noReadSets: boolean;
  /** Where the worker spends the warm lookups' time, by function (V8's sampling profiler). */
  profile: boolean;
  /** The same during the import of the exported file. */
  profileImport: boolean;
  /** The same while the history is exported. */
  profileExport: boolean;
  profileSearch: boolean;
  /** Another build's Chrome directory to measure (a build before a change, for comparison); implies --no-build. */
  extension?: string;
}

function parseArgs(argv: string[]): Options {
  const opts: Options = { records: 100_000, queries: 1000, json: false, build: true, seed: 20240601, noPassages: false, noReadSets: false, profile: false, profileImport: false, profileExport: false, profileSearch: false };
  const count = (flag: string, value: string | undefined, min: number, max: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isInteger(n) || n < min || n > max) throw new BenchError(`${flag} needs a whole number from ${min} to ${max}`, 2);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') opts.json = true;
    else if (a === '--no-build') opts.build = false;
    else if (a === '--no-passages') opts.noPassages = true;
    else if (a === '--no-read-sets') opts.noReadSets = true;
    else if (a === '--profile') opts.profile = true;
    else if (a === '--profile-import') opts.profileImport = true;
    else if (a === '--profile-export') opts.profileExport = true;
    else if (a === '--profile-search') opts.profileSearch = true;
    else if (a === '--extension') {
      const dir = argv[++i];
      if (!dir) throw new BenchError('--extension needs a directory (a built dist/chrome)', 2);
      opts.extension = resolve(dir);
      opts.build = false;
    }
    else if (a === '--records') opts.records = count(a, argv[++i], 1, 10_000_000);
    else if (a === '--queries') opts.queries = count(a, argv[++i], 1000, 1_000_000);
    else if (a === '--seed') opts.seed = count(a, argv[++i], 0, 2 ** 32 - 1);
    else if (a === '--upgrade-from') {
      if (argv[++i] !== '2') throw new BenchError('--upgrade-from takes 2 (the version whose upgrade is timed)', 2);
      opts.upgradeFrom = 2;
    } else throw new BenchError(`unknown argument ${JSON.stringify(a)}; usage: npm run bench:store -- --records N [--queries Q] [--seed S] [--upgrade-from 2] [--no-passages] [--no-read-sets] [--profile] [--profile-import] [--profile-export] [--profile-search] [--json] [--no-build] [--extension DIR]`, 2);
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
  /** The passage signature of the cluster's first text: its kept hashes and its count of passages. */
  hashes: number[];
  passages: number;
  /** The verification sketch's bucket minima of the cluster's first text. */
  mins: Uint8Array;
}

/** A stored record as the lookup queries start from: what a page's digest carries. */
export interface StoredSample {
  fp: Fp;
  textHash: string;
  sketch: string;
  hashes: number[];
  passages: number;
  words: number;
  lang: string;
}

/** Passages of a page of `words` word-equivalents: one sentence or paragraph per ~20 (at least one). */
const passagesOf = (words: number) => Math.max(1, Math.round(words / 20));
/** A signature's boundary form; a signature of fewer hashes than the cap holds them all, so its count is theirs. */
const encodeHashes = (hashes: number[], count: number) => encodePassages({ count: hashes.length < PASSAGE_CAP ? hashes.length : Math.max(count, hashes.length), hashes: Uint32Array.from(hashes), bits: 32 });

/**
 * The synthetic history, generated lazily in chunks so a million records never sit in memory at
 * once. 70 % of the records have independent random fingerprints; 30 % belong to clusters of 2-20
 * near-duplicates (a base fingerprint with 0-6 bits flipped per member: reposts and revisions on
 * other sites), several clusters open at a time so their members are spread over the history.
 * Sites follow a skewed popularity, visits are mostly 1. Each record has a passage signature as
 * core's passageSignature keeps it (the smallest of its passages' uniform 24-bit hashes, one
 * passage per ~20 words); a near-duplicate keeps each of its cluster's passages with probability
 * 1 - 0.06 × flips and has as many new ones instead. With `passages` false the records have no
 * signature (no anchors); with `v2Addresses` (by default when `passages` is false) they are keyed as
 * version 2 kept them, by the address as visited. With `readSets` (a generator of their own), each
 * record carries the read set a visit records for its length (syntheticReadSet). A sample of stored
 * records is kept for the lookup queries.
 */
function* syntheticHistory(n: number, chunkSize: number, rnd: Synth, now: number, sample: StoredSample[], passages = true, v2Addresses = !passages, readSets?: Synth): Generator<PageRecord[]> {
  const open: Cluster[] = [];
  const readSetUnit = readSets && (() => readSets.unit());
  const words = (lo: number, hi: number) => Array.from({ length: rnd.int(lo, hi) }, () => rnd.pick(WORDS));
  const unit = () => rnd.unit();
  const randomMins = () => Uint8Array.from({ length: SKETCH_BUCKETS }, () => rnd.int(0, 255));
  const lang = () => {
    const u = rnd.unit();
    return u < 0.78 ? 'en' : u < 0.9 ? 'zh' : u < 0.95 ? 'ja' : '';
  };
  let chunk: PageRecord[] = [];
  let previousUrl: string | undefined;
  for (let i = 0; i < n; i++) {
    let fp: Fp;
    let title: string;
    let textHash: string;
    let textLength: number;
    let language: string;
    let hashes: number[];
    let count: number;
    let mins: Uint8Array | undefined;
    if (rnd.unit() < CLUSTER_SHARE) {
      if (open.length < OPEN_CLUSTERS) {
        const t = words(3, 9).join(' ');
        const length = 150 + Math.floor(rnd.unit() ** 2 * 6000);
        const count = passagesOf(length);
        open.push({ fp: rnd.fp(), left: rnd.int(2, 20), title: t.charAt(0).toUpperCase() + t.slice(1), textHash: rnd.hex16(), textLength: length, lang: lang(), hashes: passages ? smallestHashes(count, PASSAGE_CAP, unit) : [], passages: count, mins: randomMins() });
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
      count = c.passages;
      hashes = !passages || flips === 0 ? c.hashes : editHashes(c.hashes, 1 - 0.06 * flips, Math.round(0.06 * flips * count), PASSAGE_CAP, unit);
      // Its sketch changed as its passages did: each bucket's minimum kept as a passage is.
      mins = c.mins.map((m) => (flips > 0 && rnd.unit() < 0.06 * flips ? rnd.int(0, 255) : m));
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
      count = passagesOf(textLength);
      hashes = passages ? smallestHashes(count, PASSAGE_CAP, unit) : [];
    }
    const siteNo = Math.floor(rnd.unit() ** 2.5 * 3000);
    const host = `${rnd.unit() < 0.3 ? 'www.' : ''}${WORDS[siteNo % WORDS.length]}${siteNo}.example${siteNo % 3 === 0 ? '.org' : '.com'}`;
    let url = `${rnd.unit() < 0.95 ? 'https' : 'http'}://${host}/${2015 + (siteNo % 11)}/${words(2, 5).join('-')}-${i.toString(36)}${rnd.unit() < 0.1 ? `?ref=${rnd.pick(WORDS)}` : ''}`;
    if (v2Addresses) {
      // Version 2 kept a record per address as visited: 3 % are the previous page again with a
      // tracking parameter (merged by the upgrade to version 5), 2 % carry a fragment (re-keyed).
      const u = rnd.unit();
      if (u < 0.03 && previousUrl) url = `${previousUrl.replace(/#.*$/, '')}${previousUrl.includes('?') ? '&' : '?'}utm_source=${rnd.pick(WORDS)}`;
      else if (u < 0.05) url = `${url}#${rnd.pick(WORDS)}`;
      previousUrl = url;
    }
    const visits = rnd.unit() < 0.75 ? 1 : 2 + Math.floor(rnd.unit() ** 3 * 40);
    const firstSeen = now - Math.floor(rnd.unit() * 3 * YEAR_MS);
    const lastSeen = visits > 1 ? firstSeen + Math.floor(rnd.unit() * (now - firstSeen)) : firstSeen;
    const hex = toHex(fp[0], fp[1]);
    const [b0, b1, b2, b3] = blocksOf(hex);
    // A verification sketch of the real size; a near-duplicate's like its cluster's, as a real
    // text's would be (with sketches of random content, until 28 November 2026, the decision saw
    // a cluster's members as unlike each other but for their passages).
    const sketch = encodeSketch({ size: textLength, mins: mins ?? randomMins() });
    const signature = passages ? { passages: encodeHashes(hashes, count) } : {};
    const readSet = readSetUnit ? { readSet: syntheticReadSet(textLength, count, readSetUnit) } : {};
    chunk.push({ url, canonicalUrl: url, site: siteOf(url), title, fp: hex, b0, b1, b2, b3, algo: ALGORITHM, textHash, sketch, ...signature, ...readSet, textLength, lang: language, firstSeen, lastSeen, visits });
    // Reservoir sample of stored records, for queries that hit.
    const stored = () => ({ fp, textHash, sketch, hashes, passages: count, words: textLength, lang: language });
    if (i < SAMPLE) sample.push(stored());
    else {
      const j = Math.floor(rnd.unit() * (i + 1));
      if (j < SAMPLE) sample[j] = stored();
    }
    if (chunk.length === chunkSize) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** Fingerprint-only queries: 35 % stored fingerprints, 35 % stored ones with 1-6 bits flipped, 30 % random. */
function makeQueries(count: number, sample: StoredSample[], rnd: Synth): string[] {
  return Array.from({ length: count }, () => {
    const u = rnd.unit();
    const fp = u < 0.35 ? rnd.pick(sample).fp : u < 0.7 ? rnd.flip(rnd.pick(sample).fp, rnd.int(1, MAX_FLIPS)) : rnd.fp();
    return toHex(fp[0], fp[1]);
  });
}

/** What a whole-lookup query stands for: a page read before, an edited copy, a page holding one, a new page. */
type QueryKind = 'same' | 'edited' | 'contains' | 'new';
const QUERY_KINDS: readonly QueryKind[] = ['same', 'edited', 'contains', 'new'];

interface PageQuery {
  kind: QueryKind;
  /** The content script's `content:pageSeen` request. */
  req: { url: string; title: string; lang: string; canonical: string[]; digest: { fp: string; words: number; lang: string; textHash: string; sketch: string; passages: string; readSet: string }; passages: string };
}

/** The hashes a signature's boundary form keeps. */
const decodeKept = (encoded: string): number[] => Array.from(decodePassages(encoded)?.hashes ?? []);

/**
 * What a content script sends besides the digest, for a page of `words` word-equivalents whose
 * signature keeps `kept`: every passage as hashes (each with its sampled runs, packed as it packs them),
 * cut from prose of made-up words in sentences of about 20, so both have the sizes a real page's
 * have. The passages' hashes are then set to those the signature implies (the kept ones first),
 * and to those of `held`, passages of a stored page the page holds whole that its own signature
 * did not keep, so they agree with the digest and with the page it holds.
 */
function sentWithDigest(words: number, kept: readonly number[], rnd: Synth, held: readonly number[] = []): string {
  const syllables = ['ka', 'ri', 'mo', 'tu', 'sel', 'van', 'dor', 'pe', 'lin', 'ga', 'ru', 'shi', 'fen', 'tor', 'ba'];
  const keptSet = new Set(kept);
  const known = [...kept, ...held.filter((h) => !keptSet.has(h))];
  // A sentence for each passage the hashes name, where the length alone would give fewer (a
  // cluster's pages share its passages but not its length): else some would go unsent.
  const sentences: string[] = [];
  for (let w = 0; w < words || sentences.length < known.length; w += 20) sentences.push(`${Array.from({ length: 20 }, () => syllables[rnd.int(0, 14)] + syllables[rnd.int(0, 14)]).join(' ')}.`);
  const text = sentences.join(' ');
  return encodeSentPassages(pagePassages(text).map(({ hash, chars, runs, tokens, para, words }, i) => ({ hash: i < known.length ? known[i] >>> 8 : hash, chars, runs, tokens, para, words })));
}

/**
 * Page reports as a content script sends them when a page is opened, at addresses of `origin`
 * (the tab the requests come from), none of them recorded: 30 % a stored page's text again
 * (fingerprint, text hash, sketch and passages equal), 25 % an edited copy of one (1-6 bits
 * flipped, passages kept with probability 0.8 and as many new), 15 % a page that holds a stored
 * one whole among as much new text (a far fingerprint: found only through the passage anchors),
 * 30 % a page like no other.
 */
function makeReports(count: number, sample: StoredSample[], rnd: Synth, origin: string): PageQuery[] {
  const unit = () => rnd.unit();
  const randomSketch = (size: number) => encodeSketch({ size, mins: Uint8Array.from({ length: SKETCH_BUCKETS }, () => rnd.int(0, 255)) });
  return Array.from({ length: count }, (_, i) => {
    const u = rnd.unit();
    const kind: QueryKind = u < 0.3 ? 'same' : u < 0.55 ? 'edited' : u < 0.7 ? 'contains' : 'new';
    const s = rnd.pick(sample);
    let fp: Fp;
    let digest: Omit<PageQuery['req']['digest'], 'fp' | 'readSet'>;
    if (kind === 'same') {
      fp = s.fp;
      digest = { words: s.words, lang: s.lang || 'und', textHash: s.textHash, sketch: s.sketch, passages: encodeHashes(s.hashes, s.passages) };
    } else if (kind === 'edited') {
      fp = rnd.flip(s.fp, rnd.int(1, MAX_FLIPS));
      const hashes = editHashes(s.hashes, 0.8, Math.round(0.2 * s.passages), PASSAGE_CAP, unit);
      digest = { words: s.words, lang: s.lang || 'und', textHash: rnd.hex16(), sketch: s.sketch, passages: encodeHashes(hashes, s.passages) };
    } else if (kind === 'contains') {
      fp = rnd.fp();
      const hashes = editHashes(s.hashes, 1, s.passages, PASSAGE_CAP, unit);
      digest = { words: 2 * s.words, lang: s.lang || 'und', textHash: rnd.hex16(), sketch: randomSketch(2 * s.words), passages: encodeHashes(hashes, 2 * s.passages) };
    } else {
      fp = rnd.fp();
      const words = 150 + Math.floor(rnd.unit() ** 2 * 6000);
      digest = { words, lang: 'en', textHash: rnd.hex16(), sketch: randomSketch(words), passages: encodeHashes(smallestHashes(passagesOf(words), PASSAGE_CAP, unit), passagesOf(words)) };
    }
    // A page holding a stored one has all its passages, among them those its own signature did not keep.
    const passages = sentWithDigest(digest.words, decodeKept(digest.passages), rnd, kind === 'contains' ? s.hashes : []);
    // The check leaves out the read set, which only a recorded visit keeps.
    return { kind, req: { url: `${origin}/page/${i}`, title: `Query ${i}`, lang: 'en', canonical: [], digest: { fp: toHex(fp[0], fp[1]), ...digest, readSet: '' }, passages } };
  });
}

// --- The options page as a driver ---

interface BenchGlobals {
  __name?: unknown;
  benchSend: (type: string, req: unknown) => Promise<unknown>;
  /** Bulk parcels, as the options page sends and receives an import's and an export's chunks (src/messaging/bulk.ts). */
  benchParcel: (body: unknown) => string;
  benchReceive: (id: string) => Promise<unknown>;
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
    // As the options page's BulkPort (messaging/bulk.ts): parcels for the background on its
    // channel, parcels for pages on the other.
    const channel = new BroadcastChannel('deja-read-bulk:pages');
    const toBackground = new BroadcastChannel('deja-read-bulk');
    const arrived = new Map<string, unknown>();
    const waiting = new Map<string, (body: unknown) => void>();
    channel.onmessage = (e: MessageEvent<{ id: string; body: unknown }>) => {
      const resolve = waiting.get(e.data.id);
      if (resolve) resolve(e.data.body);
      else arrived.set(e.data.id, e.data.body);
    };
    g.benchParcel = (body) => {
      const id = crypto.randomUUID();
      toBackground.postMessage({ id, body });
      return id;
    };
    g.benchReceive = (id) => {
      const body = arrived.get(id);
      arrived.delete(id);
      return body !== undefined ? Promise.resolve(body) : new Promise((resolve) => waiting.set(id, resolve));
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

/** A DevTools Protocol connection to the extension's service worker. */
async function workerDevTools(port: number, extensionId: string) {
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
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error(`cannot connect to ${target.webSocketDebuggerUrl}`));
  });
  ws.onerror = () => {
    for (const p of pending.values()) p.reject(new Error('DevTools connection failed'));
  };
  return {
    call: (method: string, params: object = {}) =>
      new Promise<unknown>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** Used JS heap of the extension's service worker after a full GC, with the array buffers it holds, in MiB. */
async function serviceWorkerHeapMB(port: number, extensionId: string): Promise<number> {
  const devTools = await workerDevTools(port, extensionId);
  try {
    await devTools.call('HeapProfiler.collectGarbage');
    await devTools.call('HeapProfiler.collectGarbage');
    // The JS heap, and the memory of typed arrays held (outside V8's heap: the columns are in it).
    const { usedSize, backingStorageSize } = (await devTools.call('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
    return (usedSize + (backingStorageSize ?? 0)) / MIB;
  } finally {
    devTools.close();
  }
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * Where the worker's time went while `during` ran (--profile): V8's sampling profiler, every 50 µs,
 * self time by function, the busiest first (with, for the five busiest, the callers of most of their
 * time: a native function's name alone seldom says whose work it is), and how much of the time it
 * was idle.
 */
async function profileWorker(port: number, extensionId: string, during: () => Promise<void>): Promise<string> {
  const devTools = await workerDevTools(port, extensionId);
  try {
    await devTools.call('Profiler.enable');
    await devTools.call('Profiler.setSamplingInterval', { interval: 50 });
    await devTools.call('Profiler.start');
    await during();
    const { profile } = (await devTools.call('Profiler.stop')) as { profile: CpuProfile };
    const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
    const parentOf = new Map<number, number>();
    for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
    const nameOf = (id: number | undefined) => {
      const f = id === undefined ? undefined : byNode.get(id);
      return f ? `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}` : '?';
    };
    const self = new Map<string, number>();
    const callers = new Map<string, Map<string, number>>();
    let total = 0;
    (profile.samples ?? []).forEach((id, i) => {
      const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
      const name = nameOf(id);
      self.set(name, (self.get(name) ?? 0) + ms);
      const by = callers.get(name) ?? new Map<string, number>();
      const caller = nameOf(parentOf.get(id));
      by.set(caller, (by.get(caller) ?? 0) + ms);
      callers.set(name, by);
      total += ms;
    });
    const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((n, [, v]) => n + v, 0);
    const busiest = [...self].filter(([k]) => !k.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 25);
    const lines = busiest.map(([k, v], rank) => {
      const line = `  ${v.toFixed(1).padStart(7)} ms  ${k}`;
      if (rank >= 5) return line;
      const top = [...(callers.get(k) ?? [])].sort((a, b) => b[1] - a[1]).slice(0, 3);
      return [line, ...top.map(([c, ms]) => `             ${ms.toFixed(1).padStart(7)} ms from ${c}`)].join('\n');
    });
    return [`${(total - idle).toFixed(0)} ms busy of ${total.toFixed(0)} ms sampled`, ...lines].join('\n');
  } finally {
    devTools.close();
  }
}

/** The options page's own heap (`performance.memory`), when the service worker cannot be reached. */
function optionsPageHeapMB(page: Page): Promise<number> {
  return page.evaluate(() => ((performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? NaN) / (1024 * 1024));
}

// --- Driving the background: imports, its worker, the content script's world ---

/** One import through the options page's messages: chunks staged, then committed until done. */
async function importChunks(page: Page, chunks: PageRecord[][]): Promise<{ records: number; stageMs: number; commitMs: number; added: number }> {
  const importId = randomUUID();
  let stageMs = 0;
  let records = 0;
  for (const [seq, pages] of chunks.entries()) {
    stageMs += await page.evaluate(
      async ({ importId, seq, pages }) => {
        // As the options page's worker sends records (checked, as blocks keep them): no derived
        // field, the canonical address only where it differs, encoded values as bytes.
        const fromBase64 = (Uint8Array as unknown as { fromBase64(s: string): Uint8Array }).fromBase64;
        const stored = pages.map(({ site: _s, b0: _0, b1: _1, b2: _2, b3: _3, canonicalUrl, sketch, passages, readSet, ...rest }) => ({
          ...rest,
          ...(canonicalUrl !== rest.url ? { canonicalUrl } : {}),
          ...(sketch !== undefined ? { sketch: fromBase64(sketch) } : {}),
          ...(passages !== undefined ? { passages: fromBase64(passages) } : {}),
          ...(readSet !== undefined ? { readSet: fromBase64(readSet) } : {}),
        }));
        const start = performance.now();
        const g = globalThis as unknown as BenchGlobals;
        await g.benchSend('options:importChunk', { importId, seq, parcel: g.benchParcel(stored) });
        return performance.now() - start;
      },
      { importId, seq, pages },
    );
    records += pages.length;
  }
  const commit = await page.evaluate(
    async ({ importId, digest, chunks, pages }) => {
      const start = performance.now();
      for (;;) {
        const step = (await (globalThis as unknown as BenchGlobals).benchSend('options:importCommit', { importId, digest, chunks, pages })) as { done: boolean; outcome: ImportOutcome };
        if (step.done) return { ms: performance.now() - start, added: step.outcome.added };
      }
    },
    { importId, digest: randomBytes(32).toString('hex'), chunks: chunks.length, pages: records },
  );
  return { records, stageMs, commitMs: commit.ms, added: commit.added };
}

/** `n` records of a stream, in chunks of `size`. */
function take(records: Iterator<PageRecord>, n: number, size: number): PageRecord[][] {
  const chunks: PageRecord[][] = [];
  for (let left = n; left > 0; ) {
    const chunk: PageRecord[] = [];
    while (chunk.length < Math.min(size, left)) {
      const next = records.next();
      if (next.done) break;
      chunk.push(next.value);
    }
    if (chunk.length === 0) break;
    chunks.push(chunk);
    left -= chunk.length;
  }
  return chunks;
}

function* flatten<T>(chunks: Iterable<T[]>): Generator<T> {
  for (const chunk of chunks) yield* chunk;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The background's service worker, stopped on demand (CDP `ServiceWorker.stopAllWorkers` from the
 * options page, as tests/e2e/chromium-faults.e2e.ts does), waiting until the browser reports it
 * stopped, so the next message starts it afresh.
 */
class WorkerControl {
  private readonly running = new Map<string, string>();
  private constructor(
    private readonly cdp: CDPSession,
    private readonly scope: string,
  ) {
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions) if (v.scriptURL.startsWith(this.scope)) this.running.set(v.versionId, v.runningStatus);
    });
  }

  static async attach(context: BrowserContext, page: Page, extensionId: string): Promise<WorkerControl> {
    const cdp = await context.newCDPSession(page);
    const control = new WorkerControl(cdp, `chrome-extension://${extensionId}/`);
    await cdp.send('ServiceWorker.enable');
    return control;
  }

  async stop(): Promise<void> {
    await this.cdp.send('ServiceWorker.stopAllWorkers');
    for (let i = 0; i < 100 && [...this.running.values()].some((s) => s !== 'stopped'); i++) await sleep(50);
    if ([...this.running.values()].some((s) => s !== 'stopped')) throw new Error('the background worker did not stop within 5 s');
  }
}

/**
 * The size of the extension's database on disk once the writes are flushed: the worker is stopped
 * (closing its connection, so Chromium closes the LevelDB database a few seconds later, after its
 * closing work), then the directories are read every second until they keep one size for 3 s.
 */
async function settledDbBytes(workers: WorkerControl, profile: string, extensionId: string): Promise<{ bytes: number; waitedMs: number }> {
  await workers.stop();
  const t0 = performance.now();
  let last = -1;
  let same = 0;
  for (let i = 0; i < 60 && same < 3; i++) {
    await sleep(1000);
    const bytes = extensionIndexedDbBytes(profile, extensionId);
    same = bytes === last ? same + 1 : 0;
    last = bytes;
  }
  return { bytes: last, waitedMs: performance.now() - t0 };
}

/** A page with too little text to be an article: the content script runs in it but reports nothing of its own. */
function startQuietSite(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title></head><body><p>Lookups are sent from here.</p></body></html>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * The content script's isolated world in a tab, reached over CDP: requests sent from there are
 * what the background gets from a content script (a tab, its URL, frame 0), checked and answered
 * by the same handler.
 */
class ContentWorld {
  private constructor(
    private readonly cdp: CDPSession,
    private readonly contextId: number,
  ) {}

  static async open(context: BrowserContext, url: string, extensionId: string): Promise<ContentWorld> {
    const tab = await context.newPage();
    const cdp = await context.newCDPSession(tab);
    const worlds: Array<{ id: number; origin: string; auxData?: { isDefault?: boolean } }> = [];
    cdp.on('Runtime.executionContextCreated', ({ context: c }) => worlds.push(c as (typeof worlds)[number]));
    await cdp.send('Runtime.enable');
    await tab.goto(url);
    const origin = `chrome-extension://${extensionId}`;
    for (let i = 0; i < 200; i++) {
      const world = worlds.find((w) => w.origin === origin && w.auxData?.isDefault === false);
      if (world) return new ContentWorld(cdp, world.id);
      await sleep(50);
    }
    throw new Error(`no content script world of the extension in ${url}`);
  }

  /** Runs `fn` (plain JavaScript source of an async function) on `arg` in the content script's world. */
  async call<T>(fn: string, arg: unknown): Promise<T> {
    const r = await this.cdp.send('Runtime.evaluate', { expression: `(${fn})(${JSON.stringify(arg)})`, contextId: this.contextId, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails) throw new Error(`in the content script's world: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value as T;
  }
}

/**
 * Sends each request as `content:pageSeen`, one at a time, and times each round trip as the
 * content script waits for it. A string, not a function, so no compiler helper leaks into it.
 */
const PAGE_SEEN_TIMES = `async (requests) => {
  const out = [];
  for (const req of requests) {
    const start = performance.now();
    const reply = await chrome.runtime.sendMessage({ type: 'content:pageSeen', req });
    const ms = performance.now() - start;
    if (!reply || 'error' in reply) throw new Error('content:pageSeen: ' + (reply ? reply.error.name + ': ' + reply.error.message : 'no answer'));
    if (reply.ok.skipped) throw new Error('content:pageSeen: the page was skipped (' + reply.ok.skipped + ')');
    out.push({ ms, match: reply.ok.match ? reply.ok.match.kind : null });
  }
  return out;
}`;

/**
 * The same round trip with nothing to do: a message the background's router refuses at once from
 * a content script (an extension page's, options:wake), answered with an error and no work, each
 * carrying one of `payloads` (empty, or a lookup's own report). What any lookup costs before it does
 * anything, on this machine: the floor under the lookups' times.
 */
const FLOOR_TIMES = `async (payloads) => {
  const out = [];
  for (const req of payloads) {
    const start = performance.now();
    const reply = await chrome.runtime.sendMessage({ type: 'options:wake', req });
    out.push(performance.now() - start);
    if (!reply || !('error' in reply) || reply.error.name !== 'Forbidden') throw new Error('options:wake from a content script: not refused at once');
  }
  return out;
}`;

interface Timed {
  ms: number;
  match: string | null;
}

interface Spread {
  p50: number;
  p95: number;
}

const spread = (times: number[]): Spread => {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
};

/** Shares of the queries of each kind that were answered with a match, e.g. "same 300/300". */
function foundByKind(queries: PageQuery[], answers: Timed[]): string {
  return QUERY_KINDS.map((kind) => {
    const mine = answers.filter((_, i) => queries[i].kind === kind);
    return `${kind} ${mine.filter((a) => a.match).length}/${mine.length}`;
  }).join(', ');
}

/** Answers that tell a lookup went wrong: no match for a page read before, a copy or a page holding one; a match for a new page. */
const unexpectedAnswers = (queries: PageQuery[], answers: Timed[]) => answers.filter((a, i) => (queries[i].kind === 'new') === Boolean(a.match)).length;

/** The lookup's spread for each kind of page asked about (a page read before costs the read of its record's block; a new one does not). */
function spreadByKind(queries: PageQuery[], answers: Timed[]): Record<QueryKind, Spread> {
  return Object.fromEntries(QUERY_KINDS.map((kind) => [kind, spread(answers.filter((_, i) => queries[i].kind === kind).map((a) => a.ms))])) as Record<QueryKind, Spread>;
}

// --- The upgrade from version 7 ---

/**
 * The naming of the pages that follows an upgrade from version 7 (PageRepository.nameOldPages),
 * done again over a connection of the page's own: 4 groups of 256 pages (64 blocks) a
 * transaction, the highest first, each group's blocks read and its names written (the same names:
 * each page's address and title, by its number within the group). The whole, and the longest
 * transaction (what a visit may wait for meanwhile).
 */
const NAME_PAGES = `async () => {
  const done = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
  const db = await done(indexedDB.open('deja-read'));
  try {
    // A build of version 7 or before (--extension) has no names to write.
    if (!db.objectStoreNames.contains('names')) return { ms: 0, longestMs: 0, groups: 0 };
    const start = performance.now();
    const keys = await done(db.transaction('blocks').objectStore('blocks').getAllKeys());
    let high = keys.length ? Math.floor(keys[keys.length - 1] / 16) + 1 : 0;
    let longest = 0;
    let count = 0;
    while (high > 0) {
      const t = performance.now();
      const low = Math.max(0, high - 4);
      const tx = db.transaction(['blocks', 'names'], 'readwrite');
      const blocks = tx.objectStore('blocks');
      const range = IDBKeyRange.bound(low * 16, high * 16 - 1);
      const [values, got] = await Promise.all([done(blocks.getAll(range)), done(blocks.getAllKeys(range))]);
      const groups = new Map();
      got.forEach((b, i) => {
        const g = Math.floor(b / 16);
        const pages = groups.get(g) ?? new Array(256).fill(null);
        values[i].pages.slice(0, 16).forEach((p, slot) => { if (p) pages[(b % 16) * 16 + slot] = [p.url, p.title]; });
        groups.set(g, pages);
      });
      for (const [g, pages] of groups) tx.objectStore('names').put({ pages }, g);
      await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); tx.onabort = () => reject(tx.error); });
      longest = Math.max(longest, performance.now() - t);
      count += groups.size;
      high = low;
    }
    return { ms: performance.now() - start, longestMs: longest, groups: count };
  } finally {
    db.close();
  }
}`;

// --- The upgrade of a version 2 database ---

/** Creates database `deja-read` at version 2 in the extension page, with the stores and indexes version 2 had (tests/unit/page-identity-upgrade.test.ts). */
const CREATE_V2 = `async () => {
  await new Promise((resolve, reject) => {
    const del = indexedDB.deleteDatabase('deja-read');
    del.onsuccess = resolve;
    del.onerror = () => reject(del.error);
    del.onblocked = () => reject(new Error('deleting the database is blocked: a connection is still open'));
  });
  await new Promise((resolve, reject) => {
    const open = indexedDB.open('deja-read', 2);
    open.onupgradeneeded = () => {
      const db = open.result;
      const pages = db.createObjectStore('pages', { keyPath: 'url' });
      for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen', 'canonicalUrl', 'textHash']) pages.createIndex(name, name);
      db.createObjectStore('dismissals', { keyPath: 'pair' });
      db.createObjectStore('imports', { keyPath: 'digest' });
      db.createObjectStore('journal', { keyPath: ['importId', 'first'] });
    };
    open.onsuccess = () => { globalThis.benchV2 = open.result; resolve(); };
    open.onerror = () => reject(open.error);
  });
}`;

/** Writes records into the open version 2 database, one transaction per chunk, as version 2 stored them (keyed by the address as visited). */
const PUT_V2 = `async (records) => {
  const tx = globalThis.benchV2.transaction('pages', 'readwrite');
  const pages = tx.objectStore('pages');
  for (const r of records) pages.put(r);
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); tx.onabort = () => reject(tx.error); });
  return records.length;
}`;

const CLOSE_V2 = `async () => { globalThis.benchV2.close(); globalThis.benchV2 = undefined; }`;

/** Records left in the store the upgrade empties after it (old-pages.ts), read over a connection of the page's own. */
const OLD_PAGES_LEFT = `async () => {
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open('deja-read');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  try {
    if (!db.objectStoreNames.contains('pages')) return 0;
    const count = db.transaction('pages').objectStore('pages').count();
    return await new Promise((resolve, reject) => { count.onsuccess = () => resolve(count.result); count.onerror = () => reject(count.error); });
  } finally {
    db.close();
  }
}`;

/** The records of these URLs, read back through the export messages (as the reader's export would write them). */
const READ_RECORDS = `async (urls) => {
  const wanted = new Set(urls);
  const found = new Map();
  let after;
  for (;;) {
    const chunk = await globalThis.benchSend('options:exportChunk', { after, limit: 5000, format: 'json', first: after === undefined });
    if (chunk.count === 0) break;
    for (const r of JSON.parse('[' + chunk.text.replace(/^,\\n/, '') + ']')) if (wanted.has(r.url)) found.set(r.url, r);
    after = chunk.next;
  }
  return urls.map((u) => found.get(u) ?? null);
}`;

interface UpgradeResult {
  fromVersion: 2;
  records: number;
  pagesAfter: number;
  /** The first message after the worker restarted: the worker's start, the upgrade, and a count. */
  ms: number;
  /** The same message again, worker restarted, database already upgraded: the start alone. */
  startMs: number;
  /** From the first answer until the old store was empty (the background empties it after answering). */
  oldStoreEmptiedMs: number;
  seedMs: number;
  sampleChecked: number;
}

/**
 * Seeds the extension's database at version 2 from the options page (the worker stopped, so it
 * holds no connection), N records as version 2 stored them, then wakes the worker with a message:
 * it opens the database at the current version, whose upgrade carries every record over
 * (open.ts). Then checks the count (records of one page under several addresses are merged, as
 * version 5 merged them: as many as there are distinct page identities) and compares a sample field by field.
 */
async function upgradeFromV2(opts: Options, page: Page, workers: WorkerControl): Promise<UpgradeResult> {
  await send(page, 'options:clear', {});
  await workers.stop();
  // Source strings evaluated over CDP (the extension page's policy forbids eval, not DevTools).
  const call = <T>(fn: string, arg?: unknown) => page.evaluate(`(${fn})(${JSON.stringify(arg ?? null)})`) as Promise<T>;
  await call(CREATE_V2);
  const rnd = new Synth(opts.seed ^ 0x5bd1e995);
  /** Records of each page identity; a sample of the records stored under their identity, to compare after. */
  const identities = new Map<string, number>();
  const sampled: PageRecord[] = [];
  const t0 = performance.now();
  let seeded = 0;
  for (const chunk of syntheticHistory(opts.records, 5000, rnd, Date.now(), [], false)) {
    await call(PUT_V2, chunk);
    for (const r of chunk) {
      const id = pageIdentity(r.url);
      if (id === r.url && sampled.length < 1000 && rnd.unit() < 0.01) sampled.push(r);
      identities.set(id, (identities.get(id) ?? 0) + 1);
    }
    seeded += chunk.length;
    if (seeded % 20_000 < 5000) log(`version 2: seeded ${seeded}/${opts.records} records (${seconds(performance.now() - t0)})`);
  }
  await call(CLOSE_V2);
  const seedMs = performance.now() - t0;
  // Compared whole: the sampled records no other address of their page was merged into.
  const checks = sampled.filter((r) => identities.get(r.url) === 1);
  const timedStats = () =>
    page.evaluate(async () => {
      const start = performance.now();
      const { pages } = (await (globalThis as unknown as BenchGlobals).benchSend('options:stats', {})) as { pages: number };
      return { ms: performance.now() - start, pages };
    });
  const upgrade = await timedStats();
  log(`version 2 → current: first message after the worker restarted answered in ${seconds(upgrade.ms)}, ${upgrade.pages} pages`);
  const answered = performance.now();
  while ((await call<number>(OLD_PAGES_LEFT)) > 0) await new Promise((r) => setTimeout(r, 250));
  const oldStoreEmptiedMs = performance.now() - answered;
  log(`version 2 → current: the old store emptied ${seconds(oldStoreEmptiedMs)} after that answer`);
  await workers.stop();
  const start = await timedStats();
  if (upgrade.pages !== identities.size) throw new Error(`after the upgrade the history holds ${upgrade.pages} pages, expected ${identities.size} (${opts.records} records, ${opts.records - identities.size} of them other addresses of a page)`);
  log(`version 2 → current: ${opts.records} records, ${identities.size} pages expected (${opts.records - identities.size} records were other addresses of a page), ${upgrade.pages} found`);
  const records = await call<Array<PageRecord | null>>(READ_RECORDS, checks.map((r) => r.url));
  checks.forEach((want, i) => {
    const got = records[i];
    if (!got) throw new Error(`after the upgrade ${want.url} is missing`);
    for (const [field, value] of Object.entries(want)) {
      if (JSON.stringify(got[field as keyof PageRecord]) !== JSON.stringify(value)) throw new Error(`after the upgrade ${want.url} has ${field} ${JSON.stringify(got[field as keyof PageRecord])}, was ${JSON.stringify(value)}`);
    }
  });
  log(`upgraded: ${upgrade.pages} pages, ${checks.length} sampled records equal field by field`);
  return { fromVersion: 2, records: opts.records, pagesAfter: upgrade.pages, ms: upgrade.ms, startMs: start.ms, oldStoreEmptiedMs, seedMs, sampleChecked: checks.length };
}

// --- The benchmark ---

interface Result {
  records: number;
  /** Records a second over the whole seeding, and over its last tenth (the tenth import). */
  insertPerSec: number;
  insertPerSecLast: number;
  /** The extension's IndexedDB on disk after the seeding, in MB (10^6 bytes). */
  dbMB: number;
  /** The same after the export, clear and re-import. */
  dbMBAfterImport: number;
  /** The whole lookup a page's opening asks for (`content:pageSeen`), as the content script waits for it. */
  findP50Ms: number;
  findP95Ms: number;
  /** The same by kind of page asked about: read before, an edited copy, a page holding one, a new page. */
  findByKindMs: Record<QueryKind, { p50: number; p95: number }>;
  /** A round trip from the same world that the background answers at once (an unknown message): the floor under every lookup on this machine. */
  messageFloorP50Ms: number;
  messageFloorP95Ms: number;
  /** The same message carrying each lookup's own report: what sending the page's report costs before any lookup. */
  reportFloorP50Ms: number;
  reportFloorP95Ms: number;
  /** The same, each with the background's worker just restarted. */
  coldFindP50Ms: number;
  coldFindP95Ms: number;
  /** The floor message's round trip with the worker just restarted: its start, no store. */
  coldFloorP50Ms: number;
  coldFloorP95Ms: number;
  /** Lookups, warm and cold, whose answer is not what their kind of page should get (0 in a sound run: the times are of lookups that worked). */
  findUnexpected: number;
  /** The fingerprint block lookups alone (`history:findSimilar` from the options page), at distance 3 and 7. */
  fpFindD3P50Ms: number;
  fpFindD3P95Ms: number;
  fpFindD7P50Ms: number;
  fpFindD7P95Ms: number;
  /** The History page's search: a word no title holds (the whole history looked through), and a common word (the first 50 found). */
  searchNoMatchMs: number;
  searchFirst50Ms: number;
  /** The History page opened: its first 50 pages, each with the copies it shows under it (a lookup each). */
  listFirst50Ms: number;
  /** The naming that follows an upgrade from version 7, done again (every block read and its names written), and its longest transaction. */
  namingMs: number;
  namingLongestTxMs: number;
  exportPerSec: number;
  importPerSec: number;
  heapMB: { before: number; lookups: number; after: number };
  loadAverage: number[];
  cores: number;
  wallSeconds: number;
  upgrade?: UpgradeResult;
}

interface Details {
  browser: string;
  /** The extension measured (dist/chrome, or --extension). */
  extension: string;
  queries: number;
  stageMs: number;
  commitMs: number;
  lastTenth: string;
  dbBytes: number;
  dbWaitMs: number;
  foundWarm: string;
  /** The warm lookup's p50 / p95 by kind of page. */
  warmByKind: string;
  foundCold: string;
  perQueryD3: string;
  perQueryD7: string;
  exportMs: number;
  exportReadMs: number;
  exportBytes: number;
  importMs: number;
  importReadMs: number;
  importApplyMs: number;
  heapSource: string;
}

async function run(opts: Options, context: BrowserContext, profile: string, site: string): Promise<{ result: Result; details: Details }> {
  const started = performance.now();
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  const page = await context.newPage();
  await page.goto(`chrome-extension://${extensionId}/src/options/index.html`);
  await installDriver(page);
  const workers = await WorkerControl.attach(context, page, extensionId);

  const port = await devToolsPort(profile).catch(() => 0);
  const browser = port ? (((await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { Browser?: string }).Browser ?? 'Chromium') : 'Chromium';
  let heapSource = 'extension service worker, after GC, over CDP: JS heap and the array buffers it holds';
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

  // Seeding through the batched import path, as SEED_PARTS imports of a tenth each (staged chunks,
  // then the commit applies them), so the rate of the last tenth, into the fullest store, shows.
  const rnd = new Synth(opts.seed);
  const sample: StoredSample[] = [];
  // Read sets come from a generator of their own: the history is the same, seed for seed, with or without them.
  const records = flatten(syntheticHistory(opts.records, SEED_CHUNK, rnd, Date.now(), sample, !opts.noPassages, false, opts.noReadSets ? undefined : new Synth(opts.seed ^ 0x5eed)));
  let stageMs = 0;
  let commitMs = 0;
  let added = 0;
  let done = 0;
  let last = { records: 0, ms: 0, stageMs: 0, commitMs: 0 };
  const t0 = performance.now();
  for (let part = 0; part < SEED_PARTS; part++) {
    const n = Math.floor(((part + 1) * opts.records) / SEED_PARTS) - Math.floor((part * opts.records) / SEED_PARTS);
    if (n === 0) continue;
    const r = await importChunks(page, take(records, n, SEED_CHUNK));
    stageMs += r.stageMs;
    commitMs += r.commitMs;
    added += r.added;
    done += r.records;
    last = { records: r.records, ms: r.stageMs + r.commitMs, stageMs: r.stageMs, commitMs: r.commitMs };
    log(`seeded ${done}/${opts.records} records: this tenth at ${Math.round(r.records / ((r.stageMs + r.commitMs) / 1000))}/s (${seconds(performance.now() - t0)} in all)`);
  }
  if (added !== opts.records) throw new Error(`seeding added ${added} of ${opts.records} records`);

  const db = await settledDbBytes(workers, profile, extensionId);
  log(`database on disk: ${(db.bytes / 1e6).toFixed(1)} MB (${Math.round(db.bytes / opts.records)} bytes per page), steady ${seconds(db.waitedMs)} after the worker stopped`);
  if (db.bytes <= 0) throw new Error("found no database of the extension in the profile's Default/IndexedDB");

  // The whole lookup, as the content script asks for it when a page opens.
  const world = await ContentWorld.open(context, `${site}/`, extensionId);
  const reports = makeReports(WARMUP + opts.queries + COLD_RUNS, sample, rnd, site);
  const warmReports = reports.slice(0, WARMUP + opts.queries);
  let warmTimes: Timed[] = [];
  const lookUpAll = async () => void (warmTimes = await world.call<Timed[]>(PAGE_SEEN_TIMES, warmReports.map((q) => q.req)));
  if (opts.profile && port) log(`the service worker during the warm lookups:\n${await profileWorker(port, extensionId, lookUpAll)}`);
  else await lookUpAll();
  const warm = warmTimes.slice(WARMUP);
  const warmQueries = warmReports.slice(WARMUP);
  const find = spread(warm.map((t) => t.ms));
  // With every lookup column read and indexed.
  const heapLookups = await heap();
  const foundWarm = `matches: ${foundByKind(warmQueries, warm)}`;
  const byKind = spreadByKind(warmQueries, warm);
  const warmByKind = `p50 / p95 by kind: ${QUERY_KINDS.map((k) => `${k} ${byKind[k].p50.toFixed(1)} / ${byKind[k].p95.toFixed(1)}`).join(', ')}`;
  log(`content:pageSeen, warm: ${warm.length} queries, p50 ${find.p50.toFixed(2)} ms, p95 ${find.p95.toFixed(2)} ms; ${foundWarm}; ${warmByKind}`);
  const floor = spread((await world.call<number[]>(FLOOR_TIMES, warmReports.map(() => ({})))).slice(WARMUP));
  log(`a message the background answers at once, from the same world: ${opts.queries} round trips, p50 ${floor.p50.toFixed(2)} ms, p95 ${floor.p95.toFixed(2)} ms (the floor under the lookups above)`);
  const reportFloor = spread((await world.call<number[]>(FLOOR_TIMES, warmReports.map((q) => q.req))).slice(WARMUP));
  const sizes = warmReports.slice(WARMUP).map((q) => JSON.stringify(q.req).length).sort((a, b) => a - b);
  log(`the same message carrying each lookup's report (${percentile(sizes, 0.5)} / ${percentile(sizes, 0.95)} characters as JSON, p50 / p95): p50 ${reportFloor.p50.toFixed(2)} ms, p95 ${reportFloor.p95.toFixed(2)} ms`);
  const coldQueries = reports.slice(WARMUP + opts.queries);
  const cold: Timed[] = [];
  for (const q of coldQueries) {
    await workers.stop();
    cold.push(...(await world.call<Timed[]>(PAGE_SEEN_TIMES, [q.req])));
  }
  const coldFind = spread(cold.map((t) => t.ms));
  const foundCold = `matches: ${foundByKind(coldQueries, cold)}`;
  log(`content:pageSeen, worker just restarted: ${cold.length} queries, p50 ${coldFind.p50.toFixed(1)} ms, p95 ${coldFind.p95.toFixed(1)} ms; ${foundCold}`);
  // The same start without the store: a message refused at once by a worker just restarted.
  const coldFloorTimes: number[] = [];
  for (let i = 0; i < COLD_FLOOR_ROUNDS; i++) {
    await workers.stop();
    coldFloorTimes.push(...(await world.call<number[]>(FLOOR_TIMES, [{}])));
  }
  const coldFloor = spread(coldFloorTimes);
  log(`a message the background answers at once, worker just restarted: ${COLD_FLOOR_ROUNDS} round trips, p50 ${coldFloor.p50.toFixed(1)} ms, p95 ${coldFloor.p95.toFixed(1)} ms (the floor under the cold lookups)`);
  const wrong = unexpectedAnswers(warmQueries, warm) + unexpectedAnswers(coldQueries, cold);
  if (wrong > 0) log(`WARNING: ${wrong} lookups did not get the answer their kind of page should (above): their times are not of lookups that work`);

  // The fingerprint block lookups alone, one at a time, the same queries at distance 3 and 7.
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
    const s = spread(r.times);
    const perQuery = `${(r.matches / r.times.length).toFixed(2)} matches${r.candidates >= 0 ? ` of ${(r.candidates / r.times.length).toFixed(1)} candidates` : ''} per query`;
    log(`findSimilar at distance ≤ ${maxDistance}: ${r.times.length} queries, p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, ${perQuery}`);
    return { ...s, perQuery };
  };
  const d3 = await lookups(3);
  const d7 = await lookups(7);
  // The History page's search as it asks: 50 pages at a time, asking again while it has fewer than
  // 50 and more remain. A word no title holds looks through the whole history; a common one stops
  // at the first 50 found.
  const search = async (query: string) => {
    const r = await page.evaluate(
      async ({ query }) => {
        const g = globalThis as unknown as BenchGlobals;
        const start = performance.now();
        let after: unknown;
        let found = 0;
        let steps = 0;
        for (;;) {
          const answer = (await g.benchSend('history:list', { query, limit: 50, ...(after ? { after } : {}) })) as { items: unknown[]; next?: unknown; done: boolean };
          steps++;
          found += answer.items.length;
          if (answer.done || !answer.next || found >= 50) break;
          after = answer.next;
        }
        return { ms: performance.now() - start, found, steps };
      },
      { query },
    );
    log(`${query ? `history search for "${query}"` : 'the history list, opened'}: ${r.found} found in ${seconds(r.ms)}, ${r.steps} requests`);
    return r;
  };
  let searchNone!: Awaited<ReturnType<typeof search>>;
  if (opts.profileSearch && port) log(`the service worker during a search that finds nothing:\n${await profileWorker(port, extensionId, async () => void (searchNone = await search('zqxjvw')))}`);
  else searchNone = await search('zqxjvw');
  let searchCommon!: Awaited<ReturnType<typeof search>>;
  if (opts.profileSearch && port) log(`the service worker during a search for a common word:\n${await profileWorker(port, extensionId, async () => void (searchCommon = await search(WORDS[0])))}`);
  else searchCommon = await search(WORDS[0]);
  let listFirst!: Awaited<ReturnType<typeof search>>;
  if (opts.profileSearch && port) log(`the service worker while the History page opens:\n${await profileWorker(port, extensionId, async () => void (listFirst = await search('')))}`);
  else listFirst = await search('');
  // Over CDP as source (the extension page's policy forbids eval, not DevTools).
  const naming = (await page.evaluate(`(${NAME_PAGES})()`)) as { ms: number; longestMs: number; groups: number };
  log(`the naming after an upgrade from version 7, done again: ${naming.groups} groups of 256 pages in ${seconds(naming.ms)}, the longest transaction ${naming.longestMs.toFixed(0)} ms`);
  // Export: the history read in chunks of 5000 and turned into the JSON file's text, as the
  // options page's exportHistory does (head, one string per chunk, tail, one Blob). The chunks stay
  // in the page as Blobs for the re-import.
  const exporting = () =>
    page.evaluate(
      async ({ head, tail, limit }) => {
        const g = globalThis as unknown as BenchGlobals;
        const start = performance.now();
        const { pages: total } = (await g.benchSend('options:stats', {})) as { pages: number };
        const chunks: Blob[] = [];
        let done = 0;
        let readMs = 0;
        let after: number | undefined;
        for (;;) {
          const r0 = performance.now();
          const parcel = crypto.randomUUID();
          const answer = (await g.benchSend('options:exportChunk', { after, limit, format: 'json', first: done === 0, parcel })) as { text: string; count: number; next?: number };
          const chunk = { ...answer, text: answer.count ? ((await g.benchReceive(parcel)) as string) : '' };
          readMs += performance.now() - r0;
          if (chunk.count === 0) break;
          chunks.push(new Blob([chunk.text]));
          done += chunk.count;
          after = chunk.next;
        }
        const blob = new Blob([head, ...chunks, tail], { type: 'application/json' });
        const ms = performance.now() - start;
        g.benchExport = chunks;
        return { ms, readMs, pages: done, total, bytes: blob.size };
      },
      { head: jsonHead(new Date()), tail: JSON_TAIL, limit: EXPORT_CHUNK },
    );
  let exported!: Awaited<ReturnType<typeof exporting>>;
  if (opts.profileExport && port) log(`the service worker during the export:\n${await profileWorker(port, extensionId, async () => void (exported = await exporting()))}`);
  else exported = await exporting();
  log(`exported ${exported.pages} records, ${(exported.bytes / 1e6).toFixed(1)} MB of JSON (${seconds(exported.ms)}; chunk reads ${seconds(exported.readMs)})`);
  if (exported.pages !== opts.records || exported.total !== opts.records) throw new Error(`the export holds ${exported.pages} records (stats say ${exported.total}), expected ${opts.records}`);

  // Import: the exported file saved to disk as a download, the history cleared, and the file chosen
  // in the options page: its whole import as the reader gets it (read and checked a slice at a
  // time in the page's worker, sent as it is checked, then applied), timed from the choice until
  // the page says it is done. The status line's changes say when the digest was taken and when the
  // last slice was read (the bar's halfway mark: applying follows).
  const file = join(profile, 'history-export.json');
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 0 }),
    page.evaluate(
      ({ head, tail }) => {
        const g = globalThis as unknown as BenchGlobals;
        const a = document.createElement('a');
        a.href = URL.createObjectURL(new Blob([head, ...(g.benchExport ?? []), tail], { type: 'application/json' }));
        a.download = 'history-export.json';
        a.click();
        g.benchExport = undefined;
      },
      { head: jsonHead(new Date()), tail: JSON_TAIL },
    ),
  ]);
  await download.saveAs(file);
  await send(page, 'options:clear', {});
  const { pages: cleared } = await send<{ pages: number }>(page, 'options:stats', {});
  if (cleared !== 0) throw new Error(`after options:clear the history still holds ${cleared} pages`);
  await page.evaluate(() => {
    const status = document.getElementById('export-status') as HTMLElement;
    const seen: Array<{ text: string; at: number }> = [];
    new MutationObserver(() => seen.push({ text: status.textContent ?? '', at: performance.now() })).observe(status, { childList: true, characterData: true, subtree: true });
    Object.assign(globalThis, { benchStatus: seen, benchChosen: performance.now() });
  });
  const importing = async () => {
    await page.locator('#import-file').setInputFiles(file);
    await page.waitForFunction(() => /^(Imported|Nothing was imported|Importing failed)/.test(document.getElementById('export-status')?.textContent ?? ''), undefined, { timeout: 0, polling: 250 });
  };
  // The background's side of the import only: the options page's worker reads and checks the file.
  if (opts.profileImport && port) log(`the service worker during the import:\n${await profileWorker(port, extensionId, importing)}`);
  else await importing();
  const imported = await page.evaluate(() => {
    const g = globalThis as unknown as { benchStatus: Array<{ text: string; at: number }>; benchChosen: number };
    const seen = g.benchStatus;
    const end = seen[seen.length - 1];
    const halfway = seen.find((s) => /^Importing… (\d+)%$/.test(s.text) && Number(/(\d+)%/.exec(s.text)?.[1]) >= 50)?.at ?? end.at;
    const numbers = [...end.text.matchAll(/[\d,]+/g)].map((m) => Number(m[0].replace(/,/g, '')));
    return { text: end.text, ms: end.at - g.benchChosen, readMs: halfway - g.benchChosen, applyMs: end.at - halfway, pages: numbers[0] ?? 0, added: numbers[1] ?? 0 };
  });
  rmSync(file, { force: true });
  if (!imported.text.startsWith('Imported')) throw new Error(`the import of the exported file failed: ${imported.text}`);
  log(`imported ${imported.pages} records: ${imported.added} added (${seconds(imported.ms)}: reading and staging ${seconds(imported.readMs)}, applying ${seconds(imported.applyMs)}), as the options page said: ${imported.text}`);
  if (imported.added !== opts.records) throw new Error(`the re-import added ${imported.added} of ${opts.records} records`);

  const heapAfter = await heap();
  // The database again, holding the same records written by the import into a cleared store.
  const dbAfterImport = await settledDbBytes(workers, profile, extensionId);
  log(`database on disk after the re-import: ${(dbAfterImport.bytes / 1e6).toFixed(1)} MB (${Math.round(dbAfterImport.bytes / opts.records)} bytes per page)`);
  const upgrade = opts.upgradeFrom === 2 ? await upgradeFromV2(opts, page, workers) : undefined;
  const round = (x: number, digits: number) => Number(x.toFixed(digits));
  return {
    result: {
      records: opts.records,
      insertPerSec: Math.round(opts.records / ((stageMs + commitMs) / 1000)),
      insertPerSecLast: Math.round(last.records / (last.ms / 1000)),
      dbMB: round(db.bytes / 1e6, 1),
      dbMBAfterImport: round(dbAfterImport.bytes / 1e6, 1),
      findP50Ms: round(find.p50, 3),
      findP95Ms: round(find.p95, 3),
      messageFloorP50Ms: round(floor.p50, 3),
      messageFloorP95Ms: round(floor.p95, 3),
      reportFloorP50Ms: round(reportFloor.p50, 3),
      reportFloorP95Ms: round(reportFloor.p95, 3),
      findByKindMs: Object.fromEntries(QUERY_KINDS.map((k) => [k, { p50: round(byKind[k].p50, 3), p95: round(byKind[k].p95, 3) }])) as Result['findByKindMs'],
      coldFindP50Ms: round(coldFind.p50, 1),
      coldFindP95Ms: round(coldFind.p95, 1),
      coldFloorP50Ms: round(coldFloor.p50, 1),
      coldFloorP95Ms: round(coldFloor.p95, 1),
      findUnexpected: unexpectedAnswers(warmQueries, warm) + unexpectedAnswers(coldQueries, cold),
      fpFindD3P50Ms: round(d3.p50, 3),
      fpFindD3P95Ms: round(d3.p95, 3),
      fpFindD7P50Ms: round(d7.p50, 3),
      fpFindD7P95Ms: round(d7.p95, 3),
      searchNoMatchMs: Math.round(searchNone.ms),
      searchFirst50Ms: Math.round(searchCommon.ms),
      listFirst50Ms: Math.round(listFirst.ms),
      namingMs: Math.round(naming.ms),
      namingLongestTxMs: Math.round(naming.longestMs),
      exportPerSec: Math.round(exported.pages / (exported.ms / 1000)),
      importPerSec: Math.round(imported.pages / (imported.ms / 1000)),
      heapMB: { before: round(heapBefore, 2), lookups: round(heapLookups, 2), after: round(heapAfter, 2) },
      loadAverage: loadavg().map((x) => round(x, 2)),
      cores: cpus().length,
      wallSeconds: Math.round((performance.now() - started) / 1000),
      ...(upgrade ? { upgrade: { ...upgrade, ms: Math.round(upgrade.ms), startMs: Math.round(upgrade.startMs), oldStoreEmptiedMs: Math.round(upgrade.oldStoreEmptiedMs), seedMs: Math.round(upgrade.seedMs) } } : {}),
    },
    details: {
      browser,
      extension: opts.extension ?? BUILT,
      queries: opts.queries,
      stageMs,
      commitMs,
      lastTenth: `last tenth ${last.records} records: applying ${seconds(last.stageMs)}, commit ${seconds(last.commitMs)}`,
      dbBytes: db.bytes,
      dbWaitMs: db.waitedMs,
      foundWarm,
      warmByKind,
      foundCold,
      perQueryD3: d3.perQuery,
      perQueryD7: d7.perQuery,
      exportMs: exported.ms,
      exportReadMs: exported.readMs,
      exportBytes: exported.bytes,
      importMs: imported.ms,
      importReadMs: imported.readMs,
      importApplyMs: imported.applyMs,
      heapSource,
    },
  };
}

function printTable(r: Result, d: Details): void {
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  const rows: [string, string, string][] = [
    ['insert (apply chunks + commit)', `${n(r.insertPerSec)} records/s; last tenth ${n(r.insertPerSecLast)}/s`, `applying ${seconds(d.stageMs)}, commit ${seconds(d.commitMs)}; ${d.lastTenth}`],
    ['database on disk', `${r.dbMB.toFixed(1)} MB; ${r.dbMBAfterImport.toFixed(1)} MB after the re-import`, `${n(d.dbBytes / r.records)} bytes per page; LevelDB + blobs, steady ${seconds(d.dbWaitMs)} after the worker stopped`],
    ['find: content:pageSeen, warm', `p50 ${r.findP50Ms.toFixed(2)} ms, p95 ${r.findP95Ms.toFixed(2)} ms`, `every layer and the verification, from the content script's world; ${d.foundWarm}; ${d.warmByKind}`],
    ['the message alone, no lookup', `p50 ${r.messageFloorP50Ms.toFixed(2)} ms, p95 ${r.messageFloorP95Ms.toFixed(2)} ms; with the report ${r.reportFloorP50Ms.toFixed(2)} / ${r.reportFloorP95Ms.toFixed(2)} ms`, "refused at once by the background, from the same world, empty and carrying each lookup's report: the floor under the lookups"],
    ['find: content:pageSeen, cold', `p50 ${r.coldFindP50Ms.toFixed(1)} ms, p95 ${r.coldFindP95Ms.toFixed(1)} ms`, `${COLD_RUNS} lookups, each with the worker just stopped; ${d.foundCold}`],
    ['fingerprint blocks only, d ≤ 3', `p50 ${r.fpFindD3P50Ms.toFixed(2)} ms, p95 ${r.fpFindD3P95Ms.toFixed(2)} ms`, `history:findSimilar; ${d.perQueryD3}`],
    ['fingerprint blocks only, d ≤ 7', `p50 ${r.fpFindD7P50Ms.toFixed(2)} ms, p95 ${r.fpFindD7P95Ms.toFixed(2)} ms`, `history:findSimilar, 68 probes; ${d.perQueryD7}`],
    ['History search', `no match ${seconds(r.searchNoMatchMs)}; first 50 of a common word ${seconds(r.searchFirst50Ms)}`, 'history:list as the History page asks, 50 at a time, until 50 are found or none remain'],
    ['History page opened', `first 50 pages ${seconds(r.listFirst50Ms)}`, 'history:list without a query: 50 pages, each with the copies shown under it (a lookup each)'],
    ['export (JSON text)', `${n(r.exportPerSec)} records/s`, `${seconds(d.exportMs)}, of it chunk reads ${seconds(d.exportReadMs)}; ${(d.exportBytes / 1e6).toFixed(1)} MB`],
    ['import (the options page, the exported file chosen)', `${n(r.importPerSec)} records/s`, `reading and staging ${seconds(d.importReadMs)}, applying ${seconds(d.importApplyMs)}`],
    ['background memory (MiB)', `before ${r.heapMB.before.toFixed(2)}, after the lookups ${r.heapMB.lookups.toFixed(2)}, after the re-import ${r.heapMB.after.toFixed(2)}`, d.heapSource],
  ];
  if (r.upgrade) {
    const u = r.upgrade;
    rows.push(['upgrade from version 2', `${seconds(u.ms)} (worker start alone ${seconds(u.startMs)}); old store emptied ${seconds(u.oldStoreEmptiedMs)} after`, `${n(u.records)} records seeded in ${seconds(u.seedMs)}; ${n(u.pagesAfter)} pages after, ${u.sampleChecked} sampled records equal field by field`]);
  }
  const w0 = Math.max(...rows.map((x) => x[0].length));
  const w1 = Math.max(...rows.map((x) => x[1].length));
  console.log(`history store: ${n(r.records)} records in ${d.browser} (${relative(ROOT, d.extension) || '.'}, its own IndexedDB); ${n(d.queries)} lookup queries, one at a time`);
  for (const [a, b, c] of rows) console.log(`  ${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`);
  console.log(`load average ${r.loadAverage.map((x) => x.toFixed(1)).join(' ')} on ${r.cores} cores; ${r.wallSeconds} s in all (wall times stretch when other processes take the CPU)`);
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
  const ext = opts.extension ?? BUILT;
  if (!existsSync(join(ext, 'manifest.json'))) throw new BenchError(opts.extension ? `${opts.extension} holds no built extension (manifest.json)` : 'dist/chrome is not built: run "npm run build", or leave out --no-build', 2);

  const profile = mkdtempSync(join(tmpdir(), 'deja-read-bench-store-'));
  let context: BrowserContext | undefined;
  let site: Server | undefined;
  let closing: Promise<void> | undefined;
  const cleanup = () =>
    (closing ??= (async () => {
      await context?.close().catch(() => undefined);
      await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
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
      args: chromiumArgs(ext, ['--remote-debugging-port=0']),
    });
    site = await startQuietSite();
    const { result, details } = await run(opts, context, profile, `http://127.0.0.1:${(site.address() as AddressInfo).port}`);
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
