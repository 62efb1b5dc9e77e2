// The one place that opens the database. A database of any earlier version is upgraded in one
// versionchange transaction, so an upgrade cut short leaves it as it was. Each older version is
// tested by seeding a database as it was released (tests/unit/storage.test.ts,
// passage-index.test.ts, page-identity-upgrade.test.ts). Version 6 replaced the store the
// earlier steps built on, so they are now applied to each record as it is carried over
// (carryPagesOver) rather than as steps of their own. Version 7 changed only how the passage index
// is bucketed (rebucketAnchors; tests/unit/anchor-rebucket.test.ts); version 8 added the pages'
// names apart from their blocks (leaveUnnamed; tests/unit/names-upgrade.test.ts).
import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { DB_NAME, DB_VERSION, type DejaReadDB, type PageRecord } from './schema';
import { pageIdentity, siteOf } from '../core';
import { Columns } from './columns';
import { emptyMeta, META_KEY, namesGroupOf, toStored, type StoreMeta } from './layout';
import { rebucketAnchors, type WritableAnchorStore } from './anchor-index';
import { dismissalKey, PageWrite, type WriteTx } from './page-repository';
import { combinePages } from './merge';

type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;

export function openDejaReadDB(name = DB_NAME): Promise<IDBPDatabase<DejaReadDB>> {
  return openDB<DejaReadDB>(name, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
      const raw = db as unknown as IDBPDatabase;
      const upgradeTx = tx as unknown as UpgradeTx;
      // Version 7 put the passage anchors in four times as many buckets (anchor-index.ts), version 8
      // the pages' names (addresses and titles) apart from their blocks, for the History page's
      // search; the rest is as version 6 left it.
      if (oldVersion === 6 || oldVersion === 7) {
        db.createObjectStore('names');
        upgradeStep(upgradeTx, async () => {
          if (oldVersion === 6) await rebucketAnchors6To7(upgradeTx);
          await leaveUnnamed(upgradeTx);
        });
        return;
      }
      // Version 6: pages in blocks by page number, the columns a lookup scans, the passage index in
      // runs (layout.ts). Versions 1 to 5 kept one record per address (per page since 5) in store
      // `pages` with up to eight indexes; their records are carried over, with what the steps
      // 2 to 5 did to them, and `pages` is dropped, so those steps' indexes are never built.
      db.createObjectStore('blocks');
      db.createObjectStore('names');
      db.createObjectStore('columns');
      db.createObjectStore('anchors');
      db.createObjectStore('meta');
      // Stores of version 2 and 3, kept as they were.
      if (oldVersion < 2) {
        db.createObjectStore('dismissals', { keyPath: 'pair' });
        db.createObjectStore('imports', { keyPath: 'digest' });
      }
      if (oldVersion < 3) {
        db.createObjectStore('staging', { keyPath: ['importId', 'seq'] });
        db.createObjectStore('importRuns', { keyPath: 'importId' });
      }
      if (oldVersion < 1) return;
      // Record by record, in order.
      upgradeStep(upgradeTx, async () => {
        // Version 3 replaced version 2's import journal: an import it had not committed is undone.
        if (oldVersion === 2) {
          await undoJournaledImports(upgradeTx);
          raw.deleteObjectStore('journal');
        }
        // Version 5 rewrote "not the same" pairs to page identities.
        if (oldVersion < 5) await rewriteDismissals(upgradeTx);
        await carryPagesOver(upgradeTx, oldVersion);
        // `pages` is emptied after the upgrade (dropOldPages), not deleted here: deleting a store of
        // 10^5 records with its indexes made this transaction's commit 6.3 s longer (the carrying
        // over itself took 2.6 s), and the first page the reader opens waits for it.
      });
    },
  });
}

/** Runs an upgrade's work in its transaction; a failure aborts the upgrade: the database stays as it was. */
function upgradeStep(tx: UpgradeTx, work: () => Promise<void>): void {
  void work().catch((e: unknown) => {
    console.error('Déjà Read: could not upgrade the history; it is left as it was', e);
    try {
      tx.abort();
    } catch {
      /* already aborted */
    }
  });
}

/** Version 6 to 7: the passage index's anchor runs into this version's buckets, the run counter moved on. */
async function rebucketAnchors6To7(tx: UpgradeTx): Promise<void> {
  const metaStore = tx.objectStore('meta');
  const meta = ((await metaStore.get(META_KEY)) as StoreMeta | undefined) ?? emptyMeta();
  const runs = await rebucketAnchors(tx.objectStore('anchors') as unknown as WritableAnchorStore, meta.runs);
  await metaStore.put({ ...meta, runs }, META_KEY);
}

/**
 * Version 6 or 7 to 8: the pages are named after the upgrade, not in it (PageRepository.nameOldPages):
 * reading every block took 16.5 s at 10^5 pages in Chromium, and the first page the reader opens
 * waits for the upgrade. Until then the search reads the blocks of a group that has no names yet.
 */
async function leaveUnnamed(tx: UpgradeTx): Promise<void> {
  const metaStore = tx.objectStore('meta');
  const meta = (await metaStore.get(META_KEY)) as StoreMeta | undefined;
  if (meta && meta.next > 0) await metaStore.put({ ...meta, unnamed: namesGroupOf(meta.next - 1) + 1 }, META_KEY);
}

/** Records read at a time from a store of an older version. */
const READ_BATCH = 5_000;
/** Pages written at a time into blocks, columns and passage index. */
const WRITE_BATCH = 20_000;

/**
 * A record of version `version` as version 5 kept it: version 1 records had no canonical URL or
 * site (their own URL is the best there is), and before version 5 a record was kept under the
 * address as visited.
 */
function asVersion5(r: PageRecord, version: number): PageRecord {
  if (version >= 5) return r;
  const url = pageIdentity(r.url);
  return { ...r, url, canonicalUrl: pageIdentity(r.canonicalUrl ?? r.url), site: siteOf(url) };
}

/**
 * Copies every page of the old store `pages` into the new layout. Before version 5 one page could
 * have several records (one per address), merged here as version 5 merged them (combinePages);
 * from version 5 on each record is a page, copied as it comes.
 */
async function carryPagesOver(tx: UpgradeTx, version: number): Promise<void> {
  const pages = tx.objectStore('pages');
  const columns = Columns.empty();
  const meta = emptyMeta();
  const merged = new Map<string, PageRecord>();
  let batch: PageRecord[] = [];
  const flush = async () => {
    const w = new PageWrite(tx as unknown as WriteTx, columns, meta);
    await w.addAll(batch.map(toStored));
    await w.finish();
    batch = [];
  };
  let after: IDBValidKey | undefined;
  for (;;) {
    const records = (await pages.getAll(after === undefined ? undefined : IDBKeyRange.lowerBound(after, true), READ_BATCH)) as PageRecord[];
    if (records.length === 0) break;
    after = records[records.length - 1].url;
    for (const old of records) {
      const r = asVersion5(old, version);
      if (version >= 5) {
        batch.push(r);
        continue;
      }
      const earlier = merged.get(r.url);
      merged.set(r.url, earlier ? combinePages(earlier, r) : r);
    }
    if (batch.length >= WRITE_BATCH) await flush();
  }
  for (const r of merged.values()) {
    batch.push(r);
    if (batch.length >= WRITE_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
}

/** "Not the same" pairs between pages' identities; a pair of two variants of one page is dropped. */
async function rewriteDismissals(tx: UpgradeTx): Promise<void> {
  const dismissals = tx.objectStore('dismissals');
  const all = (await dismissals.getAll()) as Array<{ pair: [string, string]; at: number }>;
  for (const { pair, at } of all) {
    const key = dismissalKey(pair[0], pair[1]);
    if (key[0] === pair[0] && key[1] === pair[1]) continue;
    const existing = (await dismissals.get(key)) as { at: number } | undefined;
    await Promise.all([dismissals.delete(pair), key[0] === key[1] ? undefined : dismissals.put({ pair: key, at: Math.max(at, existing?.at ?? 0) })]);
  }
}

/** A chunk journaled by version 2: the pages it added, and those it replaced as they were. */
interface JournalEntryV2 {
  added: string[];
  before: PageRecord[];
  at: number;
}

/**
 * A version 2 journal left behind belongs to an import that was never committed: undo it, but
 * only where the page has not been visited since the chunk was applied (a real visit sets
 * `lastSeen` to its own time, later than the chunk's); a visited page keeps what it has.
 */
async function undoJournaledImports(tx: IDBPTransaction<unknown, string[], 'versionchange'>): Promise<void> {
  const pages = tx.objectStore('pages');
  const entries = (await tx.objectStore('journal').getAll()) as JournalEntryV2[];
  // Newest first: a page two imports merged into is taken back to the state before the first.
  entries.sort((a, b) => b.at - a.at);
  for (const entry of entries) {
    const untouched = async (url: string) => {
      const now = (await pages.get(url)) as PageRecord | undefined;
      return now !== undefined && now.lastSeen <= entry.at;
    };
    for (const url of entry.added) if (await untouched(url)) await pages.delete(url);
    for (const record of entry.before) if (await untouched(record.url)) await pages.put(record);
  }
}
