// Small pure helpers of `npm run bench:store` (tested in tests/unit/bench-store-data.test.ts): the
// percentile of the timings, synthetic passage signatures distributed as real ones are, and the
// size of the extension's database in a Chromium profile.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { READ_SET_CAP, readSetOfKeys, RUN_SAMPLE } from '../src/core';

/** The p-quantile (0..1) of ascending `sorted` times, nearest rank. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/**
 * The read set a visit records for a page of `words` word-equivalents and `passages` passages
 * (core's readSetOf): every passage's key and one run of 6 tokens in RUN_SAMPLE within a passage
 * (a token a word, about), the sample thinned while the keys exceed READ_SET_CAP; the keys are
 * uniform 24-bit values, so its size and decoding cost are a real one's, its content no text's.
 */
export function syntheticReadSet(words: number, passages: number, unit: () => number): string {
  let sample = RUN_SAMPLE;
  const runs = Math.max(0, words - 5 * passages);
  while (passages + Math.round(runs / sample) > READ_SET_CAP) sample *= 2;
  const key = () => Math.floor(unit() * 0x1000000);
  return readSetOfKeys(Array.from({ length: Math.min(READ_SET_CAP, passages) }, key), Array.from({ length: Math.round(runs / sample) }, key), sample);
}

/** Passage hashes are 32-bit (core's signature version 2). */
const HASHES = 0x100000000;

/**
 * The `cap` smallest of `count` passage hashes drawn uniformly from 32 bits, ascending and distinct:
 * what core's passageSignature keeps of a page of `count` distinct passages. Drawn as successive
 * order statistics (the next minimum of the count - i values left above the last), so a page of
 * 300 passages costs min(300, cap) draws. `unit` gives uniform numbers in [0, 1).
 */
export function smallestHashes(count: number, cap: number, unit: () => number): number[] {
  const out: number[] = [];
  let x = 0;
  for (let i = 0; i < Math.min(count, cap); i++) {
    x += (1 - x) * (1 - Math.pow(1 - unit(), 1 / (count - i)));
    let h = Math.floor(x * HASHES);
    if (out.length > 0 && h <= out[out.length - 1]) h = out[out.length - 1] + 1;
    if (h >= HASHES) break;
    out.push(h);
  }
  return out;
}

/**
 * A signature's hashes after the text changed: each kept with probability `keep`, and `added`
 * new passages (uniform 32-bit hashes) joined; the `cap` smallest distinct are kept, ascending.
 */
export function editHashes(hashes: readonly number[], keep: number, added: number, cap: number, unit: () => number): number[] {
  const set = new Set<number>();
  for (const h of hashes) if (unit() < keep) set.add(h);
  for (let i = 0; i < added; i++) set.add(Math.floor(unit() * HASHES));
  return [...set].sort((a, b) => a - b).slice(0, cap);
}

/** Bytes of the files under `dir` (0 when it does not exist). */
export function directoryBytes(dir: string): number {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += directoryBytes(path);
    else if (e.isFile()) {
      // LevelDB may delete a file (a compaction) between the listing and its stat: it no longer counts.
      try {
        total += statSync(path).size;
      } catch {
        // gone meanwhile
      }
    }
  }
  return total;
}

/**
 * Where Chromium keeps an extension's IndexedDB in a profile: LevelDB files and the blob
 * directory of the origin `chrome-extension://<id>`.
 */
export function extensionIndexedDbDirs(profile: string, extensionId: string): [string, string] {
  const base = join(profile, 'Default', 'IndexedDB', `chrome-extension_${extensionId}_0.indexeddb`);
  return [`${base}.leveldb`, `${base}.blob`];
}

/** Bytes the extension's IndexedDB takes on disk in the profile (LevelDB files and blobs). */
export function extensionIndexedDbBytes(profile: string, extensionId: string): number {
  return extensionIndexedDbDirs(profile, extensionId).reduce((sum, dir) => sum + directoryBytes(dir), 0);
}
