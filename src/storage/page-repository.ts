// Reads and writes the reading history. Takes an opened database, so tests run it on
// fake-indexeddb. One transaction per operation, and nothing but IndexedDB is awaited inside one.
import type { IDBPDatabase } from 'idb';
import { blocksOf, fromHex, hammingHalves, probeKeys, siteOf } from '../core';
import { asStorageError } from './errors';
import { mergePage } from './merge';
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
}

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

export interface ImportOutcome {
  added: number;
  merged: number;
  unchanged: number;
}

export class PageRepository {
  constructor(private readonly db: IDBPDatabase<DejaReadDB>) {}

  /** Inserts the page or updates its record: one more visit, `lastSeen` now, `firstSeen` kept. */
  async recordVisit(visit: Visit, now: number): Promise<{ record: PageRecord; previous?: PageRecord }> {
    try {
      const tx = this.db.transaction('pages', 'readwrite');
      const previous = await tx.store.get(visit.url);
      const [b0, b1, b2, b3] = blocksOf(visit.fp);
      const record: PageRecord = {
        ...visit,
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

  /** Forgets everything: pages, feedback and the record of past imports. */
  async clear(): Promise<void> {
    const tx = this.db.transaction(['pages', 'dismissals', 'imports', 'journal'], 'readwrite');
    await Promise.all([tx.objectStore('pages').clear(), tx.objectStore('dismissals').clear(), tx.objectStore('imports').clear(), tx.objectStore('journal').clear(), tx.done]);
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

  /**
   * Applies one chunk of an import in one transaction: each record merged into the history by URL
   * (earliest firstSeen, latest lastSeen, visits added), and what it replaced journaled, so the
   * whole import can still be rolled back until it is committed. All reads are issued at once and
   * all writes after them: the transaction never waits between records.
   */
  async applyImportChunk(importId: string, incoming: PageRecord[], now: number): Promise<ImportOutcome> {
    const outcome: ImportOutcome = { added: 0, merged: 0, unchanged: 0 };
    try {
      const tx = this.db.transaction(['pages', 'journal'], 'readwrite');
      const pages = tx.objectStore('pages');
      const journal = tx.objectStore('journal');
      const existing = await Promise.all(incoming.map((p) => pages.get(p.url)));
      const writes: Array<Promise<unknown>> = [];
      const entry = { importId, first: incoming[0]?.url ?? '', added: [] as string[], before: [] as PageRecord[], at: now };
      incoming.forEach((page, i) => {
        const before = existing[i];
        const merged = before ? mergePage(before, page) : page;
        if (merged === before) {
          outcome.unchanged++;
          return;
        }
        if (before) {
          outcome.merged++;
          entry.before.push(before);
        } else {
          outcome.added++;
          entry.added.push(page.url);
        }
        writes.push(pages.put(merged));
      });
      // One journal record per chunk, not per page: the undo costs one write.
      if (writes.length) writes.push(journal.put(entry));
      await Promise.all([...writes, tx.done]);
      return outcome;
    } catch (e) {
      throw asStorageError(e);
    }
  }

  /** Makes an applied import permanent: its journal goes, its digest is remembered. */
  async commitImport(importId: string, digest: string, pages: number, now: number): Promise<void> {
    const tx = this.db.transaction(['journal', 'imports'], 'readwrite');
    await Promise.all([tx.objectStore('journal').delete(journalRange(importId)), tx.objectStore('imports').put({ digest, at: now, pages }), tx.done]);
  }

  /** Undoes an import that will not be committed, restoring every page it changed. */
  async rollbackImport(importId: string): Promise<number> {
    const tx = this.db.transaction(['journal', 'pages'], 'readwrite');
    const pages = tx.objectStore('pages');
    const entries = await tx.objectStore('journal').getAll(journalRange(importId));
    await Promise.all([
      ...entries.flatMap((e) => [...e.added.map((url) => pages.delete(url)), ...e.before.map((r) => pages.put(r))]),
      tx.objectStore('journal').delete(journalRange(importId)),
      tx.done,
    ]);
    return entries.reduce((n, e) => n + e.added.length + e.before.length, 0);
  }

  /**
   * Rolls back imports abandoned mid-way — no chunk applied since `before` (the options tab was
   * closed, the browser crashed) — so no import stays half-applied. Cheap when there is none.
   */
  async rollbackStaleImports(before: number): Promise<string[]> {
    const newest = new Map<string, number>();
    const tx = this.db.transaction('journal', 'readonly');
    for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue()) {
      const { importId, at } = cursor.value;
      newest.set(importId, Math.max(newest.get(importId) ?? 0, at));
    }
    await tx.done;
    const stale = [...newest].filter(([, at]) => at < before).map(([id]) => id);
    for (const id of stale) await this.rollbackImport(id);
    return stale;
  }
}

function journalRange(importId: string): IDBKeyRange {
  return IDBKeyRange.bound([importId, ''], [importId, '\uffff']);
}
