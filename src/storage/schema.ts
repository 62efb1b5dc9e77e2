// The IndexedDB schema of database `deja-read`: one record per URL in store `pages`, with the
// fingerprint's four 16-bit blocks indexed for pigeonhole lookups.
import type { DBSchema } from 'idb';

export const DB_NAME = 'deja-read';
export const DB_VERSION = 2;

export interface PageRecord {
  url: string;
  /** The page's canonical URL (rel=canonical / og:url on the same site, tracking parameters removed); `url` when it has none. */
  canonicalUrl: string;
  /** Host name without "www.": what "forget this site" removes. */
  site: string;
  title: string;
  /** 64-bit fingerprint, 16 lowercase hex digits. */
  fp: string;
  b0: number;
  b1: number;
  b2: number;
  b3: number;
  /** Fingerprint algorithm version; fingerprints of different versions are never compared. */
  algo: string;
  /** Hash of the normalised text (16 hex digits): the same text anywhere is the same article. Absent on records made before version 2. */
  textHash?: string;
  /** Verification sketch of the text (base64), see core/sketch.ts. Absent on records made before version 2. */
  sketch?: string;
  /** Reading length of the extracted text, in word-equivalents. */
  textLength: number;
  lang: string;
  /** Milliseconds since the epoch. */
  firstSeen: number;
  lastSeen: number;
  visits: number;
}

/** "Not the same": a pair of pages the reader said are different. Key: the two URLs, sorted. */
export interface Dismissal {
  pair: [string, string];
  at: number;
}

/** A history file already imported, so importing it again changes nothing. */
export interface ImportRecord {
  digest: string;
  at: number;
  pages: number;
}

/**
 * The undo record of one applied chunk of an import: the pages it added, and the pages it
 * replaced as they were before. An import writes its chunks straight into `pages`; committing
 * drops its journal, rolling back replays it. Key: [importId, first URL of the chunk].
 */
export interface JournalEntry {
  importId: string;
  first: string;
  added: string[];
  before: PageRecord[];
  /** When the chunk was applied: a journal left for long belongs to an abandoned import. */
  at: number;
}

export type BlockIndex = 'b0' | 'b1' | 'b2' | 'b3';
export const BLOCK_INDEXES: readonly BlockIndex[] = ['b0', 'b1', 'b2', 'b3'];

export interface DejaReadDB extends DBSchema {
  pages: {
    key: string;
    value: PageRecord;
    indexes: { b0: number; b1: number; b2: number; b3: number; lastSeen: number; canonicalUrl: string; textHash: string };
  };
  dismissals: { key: [string, string]; value: Dismissal };
  imports: { key: string; value: ImportRecord };
  journal: { key: [string, string]; value: JournalEntry };
}
