// The one place that opens the database. Each `if (oldVersion < N)` step upgrades a database made
// at version N-1; steps are never edited once released, only appended. Each is tested by seeding a
// database at the older version (tests/unit/storage.test.ts, passage-index.test.ts,
// page-identity-upgrade.test.ts). A step that reads records runs after the earlier steps' reads
// and writes have finished (`earlier`), so a database several versions old is upgraded step by step.
import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { BLOCK_INDEXES, DB_NAME, DB_VERSION, type DejaReadDB, type PageRecord } from './schema';
import { pageIdentity, siteOf } from '../core';
import { dismissalKey } from './page-repository';
import { combinePages } from './merge';

type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;

export function openDejaReadDB(name = DB_NAME): Promise<IDBPDatabase<DejaReadDB>> {
  return openDB<DejaReadDB>(name, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
      /** Record-by-record work of earlier steps, still running in this transaction. */
      const earlier: Array<Promise<unknown>> = [];
      if (oldVersion < 1) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const index of BLOCK_INDEXES) pages.createIndex(index, index);
        pages.createIndex('lastSeen', 'lastSeen');
      }
      if (oldVersion < 2) {
        // Version 2: URL identity (canonical URL, site) and exact-text identity for the matching
        // layers, "not the same" feedback, and idempotent, all-or-nothing imports.
        const pages = tx.objectStore('pages');
        pages.createIndex('canonicalUrl', 'canonicalUrl');
        pages.createIndex('textHash', 'textHash');
        db.createObjectStore('dismissals', { keyPath: 'pair' });
        db.createObjectStore('imports', { keyPath: 'digest' });
        (db as unknown as IDBPDatabase).createObjectStore('journal', { keyPath: ['importId', 'first'] });
        if (oldVersion >= 1) {
          // Records of version 1 had no canonical URL or site: their own URL is the best there is.
          // (Fire-and-forget requests: the upgrade transaction stays open until they finish.)
          earlier.push(pages.openCursor().then(async function fill(cursor): Promise<void> {
            while (cursor) {
              const r = cursor.value as PageRecord;
              void cursor.update({ ...r, canonicalUrl: r.canonicalUrl ?? r.url, site: r.site ?? siteOf(r.url) });
              cursor = await cursor.continue();
            }
          }));
        }
      }
      if (oldVersion < 3) {
        // Version 3: imports are staged apart from the history and rolled forward once committed
        // (import-store.ts), replacing version 2's journal, whose rollback could undo visits made
        // after the import began.
        db.createObjectStore('staging', { keyPath: ['importId', 'seq'] });
        db.createObjectStore('importRuns', { keyPath: 'importId' });
        if (oldVersion >= 2) earlier.push(undoJournaledImports(tx as unknown as UpgradeTx).then(() => db.deleteObjectStore('journal' as never)));
      }
      if (oldVersion < 4) {
        // Version 4: the passage index, the second retrieval path (core/passage-signature.ts). One
        // entry per anchor of a page. Older records have no passages (their text was never kept)
        // and stay findable by fingerprint and text hash only.
        tx.objectStore('pages').createIndex('anchors', 'anchors', { multiEntry: true });
      }
      if (oldVersion < 5) {
        // Version 5: one record per page. Records were keyed by the address as visited, so one article
        // opened with tracking parameters or a fragment had a record per variant (the popup counted
        // them as reads "elsewhere"). They are merged under the page's identity, and "not the same"
        // pairs rewritten to identities. A failure aborts the upgrade: the database stays as it was.
        if (oldVersion >= 1) {
          const upgradeTx = tx as unknown as UpgradeTx;
          void Promise.all(earlier)
            .then(() => Promise.all([mergeAddressVariants(upgradeTx), rewriteDismissals(upgradeTx)]))
            .catch((e: unknown) => {
              console.error('Déjà Read: could not merge the records of one page; the history is left as it was', e);
              // (A failed request has already aborted it.)
              try {
                upgradeTx.abort();
              } catch {
                /* already aborted */
              }
            });
        }
      }
    },
  });
}

/** Keys read at a time while looking for records to merge: the keys only, so 10^6 records are read quickly. */
const KEY_BATCH = 10_000;

/**
 * Merges the records of each page into one under its identity (core's pageIdentity): visits added,
 * earliest firstSeen, latest lastSeen, what describes the text from the most recent (combinePages).
 * Only records whose key is not an identity are read or written.
 */
async function mergeAddressVariants(tx: UpgradeTx): Promise<void> {
  const pages = tx.objectStore('pages');
  let after: IDBValidKey | undefined;
  for (;;) {
    const keys = (await pages.getAllKeys(after === undefined ? undefined : IDBKeyRange.lowerBound(after, true), KEY_BATCH)) as string[];
    if (keys.length === 0) return;
    after = keys[keys.length - 1];
    for (const key of keys) {
      const url = pageIdentity(key);
      if (url === key) continue;
      // One at a time: two variants of one page may be in this batch.
      const [variant, existing] = (await Promise.all([pages.get(key), pages.get(url)])) as [PageRecord, PageRecord | undefined];
      const canonicalUrl = pageIdentity(variant.canonicalUrl ?? url);
      const moved: PageRecord = { ...variant, url, canonicalUrl, site: siteOf(url) };
      await Promise.all([pages.delete(key), pages.put(existing ? combinePages(existing, moved) : moved)]);
    }
  }
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
  for (const entry of entries) {
    const untouched = async (url: string) => {
      const now = (await pages.get(url)) as PageRecord | undefined;
      return now !== undefined && now.lastSeen <= entry.at;
    };
    for (const url of entry.added) if (await untouched(url)) await pages.delete(url);
    for (const record of entry.before) if (await untouched(record.url)) await pages.put(record);
  }
}
