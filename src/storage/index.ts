// The only code that touches IndexedDB. Everything else asks the background, which uses this.
export { openDejaReadDB } from './open';
export { PageRepository, type Forgotten, type ListCursor, type ReadLink, type SimilarPage, type Visit } from './page-repository';
export { StorageFullError } from './errors';
export { DB_NAME, DB_VERSION, type ImportOutcome, type PageRecord } from './schema';
export { ImportStore, ImportIncompleteError, ABANDONED_STAGING_MS, CHUNKS_PER_APPLY, type CommitProgress, type UntoldImport } from './import-store';
export * from './history-file';
export * from './history-import';
export { fromStored, siteOfIdentity, type StoredPage } from './layout';
export * from './history-reader';
