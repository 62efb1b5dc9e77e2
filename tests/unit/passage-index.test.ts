// The passage index end to end below the browser: the schema step that adds it, bounded lookups,
// its field in history files, and the background finding a preview and the full article from
// each other at different URLs, where the fingerprints are too far apart for the block index.
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { ALGORITHM, ANCHOR_COUNT, anchorsOf, PROBE_COUNT, digestArticle, encodePassages, encodeSentPassages, fingerprint, hamming, pagePassages, passageSignature } from '../../src/core';
import { buildExport, DB_NAME, openDejaReadDB, PageRepository, validateHistoryFile, type PageRecord } from '../../src/storage';
import { loadArticle } from '../e2e/site';
import { filler, quotedInPage, QUOTED_IN_PAGE, variedFiller } from '../fixtures/filler';
import { fromTab, makeBackground } from './helpers';
import { english } from './messages';

const article = (name: string) => loadArticle(name);
const text = (ps: string[]) => ps.join('\n\n');

describe('schema version 4', () => {
  it('opens a version 3 database with every record intact, old records still found by fingerprint, new ones by passage anchors', async () => {
    // Version 3 as released: pages with seven indexes, dismissals, imports, staging and import runs.
    const v3 = await openDB(DB_NAME, 3, {
      upgrade(db) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen', 'canonicalUrl', 'textHash']) pages.createIndex(name, name);
        db.createObjectStore('dismissals', { keyPath: 'pair' });
        db.createObjectStore('imports', { keyPath: 'digest' });
        db.createObjectStore('staging', { keyPath: ['importId', 'seq'] });
        db.createObjectStore('importRuns', { keyPath: 'importId' });
      },
    });
    const old = { url: 'https://a.example/1', canonicalUrl: 'https://a.example/1', site: 'a.example', title: 'Old', fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 400, lang: 'en', firstSeen: 1, lastSeen: 2, visits: 3 };
    await v3.put('pages', old);
    v3.close();

    const r = new PageRepository(await openDejaReadDB());
    expect(await r.get(old.url)).toEqual(old);
    expect((await r.findSimilar(old.fp, { algo: 'dr1', maxDistance: 3 })).map((p) => p.url)).toEqual([old.url]);
    const sig = passageSignature(text(article('en-bridges').paragraphs));
    await r.recordVisit({ url: 'https://b.example/2', title: 'New', fp: 'fedcba9876543210', algo: 'dr1', textLength: 400, lang: 'en', passages: encodePassages(sig) }, 10);
    expect((await r.findByAnchors(anchorsOf(sig).slice(-1), { algo: 'dr1' })).map((p) => p.url)).toEqual(['https://b.example/2']);
  });
});

describe('passage index lookups', () => {
  it('returns pages sharing an anchor, most shared first, skips anchors too many pages share, and caps the candidates', async () => {
    const r = new PageRepository(await openDejaReadDB());
    // Pages whose passage signatures hold just these hashes (their anchors).
    const page = (i: number, anchors: number[]) => r.recordVisit({ url: `https://s.example/${i}`, title: `${i}`, fp: '0123456789abcdef', algo: 'dr1', textLength: 400, lang: 'en', passages: encodePassages({ count: anchors.length, hashes: Uint32Array.from(anchors), bits: 32 }) }, i);
    await page(1, [10, 20, 30]);
    await page(2, [10, 40]);
    for (let i = 3; i < 40; i++) await page(i, [99, 1000 + i]);
    expect((await r.findByAnchors([10, 20], { algo: 'dr1' })).map((p) => p.url)).toEqual(['https://s.example/1', 'https://s.example/2']);
    expect((await r.findByAnchors([10, 20], { algo: 'dr1', excludeUrl: 'https://s.example/1' })).map((p) => p.url)).toEqual(['https://s.example/2']);
    // 37 pages share anchor 99: boilerplate, not a lead; their own anchors still find them.
    expect(await r.findByAnchors([99], { algo: 'dr1' })).toEqual([]);
    expect((await r.findByAnchors([99, 1005], { algo: 'dr1' })).map((p) => p.url)).toEqual(['https://s.example/5']);
    const many = Array.from({ length: 30 }, (_, k) => 1003 + k);
    expect(await r.findByAnchors(many, { algo: 'dr1', max: 5 })).toHaveLength(5);
    expect(await r.findByAnchors([10], { algo: 'dr0' })).toEqual([]);
  });
});

describe('passage signatures in history files', () => {
  const NOW = Date.UTC(2026, 10, 21);
  const sig = passageSignature(text(article('en-library').paragraphs));
  const page = (extra: Partial<PageRecord>): PageRecord => ({ url: 'https://news.example/a', canonicalUrl: 'https://news.example/a', site: 'news.example', title: 'A', fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: ALGORITHM, textLength: 420, lang: 'en', firstSeen: NOW - 5000, lastSeen: NOW - 1000, visits: 2, ...extra });
  const file = (pages: PageRecord[]) => JSON.stringify(buildExport(pages, new Date(NOW)));

  it('exports the signature, not the index entries, and an imported page is found through its anchors again', async () => {
    const exported = buildExport([page({ passages: encodePassages(sig) })], new Date(NOW));
    expect(Object.keys(exported.pages[0])).toEqual(['url', 'canonicalUrl', 'site', 'title', 'fp', 'b0', 'b1', 'b2', 'b3', 'algo', 'passages', 'textLength', 'lang', 'firstSeen', 'lastSeen', 'visits']);
    const v = validateHistoryFile(JSON.stringify(exported), NOW);
    expect(v.ok).toBe(true);
    if (!v.ok) return;
    const r = new PageRepository(await openDejaReadDB());
    await r.imports.stage('import-sig', 0, v.pages, NOW);
    expect(await r.imports.commit('import-sig', 'a'.repeat(64), 1, 1, NOW, 60_000)).toMatchObject({ done: true, outcome: { added: 1 } });
    expect((await r.findByAnchors(anchorsOf(sig).slice(-1), { algo: ALGORITHM })).map((p) => p.url)).toEqual(['https://news.example/a']);
  });

  it.each([
    ['not base64', 'not base64!'],
    ['cut short', encodePassages(sig).slice(0, 12)],
    ['another version', `C${encodePassages(sig).slice(1)}`],
    ['not a string', 42 as unknown as string],
  ])('refuses a signature that is %s, naming the page and the field', (_, passages) => {
    const v = validateHistoryFile(file([page({ url: 'https://news.example/ok' }), page({ passages })]), NOW);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(english(v.error)).toMatch(/^Page 2: "passages" cannot be read: it must be the passage signature/);
  });
});

describe('a preview and the full article at different URLs', () => {
  it.each(['en-bridges', 'zh-library'])('%s: the full article after its preview, and a preview after the full article, are flagged with what holds what', async (name) => {
    const a = article(name);
    const preview = text(a.paragraphs.slice(0, 2));
    const full = text(a.paragraphs);
    // Too far apart for the block index: only the passage index can bring them together.
    expect(hamming(fingerprint(preview), fingerprint(full))).toBeGreaterThan(7);
    const report = (url: string, t: string) => ({ url, title: a.title, digest: digestArticle(t), lang: a.lang });

    const bg = makeBackground();
    await bg.read(report('https://teaser.example/preview', preview), fromTab(1, 'https://teaser.example/preview'));
    const later = await bg.read(report('https://news.example/full', full), fromTab(2, 'https://news.example/full'));
    expect(later.matches.map((m) => [m.url, m.kind])).toEqual([['https://teaser.example/preview', 'contains-earlier']]);

    const reverse = makeBackground();
    await reverse.read(report('https://news.example/full', full), fromTab(1, 'https://news.example/full'));
    const teaser = await reverse.read(report('https://teaser.example/preview', preview), fromTab(2, 'https://teaser.example/preview'));
    expect(teaser.matches.map((m) => [m.url, m.kind])).toEqual([['https://news.example/full', 'part-of-earlier']]);
    expect(teaser.matches[0].read).toBe(1);
  });

  it.each(['en-library', 'zh-library'])('%s: an article read first is found inside a page with fifteen times its passages', async (name) => {
    const a = text(article(name).paragraphs);
    const page = `${filler(150, 5)}\n\n${a}\n\n${filler(150, 105)}`;
    // None of the page's twelve smallest passages is the article's: only its other passages can find the article.
    expect(passageSignature(page).hashes.subarray(0, ANCHOR_COUNT).some((h) => passageSignature(a).hashes.includes(h))).toBe(false);
    const bg = makeBackground();
    await bg.read({ url: 'https://news.example/story', title: 'The story', digest: digestArticle(a), lang: name.slice(0, 2) });
    const thread = { url: 'https://forum.example/thread/9', title: 'A thread', digest: digestArticle(page), lang: 'en' };
    const later = await bg.read(thread);
    expect(later.matches.map((m) => [m.url, m.kind])).toEqual([['https://news.example/story', 'contains-earlier']]);
    // A background started anew (no leads in memory: Chrome stops an idle worker) tells the same, so the popup agrees with the badge.
    bg.restart();
    await bg.handlers['content:pageSeen'](thread, fromTab(2, thread.url));
    expect(bg.shown.at(-1)?.[1].matches.map((m) => [m.url, m.kind])).toEqual([['https://news.example/story', 'contains-earlier']]);
  });

  it.each(QUOTED_IN_PAGE)('%s: a page read first is found from an article it holds, with eight times its passages, warm and cold', async (lang, words, seed) => {
    const { article: a, page } = quotedInPage(words, seed);
    // None of the page's twelve smallest passages is the article's: the article's smallest, asked of
    // the index, meets the page's entry only as a hash below a sixteenth of the range (anchorCount).
    expect(passageSignature(page).hashes.subarray(0, ANCHOR_COUNT).some((h) => passageSignature(a).hashes.includes(h))).toBe(false);
    expect(anchorsOf(passageSignature(page)).length).toBeGreaterThan(ANCHOR_COUNT);
    const bg = makeBackground();
    await bg.read({ url: 'https://forum.example/thread/9', title: 'A thread', digest: digestArticle(page), lang: lang === 'English' ? 'en' : 'zh' });
    const story = { url: 'https://news.example/story', title: 'The story', digest: digestArticle(a), lang: lang === 'English' ? 'en' : 'zh' };
    const found = (await bg.read(story)).matches;
    expect(found.map((m) => m.url)).toEqual(['https://forum.example/thread/9']);
    expect(found[0].read).toBeGreaterThan(0.95);
    bg.restart();
    await bg.handlers['content:pageSeen'](story, fromTab(2, story.url));
    expect(bg.shown.at(-1)?.[1].matches.map((m) => m.url)).toEqual(['https://forum.example/thread/9']);
  });

  // Seeds at which the page's signature keeps too few of the article's passages to tell (as in passages.test.ts).
  it.each([
    ['en-bridges', 'en', 5],
    ['zh-library', 'zh', 2],
  ] as const)('%s: an article read first is found in a page thirty times as long read after it, by the passages its content script sends, in the notice and the popup alike', async (name, lang, seed) => {
    const a = text(article(name).paragraphs);
    const page = `${variedFiller(300, seed, lang)}\n\n${a}\n\n${variedFiller(300, seed + 100, lang)}`;
    const thread = { url: 'https://forum.example/thread/9', title: 'A thread', digest: digestArticle(page), lang };
    // As the content script reports a page: its digest, and every passage as hashes.
    const sent = { ...thread, passages: encodeSentPassages(pagePassages(page)) };
    const bg = makeBackground({ 2: { url: thread.url, page: { ...sent, fp: sent.digest.fp } } });
    await bg.read({ url: 'https://news.example/story', title: 'The story', digest: digestArticle(a), lang });
    // The digest alone keeps too few of the page's passages to tell the article is in it.
    expect((await bg.handlers['content:pageSeen'](thread, fromTab(2, thread.url))).match).toBeUndefined();
    const answer = await bg.handlers['content:pageSeen'](sent, fromTab(2, thread.url));
    expect(answer.match).toMatchObject({ url: 'https://news.example/story', kind: 'contains-earlier', containment: 1 });
    expect(bg.shown.at(-1)?.[1].matches.map((m) => m.url)).toEqual(['https://news.example/story']);
    const popup = await bg.handlers['popup:tabStatus']({ tabId: 2 }, { id: 'ext' });
    expect(popup.state === 'checked' && popup.matches.map((m) => [m.url, m.kind])).toEqual([['https://news.example/story', 'contains-earlier']]);
    // Once it is read, the history lists the thread with the article among its copies: its read set holds all its passages.
    await bg.handlers['content:pageRead'](sent, fromTab(2, thread.url));
    const { items } = await bg.call('history:list', { limit: 10 });
    expect(items.map((i) => i.url)).toEqual([thread.url, 'https://news.example/story']);
    expect(items[0].copies.map((c) => [c.url, c.kind])).toEqual([['https://news.example/story', 'contains-earlier']]);
  });

  it('gives a long page recorded when only its twelve smallest passages were indexed the others at its next visit', async () => {
    const { article: a, page } = quotedInPage(filler, 5);
    const sig = passageSignature(page);
    const probes = anchorsOf(passageSignature(a)).slice(0, PROBE_COUNT);
    const visit = { url: 'https://forum.example/thread/9', title: 'A thread', fp: fingerprint(page), algo: ALGORITHM, textLength: 4000, lang: 'en', passages: encodePassages(sig) };
    const db = await openDejaReadDB();
    await new PageRepository(db).recordVisit(visit, 1);
    // The index as a store before November 2026 wrote it: the page's entries past its twelfth taken out.
    const later = new Set(anchorsOf(sig).slice(ANCHOR_COUNT));
    const tx = db.transaction('anchors', 'readwrite');
    for (let c = await tx.store.openCursor(); c; c = await c.continue()) {
      const run = c.value as Uint32Array;
      const kept: number[] = [];
      for (let i = 0; i < run.length; i += 2) if (!later.has(run[i])) kept.push(run[i], run[i + 1]);
      await c.update(Uint32Array.from(kept));
    }
    await tx.done;
    expect(await new PageRepository(db).findByAnchors(probes, { algo: ALGORITHM })).toEqual([]);
    const r = new PageRepository(db);
    await r.recordVisit(visit, 2);
    expect((await r.findByAnchors(probes, { algo: ALGORITHM })).map((p) => [p.url, p.visits])).toEqual([[visit.url, 2]]);
  });

  it('does not bring an unrelated article through the passage index', async () => {
    const bg = makeBackground();
    await bg.read({ url: 'https://a.example/1', title: 'A', digest: digestArticle(text(article('en-library').paragraphs)), lang: 'en' });
    expect((await bg.read({ url: 'https://a.example/2', title: 'B', digest: digestArticle(text(article('en-bridges').paragraphs)), lang: 'en' })).matches).toEqual([]);
  });
});
