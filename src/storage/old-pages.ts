// What the upgrade to version 6 leaves behind: the store versions 1 to 5 kept pages in, emptied
// after the upgrade rather than deleted during it (open.ts).
import type { IDBPDatabase } from 'idb';
import type { DejaReadDB } from './schema';

/** The store versions 1 to 5 kept pages in, left by the upgrade to version 6 to be emptied after it. */
export const OLD_PAGES = 'pages';
/** Records of the old store deleted a transaction: each a short write, so a visit's write is not held up long. */
const DROP_BATCH = 2_000;

/**
 * Empties the store `pages` that the upgrade to version 6 carried over and left behind (its
 * records are in the blocks now), a few thousand records a transaction, calling `between` after
 * each. A background stopped part-way goes on at its next start: every record left is already
 * carried over, so whichever are deleted, nothing is lost. The empty store stays until a later
 * version's upgrade deletes it (cheap once empty). Returns the number of records deleted.
 */
export async function dropOldPages(db: IDBPDatabase<DejaReadDB>, between: () => void = () => undefined): Promise<number> {
  const raw = db as unknown as IDBPDatabase;
  if (!raw.objectStoreNames.contains(OLD_PAGES)) return 0;
  let dropped = 0;
  for (;;) {
    const tx = raw.transaction(OLD_PAGES, 'readwrite');
    const store = tx.objectStore(OLD_PAGES);
    const keys = await store.getAllKeys(undefined, DROP_BATCH);
    if (keys.length > 0) await store.delete(IDBKeyRange.bound(keys[0], keys[keys.length - 1]));
    await tx.done;
    if (keys.length === 0) return dropped;
    dropped += keys.length;
    between();
  }
}
