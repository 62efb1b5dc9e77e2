// Reads and writes the reading history. Takes an opened database, so tests run it on
// fake-indexeddb. One transaction per operation, and nothing but IndexedDB is awaited inside one.
// One record per page: every address that comes in (a visit, a tab's URL, a page to forget, a pair
// said to be "not the same") is taken to its page identity (core's pageIdentity) here, so callers
// may pass any variant of it.
import type { IDBPDatabase } from 'idb';
import { blocksOf, fromHex, hammingHalves, pageIdentity, probeKeys, siteOf } from '../core';
import { asStorageError } from './errors';
import { ImportStore } from './import-store';
import { KEPT_VISIT_IDS } from './merge';
import { BLOCK_INDEXES, type DejaReadDB, type PageRecord } from './schema';

/** What the background knows about a page when the reader visits it. */
export interface Visit {
  /** The address the page was read at; the visit is recorded under its identity. */
  url: string;
  canonicalUrl?: string;
  title: string;
  fp: string;
  algo: string;
  textHash?: string;
  sketch?: string;
  /** Passage signature (base64) and its anchors, the page's entries in the passage index. */
  passages?: string;
  anchors?: number[];
  /** The read set (base64, core's read-set.ts): which passages a later page shares with this one. */
  readSet?: string;
  textLength: number;
  lang: string;
  /** Names this visit: recording it again changes nothing. */
  visitId?: string;
}

export interface SimilarPage extends PageRecord {
  distance: number;
}

export interface FindOptions {
  algo: string;
  /** Largest Hamming distance kept; up to 3 needs exact block lookups, up to 7 one-bit probes. */
  maxDistance: number;
  /** Leave out the record of this page (the one being looked at), given by any of its addresses. */
  excludeUrl?: string;
  /** Filled in with how many records the index lookups returned before the distance filter. */
  stats?: { candidates: number };
}

export interface AnchorOptions {
  algo: string;
  excludeUrl?: string;
  /** Pages read per anchor; an anchor more pages share than this is boilerplate, not a copy, and is skipped. */
  perAnchor?: number;
  /** Candidates returned at most. */
  max?: number;
  stats?: { candidates: number };
}

/** Bounds of a passage-index lookup: 12 anchors × 24 pages read at most, 48 candidates kept. */
export const PAGES_PER_ANCHOR = 24;
export const MAX_ANCHOR_CANDIDATES = 48;

/** Records with the same text looked at for a link found in the history, to name the page it is a copy of. */
const SAME_TEXT_LOOKED_AT = 4;

/** A link's page found in the history: read there (`copyOf` absent), or through a copy of it. */
export interface ReadLink {
  /** The key asked about (a page identity). */
  key: string;
  /** When the page (or the copy) was last read. */
  lastSeen: number;
  /** The title of the page read elsewhere that this one is a known copy of. */
  copyOf?: string;
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
   * Inserts the page or updates its record (whichever variant of its address the visit came by):
   * one more visit, `lastSeen` now, `firstSeen` kept. A visit whose id the record already holds
   * was recorded before (sent again): nothing changes.
   */
  async recordVisit(visit: Visit, now: number): Promise<{ record: PageRecord; previous?: PageRecord; repeated?: true }> {
    try {
      const url = pageIdentity(visit.url);
      const tx = this.db.transaction('pages', 'readwrite');
      const previous = await tx.store.get(url);
      if (visit.visitId && previous?.visitIds?.includes(visit.visitId)) {
        await tx.done;
        return { record: previous, previous, repeated: true };
      }
      const [b0, b1, b2, b3] = blocksOf(visit.fp);
      const { visitId, ...page } = visit;
      const visitIds = visitId ? [...(previous?.visitIds ?? []), visitId].slice(-KEPT_VISIT_IDS) : previous?.visitIds;
      const record: PageRecord = {
        ...page,
        url,
        ...(visitIds ? { visitIds } : {}),
        canonicalUrl: visit.canonicalUrl ?? url,
        site: siteOf(url),
        b0,
        b1,
        b2,
        b3,
        firstSeen: previous ? Math.min(previous.firstSeen, now) : now,
        lastSeen: now,
        visits: (previous?.visits ?? 0) + 1,
        // The mark "changed since read" stays until the page changes again.
        ...(previous?.changed ? { changed: previous.changed } : {}),
      };
      await Promise.all([tx.store.put(record), tx.done]);
      return { record, previous };
    } catch (e) {
      throw asStorageError(e);
    }
  }

  /** The record of the page at this address (any variant of it). */
  get(url: string): Promise<PageRecord | undefined> {
    return this.db.get('pages', pageIdentity(url));
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
    const exclude = opts.excludeUrl === undefined ? undefined : pageIdentity(opts.excludeUrl);
    const found = new Map<string, SimilarPage>();
    for (const records of await Promise.all(lookups)) {
      if (opts.stats) opts.stats.candidates += records.length;
      for (const r of records) {
        if (found.has(r.url) || r.url === exclude || r.algo !== opts.algo) continue;
        const other = fromHex(r.fp);
        const distance = hammingHalves(query.hi, query.lo, other.hi, other.lo);
        if (distance <= opts.maxDistance) found.set(r.url, { ...r, distance });
      }
    }
    return [...found.values()].sort((a, b) => a.distance - b.distance || b.lastSeen - a.lastSeen);
  }

  /**
   * Pages sharing one of these passage-index anchors (core's anchorsOf), most shared anchors first.
   * Bounded: each anchor reads at most `perAnchor` + 1 records and is skipped when more pages share
   * it (a sentence that common is boilerplate); at most `max` candidates come back.
   */
  async findByAnchors(anchors: number[], opts: AnchorOptions): Promise<PageRecord[]> {
    const perAnchor = opts.perAnchor ?? PAGES_PER_ANCHOR;
    const exclude = opts.excludeUrl === undefined ? undefined : pageIdentity(opts.excludeUrl);
    const tx = this.db.transaction('pages', 'readonly');
    const index = tx.store.index('anchors');
    const lookups = await Promise.all(anchors.map((a) => index.getAll(a, perAnchor + 1)));
    const found = new Map<string, { record: PageRecord; shared: number }>();
    for (const records of lookups) {
      if (opts.stats) opts.stats.candidates += records.length;
      if (records.length > perAnchor) continue;
      for (const r of records) {
        if (r.url === exclude || r.algo !== opts.algo) continue;
        const f = found.get(r.url);
        if (f) f.shared++;
        else found.set(r.url, { record: r, shared: 1 });
      }
    }
    return [...found.values()]
      .sort((a, b) => b.shared - a.shared || b.record.lastSeen - a.record.lastSeen)
      .slice(0, opts.max ?? MAX_ANCHOR_CANDIDATES)
      .map((f) => f.record);
  }

  /** Pages recorded under this canonical URL (the same page at other addresses). */
  findByCanonicalUrl(canonicalUrl: string): Promise<PageRecord[]> {
    return this.db.getAllFromIndex('pages', 'canonicalUrl', canonicalUrl);
  }

  /** Pages whose normalised text is exactly this one's. */
  findByTextHash(textHash: string): Promise<PageRecord[]> {
    return this.db.getAllFromIndex('pages', 'textHash', textHash);
  }

  /**
   * Which of these link keys (page identities) lead to a page read: a page in the history, or a
   * known copy of one, either a page read at another address that declares this one its canonical
   * URL, or a page read here whose text is exactly that of a page read at another address. The keys
   * are looked up in the store's key and its `canonicalUrl` index (keys only); full records are read
   * only for the pages found, and the text hash index (keys only) only for those.
   */
  async readLinks(keys: readonly string[]): Promise<ReadLink[]> {
    const tx = this.db.transaction('pages', 'readonly');
    const canonical = tx.store.index('canonicalUrl');
    const byText = tx.store.index('textHash');
    const found = await Promise.all(
      keys.map(async (key): Promise<ReadLink | undefined> => {
        const own = await tx.store.getKey(key);
        if (own !== undefined) {
          const record = await tx.store.get(own);
          if (!record) return undefined;
          // The same text read first at another address (a few looked at): this page is a copy of that one.
          const others = record.textHash ? (await byText.getAllKeys(record.textHash, SAME_TEXT_LOOKED_AT)).filter((k) => k !== own) : [];
          const earlier = (await Promise.all(others.map((k) => tx.store.get(k)))).filter((r): r is PageRecord => r !== undefined && r.firstSeen < record.firstSeen).sort((a, b) => a.firstSeen - b.firstSeen)[0];
          return { key, lastSeen: record.lastSeen, ...(earlier ? { copyOf: earlier.title || earlier.url } : {}) };
        }
        const declaring = await canonical.getKey(key);
        if (declaring === undefined) return undefined;
        const record = await tx.store.get(declaring);
        return record && { key, lastSeen: record.lastSeen, copyOf: record.title || record.url };
      }),
    );
    await tx.done;
    return found.filter((f): f is ReadLink => f !== undefined);
  }

  /** Forgets the page at this address: its one record, whichever variant of the address it is given. */
  async forget(url: string): Promise<boolean> {
    const key = pageIdentity(url);
    const tx = this.db.transaction('pages', 'readwrite');
    const existed = (await tx.store.count(key)) > 0;
    await Promise.all([tx.store.delete(key), tx.done]);
    return existed;
  }

  /**
   * Forgets every page of a site (host name, with or without "www."); returns how many. Records are
   * keyed by their page's address, so a site's pages are a few key ranges ("https://site/…", "http://www.site/…"):
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
    await this.db.put('dismissals', { pair: dismissalKey(a, b), at: now });
  }

  /** Marks a recorded page as met again with text not read on it (the history shows it); false if it is not recorded. */
  async markChanged(url: string, changed: NonNullable<PageRecord['changed']>): Promise<boolean> {
    try {
      const tx = this.db.transaction('pages', 'readwrite');
      const record = await tx.store.get(pageIdentity(url));
      if (!record) {
        await tx.done;
        return false;
      }
      await Promise.all([tx.store.put({ ...record, changed }), tx.done]);
      return true;
    } catch (e) {
      throw asStorageError(e);
    }
  }

  async isDismissed(a: string, b: string): Promise<boolean> {
    return (await this.db.count('dismissals', dismissalKey(a, b))) > 0;
  }

  wasImported(digest: string): Promise<boolean> {
    return this.db.count('imports', digest).then((n) => n > 0);
  }
}

/** The key of a "not the same" pair: the two pages' identities, sorted. */
export function dismissalKey(a: string, b: string): [string, string] {
  const [x, y] = [pageIdentity(a), pageIdentity(b)];
  return x < y ? [x, y] : [y, x];
}
