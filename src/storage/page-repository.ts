// Reads and writes page records. Takes an opened database, so tests run it on fake-indexeddb.
// One transaction per operation, and nothing but IndexedDB is awaited inside one.
import type { IDBPDatabase } from 'idb';
import { blocksOf, hamming } from '../core';
import { BLOCK_INDEXES, type DejaReadDB, type PageRecord } from './schema';

/** What the background knows about a page when the reader visits it. */
export interface Visit {
  url: string;
  title: string;
  fp: string;
  algo: string;
  textLength: number;
  lang: string;
}

export interface SimilarPage extends PageRecord {
  distance: number;
}

export interface FindOptions {
  algo: string;
  maxDistance: number;
  /** Leave out the record of this URL (the page being looked at). */
  excludeUrl?: string;
}

export class PageRepository {
  constructor(private readonly db: IDBPDatabase<DejaReadDB>) {}

  /** Inserts the page or updates its record: one more visit, `lastSeen` now, `firstSeen` kept. */
  async recordVisit(visit: Visit, now: number): Promise<PageRecord> {
    const tx = this.db.transaction('pages', 'readwrite');
    const previous = await tx.store.get(visit.url);
    const [b0, b1, b2, b3] = blocksOf(visit.fp);
    const record: PageRecord = {
      ...visit,
      b0,
      b1,
      b2,
      b3,
      firstSeen: previous ? Math.min(previous.firstSeen, now) : now,
      lastSeen: now,
      visits: (previous?.visits ?? 0) + 1,
    };
    await Promise.all([tx.store.put(record), tx.done]);
    return record;
  }

  get(url: string): Promise<PageRecord | undefined> {
    return this.db.get('pages', url);
  }

  /**
   * Pages whose fingerprint is within `maxDistance` (at most 3: one of the four blocks must then
   * be equal) of `fp`, closest first, then most recently seen first.
   */
  async findSimilar(fp: string, opts: FindOptions): Promise<SimilarPage[]> {
    if (opts.maxDistance > 3) throw new RangeError('block lookups find every match only up to distance 3');
    const blocks = blocksOf(fp);
    const tx = this.db.transaction('pages', 'readonly');
    const perBlock = await Promise.all(BLOCK_INDEXES.map((name, i) => tx.store.index(name).getAll(blocks[i])));
    const found = new Map<string, SimilarPage>();
    for (const records of perBlock) {
      for (const r of records) {
        if (found.has(r.url) || r.url === opts.excludeUrl || r.algo !== opts.algo) continue;
        const distance = hamming(fp, r.fp);
        if (distance <= opts.maxDistance) found.set(r.url, { ...r, distance });
      }
    }
    return [...found.values()].sort((a, b) => a.distance - b.distance || b.lastSeen - a.lastSeen);
  }

  count(): Promise<number> {
    return this.db.count('pages');
  }

  /** Every record, oldest visit first. */
  all(): Promise<PageRecord[]> {
    return this.db.getAllFromIndex('pages', 'lastSeen');
  }
}
