// npm run bench:speed -- [--corpus DIR] [--json]
// Throughput on English and Chinese text of the fingerprint alone, of the fingerprint together with
// the passage signature (issue 9's goal), of digestArticle (everything the background computes for
// every page: the real per-page cost), and of simhash-js (npm) on the same texts as a reference.
// The rounds of the four are interleaved, so a change in the machine's load during the run weighs
// on all of them alike; medians after a warm-up are reported, with the load average before and after
// (the figures mean little on a busy machine).
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { digestArticle, fingerprint, passageSignature } from '../core';
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

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  const i = argv.indexOf('--corpus');
  const dir = i >= 0 ? argv[i + 1] : undefined;
  if (i >= 0 && !dir) throw new CliError('--corpus needs a directory');
  const simhash = new SimHash();
  const result: Record<string, { charsPerSec: number; withPassagesCharsPerSec: number; digestCharsPerSec: number; refCharsPerSec: number; ratio: number; chars: number }> = {};
  // The texts are read (and pages extracted) before any timing starts: the load average is that of the timed part.
  const corpora = { en: dir ? await fromCorpus(dir, 'en') : generated('en'), zh: dir ? await fromCorpus(dir, 'zh') : generated('zh') };
  const loadBefore = loads();
  for (const lang of ['en', 'zh'] as const) {
    const texts = corpora[lang];
    const [ours, both, digest, ref] = throughputs(texts, [
      fingerprint,
      (t) => fingerprint(t) + passageSignature(t).count,
      (t) => digestArticle(t).passages,
      (t) => simhash.hash(t),
    ]);
    result[lang] = {
      charsPerSec: Math.round(ours),
      withPassagesCharsPerSec: Math.round(both),
      digestCharsPerSec: Math.round(digest),
      refCharsPerSec: Math.round(ref),
      ratio: Number((ours / ref).toFixed(2)),
      chars: texts.reduce((n, t) => n + t.length, 0),
    };
  }
  const loadAfter = loads();
  if (json) {
    console.log(JSON.stringify({ ...result, load: { before: loadBefore, after: loadAfter } }));
    return;
  }
  console.log(`throughput (${dir ? `corpus ${dir}` : 'generated text'}; median of ${ROUNDS} rounds after a warm-up, node ${process.version})`);
  const m = (x: number) => `${(x / 1e6).toFixed(1)} M`;
  for (const [lang, r] of Object.entries(result)) {
    console.log(
      `  ${lang}: fingerprint ${m(r.charsPerSec)} chars/s; with the passage signature ${m(r.withPassagesCharsPerSec)}; digestArticle ${m(r.digestCharsPerSec)}; simhash-js ${(r.refCharsPerSec / 1e6).toFixed(2)} M (fingerprint ${r.ratio}× faster); ${(r.chars / 1e6).toFixed(1)} M chars per round`,
    );
  }
  console.log(`  load average (1, 5, 15 min) before timing: ${loadBefore}; after: ${loadAfter}`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`bench:speed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = e instanceof CliError ? 2 : 1;
});
