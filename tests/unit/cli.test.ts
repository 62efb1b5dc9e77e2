import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main';
import { ALGORITHM, fingerprint } from '../../src/core';
import { loadArticle, renderPage, type PageName } from '../e2e/site';

const dir = mkdtempSync(join(tmpdir(), 'deja-read-cli-'));
const file = (name: string, content: string | Buffer) => {
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
    expect(JSON.parse(r.out)).toMatchObject({ fp: fingerprint(text), algorithm: ALGORITHM, chars: text.length, lang: 'zh' });
  });

  it('reads a text file with soft hyphens in its words as the same text without them', async () => {
    const text = loadArticle('en-library').paragraphs.join('\n\n');
    const plain = JSON.parse((await run('fingerprint', file('plain.txt', text), '--json')).out);
    const hyphenated = JSON.parse((await run('fingerprint', file('soft.txt', text.replace(/(\w{3})(\w{4,})/g, '$1\u00ad$2')), '--json')).out);
    expect(hyphenated.fp).toBe(plain.fp);
    expect((await run('compare', file('plain.txt', text), file('soft.txt', text.replace(/(\w{3})(\w{4,})/g, '$1\u00ad$2')))).out).toMatch(/^distance 0 of 64 bits/m);
  });

  it('extracts the article of an HTML page before fingerprinting', async () => {
    const r = await run('fingerprint', page('enA'));
    expect(r.out).toMatch(/^[0-9a-f]{16} {2}/);
    expect(r.out).toMatch(/language en/);
  });

  it('reads a page of more than 60,000 elements in its first part, as the extension does', async () => {
    const paragraphs = Array.from({ length: 16_000 }, (_, i) => `<p>Paragraph <a href="/p${i}">number ${i}</a> of <em>a</em> very <b>long</b> article.</p>`);
    const r = await run('fingerprint', file('long.html', `<!DOCTYPE html><html><head><title>Long</title></head><body><article>${paragraphs.join('')}</article></body></html>`), '--json');
    expect(r.code).toBe(0);
    const read = JSON.parse(r.out) as { words: number; skipped?: string };
    expect(read.skipped).toBeUndefined();
    // Its first part: about 60,000 of its 80,000 elements, four to a paragraph.
    expect(read.words).toBeGreaterThan(100_000);
    expect(read.words).toBeLessThan(16_000 * 9);
  }, 60_000);

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
      [['bench', '--corpus', join(dir, 'nowhere')], /docs\.jsonl: no such file \(is this a corpus directory\?\)/],
      [['scan', file('bad.json', '{"format": "deja-read-history", "pages": [')], /bad\.json: not valid JSON/],
      [['scan', file('other.json', '{"format": "something-else"}')], /not a Déjà Read history export/],
      [['fingerprint', binary('program.html', [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x3c, 0x70, 0x3e])], /program\.html: not a text file/],
      [['fingerprint', binary('latin1.txt', [0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x6f, 0x69, 0x72])], /latin1\.txt: not UTF-8 text/],
      [['scan', binary('program.json', [0x7b, 0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a])], /program\.json: not a text file/],
      [['scan', join(dir, 'missing.json')], /missing\.json: no such file/],
      [['scan', file('empty.json', '\n')], /empty\.json: the file is empty/],
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
      algorithm: ALGORITHM,
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
    expect(Object.keys(report.kinds)).toHaveLength(15);
    for (const kind of Object.values(report.kinds)) {
      expect(kind.pairs).toBe(6);
      expect(kind.byScript.cjk.pairs).toBe(2);
    }
    expect(report.kinds['preview, first 30 %']).toMatchObject({ later: 6, earlier: 6 });
    expect(report.kinds['whole, inside a page 2 × as long']).toMatchObject({ later: 6, earlier: 6 });
    // Chinese and Japanese reposted with half-width punctuation are found as in full-width.
    expect(report.kinds['whole, inside a page 3 × as long, half-width punctuation'].byScript.cjk).toMatchObject({ later: 2 });
    expect(report.kinds['whole, a line put after every paragraph']).toMatchObject({ later: 6 });
    // A revision that reworded four sentences in five is found, Chinese and Japanese too.
    expect(report.kinds['revision, a word put in 4 sentences in 5']).toMatchObject({ later: 6, earlier: 6 });

    const table = await run('bench', '--corpus', corpus, '--variants', '--no-terminals');
    expect(table.code).toBe(0);
    expect(table.out).toContain('every text without sentence ends');
    expect(table.out).toMatch(/preview, first 30 % +\d/);
    expect((await run('bench', '--corpus', corpus, '--no-terminals')).err).toContain('--no-terminals goes with --variants');
  }, 30_000);
});

/** C0 and C1 controls but line feed and tab (ESC, BEL…), and bidirectional overrides, isolates and marks. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]/;
/** Sets the terminal's title, clears the screen, turns red, reverses the line. */
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u001b[31mred\u202eevil\u202c';
const prose = loadArticle('en-library').paragraphs;
const articleHtml = (lang: string, ps: string[]) => `<!doctype html><html lang="${lang}"><body><article>\n${ps.map((p) => `<p>${p}</p>`).join('\n')}\n</article></body></html>`;

describe('cli: what a file holds reaches the terminal as text, never as commands', () => {
  it('scan shows hostile titles and addresses with their control characters escaped', async () => {
    const pages = [
      { url: `https://a.example/1${HOSTILE}`, title: `Title ${HOSTILE}`, fp: '0123456789abcdef', algo: 'dr1' },
      { url: 'https://a.example/2', title: 'Plain', fp: '0123456789abcdee', algo: 'dr1' },
    ];
    const r = await run('scan', file('hostile-export.json', JSON.stringify({ format: 'deja-read-history', version: 1, pages })));
    expect(r.code).toBe(0);
    expect(r.out).toContain('Plain');
    expect(r.out).toContain('Title \\u{1b}]0;pwned\\u{7}');
    expect(r.out).not.toMatch(UNSAFE);
  });

  it('whatsnew shows a new passage of a text file or a page with its control characters escaped', async () => {
    const added = `A new sentence with ${HOSTILE} inside it.`;
    for (const [old, fresh] of [
      [file('old.txt', prose.slice(0, 3).join('\n\n')), file('new.txt', [...prose.slice(0, 3), added].join('\n\n'))],
      [file('old.html', articleHtml('en', prose.slice(0, 3))), file('new.html', articleHtml('en', [...prose.slice(0, 3), added]))],
    ]) {
      const r = await run('whatsnew', old, fresh);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/1 of \d+ passages are new:\n\n\+ A new sentence with \\u\{1b\}/);
      expect(r.out).not.toMatch(UNSAFE);
    }
  }, 30_000);

  it('whatsnew shows a passage of a Windows text file (CR LF line ends) as its lines', async () => {
    const crlf = (ps: string[]) => ps.map((p) => p.replace(/, /g, ',\r\n')).join('\r\n\r\n');
    const r = await run('whatsnew', file('old-crlf.txt', crlf(prose.slice(0, 2))), file('new-crlf.txt', crlf([...prose.slice(0, 2), 'Later, the library opened a second branch in a former bank on the square.'])));
    expect(r.code).toBe(0);
    expect(r.out).toContain('+ Later,\nthe library');
    expect(r.out).not.toContain('\\u{d}');
  });

  it("fingerprint shows a page's declared language with its control characters escaped", async () => {
    const r = await run('fingerprint', file('hostile-lang.html', articleHtml(HOSTILE, prose)));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^[0-9a-f]{16} {2}/);
    expect(r.out).not.toMatch(UNSAFE);
  }, 30_000);

  it('does not quote a file\'s bytes back in a "not valid JSON" message', async () => {
    const r = await run('scan', file('escapes.json', `${HOSTILE} not json`));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/escapes\.json: not valid JSON/);
    expect(r.err).not.toMatch(UNSAFE);
  });
});

describe('cli scan', () => {
  it("links every pair within the decision's distance (7 bits), not only pairs that share a 16-bit block", async () => {
    const pages = [
      { url: 'https://a.example/base', title: 'base', fp: '0000000000000000', algo: 'dr1' },
      // 4 bits from base, one in each block: no block in common.
      { url: 'https://a.example/d4', title: 'distance 4', fp: '0001000100010001', algo: 'dr1' },
      // 7 bits from base, 3 from d4's nearest block… and 8 from nothing else.
      { url: 'https://a.example/d7', title: 'distance 7', fp: '000000000000007f', algo: 'dr1' },
      // 8 bits from base (two in each block), 4 from d4: in the group through d4.
      { url: 'https://a.example/d8', title: 'distance 8', fp: '0003000300030003', algo: 'dr1' },
    ];
    const r = await run('scan', file('pigeonhole.json', JSON.stringify({ format: 'deja-read-history', version: 1, pages })), '--json');
    expect(r.code).toBe(0);
    const result = JSON.parse(r.out) as { clusters: Array<Array<{ url: string }>> };
    expect(result.clusters.map((c) => c.map((p) => p.url).sort())).toEqual([['https://a.example/base', 'https://a.example/d4', 'https://a.example/d7', 'https://a.example/d8']]);
  });
});

describe('cli: files and options of the wrong kind', () => {
  it('refuses a file by its type before reading it, and names UTF-16 text as such', async () => {
    const pdf = await run('fingerprint', file('report.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n%'), Buffer.from([0xe2, 0xe3, 0xcf, 0xd3, 0x0a, 0x00, 0x01])])));
    expect([pdf.code, pdf.err]).toEqual([2, expect.stringMatching(/report\.pdf: unsupported file type "\.pdf"/)]);
    const utf16 = await run('fingerprint', file('utf16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(prose.join('\n\n'), 'utf16le')])));
    expect([utf16.code, utf16.err]).toEqual([2, expect.stringMatching(/utf16\.txt: UTF-16 text \(save it as UTF-8\)/)]);
  });

  it('whatsnew says a page has no article rather than reporting everything new', async () => {
    const r = await run('whatsnew', file('empty.html', ''), page('enA'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/empty\.html: no article found/);
    expect(r.out).toBe('');
  }, 30_000);

  it('names an option it does not know, without taking the file after it as its value', async () => {
    const txt = file('plain.txt', prose.join('\n\n'));
    for (const args of [['fingerprint', txt, '--JSON'], ['fingerprint', '--jsno', txt], ['scan', txt, '--sensitivity', 'strict']]) {
      const r = await run(...args);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`${args[0]} has no option ${args.find((a) => a.startsWith('--'))}`));
    }
    expect((await run('fingerprint', txt, '--json')).code).toBe(0);
    expect((await run('help', '--json')).code).toBe(0);
  });
});

describe('cli bench: a corpus is read as any file is', () => {
  const corpus = (docsJsonl: string, docs: Record<string, string | Buffer>, pairs = '') => {
    const root = mkdtempSync(join(dir, 'corpus-'));
    mkdirSync(join(root, 'docs'));
    for (const [name, content] of Object.entries(docs)) writeFileSync(join(root, 'docs', name), content);
    writeFileSync(join(root, 'docs.jsonl'), docsJsonl);
    writeFileSync(join(root, 'pairs.jsonl'), pairs);
    return root;
  };
  const line = (id: string) => JSON.stringify({ id, path: `docs/${id}.txt`, lang: 'en', group: 'g' });

  it('takes a docs.jsonl with a byte order mark, names a line that is not an object, refuses a binary document', async () => {
    const bom = await run('bench', '--corpus', corpus(`\ufeff${line('a')}\n${line('b')}\n`, { 'a.txt': prose.join('\n\n'), 'b.txt': prose.slice(1).join('\n\n') }), '--json');
    expect([bom.code, bom.err]).toEqual([0, '']);
    const nullDoc = await run('bench', '--corpus', corpus('null\n', { 'a.txt': prose.join('\n\n') }));
    expect([nullDoc.code, nullDoc.err]).toEqual([2, expect.stringMatching(/docs\.jsonl:1: not a JSON object/)]);
    const nullPair = await run('bench', '--corpus', corpus(`${line('a')}\n`, { 'a.txt': prose.join('\n\n') }, 'null\n'));
    expect([nullPair.code, nullPair.err]).toEqual([2, expect.stringMatching(/pairs\.jsonl:1: not a JSON object/)]);
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0xff, 0xfe, 0x00, 0x00]);
    const binary = await run('bench', '--corpus', corpus(`${line('a')}\n${line('b')}\n`, { 'a.txt': elf, 'b.txt': prose.join('\n\n') }, JSON.stringify({ a: 'a', b: 'b', label: 'duplicate' })), '--json');
    expect([binary.code, binary.err]).toEqual([2, expect.stringMatching(/a\.txt: not a text file \(it holds NUL bytes\) \(listed in docs\.jsonl\)/)]);
  }, 30_000);
});
