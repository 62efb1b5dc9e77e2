// npm run bench:speed -- [--corpus DIR] [--json]
// Fingerprint throughput on English and Chinese text, the fingerprint together with the passage
// signature (what the background computes for every page), and simhash-js (npm) on the same texts
// as a reference, in the same run: several timed rounds after a warm-up, medians reported.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fingerprint, passageSignature } from '../core';
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

/** Characters per second of `fn` over all texts, median of ROUNDS after one warm-up. */
function throughput(texts: string[], fn: (t: string) => unknown): number {
  const chars = texts.reduce((n, t) => n + t.length, 0);
  let sink = 0;
  const rates: number[] = [];
  for (let round = 0; round <= ROUNDS; round++) {
    const t0 = performance.now();
    for (const t of texts) sink ^= Number(String(fn(t)).length);
    const seconds = (performance.now() - t0) / 1000;
    if (round > 0) rates.push(chars / seconds);
  }
  if (sink === -1) console.error(sink); // keeps the work observable
  return median(rates);
}

async function main(argv: string[]): Promise<void> {
  const json = argv.includes('--json');
  const i = argv.indexOf('--corpus');
  const dir = i >= 0 ? argv[i + 1] : undefined;
  if (i >= 0 && !dir) throw new CliError('--corpus needs a directory');
  const simhash = new SimHash();
  const result: Record<string, { charsPerSec: number; withPassagesCharsPerSec: number; refCharsPerSec: number; ratio: number; chars: number }> = {};
  for (const lang of ['en', 'zh'] as const) {
    const texts = dir ? await fromCorpus(dir, lang) : generated(lang);
    const ours = throughput(texts, fingerprint);
    const both = throughput(texts, (t) => fingerprint(t) + passageSignature(t).count);
    const ref = throughput(texts, (t) => simhash.hash(t));
    result[lang] = { charsPerSec: Math.round(ours), withPassagesCharsPerSec: Math.round(both), refCharsPerSec: Math.round(ref), ratio: Number((ours / ref).toFixed(2)), chars: texts.reduce((n, t) => n + t.length, 0) };
  }
  if (json) {
    console.log(JSON.stringify(result));
    return;
  }
  console.log(`fingerprint throughput (${dir ? `corpus ${dir}` : 'generated text'}; median of ${ROUNDS} rounds after a warm-up, node ${process.version})`);
  for (const [lang, r] of Object.entries(result)) {
    console.log(`  ${lang}: ${(r.charsPerSec / 1e6).toFixed(1)} M chars/s; with the passage signature ${(r.withPassagesCharsPerSec / 1e6).toFixed(1)} M chars/s; simhash-js ${(r.refCharsPerSec / 1e6).toFixed(2)} M chars/s; ratio ${r.ratio}× (${(r.chars / 1e6).toFixed(1)} M chars per round)`);
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`bench:speed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = e instanceof CliError ? 2 : 1;
});
