// The IndexedDB schema of database `deja-read`. One record per page, named by the page's identity
// (core's pageIdentity), kept in blocks of pages by page number (layout.ts), with the columns a
// lookup scans and the passage index beside them; docs/storage.md says why.
import type { DBSchema } from 'idb';
import type { Block, Names, StoredPage, StoreMeta } from './layout';
import type { NotSamePair } from './history-file';

export const DB_NAME = 'deja-read';
export const DB_VERSION = 8;

/** A page's record as the rest of the extension sees it (a block keeps it more compactly: layout.ts). */
export interface PageRecord {
  /** The page's identity: the address it was read at without fragment, credentials or tracking parameters (core's pageIdentity). */
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
  /** Passage signature of the text (base64), see core/passage-signature.ts. Absent on records made before version 4. */
  passages?: string;
  /** Read set of the text (base64), see core/read-set.ts: tells a later page which of its passages were read here. Absent on records made before it existed (they tell no "what's new"). */
  readSet?: string;
  /**
   * The last time this page was met again with text not read before: when, how many new parts, and
   * the share read; `where`, the site (core's siteOf) of the page met, when that was another page,
   * a copy holding more (since 27 November 2026; absent before, and for the page itself come back).
   */
  changed?: { at: number; parts: number; read: number; where?: string };
  /** Reading length of the extracted text, in word-equivalents. */
  textLength: number;
  lang: string;
  /** Milliseconds since the epoch. */
  firstSeen: number;
  lastSeen: number;
  visits: number;
  /** Ids of the latest visits recorded (a few): a visit sent again after its answer was lost is not counted twice, nor a backup's visits restored after more reading. In JSON exports. */
  visitIds?: string[];
}

/** "Not the same": a pair of pages the reader said are different. Key: the two pages' identities, sorted. */
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
 * One chunk of an import, parked here until the whole file has arrived. Imports never write to the
 * history before they are committed, so an abandoned one leaves it untouched. Key: [importId, seq].
 * The pages are checked, and kept as a block keeps them (`stored`); a chunk staged by version 5 or
 * earlier, for an import under way when the extension was updated, has them as records (`pages`).
 */
export interface StagedChunk {
  importId: string;
  seq: number;
  stored?: StoredPage[];
  pages?: PageRecord[];
  /** The file's "Not the same" pairs, staged after its pages in chunks of their own (`stored` empty). */
  notSame?: NotSamePair[];
}

/** How many pages an import added, merged into existing records, or left as they were. */
export interface ImportOutcome {
  added: number;
  merged: number;
  unchanged: number;
}

/**
 * The state of one import. `staging`: chunks are arriving (the history is untouched); `applying`:
 * committed, its chunks are merged into `pages` one transaction each, each chunk deleted in the
 * same transaction that applies it, so a killed background resumes exactly where it stopped and
 * no chunk counts twice; `done`: kept a while so a repeated commit gets the same answer.
 */
export interface ImportRun {
  importId: string;
  state: 'staging' | 'applying' | 'done';
  digest?: string;
  /** Chunks the commit expects, and how many are applied so far. */
  chunks: number;
  applied: number;
  pages: number;
  outcome: ImportOutcome;
  /** When the run last changed: a `staging` run left alone for long was abandoned. */
  at: number;
  /** Set when the commit found the same file being imported by another tab: nothing was applied. */
  alreadyImported?: true;
  /**
   * The file was imported before: only its pages the history no longer holds are added (forgotten
   * since, or cleared), and the pages it holds are left as they are, their visits not counted again.
   */
  again?: true;
  /**
   * What the reader forgot while this import was under way, staged or applying (page identities, sites): its chunks
   * applied after that leave them out, so the import does not bring back what the reader took away.
   */
  forgotten?: { pages: string[]; sites: string[] };
  /** The number the import gave its first new page (set by its first applied chunks): pages numbered so or after are its own. */
  ownFrom?: number;
  /**
   * Its page went away (closed, reloaded) before the commit, or it was left staged for
   * ABANDONED_STAGING_MS: what it staged was dropped and nothing of it was imported. Kept `done`
   * so that the options page opened next can say so.
   */
  left?: true;
  /** An options page has told the reader how it ended (the page that made it, or one opened after). */
  told?: true;
}

export interface DejaReadDB extends DBSchema {
  /** Blocks of PAGES_PER_BLOCK pages, by block number (page number / PAGES_PER_BLOCK). */
  blocks: { key: number; value: Block };
  /** The addresses and titles of a group's pages (PAGES_PER_NAMES of them), by group number: what the History page's search reads (since version 8). */
  names: { key: number; value: Names };
  /** Column segments (columns.ts), key [group, segment number], and the delta, key ['delta', 0]: typed arrays by column. */
  columns: { key: [string, number]; value: unknown };
  /** Runs of the passage index (anchor-index.ts), key [bucket, run number]: (anchor, page) pairs. */
  anchors: { key: [number, number]; value: Uint32Array };
  /** The store's counters (layout.ts StoreMeta), one record. */
  meta: { key: string; value: StoreMeta };
  dismissals: { key: [string, string]; value: Dismissal };
  imports: { key: string; value: ImportRecord };
  staging: { key: [string, number]; value: StagedChunk };
  importRuns: { key: string; value: ImportRun };
}
