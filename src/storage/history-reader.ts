// A history file read piece by piece (history-import.ts checks each record). An export of 10^6
// pages is about 1 GB of JSON: more than the longest string a browser holds, so the file is never
// one string. Its text arrives in pieces; the reader cuts out the records of the `pages` array as
// they complete, checks them, and keeps the rest of the document (a few hundred characters) to
// check at the end. Pure: runs in the options page's worker, in the background and in Node.
import { ALGORITHM, comparableAlgorithms } from '../core';
import { COLUMNS, EXPORT_FORMAT, EXPORT_VERSION, parseCsv, UTF8_BOM, type CsvDelimiter, type NotSamePair } from './history-file';
import { checkNotSame, checkRecord, csvRecord, FileProblemError, jsonErrorPlace, LIMITS, offsetOf, problem, type FileProblem } from './history-import';
import type { PageRecord } from './schema';

const CSV_COLUMNS = COLUMNS.join(',');
const COLUMN_NAMES: ReadonlySet<string> = new Set(COLUMNS);

/** How a CSV file lays out its rows: what stands between cells, how many a row has, and where each of COLUMNS is. */
interface CsvLayout {
  delimiter: CsvDelimiter;
  fields: number;
  order: number[];
}

/**
 * A CSV file's first line, read: our columns, in any order, between commas, semicolons or tabs,
 * quoted or not (a spreadsheet may save a file any of these ways), and columns of its own, which
 * are left out. A problem names a column missing or named twice; null, a first line that names
 * fewer than three of ours (not a history of ours at all). `named`: the delimiter a `sep=` line gave.
 */
function csvLayout(line: string, named?: CsvDelimiter): CsvLayout | FileProblem | null {
  const delimiter = named ?? ([',', ';', '\t'] as const).reduce((best, d) => (line.split(d).length > line.split(best).length ? d : best));
  const names = (parseCsv(line, delimiter)[0] ?? []).map((n) => n.trim());
  if (names.filter((n) => COLUMN_NAMES.has(n)).length < 3) return null;
  const twice = names.find((n, i) => COLUMN_NAMES.has(n) && names.indexOf(n) !== i);
  if (twice !== undefined) return problem('importCsvTwice', twice);
  const missing = COLUMNS.find((c) => !names.includes(c));
  if (missing !== undefined) return problem('importCsvMissing', missing);
  return { delimiter, fields: names.length, order: COLUMNS.map((c) => names.indexOf(c)) };
}

/** The document before the pages (format, version, algorithm…): a few hundred characters in an export. */
const MAX_HEAD = 1 << 20;
/** The document around the pages, once they are read: the head and the "Not the same" pairs after them (about 150 characters a pair). */
const MAX_OUTSIDE = 64 << 20;
/**
 * The longest record read (every field is limited: two addresses of 8,192 characters, a read set
 * of 6,000, a title of 500 that escapes may make six times longer…; an export writes about 1 KB).
 * Shorter ones are parsed, and a field too long is named; one under way past this is broken (a
 * quote too many, say) or not ours, and is not kept growing.
 */
const MAX_RECORD = 1024 * 1024;
/**
 * What a spreadsheet may write before a CSV file's header: blank lines, and Excel's hint line
 * `sep=;`, which names the delimiter (group 1).
 */
const CSV_PREAMBLE = /^(?:[ \t]*(?:\r\n?|\n))*(?:sep=([,;\t])[ \t]*(?:\r\n?|\n))?/i;
/** How much of the start is read to tell JSON from CSV (as the whole-file check did). */
const SNIFF = 4096;

const fail = (p: FileProblem): never => {
  throw new FileProblemError(p);
};

/** Where a record starts in the file: its 1-based line and column. */
interface Place {
  line: number;
  column: number;
}

/** A place in a text (a record's own) as a place in the file, the text starting there at `start`. */
function placeIn(at: Place, start: Place): Place {
  if (at.line === 1) return { line: start.line, column: start.column + at.column - 1 };
  return { line: start.line + at.line - 1, column: at.column };
}

/**
 * Reads a history file's text, in pieces of any size: `push` each, then `end`. Checked records
 * gather in `records` (take them as they come); a problem is thrown as a FileProblemError, naming
 * the record (1-based) and the field, or the line and column where the JSON broke. Given
 * `leaveOutBad`, a record whose fields are wrong (or a CSV row with too many or too few) is counted
 * in `left` and the reading goes on, so that the reader may import the rest of a backup with one bad
 * record; a file whose records are all bad is still refused with the first one's problem. A file that
 * breaks (JSON that does not parse, a record too long, a wrong format) is refused either way.
 */
export class HistoryReader<T = PageRecord> {
  /** Records checked and not yet taken. */
  records: T[] = [];
  /** Records read so far (checked, unless there are more than an import takes). */
  count = 0;
  /** The file's "Not the same" pairs, checked, once it has ended (a JSON file's `notSame`; none in CSV). */
  notSame: NotSamePair[] = [];
  /** Pairs the file has given so far, checked or not. */
  private pairsRead = 0;
  private kind: 'sniff' | 'json' | 'csv' = 'sniff';
  private sniffed = '';
  private json: JsonPages | null = null;
  /** A CSV file's columns, as its first line names them (our export's, until it is read). */
  private layout: CsvLayout = { delimiter: ',', fields: COLUMNS.length, order: COLUMNS.map((_, i) => i) };
  private csv: CsvRows | null = null;
  /** A CSV file whose lines end in \r alone. */
  private crOnly = false;
  /** A \r held back from the end of the last piece (crOnly). */
  private heldCr = '';
  private first = true;
  /** Records left out for their problem (with `leaveOutBad`), and the first one's problem. */
  left = 0;
  firstLeft: FileProblem | null = null;
  /** The file ended inside its list of pages: in a record (left out as cut off), or between two. */
  cut: 'inside' | 'between' | null = null;

  /** `check` makes a checked record of record `n` (1-based), or throws its problem (history-import.ts: checkRecord, checkStoredRecord). */
  constructor(
    private readonly now: number,
    private readonly check: (raw: unknown, n: number, now: number) => T,
    private readonly leaveOutBad = false,
  ) {}

  push(text: string): void {
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.startsWith(UTF8_BOM)) text = text.slice(UTF8_BOM.length);
    }
    if (this.kind === 'sniff') {
      this.sniffed += text;
      if (!this.sniff(false)) return;
      text = this.sniffed;
      this.sniffed = '';
    }
    this.feed(text);
  }

  /** The file is over: checks what could only be checked at its end. */
  end(): { count: number } {
    if (this.kind === 'sniff') {
      // Nothing but white space (or nothing at all): an empty file, not broken JSON.
      if (this.sniffed.trim() === '') fail(problem('importEmptyFile'));
      this.sniff(true);
      const text = this.sniffed;
      this.sniffed = '';
      this.feed(text, true);
    } else this.feed('', true);
    if (this.json) this.json.end();
    else this.csv?.end();
    if (this.count === 0) fail(problem('importNoPages'));
    if (this.count > LIMITS.records) fail(problem('importTooManyPages', this.count, LIMITS.records));
    if (this.firstLeft && this.left === this.count) fail(this.firstLeft);
    return { count: this.count };
  }

  /** Takes up to `n` of the records checked so far. */
  take(n = Infinity): T[] {
    if (n >= this.records.length) {
      const all = this.records;
      this.records = [];
      return all;
    }
    return this.records.splice(0, n);
  }

  /** Decides JSON or CSV from the start of the file; false while there is too little to say. */
  private sniff(atEnd: boolean): boolean {
    const text = this.sniffed;
    const start = text.trimStart();
    if (!start && !atEnd) return false;
    if (!start.startsWith('{') && !start.startsWith('[')) {
      // CSV's header, after the lines a spreadsheet may put before it.
      const before = CSV_PREAMBLE.exec(text) as RegExpExecArray; // matches at the start, possibly nothing
      const rest = text.slice(before[0].length);
      const end = rest.search(/[\r\n]/);
      // The header's line end has not come yet (or a \r has come, and a \n may follow it).
      if (!atEnd && (end === rest.length - 1 || (end < 0 && rest.length < SNIFF))) return false;
      const head = (end < 0 ? rest : rest.slice(0, end)).slice(0, SNIFF);
      // A JSON document's key without its braces is no CSV line.
      const jsonLike = head.trimStart().startsWith('"format"');
      const layout = jsonLike ? null : csvLayout(head, before[1] as CsvDelimiter | undefined);
      if (layout && 'key' in layout) throw new FileProblemError(layout);
      if (layout) {
        this.kind = 'csv';
        this.layout = layout;
        // Lines ended by \r alone (old Mac spreadsheets): read as if ended by \n.
        this.crOnly = rest[end] === '\r' && rest[end + 1] !== '\n';
        const skip = (before[0].match(/\r\n?|\n/g)?.length ?? 0) + 1;
        this.csv = new CsvRows((row) => this.row(row), layout.delimiter, skip);
      } else if (!jsonLike && /[,;\t]/.test(head)) fail(problem('importCsvNotOurs', CSV_COLUMNS.split(',').slice(0, 3).join(',')));
    }
    if (this.kind === 'sniff') this.kind = 'json';
    const cutShort = this.leaveOutBad ? (inRecord: boolean) => this.cutShort(inRecord) : undefined;
    if (this.kind === 'json') this.json = new JsonPages((raw) => this.record(raw), (doc) => this.takePairs(doc.notSame), cutShort, (raw) => this.takePairs([raw]));
    return true;
  }

  /** Text past the sniffing, to the reader of its kind (`last`: the file ends with it). */
  private feed(text: string, last = false): void {
    if (this.json) return this.json.push(text);
    if (!this.crOnly) return this.csv?.push(text);
    // A \r at a piece's end waits for the next piece, which may begin with its \n.
    text = this.heldCr + text;
    this.heldCr = !last && text.endsWith('\r') ? '\r' : '';
    this.csv?.push((this.heldCr ? text.slice(0, -1) : text).replace(/\r\n?/g, '\n'));
  }

  /** "Not the same" pairs of the file, as they come (those after the pages one by one), checked, up to LIMITS.notSame in all. */
  private takePairs(raw: unknown): void {
    if (!Array.isArray(raw) || raw.length === 0) return;
    const room = LIMITS.notSame - this.pairsRead;
    this.pairsRead += raw.length;
    if (room > 0) for (const pair of checkNotSame(raw.length > room ? raw.slice(0, room) : raw, this.now)) this.notSame.push(pair);
  }

  /** One record of the file. */
  private record(raw: unknown): void {
    const n = ++this.count;
    // Past the limit, records are only counted, so the message can say how many the file holds.
    if (n > LIMITS.records) return;
    try {
      this.records.push(this.check(raw, n, this.now));
    } catch (e) {
      if (!(this.leaveOutBad && e instanceof FileProblemError)) throw e;
      this.leaveOut(e.problem);
    }
  }

  /**
   * The file ended inside its list of pages (a download or copy cut short): the record it ended in,
   * if any, is left out as cut off; those before it stay.
   */
  private cutShort(inRecord: boolean): void {
    this.cut = inRecord ? 'inside' : 'between';
    if (!inRecord) {
      this.firstLeft ??= problem('importCutOffAfter', this.count);
      return;
    }
    this.leaveOutNext(problem('importCutOff', this.count + 1));
  }

  private leaveOut(p: FileProblem): void {
    this.left++;
    this.firstLeft ??= p;
  }

  /** The file's next record, left out for `p` without being checked (counted only, past the limit, as `record` does). */
  private leaveOutNext(p: FileProblem): void {
    if (++this.count <= LIMITS.records) this.leaveOut(p);
  }

  private row(row: string[]): void {
    // A blank line (an editor's at the end of the file), or one of empty cells only (a spreadsheet's
    // row that once had formatting), holds no record.
    if (row.every((cell) => cell === '')) return;
    const { fields, order } = this.layout;
    if (row.length !== fields) {
      const p = problem('importCsvFields', this.count + 1, row.length, fields);
      if (!this.leaveOutBad) fail(p);
      return this.leaveOutNext(p);
    }
    this.record(csvRecord(order.map((i) => row[i])));
  }
}

// --- JSON ---

const enum Mode {
  /** Before the `pages` array, in the top-level object (or a document that is not an object). */
  Head,
  /** Inside the `pages` array. */
  Pages,
  /** After it. */
  Tail,
  /** Inside the `notSame` array after the pages: its pairs are cut out as the pages are. */
  Pairs,
}

/**
 * Cuts the records out of a JSON document's `pages` array as its text arrives, and the pairs out of
 * its `notSame` array after the pages (a list of any length: a reader's history may hold more than
 * the rest of the document may); the rest of the document (head and tail, the arrays left empty) is
 * parsed as a whole at the end and checked as the export format says. Each record's text goes to
 * JSON.parse, a batch at a time.
 */
class JsonPages {
  private mode = Mode.Head;
  /** Unscanned text and, in the array, the record under way; `base` is its offset in the file. */
  private buf = '';
  private base = 0;
  /** Next index of `buf` to look at. */
  private i = 0;
  private inString = false;
  private stringStart = 0;
  /** Nesting: of the document in the head and tail, of the record under way in the array. */
  private depth = 0;
  // The head: at depth 1, whether a key comes next, the last key, and whether a value comes next.
  private wantKey = false;
  private key: string | null = null;
  private wantValue = false;
  // The array: where the record under way starts in `buf` (-1: none yet), and whether one must come.
  private recordStart = -1;
  private recordPlace: Place = { line: 1, column: 1 };
  private wantRecord = false;
  private records: Array<{ text: string; at: Place }> = [];
  /** Records parsed so far. */
  private parsed = 0;
  // Lines, for the places of problems.
  private line = 1;
  private lineStart = 0;
  /** The head, up to and with the array's `[`, once the array is found; the tail after it. */
  private head = '';
  private close: Place = { line: 1, column: 1 };
  private objectDocument = false;
  /**
   * The tail before the `notSame` array, up to and with its `[`, while its pairs are cut out; then,
   * where the tail goes on after the array's `]`, and the place of that `]` in the file.
   */
  private tailHead = '';
  private pairsAt: { offset: number; close: Place } | null = null;

  /**
   * `sink` takes each record; `outside` the document without them, once it has ended. Given
   * `cutShort`, a file that ends inside the list of pages (not broken: only ended early) is told to it, in
   * a record or between two, rather than refused.
   */
  constructor(
    private readonly sink: (raw: unknown) => void,
    private readonly outside: (doc: Record<string, unknown>) => void,
    private readonly cutShort?: (inRecord: boolean) => void,
    private readonly pairSink?: (raw: unknown) => void,
  ) {}

  private get inArray(): boolean {
    return this.mode === Mode.Pages || this.mode === Mode.Pairs;
  }

  push(text: string): void {
    this.buf += text;
    this.scan();
    this.flush();
    this.trim();
  }

  end(): void {
    if (this.mode === Mode.Pages) {
      // Cut short, or broken so that the record under way never ended: where does it break?
      const inRecord = this.recordStart >= 0 && this.buf.slice(this.recordStart).trim() !== '';
      if (inRecord) this.breakInRecord(this.buf.slice(this.recordStart));
      // It breaks nowhere before its end: the file was cut short there.
      if (this.cutShort) return this.cutShort(inRecord);
      fail(problem('importNotJson'));
    }
    if (this.mode === Mode.Pairs) {
      // Ended inside the "Not the same" list: broken where a pair breaks, or cut short.
      if (this.recordStart >= 0) this.breakInRecord(this.buf.slice(this.recordStart));
      fail(problem('importNotJson'));
    }
    const outside = this.mode === Mode.Head ? this.buf : this.head + this.buf;
    let doc: unknown;
    try {
      doc = JSON.parse(outside);
    } catch (e) {
      const at = e instanceof Error ? jsonErrorPlace(e.message, outside) : null;
      fail(at ? problem('importNotJsonAt', ...this.outsidePlace(at)) : problem('importNotJson'));
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) fail(problem('importNotHistory'));
    const d = doc as Record<string, unknown>;
    checkHead(d, false);
    if (this.mode === Mode.Head) {
      // No array was cut out: `pages` is missing, not an array, or the document is small and odd.
      if (!Array.isArray(d.pages)) fail(problem('importNoPageList'));
      (d.pages as unknown[]).forEach((raw) => this.sink(raw));
    } else if (!Array.isArray(d.pages) || d.pages.length !== 0) {
      // A second `pages` after the array: JSON.parse would keep the last; the file is not ours.
      fail(problem('importNotHistory'));
    }
    this.outside(d);
  }

  /** A place in the head and tail as parsed together, as a place in the file. */
  private outsidePlace(at: Place): [number, number] {
    if (this.mode === Mode.Head) return [at.line, at.column];
    // The text parsed is the head (as in the file), then the tail from the pages' `]` (at `close`)
    // and, after a "Not the same" list cut out, from the list's `]` (`pairsAt`).
    const text = this.head + this.buf;
    const offset = offsetOf(text, at.line, at.column);
    const segment = this.pairsAt && offset >= this.head.length + this.pairsAt.offset ? { from: this.head.length + this.pairsAt.offset, close: this.pairsAt.close } : offset >= this.head.length ? { from: this.head.length, close: this.close } : null;
    if (!segment) return [at.line, at.column];
    const before = text.slice(segment.from, offset);
    const lines = before.split('\n');
    const p = placeIn({ line: lines.length, column: lines[lines.length - 1].length + 1 }, segment.close);
    return [p.line, p.column];
  }

  private scan(): void {
    const s = this.buf;
    let i = this.i;
    while (i < s.length) {
      if (this.inString) {
        const q = s.indexOf('"', i);
        if (q < 0) {
          i = s.length;
          break;
        }
        i = q + 1;
        let slashes = 0;
        for (let b = q - 1; b > this.stringStart && s.charCodeAt(b) === 92; b--) slashes++;
        if (slashes % 2 === 1) continue;
        this.inString = false;
        if (!this.inArray && this.depth === 1 && this.wantKey) {
          this.key = parseKey(s.slice(this.stringStart, q + 1));
          this.wantKey = false;
          // A second list of pages (or of pairs): JSON.parse would keep the last, this reader the first.
          if (this.mode === Mode.Tail && (this.key === 'pages' || (this.key === 'notSame' && this.pairsAt))) fail(problem('importNotHistory'));
        }
        continue;
      }
      const c = s.charCodeAt(i);
      if (c === 10) {
        this.line++;
        this.lineStart = this.base + i + 1;
        i++;
        continue;
      }
      if (c === 32 || c === 9 || c === 13) {
        i++;
        continue;
      }
      if (this.inArray && this.depth === 0) {
        if (c === 44 /* , */ || c === 93 /* ] */) {
          if (this.recordStart >= 0) this.endRecord(i);
          else if (c === 44 || this.wantRecord) this.syntaxAt(i);
          if (c === 93) {
            // The list's items go to their sink before what follows is read.
            this.flush();
            const pairs = this.mode === Mode.Pairs;
            if (pairs) this.pairsAt = { offset: this.tailHead.length, close: this.placeOf(i) };
            else this.close = this.placeOf(i);
            // The tail goes on (after the tail before the pairs, which it now follows as `[]`).
            this.buf = this.tailHead + s.slice(i);
            this.base += i - this.tailHead.length;
            this.i = this.tailHead.length + 1;
            this.tailHead = '';
            this.mode = Mode.Tail;
            this.depth = 1;
            this.wantValue = false;
            this.scan();
            return;
          }
          this.wantRecord = true;
          i++;
          continue;
        }
        if (this.recordStart < 0) {
          this.recordStart = i;
          this.recordPlace = this.placeOf(i);
          this.wantRecord = false;
        }
      }
      if (c === 34 /* " */) {
        this.inString = true;
        this.stringStart = i;
        if (this.mode === Mode.Head && this.depth === 1) this.wantValue = false;
      } else if (c === 123 /* { */ || c === 91 /* [ */) {
        if (this.mode === Mode.Head && this.depth === 0 && c === 123 && !this.objectDocument) this.objectDocument = true;
        else if (this.mode === Mode.Head && this.depth === 1 && this.wantValue && c === 91 && this.key === 'pages' && this.objectDocument) {
          // The pages array: what came before it is the head, checked now where it can be.
          this.head = s.slice(0, i + 1);
          this.checkHeadSoFar();
          return this.enterList(Mode.Pages, i);
        } else if (this.mode === Mode.Tail && this.depth === 1 && this.wantValue && c === 91 && this.key === 'notSame' && this.pairSink && !this.pairsAt) {
          // The "Not the same" list: its pairs are cut out as the pages were; the tail keeps an empty list.
          this.tailHead = s.slice(0, i + 1);
          return this.enterList(Mode.Pairs, i);
        }
        this.depth++;
        if (!this.inArray && this.depth === 1) this.wantKey = true;
        if (this.mode === Mode.Head && this.depth === 2) this.wantValue = false;
      } else if (c === 125 /* } */ || c === 93 /* ] */) {
        if (this.depth > 0) this.depth--;
      } else if (!this.inArray && this.depth === 1) {
        if (c === 58 /* : */) this.wantValue = true;
        else if (c === 44 /* , */) this.wantKey = true;
        else this.wantValue = false;
      }
      i++;
    }
    this.i = i;
    // JSON, but far more of it around the pages than an export writes (another program's data).
    if (!this.inArray && this.buf.length + this.head.length > (this.mode === Mode.Head ? MAX_HEAD : MAX_OUTSIDE)) fail(problem('importNotHistoryJson'));
    if (this.inArray && this.recordStart >= 0 && i - this.recordStart > MAX_RECORD) this.tooLarge(s.slice(this.recordStart, i));
  }

  /** Goes on inside a list (pages or pairs) whose `[` is at `i` of `buf`: its items are cut out from there. */
  private enterList(mode: Mode.Pages | Mode.Pairs, i: number): void {
    this.buf = this.buf.slice(i + 1);
    this.base += i + 1;
    this.i = 0;
    this.mode = mode;
    this.depth = 0;
    this.wantValue = false;
    this.wantRecord = false;
    this.recordStart = -1;
    this.scan();
  }

  private tooLarge(text: string): never {
    this.breakInRecord(text);
    this.flush();
    // No pair is that long (two addresses): the file is not ours.
    if (this.mode === Mode.Pairs) fail(problem('importNotHistory'));
    return fail(problem('importPageTooLarge', this.parsed + 1, MAX_RECORD / 1024));
  }

  /** Fails with the place where the JSON of a record under way breaks, if it breaks before its end. */
  private breakInRecord(text: string): void {
    try {
      JSON.parse(text);
    } catch (e) {
      const at = e instanceof Error ? jsonErrorPlace(e.message, text) : null;
      if (at) {
        this.flush();
        const p = placeIn(at, this.recordPlace);
        fail(problem('importNotJsonAt', p.line, p.column));
      }
    }
  }

  private placeOf(i: number): Place {
    return { line: this.line, column: this.base + i - this.lineStart + 1 };
  }

  private syntaxAt(i: number): never {
    const at = this.placeOf(i);
    return fail(problem('importNotJsonAt', at.line, at.column));
  }

  private endRecord(i: number): void {
    if (i - this.recordStart > MAX_RECORD) this.tooLarge(this.buf.slice(this.recordStart, i));
    this.records.push({ text: this.buf.slice(this.recordStart, i), at: this.recordPlace });
    this.recordStart = -1;
  }

  /** Parses the records cut out so far, many in one JSON.parse; finds the one that broke, if any. */
  private flush(): void {
    if (this.records.length === 0) return;
    const records = this.records;
    this.records = [];
    let raws: unknown[];
    try {
      raws = JSON.parse(`[${records.map((r) => r.text).join(',')}]`) as unknown[];
    } catch {
      for (const r of records) {
        try {
          JSON.parse(r.text);
        } catch (e) {
          const at = e instanceof Error ? jsonErrorPlace(e.message, r.text) : null;
          const p = at ? placeIn(at, r.at) : r.at;
          fail(problem('importNotJsonAt', p.line, p.column));
        }
      }
      return fail(problem('importNotJson'));
    }
    if (this.mode === Mode.Pairs) {
      for (const raw of raws) this.pairSink?.(raw);
      return;
    }
    this.parsed += raws.length;
    for (const raw of raws) this.sink(raw);
  }

  /** Drops what is scanned and done with, keeping the record under way. */
  private trim(): void {
    if (!this.inArray) return;
    const keep = this.recordStart >= 0 ? this.recordStart : this.i;
    if (keep === 0) return;
    this.buf = this.buf.slice(keep);
    this.base += keep;
    this.i -= keep;
    if (this.recordStart >= 0) this.recordStart = 0;
    this.stringStart -= keep;
  }

  /** Format, version and algorithm, where the head has them before the pages (an export does). */
  private checkHeadSoFar(): void {
    let d: unknown;
    try {
      d = JSON.parse(`${this.head}]}`);
    } catch (e) {
      const at = e instanceof Error ? jsonErrorPlace(e.message, this.head) : null;
      fail(at ? problem('importNotJsonAt', at.line, at.column) : problem('importNotJson'));
    }
    checkHead(d as Record<string, unknown>, true);
  }
}

/** A key's text, quotes and escapes and all, as the key it is. */
function parseKey(literal: string): string | null {
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null;
  }
}

/** The document's own fields. `partial`: only those it has so far (the rest may come after the pages). */
function checkHead(d: Record<string, unknown>, partial: boolean): void {
  if (!(partial && d.format === undefined) && d.format !== EXPORT_FORMAT) fail(problem('importWrongFormat', EXPORT_FORMAT));
  if (d.version === undefined) {
    if (!partial) fail(problem('importNoVersion'));
  } else if (d.version !== EXPORT_VERSION) fail(problem('importWrongVersion', JSON.stringify(d.version), EXPORT_VERSION));
  if (partial && d.algorithm === undefined) return;
  const algo = (d.algorithm as { name?: unknown } | undefined)?.name;
  if (typeof algo !== 'string') fail(problem('importNoAlgorithm'));
  if (!comparableAlgorithms(algo as string, ALGORITHM)) fail(problem('importOtherAlgorithm', (algo as string).slice(0, 40), ALGORITHM));
}

// --- CSV, as our export writes it ---

/** Cuts whole rows (a line break outside quotes ends one) out of CSV text as it arrives. */
class CsvRows {
  private buf = '';
  private i = 0;
  private inQuote = false;
  /** Rows handed on (the header not counted). */
  private count = 0;

  constructor(
    private readonly sink: (row: string[]) => void,
    private readonly delimiter: CsvDelimiter,
    /** Rows before the records: the header, and what a spreadsheet put before it. */
    private skip = 1,
  ) {}

  push(text: string): void {
    this.buf += text;
    const s = this.buf;
    let i = this.i;
    let done = 0;
    let quote = s.indexOf('"', i);
    let newline = s.indexOf('\n', i);
    for (;;) {
      // `quote` and `newline` are the first at or after `i` (-1: none).
      if (this.inQuote) {
        if (quote < 0) break;
        this.inQuote = false;
        i = quote + 1;
      } else {
        if (newline < 0) break;
        if (quote >= 0 && quote < newline) {
          this.inQuote = true;
          i = quote + 1;
        } else {
          i = newline + 1;
          done = i;
        }
      }
      if (quote >= 0 && quote < i) quote = s.indexOf('"', i);
      if (newline >= 0 && newline < i) newline = s.indexOf('\n', i);
    }
    this.i = this.inQuote ? s.length : i;
    if (done > 0) {
      this.rows(s.slice(0, done));
      this.buf = s.slice(done);
      this.i -= done;
    }
    // A row never ended (a quote never closed) would hold the rest of the file, however large: it
    // is refused at the size a record may have, as in JSON.
    if (this.buf.length > MAX_RECORD) fail(problem('importPageTooLarge', this.count + 1, MAX_RECORD / 1024));
  }

  end(): void {
    if (this.buf.length > 0) this.rows(this.buf);
    this.buf = '';
  }

  private rows(text: string): void {
    let rows = parseCsv(text, this.delimiter);
    if (this.skip > 0) {
      const n = Math.min(this.skip, rows.length);
      this.skip -= n;
      rows = rows.slice(n);
    }
    for (const row of rows) {
      this.count++;
      this.sink(row);
    }
  }
}

// --- A whole file at once ---

export type Validation = { ok: true; pages: PageRecord[]; algorithm: string } | { ok: false; error: FileProblem };

/**
 * A whole history file, JSON or CSV, read from its text at once (tests, small files): its records
 * checked, in the file's order, or the first problem: format, version, algorithm, or a record's
 * field (naming the page, 1-based, and the field). Records of one page are merged where they are
 * applied, as an import merges them with the history.
 */
export function validateHistoryFile(text: string, now: number): Validation {
  try {
    const reader = new HistoryReader(now, checkRecord);
    reader.push(text);
    reader.end();
    return { ok: true, pages: reader.take(), algorithm: ALGORITHM };
  } catch (e) {
    if (e instanceof FileProblemError) return { ok: false, error: e.problem };
    throw e;
  }
}
