// npm run bench:speed -- [--corpus DIR] [--baseline CHECKOUT] [--json]
// Throughput on English and Chinese text of the fingerprint alone, of the fingerprint together with
// the passage signature (issue 9's goal), of digestArticle (everything the background computes for
// every page: the real per-page cost), and of simhash-js (npm) on the same texts as a reference.
// The rounds are interleaved, so a change in the machine's load during the run weighs on all of
// them alike; medians after a warm-up are reported, with the load average before and after (the
// figures mean little on a busy machine: compare within one run). --baseline measures another
// checkout's core in the same rounds (for example `git archive COMMIT | tar -x -C /tmp/before`;
// its package.json must come along, or its modules load as CommonJS, several times slower).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import * as current from '../core';
import { corpusText, readCorpus } from './corpus';
import { CliError } from './documents';

const require = createRequire(import.meta.url);
const { SimHash } = require('simhash-js') as { SimHash: new () => { hash(text: string): number } };

const ROUNDS = 7;
const TARGET_CHARS = 4_000_000;

/** Deterministic pseudo-prose when no corpus is given: words or characters drawn from a fixed pool. */
function generated(lang: 'en' | 'zh'): string[] {
  let seed = 12345;
  const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const docs: string[] = [];
  for (let d = 0; d < 40; d++) {
    let s = '';
    while (s.length < 100_000) {
      if (lang === 'en') {
        const len = 2 + Math.floor(rand() * 8);
        for (let k = 0; k < len; k++) s += String.fromCharCode(97 + Math.floor(rand() * rand() * 26));
        s += rand() < 0.08 ? '. ' : ' ';
      } else {
        s += String.fromCharCode(0x4e00 + Math.floor(rand() * rand() * 3000));
        if (rand() < 0.06) s += '，';
      }
    }
    docs.push(s);
  }
  return docs;
}

async function fromCorpus(dir: string, lang: 'en' | 'zh'): Promise<string[]> {
  const { docs } = await readCorpus(dir);
  const texts: string[] = [];
  let total = 0;
  for (const d of docs.filter((x) => x.lang === lang)) {
    const text = await corpusText(d, 0);
    texts.push(text);
    total += text.length;
    if (total > TARGET_CHARS) break;
  }
  if (texts.length === 0) throw new CliError(`${join(dir, 'docs.jsonl')}: no "${lang}" documents`);
  return texts;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Characters per second of each function over all texts: median of ROUNDS after one warm-up round,
 * the functions taking turns within each round.
 */
function throughputs(texts: string[], fns: Array<(t: string) => string | number>): number[] {
  const chars = texts.reduce((n, t) => n + t.length, 0);
  let sink = 0;
  const rates: number[][] = fns.map(() => []);
  for (let round = 0; round <= ROUNDS; round++) {
    fns.forEach((fn, f) => {
      const t0 = performance.now();
      for (const t of texts) sink ^= String(fn(t)).length;
      const seconds = (performance.now() - t0) / 1000;
      if (round > 0) rates[f].push(chars / seconds);
    });
  }
  if (sink === -1) console.error(sink); // keeps the work observable
  return rates.map(median);
}

const loads = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

/** What is measured of a core: this checkout's, or a baseline's. */
interface Core {
  fingerprint(text: string): string;
  passageSignature(text: string): { count: number };
  digestArticle?(text: string): { passages: string };
}

async function baselineCore(dir: string): Promise<Core> {
  const index = resolve(dir, 'src/core/index.ts');
  if (!existsSync(index) || !existsSync(resolve(dir, 'package.json'))) throw new CliError(`${dir}: not a checkout of this project (needs src/core/index.ts and package.json)`);
  return (await import(pathToFileURL(index).href)) as Core;
}

/** The functions measured of a core, in the order of Figures. */
function measured(core: Core): Array<(t: string) => string | number> {
  const digest = core.digestArticle;
  return [core.fingerprint, (t) => core.fingerprint(t) + core.passageSignature(t).count, digest ? (t) => digest(t).passages : () => 0];
}

interface Figures {
  charsPerSec: number;
  withPassagesCharsPerSec: number;
  /** Absent for a baseline older than digestArticle. */
  digestCharsPerSec?: number;
}

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  const option = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    if (i >= 0 && !argv[i + 1]) throw new CliError(`${name} needs a directory`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const dir = option('--corpus');
  const baselineDir = option('--baseline');
  const baseline = baselineDir ? await baselineCore(baselineDir) : undefined;
  const simhash = new SimHash();
  const result: Record<string, Figures & { refCharsPerSec: number; ratio: number; chars: number; baseline?: Figures }> = {};
  // The texts are read (and pages extracted) before any timing starts: the load average is that of the timed part.
  const corpora = { en: dir ? await fromCorpus(dir, 'en') : generated('en'), zh: dir ? await fromCorpus(dir, 'zh') : generated('zh') };
  const loadBefore = loads();
  const figures = (rates: number[], core: Core): Figures => ({
    charsPerSec: Math.round(rates[0]),
    withPassagesCharsPerSec: Math.round(rates[1]),
    ...(core.digestArticle ? { digestCharsPerSec: Math.round(rates[2]) } : {}),
  });
  for (const lang of ['en', 'zh'] as const) {
    const texts = corpora[lang];
    const rates = throughputs(texts, [...measured(current), (t) => simhash.hash(t), ...(baseline ? measured(baseline) : [])]);
    const ref = rates[3];
    result[lang] = {
      ...figures(rates, current),
      refCharsPerSec: Math.round(ref),
      ratio: Number((rates[0] / ref).toFixed(2)),
      chars: texts.reduce((n, t) => n + t.length, 0),
      ...(baseline ? { baseline: figures(rates.slice(4), baseline) } : {}),
    };
  }
  const loadAfter = loads();
  if (json) {
    console.log(JSON.stringify({ ...result, load: { before: loadBefore, after: loadAfter } }));
    return;
  }
  console.log(`throughput (${dir ? `corpus ${dir}` : 'generated text'}; median of ${ROUNDS} rounds after a warm-up, node ${process.version})`);
  const m = (x: number | undefined) => (x ? `${(x / 1e6).toFixed(1)} M` : '—');
  const line = (r: Figures) => `fingerprint ${m(r.charsPerSec)} chars/s; with the passage signature ${m(r.withPassagesCharsPerSec)}; digestArticle ${m(r.digestCharsPerSec)}`;
  for (const [lang, r] of Object.entries(result)) {
    console.log(`  ${lang}: ${line(r)}; simhash-js ${(r.refCharsPerSec / 1e6).toFixed(2)} M (fingerprint ${r.ratio}× faster); ${(r.chars / 1e6).toFixed(1)} M chars per round`);
    if (r.baseline) console.log(`  ${lang}, baseline ${baselineDir}: ${line(r.baseline)}`);
  }
  console.log(`  load average (1, 5, 15 min) before timing: ${loadBefore}; after: ${loadAfter}`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`bench:speed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = e instanceof CliError ? 2 : 1;
});
