// One record per page: every variant of a page's address (tracking parameters, fragment, host case,
// default port) reaches the same record, through the store, the background's messages and imports.
import { describe, expect, it } from 'vitest';
import { digestArticle, encodePassages } from '../../src/core';
import { exportHistory, importHistory as importWith } from '../../src/options/history-transfer';
import { readOnThread } from '../../src/options/check-in-worker';
import { buildExport, openDejaReadDB, PageRepository, type PageRecord, type Visit } from '../../src/storage';
import { loadArticle } from '../e2e/site';
import { everyPage, fromTab, makeBackground } from './helpers';

const PAGE = 'https://news.example/story?id=7';
const VARIANTS = [
  'https://news.example/story?id=7&utm_source=newsletter&utm_medium=email&utm_campaign=spring',
  'https://news.example/story?fbclid=IwAR0abc&id=7',
  'https://news.example/story?id=7&gclid=Cj0KCQ',
  'https://news.example/story?id=7#comments',
  'HTTPS://NEWS.Example/story?id=7',
  'https://news.example:443/story?id=7',
  'https://reader:secret@news.example/story?id=7',
];

const visit = (url: string, title = 'Story', fp = '0123456789abcdef'): Visit => ({ url, title, fp, algo: 'dr1', textLength: 500, lang: 'en' });
const repo = async () => new PageRepository(await openDejaReadDB());

describe('one record per page in the store', () => {
  it('records visits to every variant of an address on one record, kept under the page identity', async () => {
    const r = await repo();
    await r.recordVisit(visit(PAGE, 'First'), 1000);
    for (const [i, url] of VARIANTS.entries()) await r.recordVisit(visit(url, `Visit ${i}`), 2000 + i);
    expect(await r.count()).toBe(1);
    const record = await r.get(PAGE);
    expect(record).toMatchObject({ url: PAGE, canonicalUrl: PAGE, site: 'news.example', visits: 1 + VARIANTS.length, firstSeen: 1000, lastSeen: 2000 + VARIANTS.length - 1, title: `Visit ${VARIANTS.length - 1}` });
    // Any variant finds it; the address kept carries neither the reader's click ids nor credentials.
    for (const url of VARIANTS) expect((await r.get(url))?.url).toBe(PAGE);
    expect((await everyPage(r)).map((p) => p.url)).toEqual([PAGE]);
  });

  it('keeps different pages apart: another query value, another host', async () => {
    const r = await repo();
    for (const url of [PAGE, 'https://news.example/story?id=8', 'https://www.news.example/story?id=7']) await r.recordVisit(visit(url), 1);
    expect(await r.count()).toBe(3);
  });

  it('keeps one record of a page read over http and over https, under the address read last', async () => {
    const r = await repo();
    await r.recordVisit(visit('http://news.example/story?id=7'), 1);
    await r.recordVisit(visit(PAGE), 2);
    expect(await r.count()).toBe(1);
    expect(await r.get(PAGE)).toMatchObject({ url: PAGE, visits: 2, firstSeen: 1, lastSeen: 2 });
    await r.recordVisit(visit('http://news.example/story?id=7&utm_source=feed'), 3);
    expect(await r.get('http://news.example/story?id=7')).toMatchObject({ visits: 3 });
    expect(await r.count()).toBe(1);
  });

  it("keeps a single-page app's routes apart (#/story/1, #!/story/2), and drops a place in the page", async () => {
    const r = await repo();
    const app = 'https://app.example/';
    for (const url of [`${app}#/story/1`, `${app}#!/story/2`, `${app}#/story/1?utm_source=x`, `${app}#/story/1`, `${app}#top`, app]) await r.recordVisit(visit(url), 1);
    expect((await r.get(`${app}#/story/1`))?.visits).toBe(2);
    expect((await r.get(`${app}#!/story/2`))?.visits).toBe(1);
    expect((await r.get(app))?.visits).toBe(2);
    expect(await r.count()).toBe(4);
  });

  it('counts every visit once when two variants are recorded at the same time from many tabs', async () => {
    const r = await repo();
    await Promise.all(Array.from({ length: 20 }, (_, i) => r.recordVisit({ ...visit(VARIANTS[i % 2]), visitId: `visit-${String(i).padStart(4, '0')}` }, 1000 + i)));
    expect(await r.count()).toBe(1);
    expect(await r.get(PAGE)).toMatchObject({ visits: 20, firstSeen: 1000, lastSeen: 1019 });
    // A retried visit is recognised whichever variant it comes back by.
    await r.recordVisit({ ...visit(VARIANTS[3]), visitId: 'visit-0019' }, 5000);
    expect(await r.get(PAGE)).toMatchObject({ visits: 20, lastSeen: 1019 });
  });

  it('forgets a page and remembers "not the same" by any variant of its address', async () => {
    const r = await repo();
    await r.recordVisit(visit(PAGE), 1);
    await r.recordVisit(visit('https://copy.example/a'), 2);
    await r.dismiss(VARIANTS[0], 'https://copy.example/a#top', 3);
    expect(await r.isDismissed('https://copy.example/a?utm_source=x', VARIANTS[3])).toBe(true);
    expect(await r.isDismissed(PAGE, 'https://copy.example/b')).toBe(false);
    expect(await r.forget(VARIANTS[1])).toBe(true);
    expect(await r.get(PAGE)).toBeUndefined();
    expect(await r.count()).toBe(1);
  });

  it('leaves the page itself out of lookups by any variant of its address', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit(PAGE), passages: encodePassages({ count: 2, hashes: Uint32Array.of(1, 2), bits: 32 }) }, 1);
    expect(await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 3, excludeUrl: VARIANTS[2] })).toEqual([]);
    expect(await r.findByAnchors([1], { algo: 'dr1', excludeUrl: VARIANTS[3] })).toEqual([]);
  });
});

const en = loadArticle('en-library');
const text = en.paragraphs.join('\n\n');
const report = (url: string, extra: Record<string, unknown> = {}) => ({ url, title: en.title, digest: digestArticle(text), lang: 'en', ...extra });

describe('one record per page through the background', () => {
  it('shows a variant as a revisit, never as a copy of itself, and counts it on the one record', async () => {
    const bg = makeBackground();
    await bg.read(report(PAGE));
    for (const url of VARIANTS.slice(0, 4)) {
      const v = await bg.read(report(url), fromTab(1, url));
      expect(v, url).toMatchObject({ visitedBefore: true, matches: [] });
    }
    // Even when the variant now declares a canonical address the first visit did not.
    const declared = await bg.read(report(VARIANTS[0], { canonical: ['https://news.example/stories/7'] }), fromTab(1, VARIANTS[0]));
    expect(declared).toMatchObject({ visitedBefore: true, matches: [] });
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 1 });
    expect(await (await bg.repository).get(PAGE)).toMatchObject({ visits: 6 });
    // The history lists it once.
    const listed = await bg.call('history:list', { query: '', limit: 50 });
    expect(listed.items.map((i) => [i.url, i.visits, i.copies.length])).toEqual([[PAGE, 6, 0]]);
  });

  it('answers the popup for a tab showing a variant with that page, and forgets it from there', async () => {
    const tabUrl = VARIANTS[3];
    const checked = report(tabUrl);
    const bg = makeBackground({ 4: { url: tabUrl, page: { ...checked, fp: checked.digest.fp } } });
    await bg.read(report(PAGE));
    await bg.read(report('https://copy.example/story'), fromTab(2, 'https://copy.example/story'));
    await bg.read(report(tabUrl), fromTab(4, tabUrl));
    const status = await bg.handlers['popup:tabStatus']({ tabId: 4 }, { id: 'ext' });
    expect(status.state === 'checked' && [status.visitedBefore, status.matches.map((m) => m.url)]).toEqual([true, ['https://copy.example/story']]);
    // The popup forgets the page in the tab: its one record, whichever address the tab shows.
    expect(await bg.call('popup:forgetPage', { url: tabUrl })).toMatchObject({ forgotten: true });
    expect(await (await bg.repository).get(PAGE)).toBeUndefined();
    expect(await bg.call('options:stats', {})).toMatchObject({ pages: 1 });
  });

  it('remembers "not the same" said on a variant for the page itself', async () => {
    const bg = makeBackground();
    await bg.read(report('https://a.example/1'), fromTab(1, 'https://a.example/1'));
    const variant = 'https://b.example/2?utm_source=feed#top';
    expect((await bg.read(report(variant), fromTab(2, variant))).matches.map((m) => m.url)).toEqual(['https://a.example/1']);
    await bg.handlers['content:notSame']({ other: 'https://a.example/1?fbclid=x' }, fromTab(2, variant));
    expect((await bg.read(report('https://b.example/2'), fromTab(2, 'https://b.example/2'))).matches).toEqual([]);
  });

  it("does not let a page merge itself into another page's record by the canonical address it declares", async () => {
    const bg = makeBackground();
    await bg.read(report('https://forum.example/news/1'), fromTab(1, 'https://forum.example/news/1'));
    const before = await (await bg.repository).get('https://forum.example/news/1');
    const hostile = 'https://forum.example/users/mallory/post';
    const other = loadArticle('en-balcony');
    await bg.read({ url: hostile, title: 'Mallory', digest: digestArticle(other.paragraphs.join('\n\n')), lang: 'en', canonical: ['https://forum.example/news/1'] }, fromTab(2, hostile));
    const repo = await bg.repository;
    expect(await repo.get('https://forum.example/news/1')).toEqual(before);
    expect(await repo.get(hostile)).toMatchObject({ title: 'Mallory', visits: 1, canonicalUrl: 'https://forum.example/news/1' });
  });
});

describe('one record per page in imports and exports', () => {
  const NOW = Date.UTC(2026, 0, 15);
  const page = (url: string, firstSeen: number, lastSeen: number, visits: number, title = 'T', fp = '0123456789abcdef'): PageRecord => ({
    url,
    canonicalUrl: url,
    site: 'news.example',
    title,
    fp,
    b0: parseInt(fp.slice(0, 4), 16),
    b1: parseInt(fp.slice(4, 8), 16),
    b2: parseInt(fp.slice(8, 12), 16),
    b3: parseInt(fp.slice(12, 16), 16),
    algo: 'dr1',
    textLength: 300,
    lang: 'en',
    firstSeen,
    lastSeen,
    visits,
  });
  const file = (pages: PageRecord[]) => new Blob([JSON.stringify(buildExport(pages, new Date(NOW)))]);
  const importHistory = (bg: ReturnType<typeof makeBackground>, blob: Blob) => importWith(bg.call, blob, () => undefined, readOnThread);

  it('merges records of one page in a file as visits would, under its identity', async () => {
    const bg = makeBackground();
    const result = await importHistory(bg, file([page(VARIANTS[0], 100, 500, 2, 'Old'), page('https://other.example/', 1, 2, 1), page(VARIANTS[3], 50, 900, 3, 'New', 'fedcba9876543210')]));
    expect(result).toEqual({ state: 'imported', pages: 2, outcome: { added: 2, merged: 0, unchanged: 0 } });
    const pages = await everyPage(await bg.repository);
    expect(pages.map((p) => [p.url, p.canonicalUrl, p.visits, p.firstSeen, p.lastSeen, p.title, p.fp, p.b0])).toEqual([
      [PAGE, PAGE, 5, 50, 900, 'New', 'fedcba9876543210', 0xfedc],
      ['https://other.example/', 'https://other.example/', 1, 1, 2, 'T', '0123456789abcdef', 0x0123],
    ]);
  });

  it('keeps one record, its visits counted once, when a file repeats a record exactly, in one chunk or two', async () => {
    for (const chunk of [5000, 1]) {
      const bg = makeBackground();
      const one = page('https://other.example/', 1, 2, 4);
      const result = await importWith(bg.call, file([one, one]), () => undefined, (f, _chunk, progress) => readOnThread(f, chunk, progress));
      expect(result.state === 'imported' && result.pages).toBe(1);
      expect((await everyPage(await bg.repository)).map((p) => [p.url, p.visits])).toEqual([['https://other.example/', 4]]);
    }
  });

  it('merges a record of a variant into the page already stored, and exports the identity', async () => {
    const bg = makeBackground();
    await bg.read(report(VARIANTS[4]), fromTab(1, PAGE));
    const stored = await (await bg.repository).get(PAGE);
    expect(stored?.url).toBe(PAGE);
    const result = await importHistory(bg, file([page(VARIANTS[0], 10, 20, 4), page(VARIANTS[5], 5, 30, 1), page('https://new.example/', 1, 2, 1)]));
    expect(result).toEqual({ state: 'imported', pages: 2, outcome: { added: 1, merged: 1, unchanged: 0 } });
    expect(await (await bg.repository).get(PAGE)).toMatchObject({ url: PAGE, visits: 6, firstSeen: 5, lastSeen: stored?.lastSeen, title: en.title });
    const { blob } = await exportHistory(bg.call, 'json', () => undefined);
    const exported = JSON.parse(await blob.text()) as { pages: PageRecord[] };
    // In the order the pages were first recorded.
    expect(exported.pages.map((p) => [p.url, p.visits])).toEqual([
      [PAGE, 6],
      ['https://new.example/', 1],
    ]);
  });

  it('changes nothing, all or nothing, when a file of variants has a bad record', async () => {
    const bg = makeBackground();
    await bg.read(report(PAGE));
    const before = await everyPage(await bg.repository);
    const result = await importHistory(bg, file([page(VARIANTS[0], 10, 20, 4), { ...page(VARIANTS[1], 10, 20, 1), visits: 0 }]));
    expect(result.state).toBe('invalid');
    expect(await everyPage(await bg.repository)).toEqual(before);
  });

  it('applies a chunk staged with addresses as written (by version 4) one record per page', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    await r.recordVisit(visit(PAGE), 1000);
    // The import's run, then its chunk as version 4 staged it: records with addresses as written.
    await r.imports.stage('import-v4-staged', 0, [], 2000);
    await db.put('staging', { importId: 'import-v4-staged', seq: 0, pages: [page(VARIANTS[0], 10, 20, 2), page(VARIANTS[3], 15, 40, 3), page('https://x.example/?utm_source=y', 1, 2, 1)] });
    const step = await r.imports.commit('import-v4-staged', 'a'.repeat(64), 1, 3, 2000, 60_000);
    expect(step).toMatchObject({ done: true, outcome: { added: 1, merged: 1, unchanged: 0 } });
    expect((await everyPage(r)).map((p) => [p.url, p.visits, p.firstSeen])).toEqual([
      [PAGE, 6, 10],
      ['https://x.example/', 1, 1],
    ]);
  });
});
