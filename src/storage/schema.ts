// The IndexedDB schema of database `deja-read`: one record per URL in store `pages`, with the
// fingerprint's four 16-bit blocks indexed for pigeonhole lookups.
import type { DBSchema } from 'idb';

export const DB_NAME = 'deja-read';
export const DB_VERSION = 1;

export interface PageRecord {
  url: string;
  title: string;
  /** 64-bit fingerprint, 16 lowercase hex digits. */
  fp: string;
  b0: number;
  b1: number;
  b2: number;
  b3: number;
  /** Fingerprint algorithm version; fingerprints of different versions are never compared. */
  algo: string;
  /** Reading length of the extracted text, in word-equivalents. */
  textLength: number;
  lang: string;
  /** Milliseconds since the epoch. */
  firstSeen: number;
  lastSeen: number;
  visits: number;
}

export type BlockIndex = 'b0' | 'b1' | 'b2' | 'b3';
export const BLOCK_INDEXES: readonly BlockIndex[] = ['b0', 'b1', 'b2', 'b3'];

export interface DejaReadDB extends DBSchema {
  pages: {
    key: string;
    value: PageRecord;
    indexes: { b0: number; b1: number; b2: number; b3: number; lastSeen: number };
  };
}
