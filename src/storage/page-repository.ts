// Reads and writes the reading history. Takes an opened database, so tests run it on
// fake-indexeddb. One transaction per operation, and nothing but IndexedDB is awaited inside one.
// One record per page: every address that comes in (a visit, a tab's URL, a page to forget, a pair
// said to be "not the same") is taken to its page identity (core's pageIdentity) here, so callers
// may pass any variant of it. The layout (blocks of pages, columns, the anchor index) is in
// layout.ts; the columns are held in memory between events as a cache that any write brings up to
// date, and that a background started anew reads back (docs/storage.md).
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import { ANCHOR_COUNT, bothSchemes, comparableAlgorithms, displayUrl, fromHex, hammingHalves, matchesSearch, otherScheme, pageIdentity, PROBE_COUNT, schemeFree, searchTerms, type SearchTerm } from '../core';
import { ADDRESS, addEntries, ANCHOR, anchorEntries, CANONICAL, findAnchors, findKeys, type Anchors, type AnchorStore, type WritableAnchorStore } from './anchor-index';
import { ALL_GROUPS, Columns, FIRST_GROUPS, LOOKUP_GROUPS, NO_PAGE, type Group } from './columns';
import { asStorageError } from './errors';
import { ImportStore, keepNotSame, onePerPage } from './import-store';
import { notSameInOneMessage, type NotSamePair } from './history-file';
import { blockOf, blocksOfNames, emptyMeta, fromStored, hashString, META_KEY, namesFrom, namesGroupOf, PAGES_PER_BLOCK, PAGES_PER_NAMES, siteOfIdentity, slotOf, storedAnchors, toStored, type Block, type Name, type Names, type StoredPage, type StoreMeta } from './layout';
import { joinRecords, KEPT_VISIT_IDS, MAX_VISITS, mergePage, restoredPage } from './merge';
import { dropOldPages, OLD_PAGES } from './old-pages';
import type { DejaReadDB, Dismissal, PageRecord } from './schema';

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
  /** Passage signature (base64); its anchors are the page's entries in the passage index. */
  passages?: string;
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
  /** Largest Hamming distance kept (at most 7 in the extension's settings; any works). */
  maxDistance: number;
  /** Leave out the record of this page (the one being looked at), given by any of its addresses. */
  excludeUrl?: string;
  /** Filled in with how many pages the lookup found before anything else was read. */
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

/** Bounds of a passage-index lookup: 12 anchors × 24 pages at most, 48 candidates kept. */
export const PAGES_PER_ANCHOR = 24;
export const MAX_ANCHOR_CANDIDATES = 48;
/**
 * Pages near in fingerprint judged at most in one lookup, the closest: however many copies of one
 * article the history holds (or a compromised page recorded under addresses of its own), a lookup
 * reads and judges a bounded number of blocks.
 */
export const MAX_NEAR_CANDIDATES = 64;
/** Fingerprints this close are looked at for the same text (the same normalised text gives the same fingerprint, short of words split or joined). */
const SAME_TEXT_DISTANCE = 3;
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
  /** For a page read at this very address: the address where the same text was read first, when that was another page. */
  firstReadUrl?: string;
}

/**
 * Where a listing goes on: by date, after the page (lastSeen, page number); in a search, below this
 * block number (a search reads the history block by block, newest pages first).
 */
export type ListCursor = [number, number];

/**
 * What a history search has learned so far, for the columns at write count `gen`: which groups of
 * names it has read (one byte per group) and which pages matched (one bit per page number): about
 * 130 KB at 10^6 pages, however many match.
 */
interface SearchState {
  gen: number;
  key: string;
  terms: readonly SearchTerm[];
  read: Uint8Array;
  matches: Uint8Array;
}

/**
 * Pages a history search takes in the order of their last visits at a time: SEARCH_BATCH first
 * (what a common word needs), twice as many each batch after in the same step, up to
 * SEARCH_BATCH_MAX (each batch looks through every page's last visit: 10^6 of them).
 */
const SEARCH_BATCH = 2_000;
const SEARCH_BATCH_MAX = 64_000;
/** How long a step of a history search goes on looking before it answers with what it has. */
const SEARCH_STEP_MS = 1_000;
/**
 * Groups of names a search reads in one transaction, at most (about 1 MB): a step looks at the
 * clock between two such reads.
 */
const SEARCH_GROUPS_READ = 32;
/** How long a search's state (which groups it has read, which pages matched) is kept for its next step. */
const SEARCH_KEPT_MS = 30_000;
/** Groups of names made a transaction after an upgrade (nameOldPages): 64 blocks, up to about 0.4 s in Chromium (bench:store), which a visit may wait for. */
const NAME_BATCH = 4;

/** The names of a group, from its blocks (a history upgraded from version 7 holds none for it until nameOldPages reaches it). */
async function namesInBlocks(blocks: { getAllKeys(range: IDBKeyRange): Promise<number[]>; getAll(range: IDBKeyRange): Promise<Block[]> }, group: number): Promise<Names> {
  const range = blocksOfNames(group);
  const [keys, values] = await Promise.all([blocks.getAllKeys(range), blocks.getAll(range)]);
  return namesFrom(group, keys, values);
}

/** What a page's lookup finds in one transaction (PageRepository.lookup). */
export interface PageLookup {
  /** The page's own record, by any variant of its address. */
  own?: PageRecord;
  /** Records of other addresses declaring the same canonical address (the same page elsewhere on its site). */
  sameCanonical: PageRecord[];
  /** Pages near in fingerprint (the same text among them) and pages sharing an anchor, the page itself left out. */
  candidates: PageRecord[];
}

/** Candidates for a lookup: pages near in fingerprint, and pages sharing passage anchors. */
export interface CandidateQuery {
  fp: string;
  /** Largest fingerprint distance looked at. */
  maxDistance: number;
  /**
   * The page's passage hashes, smallest first (all its signature keeps), when the passage index is
   * to be asked too: the first PROBE_COUNT are asked of the index, and all are compared with every
   * page's leads (core's shareAnchor). A background started anew, with no leads at hand, asks the
   * index for all of them.
   */
  anchors?: Anchors;
  excludeUrl?: string;
  algo: string;
}

type StoreName = 'blocks' | 'names' | 'columns' | 'anchors' | 'meta' | 'staging' | 'importRuns' | 'imports' | 'dismissals';
type WriteTx = IDBPTransaction<DejaReadDB, StoreName[], 'readwrite'>;
type ReadTx = IDBPTransaction<DejaReadDB, Array<'blocks' | 'anchors' | 'meta' | 'columns'>, 'readonly' | 'readwrite'>;

/**
 * One write: the blocks it reads and changes, the pages it gives numbers to, the anchors it adds.
 * Everything is written by `finish`, in the same transaction.
 */
export class PageWrite {
  private readonly blocks = new Map<number, Block | undefined>();
  private readonly changedBlocks = new Set<number>();
  /** Names changed (a page's address or title; null, a page gone), by group and page number: a visit to a page already held changes none. */
  private readonly changedNames = new Map<number, Map<number, Name | null>>();
  /** Entries for the index: (family, key, page) triples. */
  private readonly entries: number[] = [];

  constructor(
    readonly tx: WriteTx,
    readonly columns: Columns,
    readonly meta: StoreMeta,
  ) {}

  /** Reads these blocks (once per write). */
  async readBlocks(numbers: Iterable<number>): Promise<void> {
    const wanted = [...new Set(numbers)].filter((b) => !this.blocks.has(b));
    const read = await Promise.all(wanted.map((b) => this.tx.objectStore('blocks').get(b)));
    wanted.forEach((b, i) => this.blocks.set(b, read[i]));
  }

  /** The stored page at number n (its block read first). */
  page(n: number): StoredPage | null {
    return this.blocks.get(blockOf(n))?.pages[slotOf(n)] ?? null;
  }

  /** The pages stored under these identities, with their numbers. */
  async findAll(urls: readonly string[]): Promise<Map<string, { n: number; page: StoredPage }>> {
    const found = new Map<string, { n: number; page: StoredPage }>();
    const byHash = this.columns.find('url', urls.map(hashString));
    const numbers = [...byHash.values()].flat();
    if (numbers.length === 0) return found;
    await this.readBlocks(numbers.map(blockOf));
    const wanted = new Set(urls);
    for (const n of numbers) {
      const page = this.page(n);
      if (page && wanted.has(page.url)) found.set(page.url, { n, page });
    }
    return found;
  }

  /**
   * Puts a page at number n (replacing `before`, the page there), adding to the index its new
   * anchors, and its address and canonical address where they are new.
   */
  put(n: number, page: StoredPage, before: StoredPage | null): void {
    const b = blockOf(n);
    const block = this.blocks.get(b) ?? { pages: [] };
    block.pages[slotOf(n)] = page;
    this.blocks.set(b, block);
    this.changedBlocks.add(b);
    if (!before || before.url !== page.url || before.title !== page.title) this.rename(n, [page.url, page.title]);
    const anchors = storedAnchors(page);
    const { url, canon } = this.columns.set(n, page, anchors);
    const entries = anchorEntries(anchors, n);
    if (!before) {
      this.entries.push(...entries, ADDRESS, url, n, CANONICAL, canon, n);
      return;
    }
    if (before.url !== page.url) this.entries.push(ADDRESS, url, n);
    if ((before.canonicalUrl ?? before.url) !== (page.canonicalUrl ?? page.url)) this.entries.push(CANONICAL, canon, n);
    // Anchors the page had before are in the index already: its ANCHOR_COUNT smallest, the ones every
    // version of the store indexed. Those past them (anchorCount) are added again, in case the page
    // was recorded before there were such (a bucket's merge keeps an entry once).
    const old = anchorEntries(storedAnchors(before), n);
    const had = new Set<number>();
    for (let i = 0; i < Math.min(old.length, 3 * ANCHOR_COUNT); i += 3) had.add(old[i + 1]);
    for (let i = 0; i < entries.length; i += 3) if (!had.has(entries[i + 1])) this.entries.push(ANCHOR, entries[i + 1], entries[i + 2]);
  }

  /** Gives a new page the next number (reading the block it goes in, if it has one). */
  async add(page: StoredPage): Promise<number> {
    const n = this.meta.next++;
    this.meta.count++;
    await this.readBlocks([blockOf(n)]);
    this.put(n, page, null);
    return n;
  }

  /** New pages, numbered in order (their blocks are new or the last one: read once). */
  async addAll(pages: readonly StoredPage[]): Promise<void> {
    if (pages.length === 0) return;
    await this.readBlocks([blockOf(this.meta.next)]);
    for (const page of pages) {
      const n = this.meta.next++;
      this.meta.count++;
      this.put(n, page, null);
    }
  }

  /**
   * Merges pages, one per page (onePerPage), into the history, as an import applies a chunk: a page
   * it does not hold is added (numbered in the order given, so a history exported, cleared and
   * imported exports as it was), one it holds, at its address or over the other scheme, is merged
   * with (`join`: mergePage, as an import joins; under the address read last). How many of each; a
   * page numbered `ownFrom` or after was added by the same import (its records in the file far
   * apart), and is counted once, where it was added. `numbers`: where a page (by `schemeFree`) was
   * before a forget, to put it back there if that slot is still empty (an undo: the history's order
   * stays as it was, and an export under way does not meet the page again further on).
   */
  async merge(incoming: readonly StoredPage[], join: (stored: PageRecord, incoming: PageRecord) => PageRecord = mergePage, ownFrom = Infinity, numbers?: ReadonlyMap<string, number>): Promise<{ added: number; merged: number; unchanged: number }> {
    const existing = await this.findAll(incoming.flatMap((p) => bothSchemes(p.url)));
    if (numbers) await this.readBlocks([...numbers.values()].map(blockOf));
    const outcome = { added: 0, merged: 0, unchanged: 0 };
    const added: StoredPage[] = [];
    for (const page of incoming) {
      const before = existing.get(page.url) ?? existing.get(otherScheme(page.url) ?? page.url);
      if (!before) {
        const n = numbers?.get(schemeFree(page.url));
        if (n !== undefined && n < this.meta.next && !this.page(n)) {
          this.meta.count++;
          this.put(n, page, null);
          outcome.added++;
        } else added.push(page);
        continue;
      }
      const stored = fromStored(before.page);
      const merged = joinRecords(stored, fromStored(page), join);
      const counted = before.n < ownFrom;
      if (merged === stored) {
        if (counted) outcome.unchanged++;
      } else {
        if (counted) outcome.merged++;
        this.put(before.n, toStored(merged), before.page);
      }
    }
    await this.addAll(added);
    outcome.added += added.length;
    return outcome;
  }

  /** Forgets the page at number n. Its anchors stay in the index until their bucket is merged (a lookup skips pages gone). */
  remove(n: number): void {
    const b = blockOf(n);
    const block = this.blocks.get(b);
    if (!block?.pages[slotOf(n)]) return;
    block.pages[slotOf(n)] = null;
    this.changedBlocks.add(b);
    this.rename(n, null);
    this.columns.set(n, null);
    this.meta.count--;
  }

  private rename(n: number, name: Name | null): void {
    const group = namesGroupOf(n);
    const changes = this.changedNames.get(group) ?? new Map<number, Name | null>();
    this.changedNames.set(group, changes.set(n, name));
  }

  /**
   * The names of each group this write changed, as they will be: read before the blocks are
   * written, then this write's changes applied. A group with no names yet (a history upgraded
   * from version 7, not yet named) is named from its blocks, so a group's names, once written, hold
   * all its pages.
   */
  private async namesChanged(): Promise<Array<[number, Names]>> {
    const names = this.tx.objectStore('names');
    const blocks = this.tx.objectStore('blocks');
    return Promise.all(
      [...this.changedNames].map(async ([group, changes]): Promise<[number, Names]> => {
        const value = (await names.get(group)) ?? (await namesInBlocks(blocks, group));
        for (const [n, name] of changes) value.pages[n - group * PAGES_PER_NAMES] = name;
        return [group, value];
      }),
    );
  }

  /** Writes everything changed, and the counters. */
  async finish(): Promise<void> {
    const blocks = this.tx.objectStore('blocks');
    const names = this.tx.objectStore('names');
    const columns = this.tx.objectStore('columns');
    const renamed = await this.namesChanged();
    const writes: Array<Promise<unknown>> = [];
    for (const b of this.changedBlocks) {
      const block = this.blocks.get(b) as Block;
      // Slots never filled are holes in the array; stored as null, so a block reads back the same.
      writes.push(block.pages.some((p) => p) ? blocks.put({ pages: Array.from({ length: Math.min(PAGES_PER_BLOCK, block.pages.length) }, (_, i) => block.pages[i] ?? null) }, b) : blocks.delete(b));
    }
    for (const [group, value] of renamed) writes.push(value.pages.some((p) => p) ? names.put(value, group) : names.delete(group));
    for (const [value, key] of this.columns.changes()) writes.push(columns.put(value, key));
    this.changedBlocks.clear();
    this.changedNames.clear();
    const anchors = addEntries(this.tx.objectStore('anchors') as unknown as WritableAnchorStore, this.entries.splice(0), this.meta.runs, (n) => this.columns.flag(n) !== NO_PAGE);
    // Every request is waited on together, so a failing one (a full disk) is caught wherever it is.
    const [runs] = await Promise.all([anchors, ...writes]);
    this.meta.runs = runs;
    this.meta.gen++;
    this.columns.gen = this.meta.gen;
    await this.tx.objectStore('meta').put(this.meta, META_KEY);
  }
}

/** How long a chunk read ahead for an export waits to be asked for (the export asks within a second or two). */
const EXPORT_AHEAD_MS = 30_000;

/** A write count no store has: columns marked with it are read again before any write uses them. */
const STALE = -1;

/** Pages in page-number order, the last one's number, and the history's clears (exportStored). */
export interface ExportChunk {
  pages: StoredPage[];
  last?: number;
  cleared: number;
}

export class PageRepository {
  /** Imports of history files, staged and applied all or nothing. */
  readonly imports: ImportStore;
  /** The columns, once read (a promise, so concurrent callers share one read). */
  private cache: Promise<Columns> | undefined;
  private indexing = false;
  /** Writes begun and ended by this background (a chunk read ahead for an export is of no use once one has begun). */
  private writesBegun = 0;
  private writesEnded = 0;
  /** The export's next chunk, read while the last one is written out (exportStored); dropped when a write begins. */
  private exportAhead: { after: number; limit: number; read: Promise<ExportChunk & { gen: number }> } | undefined;
  /** Drops it if it is not asked for in time (the timer holds no chunk: one timer, the repository's). */
  private exportAheadTimer: ReturnType<typeof setTimeout> | undefined;
  /** The "not the same" pairs, once read (a few: each is a click of the reader's). Only this class writes them. */
  private dismissals: Promise<Set<string>> | undefined;
  /** The last search's state, for its next step (the History page asks again within a second or two). */
  private search: SearchState | undefined;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly db: IDBPDatabase<DejaReadDB>) {
    this.imports = new ImportStore(
      db,
      (stores, work) => this.write(stores, work),
      () => (this.dismissals = undefined),
    );
  }

  /**
   * Builds the columns' indexes after the current event (once read, or once many pages changed), so
   * no page waits for it; only once every column they index is read (a list page's links, asked
   * first in a background started anew, read the fingerprints and keys alone: indexing then threw).
   */
  private indexSoon(columns: Columns): void {
    const readable = () => LOOKUP_GROUPS.every((g) => columns.has(g));
    if (columns.indexed || this.indexing || !readable()) return;
    this.indexing = true;
    setTimeout(() => {
      this.indexing = false;
      // Columns being read again meanwhile (another background wrote) are indexed at the next question.
      if (readable()) columns.index();
    }, 0);
  }

  /**
   * Names the pages an upgrade from version 6 or 7 left without (StoreMeta.unnamed), `batch`
   * groups a transaction from the highest down (the pages read lately first), calling `between`
   * after each; a background stopped part-way goes on at its next start. A group already named (by
   * a write since the upgrade) is left as it is; the others are named from their blocks as they are
   * in that transaction. Returns the number of groups named.
   */
  async nameOldPages(between: () => void = () => undefined, batch = NAME_BATCH): Promise<number> {
    let named = 0;
    for (;;) {
      const tx = this.db.transaction(['blocks', 'names', 'meta'], 'readwrite');
      const meta = await tx.objectStore('meta').get(META_KEY);
      if (!meta?.unnamed) {
        await tx.done;
        return named;
      }
      const low = Math.max(0, meta.unnamed - batch);
      const groups = Array.from({ length: meta.unnamed - low }, (_, i) => low + i);
      const had = await tx.objectStore('names').getAllKeys(IDBKeyRange.bound(low, meta.unnamed - 1));
      const writes = await Promise.all(
        groups
          .filter((g) => !had.includes(g))
          .map(async (g) => {
            const value = await namesInBlocks(tx.objectStore('blocks'), g);
            named++;
            return value.pages.some((p) => p) ? tx.objectStore('names').put(value, g) : undefined;
          }),
      );
      const { unnamed: _done, ...rest } = meta;
      await Promise.all([...writes, tx.objectStore('meta').put(low > 0 ? { ...rest, unnamed: low } : rest, META_KEY), tx.done]);
      between();
    }
  }

  /** Empties the store an upgrade left behind, if any (old-pages.ts): for a background that has answered. */
  dropOldPages(between?: () => void): Promise<number> {
    return dropOldPages(this.db, between);
  }

  /** Starts reading what a background's first lookup needs (the fingerprints), if it is not read yet. */
  prefetch(): void {
    void this.columns(FIRST_GROUPS).catch(() => undefined);
  }

  /**
   * Reads the columns a lookup needs and indexes them, if that is not done yet: a background
   * started anew calls this once it has answered its first lookup (which needs only the fingerprints).
   */
  warmUp(): void {
    void this.columns(LOOKUP_GROUPS).then(
      (c) => this.indexSoon(c),
      () => undefined,
    );
  }

  /** The columns, with at least the groups named read. */
  private columns(groups: readonly Group[] = LOOKUP_GROUPS): Promise<Columns> {
    const load = async (held?: Columns): Promise<Columns> => {
      const tx = this.db.transaction(['meta', 'columns'], 'readonly');
      if (held) {
        await held.add(tx, groups);
        return held;
      }
      const meta = (await tx.objectStore('meta').get(META_KEY)) ?? emptyMeta();
      const c = await Columns.read(tx, meta.next, groups);
      c.gen = meta.gen;
      return c;
    };
    const current = this.cache;
    const next = current ? current.then((c) => (groups.every((g) => c.has(g)) ? c : load(c))) : load();
    this.cache = next;
    // A failed read is not kept.
    next.catch(() => {
      if (this.cache === next) this.cache = undefined;
    });
    return next;
  }

  /**
   * Runs one write in one transaction: `work` reads and changes pages through the PageWrite, which
   * then writes blocks, columns, anchors and counters. The columns in memory are changed as the
   * pages are; if the transaction fails they are dropped and read again.
   */
  private write<T>(extra: readonly StoreName[], work: (w: PageWrite) => Promise<T>): Promise<T> {
    return this.writing(() => this.writeNow(extra, work));
  }

  /** A write of any kind, counted from before its transaction exists until it ends (exportStored); a chunk read ahead is dropped. */
  private async writing<T>(run: () => Promise<T>): Promise<T> {
    this.writesBegun++;
    this.dropExportAhead();
    try {
      return await run();
    } finally {
      this.writesEnded++;
    }
  }

  /** write()'s transaction. */
  private async writeNow<T>(extra: readonly StoreName[], work: (w: PageWrite) => Promise<T>): Promise<T> {
    const columns = await this.columns(ALL_GROUPS);
    const tx = this.db.transaction(['blocks', 'names', 'columns', 'anchors', 'meta', ...extra], 'readwrite') as WriteTx;
    try {
      const meta = (await tx.objectStore('meta').get(META_KEY)) ?? emptyMeta();
      // Columns that missed a write (one that failed after changing them, or another writer): read again.
      if (columns.gen !== meta.gen) await columns.reload(tx as unknown as ReadTx, meta.next, meta.gen);
      const w = new PageWrite(tx, columns, meta);
      const result = await work(w);
      await w.finish();
      await tx.done;
      return result;
    } catch (e) {
      // The columns in memory may hold this write's changes: not kept, and every holder reads them
      // again (a write waiting behind this one would otherwise store them with its own).
      this.cache = undefined;
      columns.gen = STALE;
      try {
        tx.abort();
      } catch {
        /* already finished */
      }
      // A transaction the browser aborted (a full disk) fails its requests with AbortError: its own error says why.
      const why = await tx.done.then(
        () => e,
        (txError: unknown) => (txError instanceof DOMException && txError.name === 'QuotaExceededError' ? txError : e),
      );
      throw asStorageError(why);
    }
  }

  /** Reads the pages at these numbers, in the order given (those gone left out). */
  private async pagesAt(numbers: readonly number[], tx?: ReadTx): Promise<Array<{ n: number; page: StoredPage }>> {
    if (numbers.length === 0) return [];
    const t = tx ?? (this.db.transaction(['blocks'], 'readonly') as unknown as ReadTx);
    const wanted = [...new Set(numbers.map(blockOf))];
    const read = await Promise.all(wanted.map((b) => t.objectStore('blocks').get(b)));
    const blocks = new Map(wanted.map((b, i) => [b, read[i]]));
    const out: Array<{ n: number; page: StoredPage }> = [];
    for (const n of numbers) {
      const page = blocks.get(blockOf(n))?.pages[slotOf(n)];
      if (page) out.push({ n, page });
    }
    return out;
  }

  /**
   * Reads these groups' names (ascending) in one transaction and marks, in `state`, each group read
   * and each of its pages whose title or address holds every term; read as a range, the groups
   * between them are taken too. A group not named yet (a history upgraded from version 7, until
   * nameOldPages reaches it) is named from its blocks.
   */
  private async searchGroups(groups: readonly number[], state: SearchState): Promise<void> {
    const tx = this.db.transaction(['names', 'blocks'], 'readonly');
    const store = tx.objectStore('names');
    // Groups that lie close together (a history's pages read in the order they were recorded, as
    // most are) are read as one range, which Chromium reads far quicker than as many values one by
    // one; others one by one.
    const low = groups[0];
    const high = groups[groups.length - 1];
    const names = new Map<number, Names | undefined>();
    if (high - low + 1 <= 2 * groups.length) {
      const range = IDBKeyRange.bound(low, high);
      const [values, keys] = await Promise.all([store.getAll(range), store.getAllKeys(range)]);
      keys.forEach((k, i) => names.set(k, values[i]));
    } else {
      const values = await Promise.all(groups.map((g) => store.get(g)));
      groups.forEach((g, i) => names.set(g, values[i]));
    }
    const unnamed = groups.filter((g) => !names.get(g));
    const read = await Promise.all(unnamed.map((g) => namesInBlocks(tx.objectStore('blocks'), g)));
    unnamed.forEach((g, i) => names.set(g, read[i]));
    for (const [g, value] of names) {
      if (state.read[g]) continue;
      state.read[g] = 1;
      (value?.pages ?? []).forEach((name, slot) => {
        if (!name) return;
        const [url, title] = name;
        // The address as the reader knows it too (例子.example), where it differs from its ASCII form.
        const shown = displayUrl(url);
        if (matchesSearch(state.terms, shown === url ? [title, url] : [title, url, shown])) {
          const n = g * PAGES_PER_NAMES + slot;
          state.matches[n >> 3] |= 1 << (n & 7);
        }
      });
    }
  }

  /** The stored pages under these identities. */
  private async byIdentity(urls: readonly string[]): Promise<Map<string, { n: number; page: StoredPage }>> {
    const columns = await this.columns(['fp', 'keys']);
    const numbers = [...columns.find('url', urls.map(hashString)).values()].flat();
    const wanted = new Set(urls);
    const found = new Map<string, { n: number; page: StoredPage }>();
    for (const p of await this.pagesAt(numbers)) if (wanted.has(p.page.url)) found.set(p.page.url, p);
    return found;
  }

  /**
   * Inserts the page or updates its record (whichever variant of its address the visit came by):
   * one more visit, `lastSeen` now, `firstSeen` kept. A visit whose id the record already holds
   * was recorded before (`repeated`): sent again with the same text, nothing changes; with another
   * article (the page replaced its article in the same load), the record takes it, no visit added.
   * `changes` marks pages (this one or others) "changed since you read it" in the same transaction,
   * so a background stopped between the two cannot keep the visit and lose the mark (the visit sent
   * again no longer finds anything new).
   * A page recorded over the other scheme only (http, now https) is that record, under this address
   * from now on: one page, one record.
   */
  recordVisit(visit: Visit, now: number, changes: ReadonlyArray<{ url: string; changed: NonNullable<PageRecord['changed']> }> = []): Promise<{ record: PageRecord; previous?: PageRecord; repeated?: true }> {
    const url = pageIdentity(visit.url);
    const addresses = bothSchemes(url);
    const marks = new Map(changes.map((c) => [pageIdentity(c.url), c.changed]));
    return this.write([], async (w) => {
      // Marks of other pages; this page's, over either scheme, goes with the visit's own record.
      const others = [...marks.keys()].filter((id) => !addresses.includes(id));
      const all = await w.findAll([...addresses, ...others]);
      const [found, twin] = addresses.map((a) => all.get(a)).filter((f) => f !== undefined);
      // A history from before 28 November 2026 may hold the page under both schemes (an import
      // joined none): the visit joins the two into the record it updates (mergePage: visits added,
      // one visit counted once by its id), and the other goes.
      const previous = found && (twin ? joinRecords(fromStored(found.page), fromStored(twin.page)) : fromStored(found.page));
      // A visit counted already: sent again (its answer lost), it changes nothing; with another
      // article, the page replaced the one it showed at this address in the same load, and the
      // record holds what the address shows now, the visit counted once (until 29 November 2026 the
      // one load counted two visits, and the page was "visited before" on its first load: a review).
      const counted = visit.visitId !== undefined && previous?.visitIds?.includes(visit.visitId) === true;
      if (counted && previous.textHash === visit.textHash) return { record: previous, previous, repeated: true as const };
      if (twin) w.remove(twin.n);
      for (const id of others) {
        const other = all.get(id);
        const changed = marks.get(id);
        if (other && changed) w.put(other.n, { ...other.page, changed }, other.page);
      }
      const { visitId, ...page } = visit;
      // The mark "changed since read" stays until the page changes again.
      const changed = addresses.map((a) => marks.get(a)).find((m) => m !== undefined) ?? previous?.changed;
      const visitIds = visitId && !counted ? [...(previous?.visitIds ?? []), visitId].slice(-KEPT_VISIT_IDS) : previous?.visitIds;
      const stored = toStored({
        ...page,
        url,
        canonicalUrl: visit.canonicalUrl ?? url,
        site: '',
        b0: 0,
        b1: 0,
        b2: 0,
        b3: 0,
        firstSeen: previous ? Math.min(previous.firstSeen, now) : now,
        lastSeen: now,
        visits: Math.min((previous?.visits ?? 0) + (counted ? 0 : 1), MAX_VISITS),
        ...(visitIds ? { visitIds } : {}),
        ...(changed ? { changed } : {}),
      });
      if (found) w.put(found.n, stored, found.page);
      else await w.add(stored);
      return { record: fromStored(stored), ...(previous ? { previous } : {}), ...(counted ? { repeated: true as const } : {}) };
    });
  }

  /** The record of the page at this address (any variant of it). */
  async get(url: string): Promise<PageRecord | undefined> {
    const id = pageIdentity(url);
    const found = (await this.byIdentity([id])).get(id);
    return found && fromStored(found.page);
  }

  /** Pages whose fingerprint is within `maxDistance` of `fp`, closest first, then most recent. */
  async findSimilar(fp: string, opts: FindOptions): Promise<SimilarPage[]> {
    const q = fromHex(fp);
    const columns = await this.columns(FIRST_GROUPS);
    const numbers = columns.near(q.hi, q.lo, opts.maxDistance);
    if (opts.stats) opts.stats.candidates += numbers.length;
    const exclude = opts.excludeUrl === undefined ? undefined : pageIdentity(opts.excludeUrl);
    return (await this.pagesAt(numbers))
      .filter(({ page }) => page.url !== exclude && comparableAlgorithms(page.algo, opts.algo))
      .map(({ page }) => {
        const o = fromHex(page.fp);
        return { ...fromStored(page), distance: hammingHalves(q.hi, q.lo, o.hi, o.lo) };
      })
      .sort((a, b) => a.distance - b.distance || b.lastSeen - a.lastSeen);
  }

  /**
   * Page numbers sharing these passage-index anchors, most shared anchors first. Bounded: an anchor
   * more than `perAnchor` pages share is skipped (a sentence that common is boilerplate), and at
   * most `max` come back.
   */
  private async anchorCandidates(anchors: Anchors, opts: Pick<AnchorOptions, 'perAnchor' | 'max' | 'stats'>, columns: Columns, tx: ReadTx): Promise<number[]> {
    const perAnchor = opts.perAnchor ?? PAGES_PER_ANCHOR;
    const found = await findAnchors(tx.objectStore('anchors') as unknown as AnchorStore, anchors);
    const shared = new Map<number, number>();
    for (const pages of found.values()) {
      const alive = pages.filter((n) => columns.flag(n) !== NO_PAGE);
      if (opts.stats) opts.stats.candidates += alive.length;
      if (alive.length > perAnchor) continue;
      for (const n of alive) shared.set(n, (shared.get(n) ?? 0) + 1);
    }
    // Most shared first, then the most recently numbered (the more recently recorded).
    return [...shared.keys()].sort((a, b) => (shared.get(b) ?? 0) - (shared.get(a) ?? 0) || b - a).slice(0, opts.max ?? MAX_ANCHOR_CANDIDATES);
  }

  /** Pages sharing one of these passage-index anchors (core's anchorsOf: 32-bit hashes unless `bits` says 24), most shared anchors first. */
  async findByAnchors(anchors: number[], opts: AnchorOptions & { bits?: 24 | 32 }): Promise<PageRecord[]> {
    const columns = await this.columns(FIRST_GROUPS);
    const tx = this.db.transaction(['anchors', 'blocks'], 'readonly') as unknown as ReadTx;
    const numbers = await this.anchorCandidates({ values: anchors, bits: opts.bits ?? 32 }, opts, columns, tx);
    const exclude = opts.excludeUrl === undefined ? undefined : pageIdentity(opts.excludeUrl);
    return (await this.pagesAt(numbers, tx)).filter(({ page }) => page.url !== exclude && comparableAlgorithms(page.algo, opts.algo)).map(({ page }) => fromStored(page));
  }

  /**
   * Everything the opening of a page asks the history, in one transaction: its own record (by its
   * identity), records under its canonical address, and the candidates for a copy (candidates()).
   * The columns are scanned once; the anchors' buckets and the blocks of the pages found by the
   * scan are read together, then the blocks of pages found by anchor.
   */
  async lookup(q: CandidateQuery & { url: string; canonicalUrl: string }): Promise<PageLookup> {
    // A background started anew answers from the fingerprints and the index, and reads the rest of
    // its columns after answering; from then on, everything but the blocks comes from memory.
    const columns = await this.columns(FIRST_GROUPS);
    const warm = LOOKUP_GROUPS.every((g) => columns.has(g));
    const self = pageIdentity(q.url);
    // The same page read over the other scheme is the reader's visit before, as a page at its canonical address is.
    const alias = otherScheme(self);
    const { hi, lo } = fromHex(q.fp);
    const maxDistance = Math.max(q.maxDistance, SAME_TEXT_DISTANCE);
    const tx = this.db.transaction(['anchors', 'blocks'], 'readonly') as unknown as ReadTx;
    const anchorStore = tx.objectStore('anchors') as unknown as AnchorStore;
    let near: number[];
    let byAddress: number[];
    let leading: number[];
    let probes: Anchors | undefined;
    if (warm) {
      const found = columns.lookup(hi, lo, maxDistance, hashString(self), hashString(q.canonicalUrl), q.anchors, alias === undefined ? undefined : hashString(alias));
      this.indexSoon(columns);
      near = columns.closest(found.near, hi, lo, MAX_NEAR_CANDIDATES);
      byAddress = [...found.byUrl, ...found.byCanon];
      leading = boundedLeads(found.byLead);
      // The index is asked for the page's PROBE_COUNT smallest anchors; all of them were compared with every page's leads.
      probes = q.anchors ? { values: q.anchors.values.slice(0, PROBE_COUNT), bits: q.anchors.bits } : undefined;
    } else {
      near = columns.closest(columns.near(hi, lo, maxDistance), hi, lo, MAX_NEAR_CANDIDATES);
      const [byUrl, byCanon] = await Promise.all([findKeys(anchorStore, ADDRESS, bothSchemes(self).map(hashString)), findKeys(anchorStore, CANONICAL, [hashString(q.canonicalUrl)])]);
      byAddress = [...byUrl.values(), ...byCanon.values()].flat().filter((n) => columns.flag(n) !== NO_PAGE);
      leading = [];
      // No leads at hand: the index is asked for every hash the page keeps. Each earlier page's leads
      // are among its anchors, so this finds the pages the warm comparison finds (and some more,
      // which the verification, core's shareAnchor, turns down): the same answer, warm or cold, but
      // where an anchor is shared by so many pages that it is skipped as boilerplate.
      probes = q.anchors;
    }
    const [scanned, sharing] = await Promise.all([
      this.pagesAt([...new Set([...byAddress, ...near, ...leading])], tx),
      probes?.values.length ? this.anchorCandidates(probes, {}, columns, tx) : Promise.resolve([]),
    ]);
    const known = new Set(scanned.map((p) => p.n));
    const byAnchor = await this.pagesAt(sharing.filter((n) => !known.has(n)), tx);
    const related = new Set([...near, ...leading, ...sharing]);
    const own = scanned.find((p) => p.page.url === self);
    const itself = (p: { page: StoredPage }) => p.page.url === self || p.page.url === alias;
    return {
      ...(own ? { own: fromStored(own.page) } : {}),
      sameCanonical: scanned.filter((p) => ((p.page.canonicalUrl ?? p.page.url) === q.canonicalUrl || p.page.url === alias) && p.page.url !== self).map((p) => fromStored(p.page)),
      candidates: [...scanned.filter((p) => related.has(p.n)), ...byAnchor].filter((p) => !itself(p) && comparableAlgorithms(p.page.algo, q.algo)).map((p) => fromStored(p.page)),
    };
  }

  /**
   * Up to `limit` pages of a site (its host name without "www.", as PageRecord.site), the last
   * recorded first: what a lookup learns a site's frame from (core's siteFrame). It reads the
   * site column (kept in memory after) and the blocks of the pages it returns.
   */
  async pagesOfSite(site: string, limit: number): Promise<PageRecord[]> {
    // The site column (extra), and the flags (keys) that say which numbers hold a page: a background
    // started anew holds only the fingerprints when its first lookup asks for a site's pages.
    const columns = await this.columns(['fp', 'keys', 'extra']);
    const last = columns.lastOfSite(hashString(site), limit);
    return (await this.pagesAt(last)).filter(({ page }) => siteOfIdentity(page.url) === site).map(({ page }) => fromStored(page));
  }

  /** Pages recorded under this canonical URL (the same page at other addresses). */
  async findByCanonicalUrl(canonicalUrl: string): Promise<PageRecord[]> {
    const columns = await this.columns(['fp', 'keys']);
    const numbers = columns.find('canon', [hashString(canonicalUrl)]).get(hashString(canonicalUrl)) ?? [];
    return (await this.pagesAt(numbers)).filter(({ page }) => (page.canonicalUrl ?? page.url) === canonicalUrl).map(({ page }) => fromStored(page));
  }

  /** Pages whose normalised text is exactly this one's (`fp` is the text's fingerprint: the same text has the same). */
  async findByTextHash(textHash: string, fp: string): Promise<PageRecord[]> {
    const columns = await this.columns(FIRST_GROUPS);
    const { hi, lo } = fromHex(fp);
    return (await this.pagesAt(columns.near(hi, lo, SAME_TEXT_DISTANCE))).filter(({ page }) => page.textHash === textHash).map(({ page }) => fromStored(page));
  }

  /**
   * Which of these link keys (page identities) lead to a page read: a page in the history, or a
   * known copy of one, either a page read at another address that declares this one its canonical
   * URL, or a page read here whose text is exactly that of a page read at another address. The keys
   * are looked up in the columns; only the pages found are read.
   */
  async readLinks(keys: readonly string[]): Promise<ReadLink[]> {
    const columns = await this.columns(['fp', 'keys']);
    this.indexSoon(columns);
    const hashes = keys.map(hashString);
    const byUrl = columns.find('url', hashes);
    const byCanon = columns.find('canon', hashes.filter((h) => !byUrl.has(h)));
    const tx = this.db.transaction(['blocks'], 'readonly') as unknown as ReadTx;
    const pages = await this.pagesAt([...[...byUrl.values()].flat(), ...[...byCanon.values()].flat()], tx);
    const own = new Map<string, StoredPage>();
    const declaring = new Map<string, StoredPage>();
    for (const { page } of pages) {
      own.set(page.url, page);
      if (page.canonicalUrl) declaring.set(page.canonicalUrl, page);
    }
    // The same text read first at another address: one scan for every page found with a text hash.
    const withText = keys.map((k) => own.get(k)).filter((p): p is StoredPage => p?.textHash !== undefined);
    const sameFp = withText.length ? columns.sameFingerprint(withText.map((p) => fromHex(p.fp))) : [];
    const others = await this.pagesAt(
      sameFp.flatMap((list) => list.slice(0, SAME_TEXT_LOOKED_AT)),
      tx,
    );
    const firstOfText = new Map<string, StoredPage>();
    for (const { page } of others) {
      if (!page.textHash) continue;
      const first = firstOfText.get(page.textHash);
      if (!first || page.firstSeen < first.firstSeen) firstOfText.set(page.textHash, page);
    }
    const out: ReadLink[] = [];
    for (const key of keys) {
      const page = own.get(key);
      if (page) {
        const first = page.textHash ? firstOfText.get(page.textHash) : undefined;
        const earlier = first && first.url !== page.url && first.firstSeen < page.firstSeen ? first : undefined;
        // Its own title names it already: where the text was read first is what the reader learns.
        out.push({ key, lastSeen: page.lastSeen, ...(earlier ? { firstReadUrl: earlier.url } : {}) });
        continue;
      }
      const copy = declaring.get(key);
      if (copy) out.push({ key, lastSeen: copy.lastSeen, copyOf: copy.title || copy.url });
    }
    return out;
  }

  /**
   * Forgets the page at this address: its record, whichever variant of the address it is given, and
   * its record over the other scheme (http, https) where it was read over both.
   */
  async forget(url: string, gone?: Forgotten): Promise<boolean> {
    const ids = bothSchemes(pageIdentity(url));
    const forgot = await this.write(['dismissals', 'importRuns'], async (w) => {
      const found = [...(await w.findAll(ids)).values()];
      for (const f of found) {
        w.remove(f.n);
        gone?.pages.push(f.page);
        gone?.numbers?.push(f.n);
      }
      // Its "not the same" pairs go with it: a forgotten page leaves no address behind.
      await dropDismissals(w.tx, (pageUrl) => ids.includes(pageUrl), gone?.pairs);
      // An import under way must not bring it back with a chunk applied later.
      for (const page of ids) if (await forgetInImports(w.tx, { page })) gone?.imports.push({ page });
      return found.length > 0;
    });
    this.dismissals = undefined;
    return forgot;
  }

  /** Forgets every page of a site (host name, with or without "www."); returns how many. */
  async forgetSite(site: string, gone?: Forgotten): Promise<number> {
    const forgot = await this.write(['dismissals', 'importRuns'], async (w) => {
      await dropDismissals(w.tx, (pageUrl) => siteOfIdentity(pageUrl) === site, gone?.pairs);
      if (await forgetInImports(w.tx, { site })) gone?.imports.push({ site });
      const numbers = w.columns.find('site', [hashString(site)]).get(hashString(site)) ?? [];
      await w.readBlocks(numbers.map(blockOf));
      let n = 0;
      for (const number of numbers) {
        const page = w.page(number);
        if (page && fromStored(page).site === site) {
          w.remove(number);
          gone?.pages.push(page);
          gone?.numbers?.push(number);
          n++;
        }
      }
      return n;
    });
    this.dismissals = undefined;
    return forgot;
  }

  /**
   * Brings back what a forget took (its pages and "not the same" pairs, as `forget` and
   * `forgetSite` handed them over): a page recorded again since is joined with (restoredPage), so
   * a visit made meanwhile stays and none is counted twice. Returns how many pages came back.
   */
  async restore(gone: Forgotten): Promise<number> {
    const pages = onePerPage(gone.pages);
    // Each page back where it was (the first of its records over both schemes).
    const numbers = new Map<string, number>();
    gone.numbers?.forEach((n, i) => {
      const key = schemeFree(gone.pages[i].url);
      numbers.set(key, Math.min(n, numbers.get(key) ?? n));
    });
    await this.write(['dismissals', 'importRuns'], async (w) => {
      await w.merge(pages, restoredPage, Infinity, numbers);
      // A pair said again meanwhile keeps its later time.
      await keepNotSame(w.tx.objectStore('dismissals'), gone.pairs.map(({ pair: [a, b], at }) => ({ a, b, at })));
      // An import under way brings in its records of them again, as if nothing had been forgotten.
      for (const what of gone.imports) await forgetInImports(w.tx, what, false);
    });
    this.dismissals = undefined;
    return pages.length;
  }

  /** Forgets everything: pages, feedback, past imports and any import under way. */
  async clear(): Promise<void> {
    const stores = ['blocks', 'names', 'columns', 'anchors', 'meta', 'dismissals', 'imports', 'staging', 'importRuns'] as const;
    // The records an upgrade left to be emptied (old-pages.ts) go too: "forget everything" is not put off.
    const old = this.db.objectStoreNames.contains(OLD_PAGES as never) ? [OLD_PAGES] : [];
    await this.writing(async () => {
      const tx = (this.db as unknown as IDBPDatabase).transaction([...stores, ...old], 'readwrite');
      const meta = ((await tx.objectStore('meta').get(META_KEY)) as StoreMeta | undefined) ?? emptyMeta();
      await Promise.all([...[...stores, ...old].map((name) => tx.objectStore(name).clear()), tx.objectStore('meta').put({ ...emptyMeta(), gen: meta.gen + 1, cleared: (meta.cleared ?? 0) + 1 }, META_KEY), tx.done]);
    });
    this.cache = undefined;
    this.dismissals = undefined;
  }

  async count(): Promise<number> {
    return (await this.stats()).pages;
  }

  /** How many pages the history holds, and how many times it has been cleared (a clear in another tab tells an import or export it was cut by one). */
  async stats(): Promise<{ pages: number; cleared: number }> {
    const meta = (await this.db.get('meta', META_KEY)) ?? emptyMeta();
    return { pages: meta.count, cleared: meta.cleared ?? 0 };
  }

  /**
   * Most recently seen first, `limit` at a time; pass `next` to go on. With a query, only pages
   * whose title or URL contains each of its terms (core's searchTerms: any case or width,
   * Traditional or Simplified), in the same order: the pages are looked through most recently
   * seen first, for SEARCH_STEP_MS (by `clock`) and at most `maxScan` a step, so a rare query over a
   * million pages answers in steps; `done` says whether the history is exhausted. Each group of
   * names is read once in a search, whatever the order of the pages' last visits. (Earlier on 29
   * November 2026 a step kept the names it had read for the next only up to 512 groups: at 10^6
   * pages last seen in no order of their numbers, every step read most of the names again; and
   * before, a step was 20,000 pages however long they took. Until 27 November 2026 a search read
   * pages by the number they were recorded under, and sorted each step's finds alone: after an
   * import, in the file's order, a page read this week came after pages read years ago.)
   * With a query, `scanned` says how many pages this step looked through.
   */
  async listRecent(limit: number, after?: ListCursor, query = '', maxScan = Infinity, clock: () => number = () => performance.now()): Promise<{ items: PageRecord[]; next?: ListCursor; done: boolean; scanned?: number }> {
    const terms = searchTerms(query);
    // The last visits (extra) and which numbers hold a page (keys' flags).
    const columns = await this.columns(['fp', 'keys', 'extra']);
    if (terms.length === 0) {
      // One more than asked for tells whether any remain: with exactly `limit` left, this is the last step.
      const numbers = columns.recent(limit + 1, after);
      const done = numbers.length <= limit;
      if (!done) numbers.pop();
      const items = (await this.pagesAt(numbers)).map(({ page }) => fromStored(page));
      const last = numbers[numbers.length - 1];
      return { items, ...(!done && last !== undefined ? { next: [columns.lastSeen(last), last] as ListCursor } : {}), done };
    }
    // The search reads the pages' names a group at a time, in the order their pages are needed
    // (most recently seen first), and notes which of each group's pages match; then it reads the
    // records of those it keeps. What it noted is kept for the next step while nothing is written,
    // so each group is read once in a search, whatever the order of the pages' last visits.
    const key = JSON.stringify(terms);
    const kept = this.search;
    const state: SearchState =
      kept && kept.gen === columns.gen && kept.key === key
        ? kept
        : { gen: columns.gen, key, terms, read: new Uint8Array(Math.ceil(columns.size / PAGES_PER_NAMES)), matches: new Uint8Array(Math.ceil(columns.size / 8)) };
    this.keepSearch(state);
    const found: number[] = [];
    const answer = async (more: { next?: ListCursor; done: boolean }, scannedNow: number) => ({ items: (await this.pagesAt(found)).map(({ page }) => fromStored(page)), ...more, scanned: scannedNow });
    const until = clock() + SEARCH_STEP_MS;
    let cursor = after;
    let scanned = 0;
    for (let batch = SEARCH_BATCH; ; batch = Math.min(2 * batch, SEARCH_BATCH_MAX)) {
      // One more than a batch tells whether any remain after it.
      const take = Math.min(batch, maxScan - scanned);
      const numbers = columns.recent(take + 1, cursor);
      const end = numbers.length <= take;
      if (!end) numbers.pop();
      for (const [k, n] of numbers.entries()) {
        if (!state.read[namesGroupOf(n)]) {
          // Time is up: answer with what this step found, to go on after the last page it decided.
          if (scanned + k > 0 && clock() >= until) return answer({ ...(cursor ? { next: cursor } : {}), done: false }, scanned + k);
          const groups = new Set<number>();
          for (let i = k; i < numbers.length && groups.size < SEARCH_GROUPS_READ; i++) {
            const g = namesGroupOf(numbers[i]);
            if (!state.read[g]) groups.add(g);
          }
          await this.searchGroups([...groups].sort((a, b) => a - b), state);
        }
        cursor = [columns.lastSeen(n), n];
        if (state.matches[n >> 3] & (1 << (n & 7))) {
          found.push(n);
          // The last page asked for: the next step goes on after it (with none left after it, this is the last step).
          if (found.length === limit) return answer(end && k === numbers.length - 1 ? { done: true } : { next: cursor, done: false }, scanned + k + 1);
        }
      }
      scanned += numbers.length;
      if (end) {
        this.keepSearch(undefined);
        return answer({ done: true }, scanned);
      }
      if (scanned >= maxScan || clock() >= until) return answer({ ...(cursor ? { next: cursor } : {}), done: false }, scanned);
    }
  }

  /** Keeps a search's state for its next step, for SEARCH_KEPT_MS (none: drops it). */
  private keepSearch(state: SearchState | undefined): void {
    clearTimeout(this.searchTimer);
    this.search = state;
    if (state) this.searchTimer = setTimeout(() => this.keepSearch(undefined), SEARCH_KEPT_MS);
  }

  /** Records in page-number order after number `after`, `limit` at a time: the export reads the history this way. */
  async exportChunk(limit: number, after = -1): Promise<{ pages: PageRecord[]; last?: number }> {
    const { pages, last } = await this.exportStored(limit, after);
    return { pages: pages.map(fromStored), ...(last !== undefined ? { last } : {}) };
  }

  /**
   * The same, as blocks keep the pages (the export writes its JSON from these: history-file.ts).
   * `cleared` counts the history's clears, read with the pages: an export whose chunks do not all
   * give the same was cut by one, and holds only part of what the reader had.
   */
  async exportStored(limit: number, after = -1): Promise<ExportChunk> {
    const ahead = this.exportAhead;
    this.dropExportAhead();
    // Read ahead for this very request, with no write since (this background's, which drop it, or
    // another's, which counts in the store's write count): as if read now.
    const usable = ahead !== undefined && ahead.after === after && ahead.limit === limit ? await ahead.read.catch(() => undefined) : undefined;
    const fresh = usable && usable.gen === ((await this.db.get('meta', META_KEY)) ?? emptyMeta()).gen ? usable : undefined;
    const { gen: _gen, ...chunk } = fresh ?? (await this.readExportChunk(limit, after));
    // The export asks for the next chunk once this one is written out (in JSON: most of its time):
    // the database reads it meanwhile. Not while a write is under way, which the read might not see.
    if (chunk.last !== undefined && this.writesEnded === this.writesBegun) {
      const read = this.readExportChunk(limit, chunk.last);
      read.catch(() => undefined);
      this.exportAhead = { after: chunk.last, limit, read };
      // An export left off (its page closed) does not keep a chunk of the history in memory.
      this.exportAheadTimer = setTimeout(() => this.dropExportAhead(), EXPORT_AHEAD_MS);
    }
    return chunk;
  }

  private dropExportAhead(): void {
    this.exportAhead = undefined;
    clearTimeout(this.exportAheadTimer);
    this.exportAheadTimer = undefined;
  }

  private async readExportChunk(limit: number, after: number): Promise<ExportChunk & { gen: number }> {
    const first = after + 1;
    const range = IDBKeyRange.lowerBound(blockOf(first));
    const count = Math.ceil(limit / PAGES_PER_BLOCK) + 1;
    const tx = this.db.transaction(['blocks', 'meta'], 'readonly');
    const blockStore = tx.objectStore('blocks');
    const [blocks, keys, meta] = await Promise.all([blockStore.getAll(range, count), blockStore.getAllKeys(range, count), tx.objectStore('meta').get(META_KEY)]);
    const pages: StoredPage[] = [];
    let last: number | undefined;
    for (let i = 0; i < blocks.length && pages.length < limit; i++) {
      const base = keys[i] * PAGES_PER_BLOCK;
      blocks[i].pages.forEach((p, slot) => {
        const n = base + slot;
        if (p && n >= first && pages.length < limit) {
          pages.push(p);
          last = n;
        }
      });
    }
    return { pages, ...(last !== undefined ? { last } : {}), cleared: meta?.cleared ?? 0, gen: meta?.gen ?? 0 };
  }

  /** The "not the same" pairs, as keys of notSameKey. */
  private dismissed(): Promise<Set<string>> {
    const read = (this.dismissals ??= this.db.getAll('dismissals').then((all) => new Set(all.map((d) => notSameKey(d.pair[0], d.pair[1])))));
    read.catch(() => {
      if (this.dismissals === read) this.dismissals = undefined;
    });
    return read;
  }

  /** Remembers that two pages are not the same article. */
  async dismiss(a: string, b: string, now: number): Promise<void> {
    const pair = dismissalKey(a, b);
    this.dismissals = undefined;
    await this.db.put('dismissals', { pair, at: now });
    this.dismissals = undefined;
  }

  /** The pages the reader said are not the same as `url` (either's address over either scheme; each named by its https form). */
  async notSameWith(url: string): Promise<string[]> {
    const id = schemeFree(pageIdentity(url));
    const others: string[] = [];
    for (const key of await this.dismissed()) {
      const [a, b] = key.split('\n');
      if (a === id) others.push(b);
      else if (b === id) others.push(a);
    }
    return others;
  }

  /** Takes back "not the same" for every pair naming `url` (over either scheme), so its matches are flagged again; returns how many. */
  async sameAgain(url: string): Promise<number> {
    const id = schemeFree(pageIdentity(url));
    this.dismissals = undefined;
    const tx = this.db.transaction('dismissals', 'readwrite');
    const n = await dropDismissals(tx as unknown as WriteTx, (pageUrl) => schemeFree(pageUrl) === id);
    await tx.done;
    this.dismissals = undefined;
    return n;
  }

  /** Which of `others` the reader said are not the same as `url`. */
  async dismissedAmong(url: string, others: readonly string[]): Promise<Set<string>> {
    if (others.length === 0) return new Set();
    const pairs = await this.dismissed();
    return new Set(others.filter((o) => pairs.has(notSameKey(url, o))));
  }

  /** Every "not the same" pair, for the export: the two pages' identities and when the reader said so. */
  async notSamePairs(): Promise<NotSamePair[]> {
    return (await this.db.getAll('dismissals')).map(({ pair: [a, b], at }) => ({ a, b, at }));
  }

  /**
   * The "not the same" pairs after the pair `after` (in key order), at most `limit` and within
   * NOT_SAME_CHUNK_CHARS, with the history's clears as exportStored gives them: a list of any length
   * is exported in messages of bounded size.
   */
  async notSameChunk(limit: number, after?: readonly [string, string]): Promise<{ pairs: NotSamePair[]; last?: [string, string]; cleared: number }> {
    const tx = this.db.transaction(['dismissals', 'meta'], 'readonly');
    const range = after ? IDBKeyRange.lowerBound([after[0], after[1]], true) : null;
    const [all, meta] = await Promise.all([tx.objectStore('dismissals').getAll(range, limit), tx.objectStore('meta').get(META_KEY)]);
    const pairs = all.map(({ pair: [a, b], at }) => ({ a, b, at }));
    pairs.length = notSameInOneMessage(pairs);
    const last = all[pairs.length - 1]?.pair;
    return { pairs, ...(last ? { last } : {}), cleared: meta?.cleared ?? 0 };
  }

  async isDismissed(a: string, b: string): Promise<boolean> {
    return (await this.dismissed()).has(notSameKey(a, b));
  }

  wasImported(digest: string): Promise<boolean> {
    return this.db.count('imports', digest).then((n) => n > 0);
  }
}

/**
 * The pages whose leads are the page's anchors, bounded as the index's lookups are: an anchor that
 * more than PAGES_PER_ANCHOR pages lead with is boilerplate and skipped; at most
 * MAX_ANCHOR_CANDIDATES pages, those sharing most anchors first.
 */
function boundedLeads(byLead: Map<number, number[]>): number[] {
  const shared = new Map<number, number>();
  for (const pages of byLead.values()) if (pages.length <= PAGES_PER_ANCHOR) for (const n of pages) shared.set(n, (shared.get(n) ?? 0) + 1);
  return [...shared.keys()].sort((a, b) => (shared.get(b) ?? 0) - (shared.get(a) ?? 0) || b - a).slice(0, MAX_ANCHOR_CANDIDATES);
}

/**
 * Notes a page (identity) or a site forgotten on every import under way (still being staged, or
 * applying), whose chunks applied after leave it out; or, with `forgotten` false (an undo), takes
 * the note off again. Returns whether any import was under way.
 */
async function forgetInImports(tx: WriteTx, what: ForgottenInImports, forgotten = true): Promise<boolean> {
  const runs = tx.objectStore('importRuns');
  const underWay = (await runs.getAll()).filter((run) => run.state === 'staging' || run.state === 'applying');
  for (const run of underWay) {
    const pages = run.forgotten?.pages ?? [];
    const sites = run.forgotten?.sites ?? [];
    const noted = 'page' in what ? { pages: note(pages, what.page, forgotten), sites } : { pages, sites: note(sites, what.site, forgotten) };
    await runs.put({ ...run, forgotten: noted });
  }
  return underWay.length > 0;
}

/** A list of forgotten names with one more `name`, or (an undo) one fewer: one forget undone leaves an earlier forget of the same name standing. */
function note(names: readonly string[], name: string, add: boolean): string[] {
  if (add) return [...names, name];
  const at = names.lastIndexOf(name);
  return at < 0 ? [...names] : [...names.slice(0, at), ...names.slice(at + 1)];
}

/** A page (its identity) or a site forgotten, as imports under way are told of it. */
type ForgottenInImports = { page: string } | { site: string };

/** Deletes the "not the same" pairs one of whose pages is picked (by its identity); returns how many. */
async function dropDismissals(tx: WriteTx, picked: (pageUrl: string) => boolean, gone?: Dismissal[]): Promise<number> {
  const store = tx.objectStore('dismissals');
  let n = 0;
  for (let cursor = await store.openCursor(); cursor; cursor = await cursor.continue()) {
    if (cursor.value.pair.some(picked)) {
      gone?.push(cursor.value);
      await cursor.delete();
      n++;
    }
  }
  return n;
}

/** What a forget took, collected for an undo: the pages as stored and the "not the same" pairs that named them. */
export interface Forgotten {
  pages: StoredPage[];
  /** The number each of `pages` had (so an undo puts it back there; a Forgotten without them adds the pages anew). */
  numbers?: number[];
  pairs: Dismissal[];
  /** What imports under way were told to leave out: an undo tells them to bring it in again. */
  imports: ForgottenInImports[];
}

/** The key of a "not the same" pair: the two pages' identities, sorted. */
export function dismissalKey(a: string, b: string): [string, string] {
  const [x, y] = [pageIdentity(a), pageIdentity(b)];
  return x < y ? [x, y] : [y, x];
}

/** A pair's key as the reader means it: a page over either scheme (http, https) is one page. */
function notSameKey(a: string, b: string): string {
  const [x, y] = [schemeFree(pageIdentity(a)), schemeFree(pageIdentity(b))];
  return x < y ? `${x}\n${y}` : `${y}\n${x}`;
}

export type { StoreName, WriteTx };
