// Reads and writes the reading history. Takes an opened database, so tests run it on
// fake-indexeddb. One transaction per operation, and nothing but IndexedDB is awaited inside one.
import type { IDBPDatabase } from 'idb';
import { blocksOf, fromHex, hammingHalves, probeKeys, siteOf } from '../core';
import { asStorageError } from './errors';
import { ImportStore } from './import-store';
import { BLOCK_INDEXES, type DejaReadDB, type PageRecord } from './schema';

/** What the background knows about a page when the reader visits it. */
export interface Visit {
  url: string;
  canonicalUrl?: string;
  title: string;
  fp: string;
  algo: string;
  textHash?: string;
  sketch?: string;
  textLength: number;
  lang: string;
  /** Names this visit: recording it again changes nothing. */
  visitId?: string;
}

/** How many visit ids a record remembers: enough for the tabs that may retry at once. */
const KEPT_VISIT_IDS = 16;

export interface SimilarPage extends PageRecord {
  distance: number;
}

export interface FindOptions {
  algo: string;
  /** Largest Hamming distance kept; up to 3 needs exact block lookups, up to 7 one-bit probes. */
  maxDistance: number;
  /** Leave out the record of this URL (the page being looked at). */
  excludeUrl?: string;
  /** Filled in with how many records the index lookups returned before the distance filter. */
  stats?: { candidates: number };
}

/** Where a page of the listing by date starts: after this (lastSeen, url). */
export type ListCursor = [number, string];

export class PageRepository {
  /** Imports of history files, staged and applied all or nothing. */
  readonly imports: ImportStore;

  constructor(private readonly db: IDBPDatabase<DejaReadDB>) {
    this.imports = new ImportStore(db);
  }

  /**
   * Inserts the page or updates its record: one more visit, `lastSeen` now, `firstSeen` kept. A
   * visit whose id the record already holds was recorded before (sent again): nothing changes.
   */
  async recordVisit(visit: Visit, now: number): Promise<{ record: PageRecord; previous?: PageRecord; repeated?: true }> {
    try {
      const tx = this.db.transaction('pages', 'readwrite');
      const previous = await tx.store.get(visit.url);
      if (visit.visitId && previous?.visitIds?.includes(visit.visitId)) {
        await tx.done;
        return { record: previous, previous, repeated: true };
      }
      const [b0, b1, b2, b3] = blocksOf(visit.fp);
      const { visitId, ...page } = visit;
      const visitIds = visitId ? [...(previous?.visitIds ?? []), visitId].slice(-KEPT_VISIT_IDS) : previous?.visitIds;
      const record: PageRecord = {
        ...page,
        ...(visitIds ? { visitIds } : {}),
        canonicalUrl: visit.canonicalUrl ?? visit.url,
        site: siteOf(visit.url),
        b0,
        b1,
        b2,
        b3,
        firstSeen: previous ? Math.min(previous.firstSeen, now) : now,
        lastSeen: now,
        visits: (previous?.visits ?? 0) + 1,
      };
      await Promise.all([tx.store.put(record), tx.done]);
      return { record, previous };
    } catch (e) {
      throw asStorageError(e);
    }
  }

  get(url: string): Promise<PageRecord | undefined> {
    return this.db.get('pages', url);
  }

  /**
   * Pages whose fingerprint is within `maxDistance` of `fp`, closest first, then most recent.
   * Within 3 bits one of the four blocks is equal; within 7, one block differs in at most one
   * bit, so probing each block and its 16 one-bit neighbours (68 lookups) finds every match.
   */
  async findSimilar(fp: string, opts: FindOptions): Promise<SimilarPage[]> {
    if (opts.maxDistance > 7) throw new RangeError('block lookups find every match only up to distance 7');
    const probes = opts.maxDistance > 3;
    const blocks = blocksOf(fp);
    const tx = this.db.transaction('pages', 'readonly');
    const lookups = BLOCK_INDEXES.flatMap((name, i) => probeKeys(blocks[i], probes).map((key) => tx.store.index(name).getAll(key)));
    const query = fromHex(fp);
    const found = new Map<string, SimilarPage>();
    for (const records of await Promise.all(lookups)) {
      if (opts.stats) opts.stats.candidates += records.length;
      for (const r of records) {
        if (found.has(r.url) || r.url === opts.excludeUrl || r.algo !== opts.algo) continue;
        const other = fromHex(r.fp);
        const distance = hammingHalves(query.hi, query.lo, other.hi, other.lo);
        if (distance <= opts.maxDistance) found.set(r.url, { ...r, distance });
      }
    }
    return [...found.values()].sort((a, b) => a.distance - b.distance || b.lastSeen - a.lastSeen);
  }

  /** Pages recorded under this canonical URL (the same page at other addresses). */
  findByCanonicalUrl(canonicalUrl: string): Promise<PageRecord[]> {
    return this.db.getAllFromIndex('pages', 'canonicalUrl', canonicalUrl);
  }

  /** Pages whose normalised text is exactly this one's. */
  findByTextHash(textHash: string): Promise<PageRecord[]> {
    return this.db.getAllFromIndex('pages', 'textHash', textHash);
  }

  async forget(url: string): Promise<boolean> {
    const tx = this.db.transaction('pages', 'readwrite');
    const existed = (await tx.store.count(url)) > 0;
    await Promise.all([tx.store.delete(url), tx.done]);
    return existed;
  }

  /**
   * Forgets every page of a site (host name, with or without "www."); returns how many. Records are
   * keyed by URL, so a site's pages are a few key ranges ("https://site/…", "http://www.site/…"):
   * no index of its own is needed, which keeps every write cheaper.
   */
  async forgetSite(site: string): Promise<number> {
    const tx = this.db.transaction('pages', 'readwrite');
    let n = 0;
    for (const scheme of ['http', 'https']) {
      for (const host of [site, `www.${site}`]) {
        for (const sep of ['/', ':']) {
          const prefix = `${scheme}://${host}${sep}`;
          const range = IDBKeyRange.bound(prefix, `${prefix}\uffff`);
          n += await tx.store.count(range);
          void tx.store.delete(range);
        }
      }
    }
    await tx.done;
    return n;
  }

  /** Forgets everything: pages, feedback, past imports and any import under way. */
  async clear(): Promise<void> {
    const stores = ['pages', 'dismissals', 'imports', 'staging', 'importRuns'] as const;
    const tx = this.db.transaction(stores, 'readwrite');
    await Promise.all([...stores.map((name) => tx.objectStore(name).clear()), tx.done]);
  }

  count(): Promise<number> {
    return this.db.count('pages');
  }

  /**
   * Most recently seen first, `limit` at a time; pass the last item's [lastSeen, url] to go on.
   * With a query, only pages whose title or URL contains it (any case); at most `maxScan` records
   * are read per call, so a rare query over a million pages answers in steps: `next` says where
   * the scan stopped, `done` whether the history is exhausted.
   */
  async listRecent(limit: number, after?: ListCursor, query = '', maxScan = 20_000): Promise<{ items: PageRecord[]; next?: ListCursor; done: boolean }> {
    const q = query.trim().toLowerCase();
    const tx = this.db.transaction('pages', 'readonly');
    const range = after ? IDBKeyRange.upperBound(after[0]) : undefined;
    const items: PageRecord[] = [];
    let scanned = 0;
    let last: ListCursor | undefined;
    let cursor = await tx.store.index('lastSeen').openCursor(range, 'prev');
    for (; cursor && items.length < limit && scanned < maxScan; cursor = await cursor.continue()) {
      const r = cursor.value;
      // Skip what the previous call already went through: same lastSeen, URL not before the cursor's.
      if (after && r.lastSeen === after[0] && r.url >= after[1]) continue;
      scanned++;
      last = [r.lastSeen, r.url];
      if (!q || r.title.toLowerCase().includes(q) || r.url.toLowerCase().includes(q)) items.push(r);
    }
    const done = cursor === null;
    await tx.done;
    return { items, ...(last && !done ? { next: last } : {}), done };
  }

  /** Records in URL order after `afterUrl`, `limit` at a time: the export reads the history this way. */
  exportChunk(limit: number, afterUrl?: string): Promise<PageRecord[]> {
    const range = afterUrl === undefined ? undefined : IDBKeyRange.lowerBound(afterUrl, true);
    return this.db.getAll('pages', range, limit);
  }

  /** Remembers that two pages are not the same article. */
  async dismiss(a: string, b: string, now: number): Promise<void> {
    await this.db.put('dismissals', { pair: a < b ? [a, b] : [b, a], at: now });
  }

  async isDismissed(a: string, b: string): Promise<boolean> {
    return (await this.db.count('dismissals', a < b ? [a, b] : [b, a])) > 0;
  }

  wasImported(digest: string): Promise<boolean> {
    return this.db.count('imports', digest).then((n) => n > 0);
  }
}
