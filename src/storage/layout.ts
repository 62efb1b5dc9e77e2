// How the history is laid out in IndexedDB since version 6 (docs/storage.md). A page has a number,
// given when it is first recorded and never reused. Its record lives in a block of PAGES_PER_BLOCK
// pages (one IndexedDB value holds many pages: a write costs about the same for one page as for
// a hundred); what a lookup scans (fingerprint halves, hashes of its address and canonical address,
// a flag) lives in columns, packed typed arrays of SEGMENT_PAGES pages each, which the background
// holds in memory while it runs (columns.ts); the passage anchors live in an index of their own
// (anchor-index.ts). Everything but the blocks is derived from them.
import { anchorsOf, blocksOf, decodePassageBytes, decodePassages, fmix32, fromBase64, siteOf, toBase64 } from '../core';
import type { Anchors } from './anchor-index';
import type { PageRecord } from './schema';

/** Pages per block (one IndexedDB value). A visit rewrites its page's block: kept small. */
export const PAGES_PER_BLOCK = 16;
/** Pages per column segment (one IndexedDB value per group of columns: columns.ts). */
export const SEGMENT_PAGES = 1 << 19;

export const blockOf = (n: number) => Math.floor(n / PAGES_PER_BLOCK);
export const slotOf = (n: number) => n % PAGES_PER_BLOCK;
export const segmentOf = (n: number) => Math.floor(n / SEGMENT_PAGES);

/**
 * A page as a block keeps it: no field derived from another (site, blocks, anchors), the canonical
 * address only where it differs, and the sketch, passage signature and read set as bytes (a
 * quarter smaller than base64). A value that is not canonical base64 is kept as the string it was.
 */
export type StoredPage = Omit<PageRecord, 'canonicalUrl' | 'site' | 'b0' | 'b1' | 'b2' | 'b3' | 'sketch' | 'passages' | 'readSet'> & {
  canonicalUrl?: string;
  sketch?: Uint8Array | string;
  passages?: Uint8Array | string;
  readSet?: Uint8Array | string;
};

export interface Block {
  /** The block's pages by slot; null where a page was forgotten (or none yet). */
  pages: Array<StoredPage | null>;
}

/** Pages whose names (address, title) are one value of store `names` (the History page's search reads them): 16 blocks. */
export const PAGES_PER_NAMES = 256;
export const namesGroupOf = (n: number) => Math.floor(n / PAGES_PER_NAMES);
/** A page's address and title. */
export type Name = readonly [url: string, title: string];

/**
 * The addresses and titles of a group of PAGES_PER_NAMES pages, by page number within the group,
 * null where there is none: all the History page's search looks at, kept apart from the blocks
 * since version 8 (a tenth of their bytes, in a sixteenth as many values: what Chromium's reads
 * cost is mostly per value).
 */
export interface Names {
  pages: Array<Name | null>;
}

/** The names of group `group` from its blocks (keys and values as read); a value no version wrote gives none. */
export function namesFrom(group: number, keys: readonly number[], blocks: ReadonlyArray<Block | undefined>): Names {
  const pages: Array<Name | null> = new Array<Name | null>(PAGES_PER_NAMES).fill(null);
  const first = group * PAGES_PER_NAMES;
  keys.forEach((b, i) => {
    const block = blocks[i];
    if (!block || !Array.isArray(block.pages)) return;
    for (let slot = 0; slot < Math.min(PAGES_PER_BLOCK, block.pages.length); slot++) {
      const p = block.pages[slot];
      const at = b * PAGES_PER_BLOCK + slot - first;
      if (p && at >= 0 && at < PAGES_PER_NAMES) pages[at] = [p.url, p.title];
    }
  });
  return { pages };
}

/** The blocks of a group of names, as a key range of store `blocks`. */
export const blocksOfNames = (group: number) => IDBKeyRange.bound((group * PAGES_PER_NAMES) / PAGES_PER_BLOCK, ((group + 1) * PAGES_PER_NAMES) / PAGES_PER_BLOCK - 1);

/** The store's counters, one record. */
export interface StoreMeta {
  /** The number the next new page gets. */
  next: number;
  /** Pages in the history. */
  count: number;
  /** The number the next anchor run gets. */
  runs: number;
  /** Writes so far: the columns held in memory say which they reflect. */
  gen: number;
  /** Clears so far (absent before any): an export that sees it change between two chunks was cut by one. */
  cleared?: number;
  /**
   * Groups of names (PAGES_PER_NAMES pages) numbered below this may have no value yet (a history
   * upgraded from version 6 or 7): the background names them once started, the highest first
   * (PageRepository.nameOldPages).
   */
  unnamed?: number;
}

export const META_KEY = 'store';
export const emptyMeta = (): StoreMeta => ({ next: 0, count: 0, runs: 0, gen: 0 });

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Whether base64 that decodes is also what encoding the bytes gives back: the bits under its padding are zero. */
function canonical(s: string): boolean {
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  if (pad === 0) return true;
  const last = BASE64.indexOf(s[s.length - 1 - pad]);
  return (last & (pad === 1 ? 0x03 : 0x0f)) === 0;
}
/** A base64 value as blocks keep it: its bytes, or the string itself where they would not give it back. */
export const storedValue = (s: string, decoded: Uint8Array | null): Uint8Array | string => (decoded && canonical(s) ? decoded : s);
const bytes = (s: string | undefined): Uint8Array | string | undefined => (s === undefined ? undefined : storedValue(s, fromBase64(s)));
const text = (v: Uint8Array | string | undefined): string | undefined => (v === undefined || typeof v === 'string' ? v : toBase64(v));

/** A record as a block keeps it. */
export function toStored(r: PageRecord): StoredPage {
  const s: StoredPage = { url: r.url, title: r.title, fp: r.fp, algo: r.algo, textLength: r.textLength, lang: r.lang, firstSeen: r.firstSeen, lastSeen: r.lastSeen, visits: r.visits };
  if (r.canonicalUrl !== r.url) s.canonicalUrl = r.canonicalUrl;
  if (r.textHash !== undefined) s.textHash = r.textHash;
  if (r.sketch !== undefined) s.sketch = bytes(r.sketch);
  if (r.passages !== undefined) s.passages = bytes(r.passages);
  if (r.readSet !== undefined) s.readSet = bytes(r.readSet);
  if (r.changed) s.changed = r.changed;
  if (r.visitIds?.length) s.visitIds = r.visitIds;
  return s;
}

/** The record of a stored page, every derived field filled in. */
export function fromStored(s: StoredPage): PageRecord {
  const [b0, b1, b2, b3] = blocksOf(s.fp);
  const r: PageRecord = {
    url: s.url,
    canonicalUrl: s.canonicalUrl ?? s.url,
    site: siteOfIdentity(s.url),
    title: s.title,
    fp: s.fp,
    b0,
    b1,
    b2,
    b3,
    algo: s.algo,
    textLength: s.textLength,
    lang: s.lang,
    firstSeen: s.firstSeen,
    lastSeen: s.lastSeen,
    visits: s.visits,
  };
  if (s.textHash !== undefined) r.textHash = s.textHash;
  if (s.sketch !== undefined) r.sketch = text(s.sketch);
  if (s.passages !== undefined) r.passages = text(s.passages);
  if (s.readSet !== undefined) r.readSet = text(s.readSet);
  if (s.changed) r.changed = s.changed;
  if (s.visitIds?.length) r.visitIds = s.visitIds;
  return r;
}

/** A stored page's anchors in the passage index: its signature's smallest hashes (none without a signature that decodes). */
export function storedAnchors(page: StoredPage | null | undefined): Anchors {
  const p = page?.passages;
  const signature = p === undefined ? null : typeof p === 'string' ? decodePassages(p) : decodePassageBytes(p);
  return signature ? { values: anchorsOf(signature), bits: signature.bits } : { values: [], bits: 32 };
}

// The host of an address as the URL parser writes it (scheme, "://", host; no credentials: a page
// identity has none), without parsing it again.
const HOST = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:@[\]]+)(?=[/?#:]|$)/;

/** The site of a page identity (core's siteOf: the host without "www."), by a cheaper route where the address allows. */
export function siteOfIdentity(url: string): string {
  const host = HOST.exec(url)?.[1];
  return host === undefined ? siteOf(url) : host.startsWith('www.') ? host.slice(4) : host;
}

/** A well-mixed 32-bit hash of a string (its UTF-16 code units): what the address columns hold. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return fmix32(h ^ s.length);
}
