// Storage failures the user can act on, with messages that say what to do.

export class StorageFullError extends Error {
  override name = 'StorageFullError';
  constructor() {
    super('The browser has no more room for Déjà Read’s history (storage quota reached). Free some disk space, or export and then clear old history in the options.');
  }
}

/** Turns a quota failure into StorageFullError; passes anything else through. */
export function asStorageError(e: unknown): unknown {
  const name = e instanceof Error || e instanceof DOMException ? e.name : '';
  return name === 'QuotaExceededError' ? new StorageFullError() : e;
}
