import { describe, expect, it } from 'vitest';
import { ALGORITHM } from '../../src/core';
import { encodeSketch, sketchOf } from '../../src/core';
import { buildExport, COLUMNS, CSV_HEAD, csvCell, csvChunk, fromStored, jsonChunk, jsonChunkOfStored, jsonHead, JSON_TAIL, parseCsv, UTF8_BOM, validateHistoryFile, type PageRecord, type StoredPage } from '../../src/storage';
import { checkPages, checkStaged, checkStoredRecord, jsonErrorPlace, type FileProblem } from '../../src/storage/history-import';
import { HistoryReader } from '../../src/storage/history-reader';
import { toStored } from '../../src/storage/layout';
import { english, MESSAGES } from './messages';

const NOW = Date.UTC(2026, 10, 21);
const page = (i: number, extra: Partial<PageRecord> = {}): PageRecord => ({
  url: `https://news.example/article-${i}`,
  canonicalUrl: `https://news.example/article-${i}`,
  site: 'news.example',
  title: `Article ${i}`,
  fp: '0123456789abcdef',
  b0: 0x0123,
  b1: 0x4567,
  b2: 0x89ab,
  b3: 0xcdef,
  algo: ALGORITHM,
  textLength: 420,
  lang: 'en',
  firstSeen: NOW - 5000,
  lastSeen: NOW - 1000,
  visits: 2,
  ...extra,
});
const file = (pages: unknown[], head: Record<string, unknown> = {}) => JSON.stringify({ ...buildExport([], new Date(NOW)), ...head, pages });

describe('JSON export', () => {
  it('assembles chunks into one valid document in the export format', () => {
    const pages = [page(1), page(2), page(3)];
    const text = jsonHead(new Date(NOW)) + jsonChunk(pages.slice(0, 2), true) + jsonChunk(pages.slice(2), false) + jsonChunk([], false) + JSON_TAIL;
    const doc = JSON.parse(text);
    expect(doc).toMatchObject({ format: 'deja-read-history', version: 1, algorithm: { name: ALGORITHM }, exportedAt: new Date(NOW).toISOString() });
    expect(doc.pages).toEqual(pages);
    expect(validateHistoryFile(text, NOW)).toEqual({ ok: true, pages, algorithm: ALGORITHM });
  });
});

describe('CSV export', () => {
  it('has the same columns as the JSON records', () => {
    expect(parseCsv(CSV_HEAD)).toEqual([[...COLUMNS]]);
  });

  it('round-trips hostile titles and URLs: commas, quotes, line breaks, formulas, markup', () => {
    const titles = [
      'Plain',
      'Comma, "quoted", and more',
      'Line one\nline two\r\nline three',
      '=HYPERLINK("http://evil.example","click")',
      '+1 and -1 and @mention',
      "'already quoted",
      '<img src=x onerror=alert(1)>',
      '中文标题，带逗号',
      '',
    ];
    const pages = titles.map((title, i) => page(i, { title, url: `https://a.example/p?q=${i},x&r="y"` }));
    const rows = parseCsv(CSV_HEAD + csvChunk(pages));
    expect(rows).toHaveLength(pages.length + 1);
    const col = (name: (typeof COLUMNS)[number]) => COLUMNS.indexOf(name);
    rows.slice(1).forEach((row, i) => {
      expect(row).toHaveLength(COLUMNS.length);
      expect(row[col('title')]).toBe(titles[i]);
      expect(row[col('url')]).toBe(pages[i].url);
      expect(Number(row[col('visits')])).toBe(2);
    });
  });

  it('reads back any cells written with csvCell: commas, quotes, line breaks, formula marks', () => {
    const pieces = ['a', '中', ',', '"', '""', '\r', '\n', '\r\n', "'", '=', '-', ' '];
    let seed = 7;
    const pick = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let t = 0; t < 2000; t++) {
      const rows = Array.from({ length: 1 + pick(3) }, () => Array.from({ length: 2 + pick(3) }, () => Array.from({ length: pick(5) }, () => pieces[pick(pieces.length)]).join('')));
      const text = rows.map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
      expect(parseCsv(text), JSON.stringify(text)).toEqual(rows);
    }
  });

  it('never lets a spreadsheet read a title as a formula', () => {
    const csv = csvChunk([page(1, { title: '=1+1' }), page(2, { title: '@SUM(A1)' })]);
    expect(csv).not.toMatch(/(^|,)[=@]/m);
  });
});

describe('import validation', () => {
  it("finds where JSON broke in V8's and SpiderMonkey's words, and says nothing of a file cut short", () => {
    const text = '{\n"version": 1,\n}';
    expect(jsonErrorPlace('Expected double-quoted property name in JSON at position 16 (line 3 column 1)', text)).toEqual({ line: 3, column: 1 });
    expect(jsonErrorPlace('Expected double-quoted property name in JSON at position 16', text)).toEqual({ line: 3, column: 1 });
    expect(jsonErrorPlace('JSON.parse: expected double-quoted property name at line 3 column 1 of the JSON data', text)).toEqual({ line: 3, column: 1 });
    expect(jsonErrorPlace('JSON.parse: unexpected end of data at line 2 column 13 of the JSON data', '{\n"version": ')).toBeNull();
    expect(jsonErrorPlace("Unexpected token ',', \"[,]\" is not valid JSON", '[,]')).toBeNull();
    // Cut short in a string, a number or a word: the place each engine names is the text's end, or the word's start.
    expect(jsonErrorPlace('Unterminated string in JSON at position 18 (line 1 column 19)', '{"url":"http://exa')).toBeNull();
    expect(jsonErrorPlace('JSON.parse: unterminated string at line 3 column 4 of the JSON data', '{\n"a":\n"xy')).toBeNull();
    expect(jsonErrorPlace('JSON.parse: missing digits after decimal point at line 1 column 9 of the JSON data', '{"a":12.')).toBeNull();
    expect(jsonErrorPlace('JSON.parse: unexpected keyword at line 1 column 6 of the JSON data', '{"a":tr')).toBeNull();
    // A word that is not one, before the end, is a break.
    expect(jsonErrorPlace('JSON.parse: unexpected keyword at line 1 column 6 of the JSON data', '{"a":tx}')).toEqual({ line: 1, column: 6 });
  });

  it('reads a backup made before Traditional Chinese was read as Simplified (algorithm dr1), its pages and all', () => {
    const before = file([page(1, { algo: 'dr1' }), page(2)], { algorithm: { name: 'dr1' } });
    const read = validateHistoryFile(before, NOW);
    expect(read.ok && read.pages.map((p) => p.algo)).toEqual(['dr1', ALGORITHM]);
  });

  const bad: Array<[string, string, RegExp]> = [
    ['truncated JSON', file([page(1)]).slice(0, -20), /not valid JSON.*cut short/],
    // Where the JSON breaks, in numbers: the engine's own words are English whatever the reader's language.
    ['a stray comma', '{\n"format": "deja-read-history",\n"version": 1,\n}', /^The file is not valid JSON: line 4, column 1 /],
    ['no version', JSON.stringify({ ...buildExport([page(1)], new Date(NOW)), version: undefined }), /does not say which version/],
    ['not an object', '[1,2,3]', /not a Déjà Read history/],
    ['another format', file([page(1)], { format: 'bookmarks' }), /"format" must be "deja-read-history"/],
    ['a future version', file([page(1)], { version: 2 }), /version 2 cannot be read/],
    ['another algorithm', file([page(1, { algo: 'dr0' })], { algorithm: { name: 'dr0' } }), /algorithm "dr0".*cannot be compared/],
    ['no pages array', JSON.stringify({ ...buildExport([], new Date(NOW)), pages: 'many' }), /"pages" must be an array/],
    ['zero records', file([]), /holds no pages/],
    ['a record of another algorithm', file([page(1), page(2, { algo: 'dr0' })]), /^Page 2: "algo"/],
    ['bad hex', file([page(1, { fp: '0123456789ABCDEF' })]), /^Page 1: "fp" must be 16 lowercase hex digits/],
    ['short hex', file([page(1, { fp: '0123' })]), /^Page 1: "fp"/],
    ['blocks that do not match', file([page(1, { b2: 7 })]), /^Page 1: "b2" does not match "fp"/],
    ['a javascript: URL', file([page(1, { url: 'javascript:alert(1)' })]), /^Page 1: "url" must be an http\(s\) URL/],
    ['a huge URL', file([page(1, { url: `https://a.example/${'x'.repeat(80_000)}` })]), /^Page 1: "url"/],
    ['a huge title', file([page(1), page(2), page(3, { title: 'x'.repeat(100_000) })]), /^Page 3: "title" must be a string of at most 500/],
    ['a number as title', file([page(1, { title: 42 as unknown as string })]), /^Page 1: "title"/],
    ['visits as a string', file([page(1, { visits: '3' as unknown as number })]), /^Page 1: "visits"/],
    ['negative visits', file([page(1, { visits: -1 })]), /^Page 1: "visits"/],
    ['a date that is not a time', file([page(1, { lastSeen: -5 })]), /^Page 1: "lastSeen" must be a time/],
    ['a language that is not text', file([page(1, { lang: 7 as unknown as string })]), /^Page 1: "lang" must be a string/],
    ['firstSeen after lastSeen', file([page(1, { firstSeen: NOW, lastSeen: NOW - 1 })]), /^Page 1: "firstSeen" is after "lastSeen"/],
    ['a sketch that is base64 but not a sketch', file([page(1), page(2, { sketch: 'AAAA' })]), /^Page 2: "sketch" cannot be read/],
    ['a sketch that is not base64', file([page(1, { sketch: 'not base64!' })]), /^Page 1: "sketch"/],
    ['a canonical URL that is not a web address', file([page(1, { canonicalUrl: 'file:///etc/passwd' })]), /^Page 1: "canonicalUrl" must be an http\(s\) URL/],
    ['a record that is not an object', file([page(1), null]), /^Page 2: must be an object/],
  ];

  it.each(bad)('refuses %s, saying what is wrong and where', (_name, text, message) => {
    const v = validateHistoryFile(text, NOW);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(english(v.error)).toMatch(message);
  });

  it('is checked the same when read as blocks keep pages (as an import sends them): the same refusals, the same pages', () => {
    const records = (text: string): unknown[] | null => {
      try {
        const pages = (JSON.parse(text) as { pages?: unknown }).pages;
        return Array.isArray(pages) && pages.length > 0 ? pages : null;
      } catch {
        return null;
      }
    };
    const outcome = (check: () => unknown) => {
      try {
        return { ok: check() };
      } catch (e) {
        return { refused: (e as Error).message };
      }
    };
    const storedVia = (raw: unknown[]) => raw.map((r, i) => checkStoredRecord(r, i + 1, NOW));
    let compared = 0;
    for (const [, text] of bad) {
      const raw = records(text);
      if (!raw) continue;
      const viaRecords = outcome(() => checkPages(raw, NOW).map(toStored));
      expect(outcome(() => storedVia(raw))).toEqual(viaRecords);
      if ('refused' in viaRecords) compared++;
    }
    expect(compared).toBeGreaterThan(15);
    // Good records with every encoded value, one of them written with bits under its padding (kept as written).
    const sketch = encodeSketch(sketchOf('one two three four five six seven eight nine ten eleven twelve'));
    // The character before the padding, one up, sets a bit under it (A, Q, g, w before "==": B, R, h, x).
    const loose = sketch.replace(/(.)(=+)$/, (_m, c: string, pad: string) => String.fromCharCode(c.charCodeAt(0) + 1) + pad);
    expect(loose).not.toBe(sketch);
    const good = [page(1, { sketch, textHash: 'fedcba9876543210' }), page(2, { sketch: loose, canonicalUrl: 'https://news.example/other' })];
    const stored = storedVia(JSON.parse(JSON.stringify(good)));
    expect(stored).toEqual(checkPages(JSON.parse(JSON.stringify(good)), NOW).map(toStored));
    expect(stored.map(fromStored).map((r) => r.sketch)).toEqual(good.map((r) => r.sketch));
  });

  it('lets the background take what the check gives as it is, and refuses pages of any other shape', () => {
    const sketch = encodeSketch(sketchOf('one two three four five six seven eight nine ten eleven twelve'));
    const good = [page(1, { sketch, textHash: 'fedcba9876543210', title: 'Invoice \u202efdp.exe' }), page(2, { canonicalUrl: 'https://news.example/other' })];
    const stored = good.map((r, i) => checkStoredRecord(r, i + 1, NOW));
    // As it crosses from the worker: cloned.
    expect(checkStaged(structuredClone(stored), NOW)).toEqual(stored);
    const forged: Array<[string, Record<string, unknown>, string]> = [
      ['a javascript: address', { url: 'javascript:alert(1)' }, 'importPageUrl'],
      ['an address with a space', { url: 'https://a.example/x y' }, 'importPageUrl'],
      ['a canonical address of a file', { canonicalUrl: 'file:///etc/passwd' }, 'importPageUrl'],
      ['a title too long', { title: 'x'.repeat(501) }, 'importPageTitle'],
      ['a fingerprint in capitals', { fp: '0123456789ABCDEF' }, 'importPageHex'],
      ['another algorithm', { algo: 'dr0' }, 'importPageAlgo'],
      ['a sketch too large', { sketch: new Uint8Array(2000) }, 'importPageSketch'],
      ['a sketch as a number', { sketch: 7 }, 'importPageSketch'],
      ['a read set too large', { readSet: 'A'.repeat(7000) }, 'importPageReadSet'],
      ['visits as text', { visits: '3' }, 'importPageWholeNumber'],
      ['seen before 1970', { lastSeen: -1 }, 'importPageTime'],
      ['first seen after last', { firstSeen: NOW, lastSeen: NOW - 1 }, 'importPageSeenOrder'],
    ];
    for (const [name, change, key] of forged) {
      expect(() => checkStaged([stored[0], { ...stored[1], ...change }], NOW), name).toThrow(expect.objectContaining({ problem: expect.objectContaining({ key, subs: expect.arrayContaining(['2']) }) }));
    }
    expect(() => checkStaged([null], NOW)).toThrow(expect.objectContaining({ problem: { key: 'importPageNotObject', subs: ['1'] } }));
    expect(() => checkStaged('pages', NOW)).toThrow(TypeError);
    // Only the fields a stored page has are kept.
    const [kept] = checkStaged([{ ...stored[0], site: 'evil.example', b0: 1, changed: true, extra: 'x', __proto__: { polluted: 1 } }], NOW);
    expect(kept).toEqual(stored[0]);
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype);
  });

  it('restores a history recorded under a clock that ran ahead, or with a language tag too long to keep', () => {
    const v = validateHistoryFile(file([page(1, { firstSeen: NOW + 5 * 86_400_000, lastSeen: NOW + 10 * 86_400_000 }), page(2, { lastSeen: NOW + 3_600_000, lang: 'en-' + 'abcdefgh-'.repeat(5) + 'x' })]), NOW);
    if (!v.ok) throw new Error(english(v.error));
    expect(v.pages.map((p) => [p.firstSeen, p.lastSeen, p.lang])).toEqual([
      [NOW, NOW, 'en'],
      [page(2).firstSeen, NOW + 3_600_000, ''],
    ]);
  });

  it('accepts records of the first version, without the fields added later', () => {
    const { canonicalUrl: _c, site: _s, ...old } = page(1);
    const v = validateHistoryFile(file([old]), NOW);
    expect(v.ok && v.pages[0]).toMatchObject({ url: old.url, canonicalUrl: old.url, site: 'news.example' });
  });
});

describe('import validation, addresses and values', () => {
  it('stores a URL in its normal form', () => {
    const text = file([page(1, { url: 'https://NEWS.Example:443/article-1', canonicalUrl: 'HTTPS://news.example/article-1' }), page(2)]);
    const v = validateHistoryFile(text, NOW);
    if (!v.ok) throw new Error(english(v.error));
    expect(v.pages.map((p) => [p.url, p.canonicalUrl, p.site])).toEqual([
      ['https://news.example/article-1', 'https://news.example/article-1', 'news.example'],
      ['https://news.example/article-2', 'https://news.example/article-2', 'news.example'],
    ]);
  });

  it('accepts a sketch Déjà Read wrote', () => {
    const sketch = encodeSketch(sketchOf('the same words as before, and some more words after them'));
    const v = validateHistoryFile(file([page(1, { sketch })]), NOW);
    expect(v.ok && v.pages[0].sketch).toBe(sketch);
  });
});

describe('import validation, CSV', () => {
  it('reads back the CSV our export writes, hostile titles and all', () => {
    const sketch = encodeSketch(sketchOf('a few words to make a sketch of, nothing more'));
    const pages = [
      page(1, { title: 'Comma, "quoted", and\nline breaks\r\nboth kinds', sketch, textHash: 'fedcba9876543210' }),
      page(2, { title: '=HYPERLINK("http://evil.example")' }),
      page(3, { title: "'already quoted", url: 'https://a.example/p?q=1,2&r="y"', canonicalUrl: 'https://a.example/p?q=1,2&r="y"', site: 'a.example' }),
      page(4, { title: '' }),
    ];
    const v = validateHistoryFile(CSV_HEAD + csvChunk(pages), NOW);
    if (!v.ok) throw new Error(english(v.error));
    expect(v.pages).toEqual(pages.map((p) => ({ ...p, url: new URL(p.url).href, canonicalUrl: new URL(p.canonicalUrl).href })));
  });

  it('reads the CSV with the byte order mark the export starts it with', () => {
    const pages = [page(1, { title: '转载：一篇文章' })];
    const text = UTF8_BOM + CSV_HEAD + csvChunk(pages);
    const v = validateHistoryFile(text, NOW);
    if (!v.ok) throw new Error(english(v.error));
    expect(v.pages.map((p) => p.title)).toEqual(['转载：一篇文章']);
  });

  it('checks CSV records as it checks JSON records, naming page and field', () => {
    const text = CSV_HEAD + csvChunk([page(1), page(2, { sketch: 'AAAA' })]);
    const v = validateHistoryFile(text, NOW);
    expect(!v.ok && english(v.error)).toMatch(/^Page 2: "sketch" cannot be read/);
    const visits = validateHistoryFile(CSV_HEAD + csvChunk([page(1)]).replace(/,2\r\n$/, ',two\r\n'), NOW);
    expect(!visits.ok && english(visits.error)).toBe('Page 1: "visits" must be a whole number ≥ 1.');
  });

  it('says a CSV file of another program, or text with a comma, is not a history, rather than broken JSON', () => {
    for (const text of ['Title,URL,Visited\r\nHello,https://a.example/,2026-01-01\r\n', 'Dear reader, this is a letter.\nNothing more.\n']) {
      const v = validateHistoryFile(text, NOW);
      expect(!v.ok && english(v.error)).toBe('This is not a history exported by Déjà Read: the file is neither JSON nor the CSV that Export writes, whose first line names its columns (url,canonicalUrl,site…).');
    }
  });

  it('refuses a quote that is never closed at a record\'s size, not at the end of a file of any size', () => {
    const head = CSV_HEAD + csvChunk([page(1), page(2)]);
    const reader = new HistoryReader(NOW, () => undefined);
    reader.push(head + '"https://a.example/');
    let error: unknown;
    try {
      // Pushed as a file is read: a megabyte at a time, and no line break ever ends the row.
      for (let i = 0; i < 3; i++) reader.push('x'.repeat(1 << 20));
    } catch (e) {
      error = e;
    }
    expect(english((error as { problem: FileProblem }).problem)).toBe('Page 3: the record is larger than any a history holds (at most 1024 KiB).');
  });

  it('names the page whose line has too many fields', () => {
    const v = validateHistoryFile(`${CSV_HEAD}${csvChunk([page(1)])}a,b,c\r\n`, NOW);
    expect(!v.ok && english(v.error)).toBe(`Page 2: the CSV line has 3 fields, but the file's first line names ${COLUMNS.length} columns.`);
  });
});

describe('validation messages', () => {
  it('exist in English and Chinese, with the same values to fill', () => {
    const keys = Object.keys(MESSAGES.en).filter((k) => k.startsWith('import'));
    expect(keys.length).toBeGreaterThan(20);
    for (const key of keys) {
      const subs = (m: string) => [...m.matchAll(/\$\d/g)].map((x) => x[0]).sort();
      expect(MESSAGES.zh_CN[key], key).toBeDefined();
      expect(subs(MESSAGES.zh_CN[key].message), key).toEqual(subs(MESSAGES.en[key].message));
    }
  });
});

describe('the export written straight from the stored pages', () => {
  it('is the JSON of their records, key by key, whatever the page holds', () => {
    const base: StoredPage = { url: 'https://www.news.example/a?b=1', title: 'T', fp: '0123456789abcdef', algo: 'dr1', textLength: 420, lang: 'en', firstSeen: 1_800_000_000_000, lastSeen: 1_800_000_500_000, visits: 3 };
    const pages: StoredPage[] = [
      base,
      { ...base, canonicalUrl: 'https://news.example/a', textHash: 'fedcba9876543210', sketch: Uint8Array.of(1, 2, 3, 4), passages: Uint8Array.of(2, 0, 1, 0xff, 0xfe, 0xfd, 0xfc), readSet: Uint8Array.of(9) },
      { ...base, title: 'Quotes " and \\ backslash, \u2028 line separator, ‮ override, 中文, emoji 😀, nul \u0000', lang: 'zh-cn' },
      // Kept as the strings they were (not canonical base64), and an address that is not plain.
      { ...base, url: 'http://[::1]:8080/p', sketch: 'SKETCH-OLD', passages: 'AAB=', visits: 1e9, textLength: 0 },
    ];
    const viaRecords = jsonChunk(pages.map(fromStored), false);
    expect(jsonChunkOfStored(pages, false)).toBe(viaRecords);
    expect(jsonChunkOfStored(pages, true)).toBe(jsonChunk(pages.map(fromStored), true));
    expect(jsonChunkOfStored([], true)).toBe('');
    expect(JSON.parse(`[${viaRecords.slice(2)}]`)).toHaveLength(4);
  });
});
