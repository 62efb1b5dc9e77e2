// A history file read in pieces, as the import reads a file of any size: the same records and the
// same problems, in the same places, whatever the pieces; the file never one string.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALGORITHM, blocksOf, encodeSketch, sketchOf } from '../../src/core';
import { DIGEST_SLICE, readHistoryFile } from '../../src/options/import-check';
import { checkRecord } from '../../src/storage/history-import';
import { buildExport, CSV_HEAD, csvChunk, FileProblemError, HistoryReader, jsonChunk, jsonErrorPlace, jsonHead, JSON_TAIL, jsonTail, parseCsv, validateHistoryFile, type PageRecord, type StoredPage } from '../../src/storage';
import { toStored } from '../../src/storage/layout';
import { english } from './messages';

const NOW = Date.UTC(2026, 10, 21);
const page = (i: number, extra: Partial<PageRecord> = {}): PageRecord => {
  const fp = (0x0123456789abcdefn + BigInt(i) * 0x1000193n).toString(16).padStart(16, '0').slice(-16);
  const [b0, b1, b2, b3] = blocksOf(fp);
  return { url: `https://news.example/article-${i}`, canonicalUrl: `https://news.example/article-${i}`, site: 'news.example', title: `Article ${i}`, fp, b0, b1, b2, b3, algo: ALGORITHM, textLength: 420, lang: 'en', firstSeen: NOW - 5000, lastSeen: NOW - 1000, visits: 2, ...extra };
};
const exportText = (pages: PageRecord[]) => jsonHead(new Date(NOW)) + jsonChunk(pages, true) + JSON_TAIL;

// Titles that hold what the reader must not take for structure: quotes after backslashes,
// brackets, commas and braces, line separators, other scripts.
const HOSTILE = ['a "quoted" title', 'ends in a backslash \\', 'backslash then quote \\"', '], {"pages": [', 'line\u2028separator', '转载：一篇文章，《标题》', '‮override', 'tab\there'];
const hostile = () => HOSTILE.map((title, i) => page(i, { title, sketch: encodeSketch(sketchOf(`words of page ${i} and a few more to sketch`)) }));

type Outcome = { pages: PageRecord[] } | { error: string };

/** What the reader makes of the text fed in pieces of `size` characters (Infinity: at once). */
function readInPieces(text: string, size: number): Outcome {
  const reader = new HistoryReader(NOW, checkRecord);
  try {
    for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
    reader.end();
    return { pages: reader.take() };
  } catch (e) {
    if (e instanceof FileProblemError) return { error: english(e.problem) };
    throw e;
  }
}

/** CSV text written again with semicolons between cells, every cell quoted, as a spreadsheet may save it. */
const semicolons = (csv: string) => parseCsv(csv.trimEnd()).map((row) => row.map((c) => `"${c.replace(/"/g, '""')}"`).join(';')).join('\r\n') + '\r\n';

const SIZES = [1, 2, 3, 7, 64, 1000];
/**
 * A record under way is kept as one string, scanned again from where it stopped but copied whole at
 * each piece: a megabyte record fed a few characters at a time would take minutes (the import feeds
 * pieces of about 1 MiB), so long texts are fed only in the larger pieces.
 */
const sizesFor = (text: string) => SIZES.filter((size) => (text.length / size) * text.length < 2e9);

describe('a history file read in pieces', () => {
  const files: Array<[string, string]> = [
    ['an export with hostile titles', exportText(hostile())],
    ['an export pretty-printed by another program', JSON.stringify(buildExport(hostile(), new Date(NOW)), null, 2)],
    ['the pages before the format and version', JSON.stringify({ pages: hostile(), version: 1, format: 'deja-read-history', algorithm: { name: ALGORITHM } })],
    ['CSV with quoted line breaks and quotes', CSV_HEAD + csvChunk([...hostile(), page(20, { title: 'two\r\nlines, "and" commas' })])],
    ['a record that is not an object', exportText([page(1)]).replace('[\n', '[\n42,\n')],
    ['a record with a bad field, late', exportText([...hostile(), page(30, { visits: 0 })])],
    ['a syntax error inside a record', exportText(hostile()).replace('"visits":2}', '"visits":2,}')],
    ['a trailing comma in the array', exportText([page(1), page(2)]).replace(/\n\]\}\n$/, ',\n]}\n')],
    ['an empty place between records', exportText([page(1), page(2)]).replace(',\n', ',,\n')],
    ['a file cut short in a record', exportText(hostile()).slice(0, -60)],
    ['a file cut short between records', exportText([page(1), page(2)]).slice(0, -4)],
    ['text after the document', `${exportText([page(1)])}garbage`],
    ['no version, said after the pages', exportText([page(1)]).replace('"version":1,', '')],
    ['a future version', exportText([page(1)]).replace('"version":1', '"version":2')],
    ['pages that are not an array', JSON.stringify({ ...buildExport([], new Date(NOW)), pages: 'many' })],
    ['two page lists', exportText([page(1)]).replace(/\]\}\n$/, '],"pages":[]}\n')],
    ['no pages', exportText([])],
    ['a document that is an array', '[1, 2, 3]'],
    ['another program\'s CSV', 'Title,URL,Visited\r\nHello,https://a.example/,2026-01-01\r\n'],
    ['nothing at all', '   \n'],
    ['a record larger than any a history holds', exportText([page(1), page(2, { title: 'x'.repeat(1_100_000) })])],
    ['a record that never ends', exportText([page(1)]).replace(/\]\}\n$/, `,{"title":"${'y'.repeat(1_100_000)}`)],
    ['CSV after a spreadsheet\'s "sep=;" line, with semicolons', 'sep=;\r\n' + semicolons(CSV_HEAD + csvChunk(hostile()))],
    ['CSV with lines ended by \\r alone, a title holding \\r\\n', (CSV_HEAD + csvChunk([page(1), page(2, { title: 'two\r\nlines' }), page(3)])).replace(/\r\n/g, '\r').replace('two\rlines', 'two\r\nlines')],
    ['CSV with lines ended by \\r alone, after blank lines', '\r\r' + (CSV_HEAD + csvChunk([...hostile(), page(20, { title: 'two\r\nlines' })])).replace(/\r\n/g, '\r')],
  ];

  it.each(files)('reads %s the same in pieces of any size as at once', (_name, text) => {
    const whole = readInPieces(text, Infinity);
    for (const size of sizesFor(text)) expect(readInPieces(text, size), `pieces of ${size}`).toEqual(whole);
  });

  it('reads the "Not the same" pairs after the pages, thousands of them, whatever the pieces', () => {
    // 20,000 pairs: about 2 MB after the pages, more than the document before them may hold (1 MiB).
    const pairs = Array.from({ length: 20_000 }, (_, i) => ({ a: `https://news.example/article-${i}`, b: `https://copies.example/${i}?page=2`, at: NOW - i }));
    const text = jsonHead(new Date(NOW)) + jsonChunk([page(1), page(2)], true) + jsonTail(pairs);
    expect(text.length).toBeGreaterThan(1 << 20);
    for (const size of [997, 65_536, Infinity]) {
      const reader = new HistoryReader(NOW, checkRecord);
      for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
      reader.end();
      expect(reader.take().map((p) => p.url)).toEqual([page(1).url, page(2).url]);
      expect(reader.notSame).toEqual(pairs);
    }
    // A second list of pages after the pairs is still refused.
    const twice = text.replace(/\]\}\n$/, '],"pages":[]}\n');
    expect(readInPieces(twice, 4096)).toMatchObject({ error: expect.stringMatching(/not a Déjà Read history/i) });
    // 3-4 s on a 2-core machine: more than vitest's 5 s when the machine is busy.
  }, 30_000);

  it('reads a "Not the same" list longer than the rest of a document may be (64 MiB), as its own export writes one', () => {
    // 600 pairs naming addresses of 60,000 characters: 72 MB after the pages.
    const long = 'x'.repeat(60_000);
    const pairs = Array.from({ length: 600 }, (_, i) => ({ a: `https://a.example/${long}${i}`, b: `https://b.example/${long}${i}`, at: NOW - i }));
    const text = jsonHead(new Date(NOW)) + jsonChunk([page(1)], true) + jsonTail(pairs);
    expect(text.length).toBeGreaterThan(64 << 20);
    const reader = new HistoryReader(NOW, checkRecord);
    for (let i = 0; i < text.length; i += 1 << 20) reader.push(text.slice(i, i + (1 << 20)));
    reader.end();
    expect(reader.take().map((p) => p.url)).toEqual([page(1).url]);
    expect(reader.notSame).toEqual(pairs);
  }, 60_000);

  it('places a syntax error after the "Not the same" list, or inside a pair, where parsing the whole file places it', () => {
    const pairs = Array.from({ length: 50 }, (_, i) => ({ a: `https://news.example/${i}`, b: `https://copies.example/${i}`, at: NOW - i }));
    const good = jsonHead(new Date(NOW)) + jsonChunk([page(1), page(2)], true) + jsonTail(pairs);
    for (const text of [good.replace(/\n\]\}\n$/, '\n],\n"x": 1 2}\n'), good.replace('"at":' + String(NOW - 30), '"at":' + String(NOW - 30) + 'x')]) {
      let place: { line: number; column: number } | null = null;
      try {
        JSON.parse(text);
      } catch (e) {
        place = jsonErrorPlace((e as Error).message, text);
      }
      expect(place).not.toBeNull();
      for (const size of [7, 1000, Infinity]) expect(readInPieces(text, size), `pieces of ${size}`).toEqual({ error: english({ key: 'importNotJsonAt', subs: [String(place?.line), String(place?.column)] }) });
    }
  });

  it('gives the records as they are, and the problems as they were worded', () => {
    expect(readInPieces(exportText(hostile()), 5)).toEqual({ pages: hostile() });
    expect(readInPieces(files[3][1], 5)).toMatchObject({ pages: [...hostile(), { title: 'two\r\nlines, "and" commas' }] });
    expect(readInPieces(files[5][1], 5)).toEqual({ error: `Page ${HOSTILE.length + 1}: "visits" must be a whole number ≥ 1.` });
    expect(readInPieces(files[4][1], 5)).toEqual({ error: 'Page 1: must be an object.' });
    expect(readInPieces(files[12][1], 5)).toMatchObject({ error: expect.stringMatching(/does not say which version/) });
    expect(readInPieces(files[16][1], 5)).toMatchObject({ error: expect.stringMatching(/holds no pages/) });
    expect(readInPieces(files[15][1], 5)).toMatchObject({ error: expect.stringMatching(/not a Déjà Read history/) });
    expect(readInPieces(files[20][1], 4096)).toEqual({ error: 'Page 2: the record is larger than any a history holds (at most 1024 KiB).' });
    expect(readInPieces(files[21][1], 4096)).toEqual({ error: 'Page 2: the record is larger than any a history holds (at most 1024 KiB).' });
  });

  it('says an empty file is empty, not broken JSON: nothing, white space, or a byte order mark alone', () => {
    for (const text of ['', '   \n\r\n\t', '\uFEFF', '\uFEFF\n\n']) {
      for (const size of [1, 1000]) expect(readInPieces(text, size), JSON.stringify(text)).toEqual({ error: expect.stringMatching(/^The file is empty/) });
    }
    // A file with anything in it is judged as before.
    expect(readInPieces(' x', 1)).not.toEqual({ error: expect.stringMatching(/empty/) });
  });

  it('places a break in the JSON where parsing the whole file places it', () => {
    // Many small corruptions of an export: a character dropped, doubled or replaced anywhere in it.
    const text = exportText(hostile());
    let random = 12345;
    const next = (n: number) => ((random = (Math.imul(random, 1103515245) + 12345) >>> 0) % n);
    let placed = 0;
    for (let k = 0; k < 1200; k++) {
      const at = next(text.length);
      const broken = [text.slice(0, at) + text.slice(at + 1), text.slice(0, at) + text[at] + text.slice(at), text.slice(0, at) + '}:,"['[next(5)] + text.slice(at + 1)][k % 3];
      let expected: string | null = null;
      try {
        JSON.parse(broken);
      } catch (e) {
        const where = jsonErrorPlace((e as Error).message, broken);
        if (where) expected = `line ${where.line}, column ${where.column} `;
      }
      if (!expected) continue;
      const got = readInPieces(broken, 7);
      expect('error' in got && got.error, `corruption at ${at}: ${JSON.stringify(broken.slice(at - 20, at + 20))}`).toContain(expected);
      placed++;
    }
    expect(placed).toBeGreaterThan(150);
  });
});

describe('a history file read from its bytes, a slice at a time', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => page(i, { title: `第 ${i} 篇：转载的文章 — ${'长标题'.repeat(i % 7)}` }));

  it('reads a file of several slices, characters split between slices and all, in chunks', async () => {
    const pages = many(24_000);
    const blob = new Blob([exportText(pages)]);
    expect(blob.size).toBeGreaterThan(4 * 1024 * 1024);
    const chunks: StoredPage[][] = [];
    const progress: number[] = [];
    const records = readHistoryFile(blob, NOW, 5000, (done) => progress.push(done));
    let r = await records.next();
    for (; !r.done; r = await records.next()) chunks.push(r.value);
    expect(r.value.count).toBe(24_000);
    expect(chunks.map((c) => c.length)).toEqual([5000, 5000, 5000, 5000, 4000]);
    // As blocks keep pages: what the import sends.
    expect(chunks.flat()).toEqual(pages.map(toStored));
    expect(progress.at(-1)).toBe(blob.size);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('refuses bytes that are not UTF-8 deep in the file, naming their line', async () => {
    const text = exportText(many(12_000));
    const line = 9_001; // the head is line 1: this is record 9,000's line
    const at = text.split('\n', line - 1).join('\n').length + 30;
    const bytes = new TextEncoder().encode(text.slice(0, at));
    const blob = new Blob([bytes, Uint8Array.of(0xe9), new TextEncoder().encode(text.slice(at))]);
    const records = readHistoryFile(blob, NOW, 5000);
    const given: number[] = [];
    await expect(
      (async () => {
        for (let r = await records.next(); !r.done; r = await records.next()) given.push(r.value.length);
      })(),
    ).rejects.toMatchObject({ problem: { key: 'importNotUtf8', subs: [String(line)] } });
    // Chunks read before the problem may have been given: the import drops what it staged of them.
    expect(given.every((n) => n === 5000)).toBe(true);
  });

  it('names a file by the SHA-256 of its bytes, or of its slices for a file larger than a slice', async () => {
    const digestOf = async (blob: Blob) => {
      const records = readHistoryFile(blob, NOW, 5000);
      let r = await records.next();
      while (!r.done) r = await records.next();
      return r.value.digest;
    };
    const small = new Blob([exportText(many(10))]);
    expect(await digestOf(small)).toBe(createHash('sha256').update(new Uint8Array(await small.arrayBuffer())).digest('hex'));
    // Larger than a slice (white space between two records): read once, digested slice by slice.
    const text = exportText([page(1), page(2)]).replace(',\n', `,${' '.repeat(DIGEST_SLICE)}\n`);
    const big = new TextEncoder().encode(text);
    const slices = [big.subarray(0, DIGEST_SLICE), big.subarray(DIGEST_SLICE)].map((s) => createHash('sha256').update(s).digest());
    const expected = createHash('sha256').update(Buffer.concat(slices)).digest('hex');
    expect(await digestOf(new Blob([big]))).toBe(expected);
    big[DIGEST_SLICE + 50] = 0x09; // a tab for a space, past the first slice
    expect(await digestOf(new Blob([big]))).not.toBe(expected);
    // Three reads of a 64 MiB file: 4-5 s on a 2-core machine, past vitest's 5 s when the machine is busy.
  }, 30_000);
});

describe('a file read from its bytes: UTF-8', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  /** The records of a file, or its problem. */
  async function read(bytes: Uint8Array<ArrayBuffer>): Promise<StoredPage[] | FileProblemError> {
    const pages: StoredPage[] = [];
    try {
      for (const records = readHistoryFile(new Blob([bytes]), NOW, 5000); ; ) {
        const r = await records.next();
        if (r.done) return pages;
        pages.push(...r.value);
      }
    } catch (e) {
      if (e instanceof FileProblemError) return e;
      throw e;
    }
  }

  it('reads UTF-8, with or without a byte order mark, JSON and CSV', async () => {
    const title = 'Café — 咖啡馆，转载';
    for (const text of [exportText([page(1, { title })]), CSV_HEAD + csvChunk([page(1, { title })])]) {
      for (const bytes of [utf8(text), new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)])]) {
        const got = await read(bytes);
        expect(Array.isArray(got) && got.map((p) => p.title)).toEqual([title]);
      }
    }
  });

  it('refuses Latin-1 instead of turning its letters into \uFFFD, and says which line', async () => {
    const text = exportText([page(1), page(2, { title: 'Caf\u00e9' })]);
    const got = await read(Uint8Array.from(text, (c) => c.charCodeAt(0)));
    expect(got instanceof FileProblemError && english(got.problem)).toMatch(/^The file is not UTF-8 text \(line 3 has bytes that are not UTF-8/);
  });

  it('names UTF-16 (what Excel saves as "Unicode Text") and binary files as such, not as an older encoding', async () => {
    const csv = 'url,title\r\nhttps://a.example/,\u6807\u9898\r\n';
    const utf16le = new Uint8Array(2 + csv.length * 2);
    utf16le.set([0xff, 0xfe]);
    for (let i = 0; i < csv.length; i++) utf16le.set([csv.charCodeAt(i) & 0xff, csv.charCodeAt(i) >> 8], 2 + i * 2);
    const utf16 = await read(utf16le);
    expect(utf16 instanceof FileProblemError && english(utf16.problem)).toMatch(/^The file is UTF-16 text .*Save it as UTF-8/);
    const png = await read(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52));
    expect(png instanceof FileProblemError && english(png.problem)).toMatch(/^The file is not text .*Choose the file that Export saved/);
    // A UTF-8 file with its byte order mark is read as before.
    const text = exportText([page(1)]);
    expect(await read(new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]))).toHaveLength(1);
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80]],
    ['a sequence cut short at the end', [0x61, 0xe4, 0xb8]],
    ['an overlong slash', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ])('refuses %s', async (_name, bytes) => {
    const got = await read(new Uint8Array(bytes));
    expect(got instanceof FileProblemError && got.problem.key).toBe('importNotUtf8');
  });
});

describe('the whole-file check', () => {
  it('is the reader fed the text at once: every record, in the file\'s order', () => {
    const text = exportText([page(1), page(2), page(1, { visits: 3, lastSeen: NOW - 10 })]);
    const v = validateHistoryFile(text, NOW);
    expect(v.ok && v.pages.map((p) => [p.url, p.visits])).toEqual([
      [page(1).url, 2],
      [page(2).url, 2],
      [page(1).url, 3],
    ]);
  });
});

describe('CSV as spreadsheets write it', () => {
  it('reads every page after a "sep=" line, blank lines, or with lines ended by \\r alone', () => {
    const csv = CSV_HEAD + csvChunk(hostile());
    const titles = hostile().map((p) => p.title);
    for (const text of ['sep=;\r\n' + semicolons(csv), 'SEP=,\n' + csv, '\r\n\r\n' + csv, csv.replace(/\r\n/g, '\r'), '\r' + csv.replace(/\r\n/g, '\r')]) {
      const got = readInPieces(text, 5);
      expect('pages' in got && got.pages.map((p) => p.title), JSON.stringify(text.slice(0, 12))).toEqual(titles);
    }
  });
});

describe('JSON of another program', () => {
  it('is refused as JSON not laid out as an export, however large, not as "expected a JSON object"', () => {
    const items = Array.from({ length: 30_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] }));
    for (const doc of [{ name: 'my-app', items }, { name: 'my-app', items: items.slice(0, 3) }]) {
      const got = readInPieces(JSON.stringify(doc), 65_536);
      expect(got).toMatchObject({ error: expect.stringMatching(/^The file is not a Déjà Read history/) });
      expect(got).not.toMatchObject({ error: expect.stringMatching(/expected a JSON object/) });
    }
  });
});
