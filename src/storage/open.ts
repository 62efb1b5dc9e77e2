// The one place that opens the database. Each `if (oldVersion < N)` step upgrades a database made
// at version N-1; steps are never edited once released, only appended. Each is tested by seeding a
// database at the older version (tests/unit/storage-upgrade.test.ts).
import { openDB, type IDBPDatabase } from 'idb';
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
        db.createObjectStore('journal', { keyPath: ['importId', 'first'] });
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
    },
  });
}
