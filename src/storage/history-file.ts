// The exported history (design.md, "Export format"): JSON written in chunks so a million records
// never sit in memory twice, CSV with the same columns for spreadsheets, and the validation of a
// file to import. Pure functions: the options page and the tests use them directly.
import { ALGORITHM, anchorsOf, blocksOf, decodePassages, FINGERPRINT_OPTIONS, isFingerprintHex, MAX_URL_LENGTH, parseWebUrl, siteOf } from '../core';
import type { PageRecord } from './schema';

export const EXPORT_FORMAT = 'deja-read-history';
export const EXPORT_VERSION = 1;

export interface ExportDocument {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  algorithm: { name: string; options: Record<string, unknown> };
  exportedAt: string;
  pages: PageRecord[];
}

/** The columns of a record, in export order (JSON keys and CSV header alike). */
export const COLUMNS = ['url', 'canonicalUrl', 'site', 'title', 'fp', 'b0', 'b1', 'b2', 'b3', 'algo', 'textHash', 'sketch', 'passages', 'textLength', 'lang', 'firstSeen', 'lastSeen', 'visits'] as const;

function ordered(page: PageRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of COLUMNS) if (page[key] !== undefined) out[key] = page[key];
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

export const JSON_TAIL = '\n]}\n';

/** The whole document at once (small histories and tests). */
export function buildExport(pages: PageRecord[], now: Date): ExportDocument {
  return JSON.parse(jsonHead(now) + jsonChunk(pages, true) + JSON_TAIL) as ExportDocument;
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

export function csvChunk(pages: PageRecord[]): string {
  return pages.map((p) => `${COLUMNS.map((c) => csvCell(p[c])).join(',')}\r\n`).join('');
}

/** Parses RFC 4180 CSV into rows of strings, undoing csvCell's formula guard. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endCell = () => {
    row.push(cell.startsWith("'") ? cell.slice(1) : cell);
    cell = '';
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else cell += c;
      i++;
      continue;
    }
    if (c === '"') quoted = true;
    else if (c === ',') endCell();
    else if (c === '\r' && text[i + 1] === '\n') {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else if (c === '\n') {
      endCell();
      rows.push(row);
      row = [];
    } else cell += c;
    i++;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

// --- Import validation ---

export const LIMITS = {
  urlLength: MAX_URL_LENGTH,
  titleLength: 500,
  langLength: 35,
  sketchLength: 1024,
  visits: 1e9,
  records: 5_000_000,
} as const;

export type Validation = { ok: true; pages: PageRecord[]; algorithm: string } | { ok: false; error: string };

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isTime = (v: unknown, now: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= now + 86_400_000;

/** The value itself when it is a web page address, as stored (not re-serialised by the URL parser). */
const httpUrl = (v: unknown): string | null => (parseWebUrl(v) ? (v as string) : null);

/** Checks one record; returns the stored form, or what is wrong with it. */
function checkPage(raw: unknown, algorithm: string, now: number): PageRecord | string {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return 'must be an object';
  const r = raw as Record<string, unknown>;
  const url = httpUrl(r.url);
  if (!url) return `"url" must be an http(s) URL of at most ${LIMITS.urlLength} characters`;
  const canonicalUrl = r.canonicalUrl === undefined ? url : httpUrl(r.canonicalUrl);
  if (!canonicalUrl) return '"canonicalUrl" must be an http(s) URL';
  if (typeof r.title !== 'string' || r.title.length > LIMITS.titleLength) return `"title" must be a string of at most ${LIMITS.titleLength} characters`;
  if (!isFingerprintHex(r.fp)) return '"fp" must be 16 lowercase hex digits';
  const blocks = blocksOf(r.fp);
  for (let i = 0; i < 4; i++) {
    const b = r[`b${i}`];
    if (b !== undefined && b !== blocks[i]) return `"b${i}" does not match "fp"`;
  }
  if (r.algo !== algorithm) return `"algo" must be "${algorithm}", the file's algorithm`;
  if (r.textHash !== undefined && !isFingerprintHex(r.textHash)) return '"textHash" must be 16 lowercase hex digits';
  if (r.sketch !== undefined && (typeof r.sketch !== 'string' || r.sketch.length > LIMITS.sketchLength || !/^[A-Za-z0-9+/]*={0,2}$/.test(r.sketch))) return '"sketch" must be base64 of at most 1024 characters';
  // The passage index is derived from the signature, so a signature that does not decode is refused.
  const passages = r.passages === undefined ? undefined : typeof r.passages === 'string' && r.passages.length <= LIMITS.sketchLength ? decodePassages(r.passages) : null;
  if (passages === null) return '"passages" must be a passage signature (base64 of version 1, as exported)';
  if (!isInt(r.textLength, 0, 1e9)) return '"textLength" must be a whole number ≥ 0';
  if (typeof r.lang !== 'string' || r.lang.length > LIMITS.langLength) return `"lang" must be a string of at most ${LIMITS.langLength} characters`;
  if (!isTime(r.firstSeen, now)) return '"firstSeen" must be a time in milliseconds, not in the future';
  if (!isTime(r.lastSeen, now)) return '"lastSeen" must be a time in milliseconds, not in the future';
  if (r.firstSeen > r.lastSeen) return '"firstSeen" is after "lastSeen"';
  if (!isInt(r.visits, 1, LIMITS.visits)) return '"visits" must be a whole number ≥ 1';
  return {
    url,
    canonicalUrl,
    site: siteOf(url),
    title: r.title,
    fp: r.fp,
    b0: blocks[0],
    b1: blocks[1],
    b2: blocks[2],
    b3: blocks[3],
    algo: r.algo,
    ...(r.textHash !== undefined ? { textHash: r.textHash as string } : {}),
    ...(r.sketch !== undefined ? { sketch: r.sketch as string } : {}),
    ...(passages ? { passages: r.passages as string, anchors: anchorsOf(passages) } : {}),
    textLength: r.textLength,
    lang: r.lang,
    firstSeen: r.firstSeen,
    lastSeen: r.lastSeen,
    visits: r.visits,
  };
}

/** Checks records again where they arrive (the background, from the options page); throws on the first bad one. */
export function checkPages(raw: unknown, now: number): PageRecord[] {
  if (!Array.isArray(raw)) throw new TypeError('pages must be an array');
  return raw.map((r, i) => {
    const page = checkPage(r, ALGORITHM, now);
    if (typeof page === 'string') throw new TypeError(`page ${i + 1}: ${page}`);
    return page;
  });
}

/**
 * Validates a whole history file before anything is written: format, version, algorithm, and each
 * record's fields. The error names the record (1-based) and the field.
 */
export function validateHistoryFile(text: string, now: number): Validation {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `The file is not valid JSON (${e instanceof Error ? e.message : String(e)}). Is it cut short?` };
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { ok: false, error: 'The file is not a Déjà Read history (expected a JSON object).' };
  const d = doc as Record<string, unknown>;
  if (d.format !== EXPORT_FORMAT) return { ok: false, error: `The file is not a Déjà Read history ("format" must be "${EXPORT_FORMAT}").` };
  if (d.version !== EXPORT_VERSION) return { ok: false, error: `History files of version ${JSON.stringify(d.version)} cannot be read by this version of Déjà Read (it reads version ${EXPORT_VERSION}).` };
  const algo = (d.algorithm as { name?: unknown } | undefined)?.name;
  if (typeof algo !== 'string') return { ok: false, error: 'The file does not say which fingerprint algorithm made it ("algorithm.name").' };
  if (algo !== ALGORITHM)
    return { ok: false, error: `The file's fingerprints were made by algorithm "${algo}", and this version of Déjà Read uses "${ALGORITHM}": they cannot be compared, so the file was not imported.` };
  if (!Array.isArray(d.pages)) return { ok: false, error: 'The file has no list of pages ("pages" must be an array).' };
  if (d.pages.length === 0) return { ok: false, error: 'The file holds no pages: nothing to import.' };
  if (d.pages.length > LIMITS.records) return { ok: false, error: `The file holds ${d.pages.length} pages, more than the ${LIMITS.records} one import takes.` };
  const pages: PageRecord[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < d.pages.length; i++) {
    const page = checkPage(d.pages[i], algo, now);
    if (typeof page === 'string') return { ok: false, error: `Page ${i + 1}: ${page}.` };
    const earlier = seen.get(page.url);
    if (earlier !== undefined) return { ok: false, error: `Page ${i + 1}: "url" repeats page ${earlier + 1} (${page.url.slice(0, 80)}).` };
    seen.set(page.url, i);
    pages.push(page);
  }
  return { ok: true, pages, algorithm: algo };
}
