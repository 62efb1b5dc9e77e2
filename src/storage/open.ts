// The one place that opens the database. Each `if (oldVersion < N)` step upgrades a database made
// at version N-1; steps are never edited once released, only appended. Each is tested by seeding a
// database at the older version (tests/unit/storage-upgrade.test.ts).
import { openDB, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { BLOCK_INDEXES, DB_NAME, DB_VERSION, type DejaReadDB, type PageRecord } from './schema';
import { siteOf } from '../core';

export function openDejaReadDB(name = DB_NAME): Promise<IDBPDatabase<DejaReadDB>> {
  return openDB<DejaReadDB>(name, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
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
          void pages.openCursor().then(async function fill(cursor): Promise<void> {
            while (cursor) {
              const r = cursor.value as PageRecord;
              void cursor.update({ ...r, canonicalUrl: r.canonicalUrl ?? r.url, site: r.site ?? siteOf(r.url) });
              cursor = await cursor.continue();
            }
          });
        }
      }
      if (oldVersion < 3) {
        // Version 3: imports are staged apart from the history and rolled forward once committed
        // (import-store.ts), replacing version 2's journal, whose rollback could undo visits made
        // after the import began.
        db.createObjectStore('staging', { keyPath: ['importId', 'seq'] });
        db.createObjectStore('importRuns', { keyPath: 'importId' });
        if (oldVersion >= 2) void undoJournaledImports(tx as unknown as IDBPTransaction<unknown, string[], 'versionchange'>).then(() => db.deleteObjectStore('journal' as never));
      }
    },
  });
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
