import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main';
import { fingerprint } from '../../src/core';
import { loadArticle, renderPage, type PageName } from '../e2e/site';

const dir = mkdtempSync(join(tmpdir(), 'deja-read-cli-'));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const page = (name: PageName) => file(`${name}.html`, renderPage(name));
/** Bytes that are no text: a NUL, and bytes that are not UTF-8. */
const binary = (name: string, bytes: number[]) => {
  const path = join(dir, name);
  writeFileSync(path, Buffer.from(bytes));
  return path;
};

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const code = await main(argv);
  vi.restoreAllMocks();
  return { code, out: out.join('\n'), err: err.join('\n') };
}

afterEach(() => vi.restoreAllMocks());

describe('cli fingerprint and compare', () => {
  it('fingerprints a text file like the core does', async () => {
    const text = loadArticle('zh-balcony').paragraphs.join('\n');
    const r = await run('fingerprint', file('a.txt', text), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ fp: fingerprint(text), algorithm: 'dr1', chars: text.length, lang: 'zh' });
  });

  it('extracts the article of an HTML page before fingerprinting', async () => {
    const r = await run('fingerprint', page('enA'));
    expect(r.out).toMatch(/^[0-9a-f]{16} {2}/);
    expect(r.out).toMatch(/language en/);
  });

  it('gives the verdict the extension would give', async () => {
    const same = JSON.parse((await run('compare', page('zhA'), page('zhB'), '--json')).out);
    expect(same.flagged).toBe(true);
    const different = await run('compare', page('enA'), page('enC'));
    expect(different.out).toMatch(/: different$/m);
  });

  it('says what is wrong in one line, with a non-zero exit', async () => {
    for (const [args, message] of [
      [['fingerprint', join(dir, 'missing.txt')], /missing\.txt: no such file/],
      [['fingerprint', file('x.pdf', '%PDF')], /unsupported file type "\.pdf"/],
      [['compare', join(dir, 'a.txt')], /compare needs two files/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['bench'], /bench needs --corpus DIR/],
      [['bench', '--corpus', join(dir, 'nowhere')], /docs\.jsonl: cannot read/],
      [['scan', file('bad.json', '{"format": "deja-read-history", "pages": [')], /bad\.json: not valid JSON/],
      [['scan', file('other.json', '{"format": "something-else"}')], /not a Déjà Read history export/],
      [['fingerprint', binary('program.html', [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x3c, 0x70, 0x3e])], /program\.html: not a text file/],
      [['fingerprint', binary('latin1.txt', [0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x69, 0x72])], /latin1\.txt: not UTF-8 text/],
      [['scan', binary('program.json', [0x7b, 0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a])], /program\.json: not a text file/],
      [['scan', join(dir, 'missing.json')], /missing\.json: no such file/],
    ] as const) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.split('\n')).toHaveLength(1);
      expect(r.err).toMatch(message);
      // Nothing of a file's bytes is echoed back (a terminal would run escape sequences).
      expect([...r.err].some((c) => c.charCodeAt(0) < 0x09 || c === '\u001b' || c === '\ufffd')).toBe(false);
    }
  });
});

describe('cli whatsnew', () => {
  it('lists the new passages of a revision, in order, as whole sentences of its text, and the share already read', async () => {
    const ps = loadArticle('en-library').paragraphs;
    const added = 'A year later the library opened a second branch in a former bank on the high street.';
    const before = file('old.txt', ps.slice(0, 3).join('\n\n'));
    const after = file('new.txt', [...ps.slice(0, 3), added, ps[3]].join('\n\n'));
    const r = await run('whatsnew', before, after, '--json');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out) as { read: number; newPassages: string[] };
    const lastParagraph = ps[3].match(/[^.!?]+[.!?]+/g)?.map((x) => x.trim()) ?? [];
    expect(out.newPassages).toEqual([added, ...lastParagraph]);
    expect(out.read).toBeGreaterThan(0.5);
    expect(out.read).toBeLessThan(0.95);
    const human = await run('whatsnew', after, before);
    expect(human.out).toMatch(/^100% of .*old\.txt was already in .*new\.txt; 0 of \d+ passages are new\.$/);
  });

  it('extracts HTML pages the way fingerprint does', async () => {
    const r = await run('whatsnew', page('enA'), page('enB'), '--json');
    expect(JSON.parse(r.out)).toMatchObject({ read: 1, newPassages: [] });
    expect((await run('whatsnew', page('enA'))).err).toMatch(/whatsnew needs two files/);
  }, 30_000);
});

describe('cli scan', () => {
  it('finds the clusters of near-duplicates in an exported history', async () => {
    const en = loadArticle('en-library').paragraphs.join('\n');
    const other = loadArticle('en-balcony').paragraphs.join('\n');
    const pages = [
      { url: 'https://a.example/1', title: 'Original', fp: fingerprint(en), algo: 'dr1' },
      { url: 'https://b.example/2', title: 'Repost', fp: fingerprint(`${en}\nShare this article.`), algo: 'dr1' },
      { url: 'https://a.example/3', title: 'Other', fp: fingerprint(other), algo: 'dr1' },
    ];
    const r = await run('scan', file('export.json', JSON.stringify({ format: 'deja-read-history', version: 1, pages })), '--json');
    const result = JSON.parse(r.out);
    expect(result.pages).toBe(3);
    expect(result.clusters.map((c: Array<{ url: string }>) => c.map((p) => p.url).sort())).toEqual([['https://a.example/1', 'https://b.example/2']]);
  });
});

describe('cli bench', () => {
  it('scores any corpus in the format, reporting unknown kinds under their own names', async () => {
    const corpus = mkdtempSync(join(tmpdir(), 'deja-read-corpus-'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(corpus, 'docs'));
    const docs = [
      ['a', 'enA', 'library'],
      ['b', 'enB', 'library'],
      ['c', 'enC', 'balcony'],
      ['d', 'zhA', 'zh-library'],
      ['e', 'zhB', 'zh-library'],
      ['f', 'zhC', 'zh-balcony'],
    ] as const;
    for (const [id, name] of docs) writeFileSync(join(corpus, 'docs', `${id}.html`), renderPage(name));
    writeFileSync(join(corpus, 'docs', 'g.txt'), loadArticle('ja-walk').paragraphs.join('\n'));
    writeFileSync(
      join(corpus, 'docs.jsonl'),
      [...docs.map(([id, name, group]) => ({ id, path: `docs/${id}.html`, lang: name.slice(0, 2), group })), { id: 'g', path: 'docs/g.txt', lang: 'ja', group: 'walk' }]
        .map((d) => JSON.stringify(d))
        .join('\n'),
    );
    writeFileSync(
      join(corpus, 'pairs.jsonl'),
      [
        { a: 'a', b: 'b', label: 'duplicate', kind: 'other-template' },
        { a: 'd', b: 'e', label: 'duplicate', kind: 'other-template' },
        { a: 'a', b: 'c', label: 'distinct', kind: 'same-site' },
      ]
        .map((p) => JSON.stringify(p))
        .join('\n'),
    );
    const r = await run('bench', '--corpus', corpus, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      docs: 7,
      algorithm: 'dr1',
      duplicate: { 'other-template': { pairs: 2, flagged: 2, recall: 1 }, all: { pairs: 2, flagged: 2, recall: 1 } },
      hardNegative: { 'same-site': { pairs: 1, flagged: 0, rate: 0 } },
      crossGroup: { pairs: 21 - 2, flagged: 0, fpr: 0 },
    });
    expect(typeof report.seconds).toBe('number');

    const w = await run('bench', '--corpus', corpus, '--whatsnew', '--json');
    expect(w.code).toBe(0);
    const whatsnew = JSON.parse(w.out);
    // Two duplicate pairs of the same article in other templates, both directions: almost nothing new.
    expect(whatsnew.all.pairs).toBe(4);
    expect(whatsnew.all.readTruth).toBeGreaterThan(0.95);
    expect(whatsnew.all.readError).toBeLessThan(0.02);
    expect(Object.keys(whatsnew.byLang).sort()).toEqual(['en', 'zh']);
  }, 30_000);
});

describe('cli bench --variants', () => {
  it('makes copies of the fullest document of each group at run time and finds them; the documents made from another are not copied', async () => {
    const corpus = mkdtempSync(join(tmpdir(), 'deja-read-variants-'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(corpus, 'docs'));
    const names = ['en-balcony', 'en-bridges', 'en-ferry', 'en-library', 'zh-balcony', 'zh-library'];
    const text = (name: string) => loadArticle(name).paragraphs.join('\n\n');
    for (const name of names) writeFileSync(join(corpus, 'docs', `${name}.txt`), text(name));
    // The longest document of the ferry group, but made from another document: not a source of copies.
    writeFileSync(join(corpus, 'docs', 'ferry-embedded.txt'), `${text('en-library')}\n\n${text('en-ferry')}\n\n${text('en-bridges')}`);
    writeFileSync(
      join(corpus, 'docs.jsonl'),
      [...names.map((id) => ({ id, path: `docs/${id}.txt`, lang: id.slice(0, 2), group: id })), { id: 'ferry-embedded', path: 'docs/ferry-embedded.txt', lang: 'en', group: 'en-ferry', source: 'embedded:en-ferry' }]
        .map((d) => JSON.stringify(d))
        .join('\n'),
    );
    writeFileSync(join(corpus, 'pairs.jsonl'), '');
    const r = await run('bench', '--corpus', corpus, '--variants', '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { documents: number; bases: string[]; kinds: Record<string, { pairs: number; later: number; earlier: number; missed: string[]; byScript: Record<string, { pairs: number }> }> };
    expect(report.documents).toBe(6);
    expect(report.bases).toContain('en-ferry');
    expect(report.bases).not.toContain('ferry-embedded');
    expect(Object.keys(report.kinds)).toHaveLength(8);
    for (const kind of Object.values(report.kinds)) {
      expect(kind.pairs).toBe(6);
      expect(kind.byScript.cjk.pairs).toBe(2);
    }
    expect(report.kinds['preview, first 30 %']).toMatchObject({ later: 6, earlier: 6 });
    expect(report.kinds['whole, inside a page 2 × as long']).toMatchObject({ later: 6, earlier: 6 });

    const table = await run('bench', '--corpus', corpus, '--variants', '--no-terminals');
    expect(table.code).toBe(0);
    expect(table.out).toContain('every text without sentence ends');
    expect(table.out).toMatch(/preview, first 30 % +\d/);
    expect((await run('bench', '--corpus', corpus, '--no-terminals')).err).toContain('--no-terminals goes with --variants');
  }, 30_000);
});
