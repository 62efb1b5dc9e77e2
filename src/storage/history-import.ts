// Reading a history file to import: the bytes decoded as UTF-8 (nothing guessed), JSON in the
// export format or the CSV our export writes, every record checked and stored in its normal form.
// Problems are data (a _locales key and its values), worded by the page that shows them: this
// runs in a worker, in the background and in Node. Pure functions.
import { ALGORITHM, blocksOf, comparableAlgorithms, canonicalizeUrl, decodePassageBytes, decodeSketchBytes, fromBase64, isFingerprintHex, isReadSetBytes, MAX_READ_SET_LENGTH, MAX_STORED_URL_LENGTH, siteOf, wellFormed } from '../core';
import { storedValue, type StoredPage } from './layout';
import { COLUMNS, type NotSamePair } from './history-file';
import type { PageRecord } from './schema';
import { KEPT_VISIT_IDS, MAX_VISITS } from './merge';

export const LIMITS = {
  urlLength: MAX_STORED_URL_LENGTH,
  titleLength: 500,
  langLength: 35,
  sketchLength: 1024,
  readSetLength: MAX_READ_SET_LENGTH,
  visits: MAX_VISITS,
  records: 5_000_000,
  /** "Not the same" pairs a file may bring (a reader marks a few a week). */
  notSame: 1_000_000,
} as const;

/** What is wrong with a file: a message of public/_locales and the values that fill it ($1, $2…). */
export interface FileProblem {
  key: string;
  subs: string[];
}

export const problem = (key: string, ...subs: Array<string | number>): FileProblem => ({ key, subs: subs.map(String) });

/** Records checked so far, of how many (reported every few thousand records). */
export type CheckProgress = (done: number, total: number) => void;

// --- Bytes to text ---

/**
 * The 1-based line of the first byte that is not UTF-8, or 0 when every byte is. `slice`: the bytes
 * are a slice of a file, which may start inside a character begun before it (those bytes are skipped).
 */
export function firstBadUtf8Line(bytes: Uint8Array, slice = false): number {
  let line = 1;
  let i = 0;
  if (slice) while (i < 3 && i < bytes.length && (bytes[i] & 0xc0) === 0x80) i++;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      if (b === 0x0a) line++;
      i++;
      continue;
    }
    const n = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= bytes.length) return line;
    for (let k = 1; k <= n; k++) if ((bytes[i + k] & 0xc0) !== 0x80) return line;
    // Overlong forms, surrogates and code points past U+10FFFF.
    const b1 = bytes[i + 1];
    if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 >= 0xa0) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 >= 0x90)) return line;
    i += n + 1;
  }
  return 0;
}

// --- One record ---

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
/**
 * A time as kept: one more than a day ahead of `now` comes from a clock that was wrong when the
 * visit was recorded (or is wrong now), and is taken as now, so that a history recorded under a
 * wrong clock can still be restored.
 */
const asKept = (t: number, now: number) => (t > now + 86_400_000 ? now : t);

/**
 * A web page's address as the history keys it, its page identity (host lowercased, default port,
 * fragment, credentials and tracking parameters dropped: core's canonicalizeUrl), or null.
 */
const webUrl = (v: unknown): string | null => (typeof v === 'string' ? canonicalizeUrl(v, LIMITS.urlLength) : null);

/** What is wrong with one record: a message whose $1 is the page number. */
type RecordProblem = { field: string; key: string; subs: string[] };
const wrong = (field: string, key: string, ...subs: Array<string | number>): RecordProblem => ({ field, key, subs: subs.map(String) });

/** A record's fields, checked: those a record and a stored page share as written, and the rest. */
interface Checked {
  plain: Pick<PageRecord, 'url' | 'title' | 'fp' | 'algo' | 'textHash' | 'textLength' | 'lang' | 'firstSeen' | 'lastSeen' | 'visits'>;
  canonicalUrl: string;
  blocks: [number, number, number, number];
  /** Its encoded values, decoded once (and kept as written). */
  encoded: Partial<Record<'sketch' | 'passages' | 'readSet', { text: string; bytes: Uint8Array }>>;
  changed: PageRecord['changed'];
  visitIds: PageRecord['visitIds'];
}

/**
 * The mark "changed since you read it" of a record, or undefined when it has none or one that is
 * not a mark (a mark is a hint, not history: a bad one is left out, not the record).
 */
export function changedOf(v: unknown, now: number): PageRecord['changed'] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const c = v as Record<string, unknown>;
  if (!isTime(c.at) || !isInt(c.parts, 1, LIMITS.visits) || typeof c.read !== 'number' || !(c.read >= 0 && c.read <= 1)) return undefined;
  // The site of the copy met, as the background writes it (a site name alone); anything else is left out, the mark kept.
  const where = typeof c.where === 'string' && c.where.length <= 253 && siteOf(`https://${c.where}/`) === c.where ? c.where : undefined;
  return { at: asKept(c.at, now), parts: c.parts, read: c.read, ...(where ? { where } : {}) };
}

/** A visit's id as the background takes it from a content script (page-report.ts) and an import from a file. */
export const VISIT_ID = /^[A-Za-z0-9-]{8,64}$/;

/**
 * The ids of a record's latest visits, or undefined when it has none or a list that is not one
 * (a hint, as the mark above: what it spares is counting a backup's visits twice).
 */
export function visitIdsOf(v: unknown): PageRecord['visitIds'] {
  if (!Array.isArray(v) || v.length === 0 || v.length > KEPT_VISIT_IDS) return undefined;
  return v.every((id) => typeof id === 'string' && VISIT_ID.test(id)) ? (v as string[]) : undefined;
}

/** A base64 value decoded, if it is a string of at most `max` characters that decodes to what `valid` accepts. */
function decoded(v: unknown, max: number, valid: (bytes: Uint8Array) => unknown): { text: string; bytes: Uint8Array } | null {
  if (typeof v !== 'string' || v.length > max) return null;
  const bytes = fromBase64(v);
  return bytes && valid(bytes) !== null ? { text: v, bytes } : null;
}

/** A number as a spreadsheet writes one too long for its column: 1.79578E+12. */
const ROUNDED = /^\s*\d(?:[.,]\d+)?E\+?\d+\s*$/i;

/** A time that is not one; named as rounded where a spreadsheet showed it as 1.79578E+12 and saved it so (the time is lost). */
function wrongTime(r: Record<string, unknown>, field: 'firstSeen' | 'lastSeen'): RecordProblem {
  const v = r[field];
  return wrong(field, typeof v === 'string' && ROUNDED.test(v) ? 'importPageTimeRounded' : 'importPageTime', field);
}

/** What is wrong with a record's length, language, dates and visits, or null. */
function countsProblem(r: Record<string, unknown>): RecordProblem | null {
  if (!isInt(r.textLength, 0, 1e9)) return wrong('textLength', 'importPageWholeNumber', 'textLength', 0);
  if (typeof r.lang !== 'string') return wrong('lang', 'importPageLang');
  if (!isTime(r.firstSeen)) return wrongTime(r, 'firstSeen');
  if (!isTime(r.lastSeen)) return wrongTime(r, 'lastSeen');
  // In order as written (a time ahead of the clock is taken as now below, which may put first after last).
  if (r.firstSeen > r.lastSeen) return wrong('firstSeen', 'importPageSeenOrder');
  if (!isInt(r.visits, 1, LIMITS.visits)) return wrong('visits', 'importPageWholeNumber', 'visits', 1);
  return null;
}

/** Checks one record; returns its fields, or what is wrong with it. */
function checkFields(raw: unknown, now: number): Checked | RecordProblem {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return wrong('', 'importPageNotObject');
  const r = raw as Record<string, unknown>;
  const url = webUrl(r.url);
  if (!url) return wrong('url', 'importPageUrl', 'url', LIMITS.urlLength);
  const canonicalUrl = r.canonicalUrl === undefined || r.canonicalUrl === r.url ? url : webUrl(r.canonicalUrl);
  if (!canonicalUrl) return wrong('canonicalUrl', 'importPageUrl', 'canonicalUrl', LIMITS.urlLength);
  if (typeof r.title !== 'string' || r.title.length > LIMITS.titleLength) return wrong('title', 'importPageTitle', LIMITS.titleLength);
  if (!isFingerprintHex(r.fp)) return wrong('fp', 'importPageHex', 'fp');
  const blocks = blocksOf(r.fp);
  for (let i = 0; i < 4; i++) {
    const b = r[`b${i}`];
    if (b !== undefined && b !== blocks[i]) return wrong(`b${i}`, 'importPageBlock', `b${i}`);
  }
  if (typeof r.algo !== 'string' || !comparableAlgorithms(r.algo, ALGORITHM)) return wrong('algo', 'importPageAlgo', ALGORITHM);
  if (r.textHash !== undefined && !isFingerprintHex(r.textHash)) return wrong('textHash', 'importPageHex', 'textHash');
  const sketch = r.sketch === undefined ? undefined : decoded(r.sketch, LIMITS.sketchLength, decodeSketchBytes);
  if (sketch === null) return wrong('sketch', 'importPageSketch');
  // The passage index is derived from the signature, so a signature that does not decode is refused.
  const passages = r.passages === undefined ? undefined : decoded(r.passages, LIMITS.sketchLength, decodePassageBytes);
  if (passages === null) return wrong('passages', 'importPagePassages');
  const readSet = r.readSet === undefined ? undefined : decoded(r.readSet, LIMITS.readSetLength, (bytes) => (isReadSetBytes(bytes) ? bytes : null));
  if (readSet === null) return wrong('readSet', 'importPageReadSet');
  const counts = countsProblem(r);
  if (counts) return counts;
  // Checked by countsProblem: a length, a language tag, two times and a count of visits. A tag too
  // long to be one (as an earlier version could record from a page) is left out, not the record.
  const c = r as { textLength: number; lang: string; firstSeen: number; lastSeen: number; visits: number };
  const lang = c.lang.length > LIMITS.langLength ? '' : c.lang;
  return {
    // A lone half of a character (an earlier version cut titles anywhere) as the UTF-8 of a CSV file has it.
    plain: { url, title: wellFormed(r.title as string), fp: r.fp, algo: r.algo, ...(r.textHash !== undefined ? { textHash: r.textHash as string } : {}), textLength: c.textLength, lang, firstSeen: Math.min(asKept(c.firstSeen, now), asKept(c.lastSeen, now)), lastSeen: asKept(c.lastSeen, now), visits: c.visits },
    canonicalUrl,
    blocks,
    encoded: { ...(sketch ? { sketch } : {}), ...(passages ? { passages } : {}), ...(readSet ? { readSet } : {}) },
    changed: changedOf(r.changed, now),
    visitIds: visitIdsOf(r.visitIds),
  };
}

const ENCODED = ['sketch', 'passages', 'readSet'] as const;

/** Checks one record; returns it as the history keeps records, or what is wrong with it. */
function checkPage(raw: unknown, now: number): PageRecord | RecordProblem {
  const c = checkFields(raw, now);
  if (isProblem(c)) return c;
  const [b0, b1, b2, b3] = c.blocks;
  const record: PageRecord = { ...c.plain, canonicalUrl: c.canonicalUrl, site: siteOf(c.plain.url), b0, b1, b2, b3 };
  for (const key of ENCODED) if (c.encoded[key]) record[key] = c.encoded[key].text;
  if (c.changed) record.changed = c.changed;
  if (c.visitIds) record.visitIds = c.visitIds;
  return record;
}

/** The same check, giving the page as blocks keep it: its values decoded once, no derived field. */
function checkStoredPage(raw: unknown, now: number): StoredPage | RecordProblem {
  const c = checkFields(raw, now);
  if (isProblem(c)) return c;
  const s: StoredPage = { ...c.plain };
  if (c.canonicalUrl !== c.plain.url) s.canonicalUrl = c.canonicalUrl;
  for (const key of ENCODED) if (c.encoded[key]) s[key] = storedValue(c.encoded[key].text, c.encoded[key].bytes);
  if (c.changed) s.changed = c.changed;
  if (c.visitIds) s.visitIds = c.visitIds;
  return s;
}

const isProblem = <T extends object>(p: T | RecordProblem): p is RecordProblem => 'key' in p;

/** Checks record `n` (1-based) of a file; throws its problem as a FileProblemError. */
export function checkRecord(raw: unknown, n: number, now: number): PageRecord {
  const page = checkPage(raw, now);
  if (isProblem(page)) throw new FileProblemError(problem(page.key, n, ...page.subs));
  return page;
}

/** The same, giving the page as blocks keep it (what an import sends and stages). */
export function checkStoredRecord(raw: unknown, n: number, now: number): StoredPage {
  const page = checkStoredPage(raw, now);
  if (isProblem(page)) throw new FileProblemError(problem(page.key, n, ...page.subs));
  return page;
}

// --- Pages an import sends to the background ---

/** The most characters a value of each kind may hold as base64 (as bytes, three quarters of it). */
const ENCODED_CHARS = { sketch: LIMITS.sketchLength, passages: LIMITS.sketchLength, readSet: LIMITS.readSetLength } as const;
/** An address as a page identity is written: a web address, nothing but printable characters. */
const WEB_ADDRESS = /^https?:\/\/[\x21-\x7e]+$/;
const isAddress = (v: unknown): v is string => typeof v === 'string' && v.length <= LIMITS.urlLength && WEB_ADDRESS.test(v);
const isEncodedValue = (v: unknown, key: keyof typeof ENCODED_CHARS) => (v instanceof Uint8Array ? v.byteLength <= (ENCODED_CHARS[key] / 4) * 3 : typeof v === 'string' && v.length <= ENCODED_CHARS[key]);

/** What is wrong with the shape of a page sent to be staged, or null. */
function stagedProblem(r: Record<string, unknown>): RecordProblem | null {
  if (!isAddress(r.url)) return wrong('url', 'importPageUrl', 'url', LIMITS.urlLength);
  if (r.canonicalUrl !== undefined && !isAddress(r.canonicalUrl)) return wrong('canonicalUrl', 'importPageUrl', 'canonicalUrl', LIMITS.urlLength);
  if (typeof r.title !== 'string' || r.title.length > LIMITS.titleLength) return wrong('title', 'importPageTitle', LIMITS.titleLength);
  if (!isFingerprintHex(r.fp)) return wrong('fp', 'importPageHex', 'fp');
  if (typeof r.algo !== 'string' || !comparableAlgorithms(r.algo, ALGORITHM)) return wrong('algo', 'importPageAlgo', ALGORITHM);
  if (r.textHash !== undefined && !isFingerprintHex(r.textHash)) return wrong('textHash', 'importPageHex', 'textHash');
  if (r.sketch !== undefined && !isEncodedValue(r.sketch, 'sketch')) return wrong('sketch', 'importPageSketch');
  if (r.passages !== undefined && !isEncodedValue(r.passages, 'passages')) return wrong('passages', 'importPagePassages');
  if (r.readSet !== undefined && !isEncodedValue(r.readSet, 'readSet')) return wrong('readSet', 'importPageReadSet');
  return countsProblem(r);
}

/** A stored page's fields, in the order toStored writes them (pages read back alike share one shape). */
const STAGED_KEYS = ['url', 'title', 'fp', 'algo', 'textLength', 'lang', 'firstSeen', 'lastSeen', 'visits', 'canonicalUrl', 'textHash', 'sketch', 'passages', 'readSet'] as const;

/**
 * The pages of an import chunk where the background receives them, from the options page's worker,
 * which read the file and checked every record (checkStoredRecord: addresses taken to page
 * identities, values decoded and checked). The background does not parse and decode them all
 * again: it checks their shape, every field's type, range and size, and that addresses are web
 * addresses, so nothing the store cannot hold or a page cannot safely show gets in; and it keeps
 * only the fields a stored page has. Throws a FileProblemError for the first page that fails.
 */
export function checkStaged(raw: unknown, now: number): StoredPage[] {
  if (!Array.isArray(raw)) throw new TypeError('pages must be an array');
  return raw.map((r: unknown, i) => {
    if (!r || typeof r !== 'object' || Array.isArray(r)) throw new FileProblemError(problem('importPageNotObject', i + 1));
    const p = r as Record<string, unknown>;
    const wrongShape = stagedProblem(p);
    if (wrongShape) throw new FileProblemError(problem(wrongShape.key, i + 1, ...wrongShape.subs));
    const page: Record<string, unknown> = {};
    for (const key of STAGED_KEYS) if (p[key] !== undefined) page[key] = p[key];
    // Sent in an extension message (JSON) rather than a parcel, values come as base64: kept as bytes.
    for (const key of ENCODED) if (typeof page[key] === 'string') page[key] = storedValue(page[key], fromBase64(page[key]));
    const changed = changedOf(p.changed, now);
    if (changed) page.changed = changed;
    const visitIds = visitIdsOf(p.visitIds);
    if (visitIds) page.visitIds = visitIds;
    return page as unknown as StoredPage;
  });
}

/**
 * A bad record found where records arrive. It crosses to the page that sent them as an error's
 * name and message, so the message is the problem as JSON, for the page to word (ui/error-text.ts).
 */
export class FileProblemError extends Error {
  override name = 'FileProblemError';
  constructor(readonly problem: FileProblem) {
    super(JSON.stringify(problem));
  }
}

/** Checks records again where they arrive; throws on the first bad one. */
export function checkPages(raw: unknown, now: number): PageRecord[] {
  if (!Array.isArray(raw)) throw new TypeError('pages must be an array');
  return raw.map((r: unknown, i) => checkRecord(r, i + 1, now));
}

// --- "Not the same" pairs ---

/**
 * The "Not the same" pairs of a file (its `notSame` list), as page identities. A list that is not
 * one, or a pair that is not a pair of web pages with a time, is left out: the choices are a
 * hint, and the pages they name come in whole either way.
 */
export function checkNotSame(raw: unknown, now: number): NotSamePair[] {
  if (!Array.isArray(raw)) return [];
  const pairs: NotSamePair[] = [];
  for (const item of raw.slice(0, LIMITS.notSame)) {
    if (!item || typeof item !== 'object') continue;
    const p = item as Record<string, unknown>;
    const a = webUrl(p.a);
    const b = webUrl(p.b);
    if (a && b && a !== b && isTime(p.at)) pairs.push({ a, b, at: asKept(p.at, now) });
  }
  return pairs;
}

// --- JSON ---

/**
 * Where JSON.parse stopped, from its message (the engine's words, in English whatever the reader's
 * language, are not shown): V8 says "at position 12 (line 2 column 3)" or "at position 12",
 * SpiderMonkey "at line 2 column 3". Null when unsaid, and where the text only ended early (a file
 * cut short): at its end (V8 and SpiderMonkey put an unterminated string or a missing value there),
 * or at a `true`, `false` or `null` cut short (SpiderMonkey puts the place at the word's start).
 */
export function jsonErrorPlace(message: string, text: string): { line: number; column: number } | null {
  if (/end of (data|JSON input)/i.test(message)) return null;
  const position = /position (\d+)/.exec(message);
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  let at: number;
  if (position) at = Number(position[1]);
  else if (lineColumn) at = offsetOf(text, Number(lineColumn[1]), Number(lineColumn[2]));
  else return null;
  if (at >= text.length || LITERAL_PREFIX.test(text.slice(at))) return null;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
}

/** The offset of a place given as a line and a column (both from 1). */
export function offsetOf(text: string, line: number, column: number): number {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const end = text.indexOf('\n', start);
    if (end < 0) return text.length;
    start = end + 1;
  }
  return start + column - 1;
}

/** A `true`, `false` or `null` cut short, and nothing after it. */
const LITERAL_PREFIX = /^(t(r(ue?)?)?|f(a(l(se?)?)?)?|n(u(ll?)?)?)$/;

// --- CSV, as our export writes it ---

const NUMBER_COLUMNS = new Set<string>(['b0', 'b1', 'b2', 'b3', 'textLength', 'firstSeen', 'lastSeen', 'visits']);
/** Columns a record may leave out; an empty cell means the field is absent. */
const OPTIONAL_COLUMNS = new Set<string>(['canonicalUrl', 'site', 'b0', 'b1', 'b2', 'b3', 'textHash', 'sketch', 'passages', 'readSet']);

/** One CSV row as the record it was written from: numbers where the export wrote numbers. */
export function csvRecord(row: string[]): Record<string, unknown> {
  const r: Record<string, unknown> = {};
  COLUMNS.forEach((column, i) => {
    // Spaces around a cell (", " between cells, typed by hand) are no part of an address, a number or
    // a code; a title keeps its own.
    const cell = column === 'title' ? row[i] : row[i].trim();
    if (cell === '' && OPTIONAL_COLUMNS.has(column)) return;
    // Whole numbers written out in digits, as export writes them: a spreadsheet that saved a time as
    // it showed it (1.79578E+12: six digits kept, the rest rounded) made it another time, and merged
    // with the page already here it changed the page's dates, visits and title. Such a cell is not a
    // number, and its record is refused like any other bad one.
    r[column] = NUMBER_COLUMNS.has(column) && /^\d{1,16}$/.test(cell) ? Number(cell) : cell;
  });
  return undoSpreadsheetNumbers(r);
}

/** A cell as a spreadsheet writes a number: digits, perhaps a decimal point or comma, perhaps an exponent. */
const SPREADSHEET_NUMBER = /^\d+(?:[.,]\d+)?(?:E[+-]?\d+)?$/i;

/** The value of such a cell, or NaN. */
const spreadsheetValue = (cell: unknown) => (typeof cell === 'string' && SPREADSHEET_NUMBER.test(cell) ? Number(cell.replace(',', '.')) : NaN);

/**
 * A fingerprint or text hash that a spreadsheet took for a number. Of 16 hex digits about one in
 * 1,800 are all decimal digits, and a spreadsheet shows and saves them as a number:
 * 0123456789012345 as 123456789012345 (its zero lost), or as 1.23457E+14 where the column is
 * narrow; 1234567890123456 as 1.23457E+15, or 1234567890123460 (15 digits kept). The fingerprint is
 * taken back from the four blocks of the same row (b0–b3, numbers under 65,536, which a
 * spreadsheet keeps), when the cell's value is what the blocks' digits read as a number, to the six
 * digits a spreadsheet shows at least (1234567890123460 is 16 hex digits too, which the blocks
 * then contradict). A text hash of fewer digits lost only its zeros in front, which are put back;
 * one written otherwise has nothing to be taken back from, and as it only tells a page's text
 * exactly, its record keeps everything else (one saved as 15 digits and a zero still reads as a
 * text hash, of no text: the page is then found as any other). LibreOffice 7.4, opening and saving
 * the export of 3,000 synthetic pages, four given fingerprints of digits only (`soffice --headless
 * --convert-to csv`), dropped the zeros in front of three cells, two fingerprints and a text hash:
 * the import left those 3 pages out before, and now brings back all 3,000 as they were.
 * Before, such a page was left out of the import of a backup that had been opened in a spreadsheet
 * and saved (a data-safety review, #6).
 */
function undoSpreadsheetNumbers(r: Record<string, unknown>): Record<string, unknown> {
  const value = spreadsheetValue(r.fp);
  const blocks = [r.b0, r.b1, r.b2, r.b3];
  if (!Number.isNaN(value) && blocks.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 0xffff)) {
    const hex = blocks.map((b) => (b as number).toString(16).padStart(4, '0')).join('');
    const written = Number(hex);
    // Only digits make a number (a spreadsheet leaves 12e4…, whose exponent is too large, as text).
    if (hex !== r.fp && /^\d+$/.test(hex) && Math.abs(written - value) <= 5e-6 * Math.max(written, value)) r.fp = hex;
  }
  const hash = r.textHash;
  if (typeof hash === 'string' && !isFingerprintHex(r.textHash) && !Number.isNaN(spreadsheetValue(hash))) {
    // Fewer than 16 digits: the zeros in front were dropped, and nothing else (a spreadsheet keeps 15).
    if (/^\d{1,15}$/.test(hash)) r.textHash = hash.padStart(16, '0');
    else delete r.textHash;
  }
  return r;
}
