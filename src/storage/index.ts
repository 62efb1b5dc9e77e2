// The only code that touches IndexedDB. Everything else asks the background, which uses this.
export { openDejaReadDB } from './open';
export { PageRepository, type ImportOutcome, type ListCursor, type SimilarPage, type Visit } from './page-repository';
export { StorageFullError } from './errors';
export { DB_NAME, DB_VERSION, type PageRecord } from './schema';
export * from './history-file';
export * from './history-import';
