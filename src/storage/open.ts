// The one place that opens the database. Each `if (oldVersion < N)` step upgrades a database
// made at version N-1; steps are never edited once released, only appended.
import { openDB, type IDBPDatabase } from 'idb';
import { BLOCK_INDEXES, DB_NAME, DB_VERSION, type DejaReadDB } from './schema';

export function openDejaReadDB(): Promise<IDBPDatabase<DejaReadDB>> {
  return openDB<DejaReadDB>(DB_NAME, DB_VERSION, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const name of BLOCK_INDEXES) pages.createIndex(name, name);
        pages.createIndex('lastSeen', 'lastSeen');
      }
    },
  });
}
