// The only code that touches IndexedDB. Everything else asks the background, which uses this.
export { openDejaReadDB } from './open';
export { PageRepository, type SimilarPage, type Visit } from './page-repository';
export { buildExport, EXPORT_FORMAT, EXPORT_VERSION, type ExportDocument } from './export-format';
export { DB_NAME, DB_VERSION, type PageRecord } from './schema';
