import { describe, expect, it } from 'vitest';
import { ALGORITHM } from '../../src/core';
import { buildExport, COLUMNS, CSV_HEAD, csvChunk, jsonChunk, jsonHead, JSON_TAIL, parseCsv, validateHistoryFile, type PageRecord } from '../../src/storage';

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

  it('never lets a spreadsheet read a title as a formula', () => {
    const csv = csvChunk([page(1, { title: '=1+1' }), page(2, { title: '@SUM(A1)' })]);
    expect(csv).not.toMatch(/(^|,)[=@]/m);
  });
});

describe('import validation', () => {
  const bad: Array<[string, string, RegExp]> = [
    ['truncated JSON', file([page(1)]).slice(0, -20), /not valid JSON/],
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
    ['a huge URL', file([page(1, { url: `https://a.example/${'x'.repeat(9000)}` })]), /^Page 1: "url"/],
    ['a huge title', file([page(1), page(2), page(3, { title: 'x'.repeat(100_000) })]), /^Page 3: "title" must be a string of at most 500/],
    ['a number as title', file([page(1, { title: 42 as unknown as string })]), /^Page 1: "title"/],
    ['visits as a string', file([page(1, { visits: '3' as unknown as number })]), /^Page 1: "visits"/],
    ['negative visits', file([page(1, { visits: -1 })]), /^Page 1: "visits"/],
    ['a date in the future', file([page(1, { lastSeen: NOW + 10 * 86_400_000 })]), /^Page 1: "lastSeen"/],
    ['firstSeen after lastSeen', file([page(1, { firstSeen: NOW, lastSeen: NOW - 1 })]), /^Page 1: "firstSeen" is after "lastSeen"/],
    ['duplicate URLs', file([page(1), page(2), page(1)]), /^Page 3: "url" repeats page 1/],
    ['a record that is not an object', file([page(1), null]), /^Page 2: must be an object/],
  ];

  it.each(bad)('refuses %s, saying what is wrong and where', (_name, text, message) => {
    const v = validateHistoryFile(text, NOW);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.error).toMatch(message);
  });

  it('accepts records of the first version, without the fields added later', () => {
    const { canonicalUrl: _c, site: _s, ...old } = page(1);
    const v = validateHistoryFile(file([old]), NOW);
    expect(v.ok && v.pages[0]).toMatchObject({ url: old.url, canonicalUrl: old.url, site: 'news.example' });
  });
});
