// The pure helpers of `npm run bench:store`: what its figures and synthetic signatures rest on.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cutPassages, decodePassages, decodeReadSet, digestArticle, encodePassages, PASSAGE_CAP, readSetOf } from '../../src/core';
import { variedFiller } from '../fixtures/filler';
import { editHashes, extensionIndexedDbBytes, percentile, smallestHashes, syntheticReadSet } from '../../scripts/bench-store-data';

/** A seeded uniform generator in [0, 1). */
function unit(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('percentile', () => {
  it('takes the nearest rank of sorted times', () => {
    const times = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(times, 0.5)).toBe(50);
    expect(percentile(times, 0.95)).toBe(95);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([1, 2], 0)).toBe(1);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('syntheticReadSet', () => {
  it('has the size of the read set a visit records for prose of that length, and decodes as one', () => {
    for (const sentences of [60, 250, 400]) {
      const text = variedFiller(sentences, sentences);
      const real = readSetOf(text);
      const made = syntheticReadSet(digestArticle(text).words, cutPassages(text).length, unit(sentences));
      expect(Math.abs(made.length - real.length) / real.length).toBeLessThan(0.1);
      expect(decodeReadSet(made)?.runSample).toBe(decodeReadSet(real)?.runSample);
    }
  });
});

describe('smallestHashes', () => {
  it('keeps every hash of a short page, the cap smallest of a long one, ascending, distinct and 24-bit', () => {
    const short = smallestHashes(40, PASSAGE_CAP, unit(1));
    expect(short).toHaveLength(40);
    const long = smallestHashes(5000, PASSAGE_CAP, unit(2));
    expect(long).toHaveLength(PASSAGE_CAP);
    for (const hs of [short, long]) {
      hs.forEach((h, i) => {
        expect(Number.isInteger(h) && h >= 0 && h < 2 ** 32).toBe(true);
        if (i > 0) expect(h).toBeGreaterThan(hs[i - 1]);
      });
    }
    // The signature decodes as one core would store.
    expect(decodePassages(encodePassages({ count: 5000, hashes: Uint32Array.from(long), bits: 32 }))?.hashes).toEqual(Uint32Array.from(long));
  });

  it('draws as the smallest of uniform hashes: the 96th of 5,000 falls near 96/5,000 of the range', () => {
    const r = unit(3);
    const last = Array.from({ length: 200 }, () => smallestHashes(5000, PASSAGE_CAP, r)[PASSAGE_CAP - 1] / 2 ** 32);
    const mean = last.reduce((a, b) => a + b, 0) / last.length;
    expect(mean).toBeGreaterThan(0.9 * (96 / 5001));
    expect(mean).toBeLessThan(1.1 * (96 / 5001));
  });
});

describe('editHashes', () => {
  it('keeps all, or none, of the old hashes, adds new ones, and stays sorted, distinct and capped', () => {
    const old = smallestHashes(300, PASSAGE_CAP, unit(4));
    expect(editHashes(old, 1, 0, PASSAGE_CAP, unit(5))).toEqual(old);
    const fresh = editHashes(old, 0, 50, PASSAGE_CAP, unit(6));
    expect(fresh.filter((h) => old.includes(h)).length).toBeLessThan(3);
    const grown = editHashes(old, 1, 300, PASSAGE_CAP, unit(7));
    expect(grown).toHaveLength(PASSAGE_CAP);
    expect(new Set(grown).size).toBe(grown.length);
    expect([...grown].sort((a, b) => a - b)).toEqual(grown);
    // A page holding the old one among as much new text shares some of its smallest hashes.
    expect(grown.filter((h) => old.includes(h)).length).toBeGreaterThan(20);
  });
});

describe('extensionIndexedDbBytes', () => {
  let profile = '';
  afterEach(() => rmSync(profile, { recursive: true, force: true }));

  it("sums the extension's LevelDB and blob directories, and nothing else of the profile", () => {
    profile = mkdtempSync(join(tmpdir(), 'bench-store-data-'));
    const idb = join(profile, 'Default', 'IndexedDB');
    mkdirSync(join(idb, 'chrome-extension_abc_0.indexeddb.leveldb'), { recursive: true });
    mkdirSync(join(idb, 'chrome-extension_abc_0.indexeddb.blob', '1', '00'), { recursive: true });
    mkdirSync(join(idb, 'https_example.org_0.indexeddb.leveldb'), { recursive: true });
    writeFileSync(join(idb, 'chrome-extension_abc_0.indexeddb.leveldb', '000003.log'), Buffer.alloc(1000));
    writeFileSync(join(idb, 'chrome-extension_abc_0.indexeddb.leveldb', 'MANIFEST-000001'), Buffer.alloc(23));
    writeFileSync(join(idb, 'chrome-extension_abc_0.indexeddb.blob', '1', '00', '5'), Buffer.alloc(400));
    writeFileSync(join(idb, 'https_example.org_0.indexeddb.leveldb', '000003.log'), Buffer.alloc(9999));
    expect(extensionIndexedDbBytes(profile, 'abc')).toBe(1423);
    expect(extensionIndexedDbBytes(profile, 'other')).toBe(0);
  });
});
