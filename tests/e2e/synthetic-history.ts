// A large history file to import, written in pieces: N well-formed records in the export format
// (with sketches and text hashes, as a real export has), for the import's browser test and its
// benchmark. `lastVisits` replaces the last record's visits, to make a file that is bad at its end;
// `lean` leaves out sketch and text hash (as the first version's exports did): 10^6 lean records
// fit in the longest string a browser holds, 10^6 full ones do not.
import { closeSync, openSync, writeSync } from 'node:fs';
import { ALGORITHM, blocksOf, encodeSketch, SKETCH_BUCKETS, toHex } from '../../src/core';
import { jsonChunk, jsonHead, JSON_TAIL } from '../../src/storage/history-file';
import type { PageRecord } from '../../src/storage/schema';

const NOW = Date.UTC(2026, 0, 1);
const WORDS = ['river', 'market', 'policy', 'garden', 'energy', 'climate', 'music', 'history', 'science', 'travel', '咖啡', '图书馆', '阳台', '城市'];

/** Writes the file; returns its size in bytes. `urlOf` names the pages (default: spread over 997 sites). */
export function writeSyntheticHistory(path: string, records: number, options: { lastVisits?: unknown; lean?: boolean; urlOf?: (i: number) => string } = {}): number {
  let seed = 0x2545f491;
  const u32 = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 0;
  };
  // A pool of sketches: what they hold does not matter here, only that each is a real one.
  const sketches = Array.from({ length: 256 }, () => encodeSketch({ size: 200 + (u32() % 5000), mins: Uint8Array.from({ length: SKETCH_BUCKETS }, () => u32() & 255) }));
  const record = (i: number): PageRecord => {
    const fp = toHex(u32(), u32());
    const [b0, b1, b2, b3] = blocksOf(fp);
    const url = options.urlOf?.(i) ?? `https://site${i % 997}.example/${WORDS[i % WORDS.length]}/article-${i}`;
    const firstSeen = NOW - (u32() % 1e10);
    return {
      url,
      canonicalUrl: url,
      site: new URL(url).hostname,
      title: `${WORDS[u32() % WORDS.length]} ${WORDS[u32() % WORDS.length]}, part ${i}`,
      fp,
      b0,
      b1,
      b2,
      b3,
      algo: ALGORITHM,
      ...(options.lean ? {} : { textHash: toHex(u32(), u32()), sketch: sketches[u32() & 255] }),
      textLength: 1000 + (u32() % 20000),
      lang: 'en',
      firstSeen,
      lastSeen: firstSeen + (u32() % 1e8),
      visits: 1 + (u32() % 5),
    };
  };
  const fd = openSync(path, 'w');
  let bytes = 0;
  const write = (s: string) => (bytes += writeSync(fd, s));
  try {
    write(jsonHead(new Date(NOW)));
    const PIECE = 10_000;
    for (let i = 0; i < records; i += PIECE) {
      const pages = Array.from({ length: Math.min(PIECE, records - i) }, (_, k) => record(i + k));
      if (i + pages.length === records && options.lastVisits !== undefined) (pages[pages.length - 1] as unknown as Record<string, unknown>).visits = options.lastVisits;
      write(jsonChunk(pages, i === 0));
    }
    write(JSON_TAIL);
  } finally {
    closeSync(fd);
  }
  return bytes;
}
