// The exported history (design.md, "Export format"): JSON written in chunks so a million records
// never sit in memory twice, and CSV with the same columns for spreadsheets; history-import.ts
// reads either back. Pure functions: the options page and the tests use them directly.
import { ALGORITHM, blocksOf, FINGERPRINT_OPTIONS, toBase64 } from '../core';
import { siteOfIdentity, type StoredPage } from './layout';
import type { PageRecord } from './schema';

/** A pair of pages the reader marked "Not the same", as the export writes it (page identities). */
export interface NotSamePair {
  a: string;
  b: string;
  at: number;
}

export const EXPORT_FORMAT = 'deja-read-history';
export const EXPORT_VERSION = 1;

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  algorithm: { name: string; options: Record<string, unknown> };
  exportedAt: string;
  pages: PageRecord[];
  /** The "Not the same" pairs (JSON only; absent when there are none, and in files before it). */
  notSame?: NotSamePair[];
}

/**
 * The columns of a record, in export order (JSON keys and CSV header alike). A JSON record also
 * carries `changed` (the mark "changed since you read it") and `visitIds` (the latest visits' ids,
 * so that a backup restored after more reading does not count its visits again) after them; CSV,
 * for spreadsheets, does not.
 */
export const COLUMNS = ['url', 'canonicalUrl', 'site', 'title', 'fp', 'b0', 'b1', 'b2', 'b3', 'algo', 'textHash', 'sketch', 'passages', 'readSet', 'textLength', 'lang', 'firstSeen', 'lastSeen', 'visits'] as const;

function ordered(page: PageRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of COLUMNS) if (page[key] !== undefined) out[key] = page[key];
  if (page.changed) out.changed = changedJson(page.changed);
  if (page.visitIds?.length) out.visitIds = page.visitIds;
  return out;
}

/** The JSON document's opening, up to the start of the pages array. */
export function jsonHead(now: Date): string {
  const head = { format: EXPORT_FORMAT, version: EXPORT_VERSION, algorithm: { name: ALGORITHM, options: { ...FINGERPRINT_OPTIONS } }, exportedAt: now.toISOString() };
  return `${JSON.stringify(head).slice(0, -1)},"pages":[\n`;
}

/** One chunk of the pages array; `first` says whether it opens the array (no leading comma). */
export function jsonChunk(pages: PageRecord[], first: boolean): string {
  if (pages.length === 0) return '';
  return (first ? '' : ',\n') + pages.map((p) => JSON.stringify(ordered(p))).join(',\n');
}

/**
 * The same as jsonChunk of the pages' records, written straight from the pages as blocks keep them
 * (the export's path: no record object is made for each page, which about halves its cost).
 */
export function jsonChunkOfStored(pages: StoredPage[], first: boolean): string {
  if (pages.length === 0) return '';
  return (first ? '' : ',\n') + pages.map(storedJson).join(',\n');
}

const q = JSON.stringify;
/** Base64 needs no escaping in JSON. */
const b64 = (v: Uint8Array | string) => (typeof v === 'string' ? q(v) : `"${toBase64(v)}"`);

/** A page's record as JSON, its keys in COLUMNS order: JSON.stringify(ordered(fromStored(s))). */
function storedJson(s: StoredPage): string {
  const [b0, b1, b2, b3] = blocksOf(s.fp);
  let out = `{"url":${q(s.url)},"canonicalUrl":${q(s.canonicalUrl ?? s.url)},"site":${q(siteOfIdentity(s.url))},"title":${q(s.title)},"fp":${q(s.fp)},"b0":${b0},"b1":${b1},"b2":${b2},"b3":${b3},"algo":${q(s.algo)}`;
  if (s.textHash !== undefined) out += `,"textHash":${q(s.textHash)}`;
  if (s.sketch !== undefined) out += `,"sketch":${b64(s.sketch)}`;
  if (s.passages !== undefined) out += `,"passages":${b64(s.passages)}`;
  if (s.readSet !== undefined) out += `,"readSet":${b64(s.readSet)}`;
  out += `,"textLength":${q(s.textLength)},"lang":${q(s.lang)},"firstSeen":${q(s.firstSeen)},"lastSeen":${q(s.lastSeen)},"visits":${q(s.visits)}`;
  if (s.changed) out += `,"changed":${q(changedJson(s.changed))}`;
  return s.visitIds?.length ? `${out},"visitIds":${q(s.visitIds)}}` : `${out}}`;
}

/** The mark as written: its fields, in this order (whatever else the stored object holds). */
const changedJson = (c: NonNullable<PageRecord['changed']>) => ({ at: c.at, parts: c.parts, read: c.read, ...(c.where !== undefined ? { where: c.where } : {}) });

/**
 * "Not the same" pairs per message, export and import alike, and the characters of addresses they
 * may hold together (an address may be as long as MAX_STORED_URL_LENGTH): a message stays far
 * under Chrome's 64 MiB whatever the pairs.
 */
export const NOT_SAME_CHUNK = 1_000;
export const NOT_SAME_CHUNK_CHARS = 4_000_000;

/** How many of `pairs`, from `from`, make one message: NOT_SAME_CHUNK at most, within NOT_SAME_CHUNK_CHARS (one at least, if any are left). */
export function notSameInOneMessage(pairs: readonly NotSamePair[], from = 0): number {
  let chars = 0;
  let n = 0;
  for (let i = from; i < pairs.length; i++) {
    chars += pairs[i].a.length + pairs[i].b.length;
    if (n === NOT_SAME_CHUNK || (n > 0 && chars > NOT_SAME_CHUNK_CHARS)) break;
    n++;
  }
  return n;
}

/**
 * Part of the end of the JSON document: "Not the same" pairs, the first chunk (`first`) closing the
 * pages array and opening the list. Chunks of a long list joined, then NOT_SAME_END, give jsonTail
 * of the whole list.
 */
export function jsonNotSameChunk(notSame: readonly NotSamePair[], first: boolean): string {
  return (first ? '\n],"notSame":[\n' : ',\n') + notSame.map((p) => q({ a: p.a, b: p.b, at: p.at })).join(',\n');
}

/** The end of a document with "Not the same" pairs, after the last of them. */
export const NOT_SAME_END = '\n]}\n';

/** The end of the JSON document: the pages array closed, then the "Not the same" pairs, if any. */
export function jsonTail(notSame: readonly NotSamePair[] = []): string {
  if (notSame.length === 0) return '\n]}\n';
  return jsonNotSameChunk(notSame, true) + NOT_SAME_END;
}

/** The end of a document with no "Not the same" pairs. */
export const JSON_TAIL = jsonTail();

/** The whole document at once (small histories and tests). */
export function buildExport(pages: PageRecord[], now: Date, notSame: readonly NotSamePair[] = []): ExportDocument {
  return JSON.parse(jsonHead(now) + jsonChunk(pages, true) + jsonTail(notSame)) as ExportDocument;
}

// --- CSV (RFC 4180) ---

/**
 * One cell. Quoted when it holds a comma, quote or line break. A cell starting with = + - @ tab,
 * CR or ' gets a leading ' so a spreadsheet never runs a page title as a formula; parseCsv
 * removes exactly that one quote again.
 */
export function csvCell(value: unknown): string {
  let s = value === undefined || value === null ? '' : String(value);
  if (/^[=+\-@\t\r']/.test(s) && typeof value === 'string') s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEAD = `${COLUMNS.join(',')}\r\n`;
/** Starts an exported CSV file: without it, spreadsheet programs read UTF-8 as a legacy code page and garble Chinese titles. */
export const UTF8_BOM = '\uFEFF';

export function csvChunk(pages: PageRecord[]): string {
  return pages.map((p) => `${COLUMNS.map((c) => csvCell(p[c])).join(',')}\r\n`).join('');
}

/** What may stand between cells: the comma our export writes, or the semicolon or tab a spreadsheet saves with in some languages. */
export type CsvDelimiter = ',' | ';' | '\t';
// One cell: a quoted part ("" for a quote inside), then anything up to the next delimiter or line break.
const CELLS = new Map<CsvDelimiter, RegExp>([',', ';', '\t'].map((d) => [d as CsvDelimiter, new RegExp(`(?:"((?:[^"]|"")*)"?)?((?:[^"${d}\\r\\n]|\\r(?!\\n))*)`, 'y')]));

/**
 * Parses RFC 4180 CSV into rows of strings, undoing csvCell's formula guard. One regular
 * expression step per cell, not per character: 10^5 exported records parse in well under a second.
 */
export function parseCsv(text: string, delimiter: CsvDelimiter = ','): string[][] {
  const CELL = CELLS.get(delimiter) as RegExp;
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    for (;;) {
      CELL.lastIndex = i;
      const m = CELL.exec(text) as RegExpExecArray; // matches at every position, possibly empty
      cell += (m[1] === undefined ? '' : m[1].replace(/""/g, '"')) + m[2];
      i = CELL.lastIndex;
      if (text[i] !== '"') break;
      // A stray quote inside a cell's text: kept as text, as a lenient reader does.
      cell += '"';
      i++;
    }
    row.push(cell.startsWith("'") ? cell.slice(1) : cell);
    if (text[i] === delimiter) {
      i++;
      if (i === text.length) row.push('');
      continue;
    }
    // A line break, or the end of the text.
    i += text.startsWith('\r\n', i) ? 2 : 1;
    rows.push(row);
    row = [];
  }
  if (row.length > 0) rows.push(row);
  return rows;
}
