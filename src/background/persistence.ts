// Keeping the history out of the browser's automatic clean-up. A site's storage is "best-effort"
// by default: when the disk runs low, the browser deletes whole origins' data, the least recently
// used first, without asking. The extension's origin is no exception unless it asks for
// `unlimitedStorage`, which it does (manifest.json). In Chrome that is enough: its quota manager
// never evicts an origin with unlimited storage. In Firefox the permission grants the extension
// `persistent-storage` without a prompt, but its storage stays best-effort until
// `navigator.storage.persist()` is called; that call exists only in a window (Firefox's event page
// is one, Chrome's service worker is not). docs/storage.md, "Kept from eviction".

/** The part of `navigator.storage` and `navigator.permissions` this needs. */
export interface StorageGuard {
  storage?: { persisted?: () => Promise<boolean>; persist?: () => Promise<boolean> };
  permissions?: { query: (descriptor: { name: 'persistent-storage' }) => Promise<{ state: string }> };
}

/**
 * Marks the extension's storage persistent where the browser allows it without asking the reader:
 * true once it is persistent, false where it stays best-effort, undefined where the browser has no
 * such call (Chrome's service worker, kept by `unlimitedStorage` alone). Never prompts: a prompt
 * from a background page has no window to show in, and the permission is the reader's to give.
 */
export async function keepFromEviction(guard: StorageGuard = globalThis.navigator as StorageGuard): Promise<boolean | undefined> {
  const storage = guard?.storage;
  if (typeof storage?.persist !== 'function' || typeof storage.persisted !== 'function') return undefined;
  if (await storage.persisted()) return true;
  const permission = await guard.permissions?.query({ name: 'persistent-storage' }).catch(() => undefined);
  if (permission?.state !== 'granted') return false;
  return storage.persist();
}
