import { openDB } from 'idb';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { everyPage } from './helpers';
import { ABANDONED_STAGING_MS, CHUNKS_PER_APPLY, DB_NAME, ImportIncompleteError, type Forgotten, type ListCursor, openDejaReadDB, PageRepository, type PageRecord, type Visit } from '../../src/storage';
import { StorageFullError } from '../../src/storage/errors';

const visit = (url: string, fp: string, title = url): Visit => ({ url, title, fp, algo: 'dr1', textLength: 500, lang: 'en' });

async function repo(): Promise<PageRepository> {
  return new PageRepository(await openDejaReadDB());
}

describe('PageRepository: recording and finding', () => {
  it('records a visit with its fingerprint blocks, site and canonical URL', async () => {
    const r = await repo();
    const { record, previous } = await r.recordVisit(visit('https://www.a.example/1', '0123456789abcdef', 'A'), 1000);
    expect(previous).toBeUndefined();
    expect(record).toMatchObject({ b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, visits: 1, firstSeen: 1000, lastSeen: 1000, site: 'a.example', canonicalUrl: 'https://www.a.example/1' });
    expect(await r.get('https://www.a.example/1')).toEqual(record);
    expect(await r.count()).toBe(1);
  });

  it('counts a revisit of the same URL on the same record, keeping firstSeen', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 1000);
    const again = await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 5000);
    expect(again.previous?.visits).toBe(1);
    expect(again.record).toMatchObject({ visits: 2, firstSeen: 1000, lastSeen: 5000 });
    expect(await r.count()).toBe(1);
  });

  it('counts a visit sent again once, and takes the article of the same visit that the page replaced at its address, without counting it again', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit('https://live.example/p', '0123456789abcdef', 'First'), textHash: 'aaaaaaaaaaaaaaaa', visitId: 'load-1' }, 1000);
    // Its answer was lost: sent again, nothing changes.
    expect(await r.recordVisit({ ...visit('https://live.example/p', '0123456789abcdef', 'First'), textHash: 'aaaaaaaaaaaaaaaa', visitId: 'load-1' }, 2000)).toMatchObject({ repeated: true, record: { visits: 1, lastSeen: 1000 } });
    // The page showed another article in its place, in the same load.
    const replaced = await r.recordVisit({ ...visit('https://live.example/p', 'fedcba9876543210', 'Second'), textHash: 'bbbbbbbbbbbbbbbb', visitId: 'load-1' }, 3000);
    expect(replaced).toMatchObject({ repeated: true, record: { title: 'Second', fp: 'fedcba9876543210', visits: 1, firstSeen: 1000, lastSeen: 3000, visitIds: ['load-1'] } });
    expect(await r.get('https://live.example/p')).toMatchObject({ title: 'Second', visits: 1 });
    // The next load is another visit.
    expect((await r.recordVisit({ ...visit('https://live.example/p', 'fedcba9876543210', 'Second'), textHash: 'bbbbbbbbbbbbbbbb', visitId: 'load-2' }, 4000)).record.visits).toBe(2);
  });

  it('keeps one record when many tabs report the same URL at once', async () => {
    const r = await repo();
    await Promise.all(Array.from({ length: 20 }, (_, i) => r.recordVisit(visit('https://a.example/x', '0123456789abcdef'), 1000 + i)));
    expect(await r.count()).toBe(1);
    expect(await r.get('https://a.example/x')).toMatchObject({ visits: 20, firstSeen: 1000, lastSeen: 1019 });
  });

  it('finds pages within distance 3 through any one equal block, closest first', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/same', '0123456789abcdef'), 1);
    await r.recordVisit(visit('https://a.example/2bits', '0123456789abcdec'), 2); // differs in block 3 only
    await r.recordVisit(visit('https://a.example/3bits', '8123c56689abcdef'), 3); // 1 bit in b0, 2 bits in b1
    await r.recordVisit(visit('https://a.example/4bits', '0123456789abcde0'), 4); // 4 bits: too far
    await r.recordVisit(visit('https://a.example/far', 'fedcba9876543210'), 5);
    const found = await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 3, excludeUrl: 'https://a.example/same' });
    expect(found.map((p) => [p.url, p.distance])).toEqual([
      ['https://a.example/2bits', 2],
      ['https://a.example/3bits', 3],
    ]);
  });

  it('finds every page within distance 7, even when no 16-bit block is equal', async () => {
    const r = await repo();
    // 7 bits: four in block 0 and one in each other block: no block is equal.
    await r.recordVisit(visit('https://a.example/7', 'f123456689aacdee'), 1);
    await r.recordVisit(visit('https://a.example/11', 'ff22456689aacdee'), 1);
    const found = await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 7 });
    expect(found.map((p) => [p.url, p.distance])).toEqual([['https://a.example/7', 7]]);
    expect((await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 11 })).map((p) => [p.url, p.distance])).toEqual([['https://a.example/7', 7], ['https://a.example/11', 11]]);
  });

  it('never compares fingerprints of another algorithm version', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit('https://a.example/old', '0123456789abcdef'), algo: 'dr0' }, 1);
    expect(await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 3 })).toEqual([]);
  });

  it('compares a page recorded under dr1 with one of dr2, which differs only in Traditional Chinese', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit('https://a.example/before', '0123456789abcdef'), algo: 'dr1' }, 1);
    expect((await r.findSimilar('0123456789abcdef', { algo: 'dr2', maxDistance: 3 })).map((p) => p.url)).toEqual(['https://a.example/before']);
  });

  it('finds pages by canonical URL and by exact text hash', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit('https://m.a.example/p?utm_source=x', '0123456789abcdef'), canonicalUrl: 'https://a.example/p', textHash: '00000000000000aa' }, 1);
    expect((await r.findByCanonicalUrl('https://a.example/p')).map((p) => p.url)).toEqual(['https://m.a.example/p']);
    expect((await r.findByTextHash('00000000000000aa', '0123456789abcdef')).length).toBe(1);
    expect(await r.findByTextHash('00000000000000bb', '0123456789abcdef')).toEqual([]);
  });
});

describe('PageRepository: the pages of a site', () => {
  it('gives the last pages recorded on a site, www. or not, and none of another', async () => {
    const r = await repo();
    for (const url of ['https://a.example/1', 'https://www.a.example/2', 'https://b.example/1', 'https://a.example/3', 'https://sub.a.example/4']) await r.recordVisit(visit(url, '0123456789abcdef'), 1);
    expect((await r.pagesOfSite('a.example', 8)).map((p) => p.url)).toEqual(['https://a.example/3', 'https://www.a.example/2', 'https://a.example/1']);
    expect((await r.pagesOfSite('a.example', 2)).map((p) => p.url)).toEqual(['https://a.example/3', 'https://www.a.example/2']);
    expect(await r.pagesOfSite('c.example', 8)).toEqual([]);
    // A page forgotten is none of them.
    await r.forget('https://a.example/3');
    expect((await r.pagesOfSite('a.example', 2)).map((p) => p.url)).toEqual(['https://www.a.example/2', 'https://a.example/1']);
  });
});

describe('PageRepository: forgetting and listing', () => {
  it('forgets a page, a whole site, or everything', async () => {
    const r = await repo();
    for (const url of ['https://a.example/1', 'https://www.a.example/2', 'https://b.example/1']) await r.recordVisit(visit(url, '0123456789abcdef'), 1);
    expect(await r.forget('https://b.example/1')).toBe(true);
    expect(await r.forget('https://b.example/1')).toBe(false);
    expect(await r.forgetSite('a.example')).toBe(2);
    expect(await r.count()).toBe(0);
    await r.recordVisit(visit('https://c.example/1', '0123456789abcdef'), 1);
    await r.dismiss('https://c.example/1', 'https://d.example/1', 1);
    await r.clear();
    expect(await r.count()).toBe(0);
    expect(await r.isDismissed('https://d.example/1', 'https://c.example/1')).toBe(false);
  });

  it('remembers "not the same" for a pair in either order', async () => {
    const r = await repo();
    await r.dismiss('https://b.example/x', 'https://a.example/y', 5);
    expect(await r.isDismissed('https://a.example/y', 'https://b.example/x')).toBe(true);
    expect(await r.isDismissed('https://a.example/y', 'https://c.example/z')).toBe(false);
  });

  it('lists pages by date, newest first, page by page without gaps or repeats', async () => {
    const r = await repo();
    // Several pages share a lastSeen: the cursor must still not skip or repeat any.
    for (let i = 0; i < 25; i++) await r.recordVisit(visit(`https://a.example/${String(i).padStart(2, '0')}`, '0123456789abcdef'), 1000 + Math.floor(i / 4));
    const seen: string[] = [];
    let page = await r.listRecent(7);
    while (page.items.length) {
      seen.push(...page.items.map((p) => p.url));
      if (!page.next) break;
      page = await r.listRecent(7, page.next);
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    const times = await Promise.all(seen.map(async (u) => (await r.get(u))!.lastSeen));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // With exactly a step's worth left, the step says it is the last ("Show more" is not offered for nothing).
    const first = await r.listRecent(20);
    expect(first.done).toBe(false);
    const rest = await r.listRecent(5, first.next);
    expect([rest.items.length, rest.done, rest.next]).toEqual([5, true, undefined]);
    expect((await r.listRecent(25)).done).toBe(true);
  });

  it('searches titles and URLs in steps, so a rare query never reads the whole history at once', async () => {
    const r = await repo();
    for (let i = 0; i < 30; i++) await r.recordVisit({ ...visit(`https://a.example/${i}`, '0123456789abcdef'), title: i % 10 === 3 ? `Tool Library ${i}` : `Other ${i}` }, 1000 + i);
    const found: string[] = [];
    let step = await r.listRecent(10, undefined, 'tool LIBRARY', 8);
    let calls = 1;
    // Each step says how far it looked: the history page tells the reader so while a search goes on.
    const looked = [step.scanned];
    for (;;) {
      found.push(...step.items.map((p) => p.title));
      if (step.done || !step.next) break;
      step = await r.listRecent(10, step.next, 'tool LIBRARY', 8);
      looked.push(step.scanned);
      calls++;
    }
    expect(found).toEqual(['Tool Library 23', 'Tool Library 13', 'Tool Library 3']);
    expect(calls).toBe(4);
    expect(looked).toEqual([8, 8, 8, 6]);
    // A step that fills its page stops where it found the last: 2 found in the 17 most recent pages (29 … 13).
    expect((await r.listRecent(2, undefined, 'tool library')).scanned).toBe(17);
    // In the order pages were last seen, as the history lists them, not the order they were recorded
    // (an import's is its file's): a page read again just now comes first.
    await r.recordVisit({ ...visit('https://a.example/3', '0123456789abcdef'), title: 'Tool Library 3' }, 5000);
    const first = await r.listRecent(2, undefined, 'tool library', 8);
    expect(first.items.map((p) => p.title)).toEqual(['Tool Library 3', 'Tool Library 23']);
    const rest: string[] = [];
    for (let step = await r.listRecent(2, first.next, 'tool library', 8); ; step = await r.listRecent(2, step.next, 'tool library', 8)) {
      rest.push(...step.items.map((p) => p.title));
      if (step.done || !step.next) break;
    }
    expect(rest).toEqual(['Tool Library 13']);
    expect((await r.listRecent(10, undefined, 'a.example/2')).items.map((p) => p.url)).toEqual(['https://a.example/29', 'https://a.example/28', 'https://a.example/27', 'https://a.example/26', 'https://a.example/25', 'https://a.example/24', 'https://a.example/23', 'https://a.example/22', 'https://a.example/21', 'https://a.example/20']);
    // A site in another script is found by its name as the reader knows it (例子.example), as well as its ASCII form.
    await r.recordVisit(visit('http://xn--fsqu00a.example/a/watch', '0123456789abcdef'), 2000);
    expect((await r.listRecent(10, undefined, '例子')).items.map((p) => p.url)).toEqual(['http://xn--fsqu00a.example/a/watch']);
    expect((await r.listRecent(10, undefined, 'fsqu00a')).items.map((p) => p.url)).toEqual(['http://xn--fsqu00a.example/a/watch']);
  });

  it('answers a search of a large history in steps of about a second, each going on where the last stopped, reading each group of names once', async () => {
    const r = await repo();
    // 20,000 pages in one write (as an Undo brings pages back), last seen in no order of their
    // numbers (as after years of visits), every 1,000th titled "Rare".
    const count = 20_000;
    const seen = (i: number) => (i * 7_919) % count;
    const pages = Array.from({ length: count }, (_, i) => ({ url: `https://a.example/${i}`, title: i % 1000 === 250 ? `Rare ${i}` : `Common ${i}`, fp: '0123456789abcdef', algo: 'dr1', textLength: 500, lang: 'en', firstSeen: 0, lastSeen: seen(i), visits: 1 }));
    await r.restore({ pages, pairs: [], imports: [] });
    const expected = pages.filter((p) => p.title.startsWith('Rare')).sort((a, b) => b.lastSeen - a.lastSeen).map((p) => p.title);
    // How many groups of names the search reads: one by one (get) or as a range (getAll).
    const get = vi.spyOn(IDBObjectStore.prototype, 'get');
    const getAll = vi.spyOn(IDBObjectStore.prototype, 'getAll');
    onTestFinished(() => {
      get.mockRestore();
      getAll.mockRestore();
    });
    const counting = () => {
      let groups = get.mock.contexts.filter((c) => (c as IDBObjectStore).name === 'names').length;
      getAll.mock.calls.forEach(([range], i) => {
        if ((getAll.mock.contexts[i] as IDBObjectStore).name === 'names' && range instanceof IDBKeyRange) groups += (range.upper as number) - (range.lower as number) + 1;
      });
      return groups;
    };
    // A clock by which reading a group of names takes 30 ms (and nothing else takes time).
    const clock = () => counting() * 30;
    const titles: string[] = [];
    const scanned: number[] = [];
    const read: number[] = [];
    let next: ListCursor | undefined;
    for (;;) {
      const before = counting();
      const step = await r.listRecent(10, next, 'rare', Infinity, clock);
      titles.push(...step.items.map((p) => p.title));
      scanned.push(step.scanned ?? 0);
      read.push(counting() - before);
      if (step.done || !step.next) break;
      next = step.next;
    }
    expect(titles).toEqual(expected);
    expect(titles.length).toBe(20);
    // In steps, each going on where the last stopped, each reading names for about a second (what
    // a second holds, and the transaction begun when it ended: at most 2 of 32 groups), and each
    // group of names read once in the search.
    expect(scanned.length).toBeGreaterThan(1);
    expect(Math.max(...read)).toBeLessThanOrEqual(64);
    expect(scanned.reduce((a, b) => a + b, 0)).toBe(count);
    expect(counting()).toBe(Math.ceil(count / 256));
    get.mockClear();
    getAll.mockClear();
    // A page recorded between two steps, last seen before any other it matches, is found by the
    // next: what a step kept for the next was of the history as it was.
    const first = await r.listRecent(10, undefined, 'rare', Infinity, clock);
    expect(first.items.map((p) => p.title)).toEqual(expected.slice(0, first.items.length));
    const late = await r.recordVisit({ ...visit('https://b.example/late', '0123456789abcdef'), title: 'Rare late' }, 0.5);
    expect(late.record.lastSeen).toBe(0.5);
    const rest = await r.listRecent(100, first.next, 'rare');
    expect([...first.items, ...rest.items].map((p) => p.title)).toEqual([...expected, 'Rare late']);
    // Without the clock's hurry, one step looks through them all.
    const all = await r.listRecent(100, undefined, 'rare');
    expect([all.items.length, all.scanned, all.done]).toEqual([21, count + 1, true]);
  });

  it('finds a page by its title and address as they are now: retitled, forgotten, brought back, read over https, cleared', async () => {
    const r = await repo();
    const titled = (url: string, title: string, at: number) => r.recordVisit({ ...visit(url, '0123456789abcdef'), title }, at);
    const search = async (q: string) => (await r.listRecent(10, undefined, q)).items.map((p) => `${p.url} ${p.title}`);
    for (let i = 0; i < 20; i++) await titled(`https://a.example/${i}`, `Filler ${i}`, 1000 + i);
    await titled('http://news.example/story', 'Draft headline', 2000);
    expect(await search('draft')).toEqual(['http://news.example/story Draft headline']);
    // Read again under a new title, then over https: found by the new title at its new address only.
    await titled('http://news.example/story', 'Final headline', 2001);
    expect(await search('draft')).toEqual([]);
    expect(await search('final')).toEqual(['http://news.example/story Final headline']);
    await titled('https://news.example/story', 'Final headline', 2002);
    expect(await search('news.example')).toEqual(['https://news.example/story Final headline']);
    // Forgotten, it is found no more; brought back by Undo, it is found again; and so for a whole site.
    const gone: Forgotten = { pages: [], pairs: [], imports: [], numbers: [] };
    await r.forget('https://news.example/story', gone);
    expect(await search('final')).toEqual([]);
    await r.restore(gone);
    expect(await search('final')).toEqual(['https://news.example/story Final headline']);
    expect(await r.forgetSite('a.example')).toBe(20);
    expect(await search('filler')).toEqual([]);
    await r.clear();
    expect(await search('final')).toEqual([]);
    await titled('https://b.example/new', 'Final thoughts', 3000);
    expect(await search('final')).toEqual(['https://b.example/new Final thoughts']);
  });

  it('finds a page by every word typed, in Simplified or Traditional characters, full- or half-width', async () => {
    const r = await repo();
    const titled = (url: string, title: string, at: number) => r.recordVisit({ ...visit(url, '0123456789abcdef'), title }, at);
    await titled('https://gmw.example/a1', '宇航员在太空中喝酒会怎么样？后果很严重', 1000);
    await titled('https://tw.example/news/5', '宇航員在太空中喝酒會怎麼樣？後果很嚴重', 1001);
    await titled('https://es6.example/class', 'Class 的基本语法', 1002);
    await titled('https://jp.example/a', 'トレンドマイクロ、新たな脅威を報告', 1003);
    await titled('https://other.example/b', '太空站的一天', 1004);
    const search = async (q: string) => (await r.listRecent(10, undefined, q)).items.map((p) => p.url).sort();
    expect(await search('宇航员')).toEqual(['https://gmw.example/a1', 'https://tw.example/news/5']);
    expect(await search('後果 嚴重')).toEqual(['https://gmw.example/a1', 'https://tw.example/news/5']);
    expect(await search('后果 太空 tw.example')).toEqual(['https://tw.example/news/5']);
    expect(await search('class 语法')).toEqual(['https://es6.example/class']);
    expect(await search('ＣＬＡＳＳ')).toEqual(['https://es6.example/class']);
    expect(await search('ﾄﾚﾝﾄﾞ')).toEqual(['https://jp.example/a']);
    expect(await search('太空 一天')).toEqual(['https://other.example/b']);
    expect(await search('后果 一天')).toEqual([]);
    expect((await search('   ')).length).toBe(5);
  });

  it('finds a Chinese or Japanese title by its words typed without spaces, in their order', async () => {
    const r = await repo();
    const titled = (url: string, title: string, at: number) => r.recordVisit({ ...visit(url, '0123456789abcdef'), title }, at);
    await titled('https://gmw.example/a1', '宇航员在太空中喝酒会怎么样？后果很严重', 1000);
    await titled('https://tw.example/news/5', '宇航員在太空中喝酒會怎麼樣？後果很嚴重', 1001);
    await titled('https://other.example/b', '喝酒之后去太空', 1002);
    await titled('https://jp.example/w', '東京の天気：週末は雨', 1003);
    await titled('https://en.example/c', 'Drinking in space', 1004);
    const search = async (q: string) => (await r.listRecent(10, undefined, q)).items.map((p) => p.url).sort();
    // The words 太空 and 喝酒, with 中 between them in the titles.
    expect(await search('太空喝酒')).toEqual(['https://gmw.example/a1', 'https://tw.example/news/5']);
    expect(await search('太空喝酒 嚴重')).toEqual(['https://gmw.example/a1', 'https://tw.example/news/5']);
    expect(await search('東京天気')).toEqual(['https://jp.example/w']);
    // Their order counts, as does every word: 喝酒之后去太空 holds both, the other way round.
    expect(await search('喝酒太空')).toEqual(['https://other.example/b']);
    expect(await search('太空喝茶')).toEqual([]);
    // A term of Latin letters is still found inside a word, as before.
    expect(await search('rink')).toEqual(['https://en.example/c']);
  });

  it('reads the whole history chunk by chunk for export, each page once, in the order pages were first recorded', async () => {
    const r = await repo();
    for (const u of ['https://c.example/', 'https://a.example/', 'https://b.example/', 'https://d.example/']) await r.recordVisit(visit(u, '0123456789abcdef'), 1);
    await r.forget('https://a.example/');
    const first = await r.exportChunk(2);
    expect(first.pages.map((p) => p.url)).toEqual(['https://c.example/', 'https://b.example/']);
    const second = await r.exportChunk(2, first.last);
    expect(second.pages.map((p) => p.url)).toEqual(['https://d.example/']);
    expect(await r.exportChunk(2, second.last)).toEqual({ pages: [] });
  });

  it('exports each chunk as the history is when it is asked for, though the next one is read ahead', async () => {
    const r = await repo();
    for (const u of ['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/', 'https://e.example/']) await r.recordVisit(visit(u, '0123456789abcdef'), 1);
    const first = await r.exportChunk(2);
    expect(first.pages.map((p) => p.url)).toEqual(['https://a.example/', 'https://b.example/']);
    // Between two chunks the reader forgets a page of the next and reads another again: the file holds neither as it was.
    await r.forget('https://c.example/');
    await r.recordVisit(visit('https://d.example/', '0123456789abcdef'), 2);
    const second = await r.exportChunk(2, first.last);
    expect(second.pages.map((p) => [p.url, p.visits])).toEqual([
      ['https://d.example/', 2],
      ['https://e.example/', 1],
    ]);
    // Without a write between, the chunk read ahead is the chunk asked for.
    expect(await r.exportChunk(2, second.last)).toEqual({ pages: [] });
    // A chunk read ahead is only for the request that follows it: another start reads afresh.
    expect((await r.exportChunk(10)).pages.map((p) => p.url)).toEqual(['https://a.example/', 'https://b.example/', 'https://d.example/', 'https://e.example/']);
    await r.clear();
    expect(await r.exportChunk(10)).toEqual({ pages: [] });
  });

  it('exports what another background wrote between two chunks, and keeps no chunk of an export left off', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    const other = new PageRepository(db);
    const urls = ['https://a.example/', 'https://b.example/', 'https://c.example/', 'https://d.example/', 'https://e.example/'];
    for (const u of urls) await r.recordVisit(visit(u, '0123456789abcdef', `title of ${u}`), 1);
    const first = await r.exportChunk(2);
    // Another background on the same database (the store allows for one: its write count) forgets c and reads d again.
    await other.forget('https://c.example/');
    await other.recordVisit(visit('https://d.example/', '0123456789abcdef'), 2);
    expect((await r.exportChunk(2, first.last)).pages.map((p) => [p.url, p.visits])).toEqual([
      ['https://d.example/', 2],
      ['https://e.example/', 1],
    ]);
    // An export left off after its first chunk (its page closed): a forget and a clear leave nothing of the history in memory.
    await r.exportChunk(1);
    await r.forget('https://a.example/');
    await r.clear();
    expect((r as unknown as { exportAhead?: unknown }).exportAhead).toBeUndefined();
  });

  it('holds one chunk read ahead at most, however many an export reads, and lets it go if it is not asked for', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const r = await repo();
      for (let i = 0; i < 7; i++) await r.recordVisit(visit(`https://p${i}.example/`, '0123456789abcdef'), 1);
      let chunk = await r.exportChunk(1);
      while (chunk.last !== undefined) chunk = await r.exportChunk(1, chunk.last);
      // One timer for the one chunk read ahead (each chunk's own timer held its chunk for 30 s: 168 MB after an export of 10^5 pages).
      expect(vi.getTimerCount()).toBeLessThanOrEqual(1);
      await r.exportChunk(1);
      vi.advanceTimersByTime(60_000);
      expect((r as unknown as { exportAhead?: unknown }).exportAhead).toBeUndefined();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('exports a page as a write under way while the chunk before it was read leaves it', async () => {
    const db = await openDejaReadDB();
    const before = new PageRepository(db);
    for (const u of ['https://a.example/', 'https://b.example/', 'https://c.example/']) await before.recordVisit(visit(u, '0123456789abcdef'), 1);
    for (const wait of [0, 1, 2, 3]) {
      // A background started anew: its write reads the columns before it begins its transaction.
      const r = new PageRepository(db);
      // The reader reads b again while the export reads its first chunk.
      const writing = r.recordVisit(visit('https://b.example/', '0123456789abcdef'), 2);
      for (let i = 0; i < wait; i++) await Promise.resolve();
      const first = await r.exportChunk(1);
      const visits = (await writing).record.visits;
      expect((await r.exportChunk(1, first.last)).pages.map((p) => [p.url, p.visits])).toEqual([['https://b.example/', visits]]);
    }
  });
});

describe('PageRepository: imports', () => {
  const page = (url: string, firstSeen: number, lastSeen: number, visits: number, title = 'T'): PageRecord => ({
    url,
    canonicalUrl: url,
    site: new URL(url).hostname,
    title,
    fp: '0123456789abcdef',
    b0: 0x0123,
    b1: 0x4567,
    b2: 0x89ab,
    b3: 0xcdef,
    algo: 'dr1',
    textLength: 300,
    lang: 'en',
    firstSeen,
    lastSeen,
    visits,
  });

  /** Stages `chunks` and commits them to the end, as the options page does. */
  async function importAll(r: PageRepository, importId: string, chunks: PageRecord[][], now: number, digest = 'a'.repeat(64)) {
    for (const [seq, pages] of chunks.entries()) await r.imports.stage(importId, seq, pages, now);
    let step = await r.imports.commit(importId, digest, chunks.length, chunks.flat().length, now, 60_000);
    while (!step.done) step = await r.imports.commit(importId, digest, chunks.length, chunks.flat().length, now, 60_000);
    return step;
  }

  it('merges by URL: earliest firstSeen, latest lastSeen, visits added, newest title', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef', 'Old title'), 5000);
    const step = await importAll(r, 'import-0001', [[page('https://a.example/1', 1000, 9000, 3, 'New title'), page('https://b.example/2', 10, 20, 1)]], 10_000);
    expect(step).toEqual({ done: true, applied: 1, chunks: 1, outcome: { added: 1, merged: 1, unchanged: 0 } });
    expect(await r.get('https://a.example/1')).toMatchObject({ firstSeen: 1000, lastSeen: 9000, visits: 4, title: 'New title' });
    expect(await r.wasImported('a'.repeat(64))).toBe(true);
    // Committed: it can no longer be dropped, and a repeated commit answers the same without applying twice.
    expect(await r.imports.discard('import-0001')).toBe(false);
    expect(await r.imports.commit('import-0001', 'a'.repeat(64), 1, 2, 11_000, 60_000)).toEqual(step);
    expect(await r.get('https://a.example/1')).toMatchObject({ visits: 4 });
    expect(await r.count()).toBe(2);
  });

  it('changes nothing when the reader imports their own export back', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 5000);
    const own = await everyPage(r);
    expect((await importAll(r, 'import-0002', [own], 6000, 'b'.repeat(64))).outcome).toEqual({ added: 0, merged: 0, unchanged: 1 });
    expect(await everyPage(r)).toEqual(own);
  });

  it('leaves the history untouched until the commit, and drops an abandoned import', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef', 'Mine'), 5000);
    const before = await everyPage(r);
    await r.imports.stage('import-0003', 0, [page('https://a.example/1', 10, 9000, 5, 'Theirs'), page('https://b.example/2', 10, 20, 1)], 7000);
    await r.imports.stage('import-0003', 1, [page('https://c.example/3', 10, 20, 1)], 7001);
    expect(await everyPage(r)).toEqual(before);
    // The options tab was closed: a background starting soon after keeps the staging (the page may be
    // mid-import), one starting later drops it. The history is as it was either way.
    expect(await r.imports.recover(7001 + 60_000)).toEqual({ resumed: [], dropped: [] });
    expect(await r.imports.recover(7001 + ABANDONED_STAGING_MS + 1)).toEqual({ resumed: [], dropped: ['import-0003'] });
    expect(await everyPage(r)).toEqual(before);
    await expect(r.imports.commit('import-0003', 'c'.repeat(64), 2, 3, 8000, 60_000)).rejects.toThrow(ImportIncompleteError);
    expect(await r.wasImported('c'.repeat(64))).toBe(false);
    // The options page opened next says it stopped, as of when its page was last heard from.
    expect(await r.imports.untold(9000)).toEqual([expect.objectContaining({ importId: 'import-0003', state: 'left', at: 7001 })]);
  });

  it("drops an import at once when its page goes before the commit, and the page opened next says so, once", async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef', 'Mine'), 5000);
    const before = await everyPage(r);
    await r.imports.open('import-left', 6000);
    await r.imports.stage('import-left', 0, [page('https://b.example/2', 10, 20, 1)], 7000);
    // While it is staged, no page is told of it: its page is at work (or asking the reader).
    expect(await r.imports.untold(7500)).toEqual([]);
    // The page is closed or reloaded (the background hears its port go).
    expect(await r.imports.leave('import-left', 8000)).toBe(true);
    expect(await r.imports.untold(8100)).toEqual([expect.objectContaining({ importId: 'import-left', state: 'left', at: 8000 })]);
    // What it staged is gone, and nothing of it can be committed after.
    await expect(r.imports.commit('import-left', 'c'.repeat(64), 1, 1, 8200, 60_000)).rejects.toThrow(/stopped when its page was closed/);
    await expect(r.imports.stage('import-left', 1, [page('https://c.example/3', 10, 20, 1)], 8200)).rejects.toThrow(/stopped when its page was closed/);
    expect(await everyPage(r)).toEqual(before);
    expect(await r.imports.recover(8300 + ABANDONED_STAGING_MS)).toEqual({ resumed: [], dropped: [] });
    // Told once.
    await r.imports.told('import-left');
    expect(await r.imports.untold(8400)).toEqual([]);
  });

  it('goes on with an import whose page goes after the commit, and the page opened next follows it and tells how it ended, once', async () => {
    const r = await repo();
    const n = CHUNKS_PER_APPLY + 2;
    for (let seq = 0; seq < n; seq++) await r.imports.stage('import-closed', seq, [page(`https://imp.example/${seq}`, 10, 20, 1)], 1000);
    expect(await r.imports.commit('import-closed', 'c'.repeat(64), n, n, 2000, 0)).toMatchObject({ done: false, applied: CHUNKS_PER_APPLY });
    // The page goes now: nothing is dropped.
    expect(await r.imports.leave('import-closed', 2100)).toBe(false);
    expect(await r.imports.untold(2200)).toEqual([expect.objectContaining({ importId: 'import-closed', state: 'applying', applied: CHUNKS_PER_APPLY, chunks: n })]);
    await r.imports.recover(3000);
    expect(await r.count()).toBe(n);
    expect(await r.imports.untold(3100)).toEqual([expect.objectContaining({ importId: 'import-closed', state: 'done', outcome: { added: n, merged: 0, unchanged: 0 }, at: 3000 })]);
    await r.imports.told('import-closed');
    expect(await r.imports.untold(3200)).toEqual([]);
  });

  it('tells no import that its own page saw end, none found applied by another tab first, and none ended over a day ago', async () => {
    const r = await repo();
    const file = [page('https://x.example/1', 10, 20, 1)];
    for (const id of ['import-seen', 'import-tab-b', 'import-old']) await r.imports.stage(id, 0, file, 1000);
    await r.imports.commit('import-seen', 'a'.repeat(64), 1, 1, 1000, 60_000);
    await r.imports.told('import-seen');
    // Tab A commits a file and is applying it when tab B commits the same file: B applies nothing.
    const n = CHUNKS_PER_APPLY + 1;
    for (let seq = 0; seq < n; seq++) await r.imports.stage('import-tab-a', seq, [page(`https://y.example/${seq}`, 10, 20, 1)], 1000);
    await r.imports.commit('import-tab-a', 'b'.repeat(64), n, n, 1001, 0);
    expect(await r.imports.commit('import-tab-b', 'b'.repeat(64), 1, 1, 1001, 60_000)).toMatchObject({ alreadyImported: true });
    await r.imports.commit('import-tab-a', 'b'.repeat(64), n, n, 1001, 60_000);
    await r.imports.commit('import-old', 'd'.repeat(64), 1, 1, 1002, 60_000);
    const day = 24 * 3600_000;
    expect((await r.imports.untold(2000)).map((i) => i.importId)).toEqual(['import-tab-a', 'import-old']);
    expect(await r.imports.untold(1002 + day + 1)).toEqual([]);
  });

  it('refuses to commit an import with a chunk missing, and changes nothing', async () => {
    const r = await repo();
    await r.imports.stage('import-0004', 0, [page('https://b.example/2', 10, 20, 1)], 7000);
    await r.imports.stage('import-0004', 2, [page('https://c.example/3', 10, 20, 1)], 7000);
    await expect(r.imports.commit('import-0004', 'd'.repeat(64), 3, 3, 7000, 60_000)).rejects.toThrow(/2 of the 3 parts/);
    expect(await r.count()).toBe(0);
  });

  it('completes a committed import cut short, without undoing or double-counting the visits made meanwhile', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://old.example/1', '0123456789abcdef'), 1000);
    // More chunks than one transaction applies.
    const n = CHUNKS_PER_APPLY + 3;
    const chunks = Array.from({ length: n }, (_, c) => Array.from({ length: 10 }, (_, i) => page(`https://imp.example/${c}/${i}`, 10, 20, 1)));
    chunks[n - 1].push(page('https://old.example/1', 10, 500, 2));
    for (const [seq, pages] of chunks.entries()) await r.imports.stage('import-0005', seq, pages, 2000);
    // The commit applies one transaction's worth, then the background is stopped (a zero budget: it answers after one).
    const first = await r.imports.commit('import-0005', 'e'.repeat(64), n, 10 * n + 1, 2000, 0);
    expect(first).toMatchObject({ done: false, applied: CHUNKS_PER_APPLY });
    expect(await r.get('https://old.example/1')).toMatchObject({ visits: 1 });
    // The reader goes on reading: a page of the import already applied, and the older page.
    await r.recordVisit(visit('https://imp.example/0/7', '0123456789abcdef'), 3000);
    await r.recordVisit(visit('https://old.example/1', '0123456789abcdef'), 3001);
    // The background starts again, long after: the import is completed, not undone.
    expect(await r.imports.recover(3000 + 3600_000)).toEqual({ resumed: ['import-0005'], dropped: [] });
    expect(await r.count()).toBe(10 * n + 1);
    expect(await r.get('https://imp.example/0/7')).toMatchObject({ visits: 2, lastSeen: 3000 });
    expect(await r.get('https://old.example/1')).toMatchObject({ visits: 4, firstSeen: 10, lastSeen: 3001 });
    // The options page retries its commit: same answer, nothing applied twice.
    expect(await r.imports.commit('import-0005', 'e'.repeat(64), n, 10 * n + 1, 4000, 60_000)).toMatchObject({ done: true, applied: n, outcome: { added: 10 * n, merged: 1 } });
    expect(await r.get('https://old.example/1')).toMatchObject({ visits: 4 });
    expect(await r.wasImported('e'.repeat(64))).toBe(true);
  });

  it('applies the same file once when two tabs import it at the same time', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://x.example/shared', '0123456789abcdef'), 1);
    const file = [[page('https://x.example/1', 10, 20, 1), page('https://x.example/shared', 10, 20, 2)]];
    // Both tabs checked the file before either committed it, and staged it.
    for (const id of ['import-tab-a', 'import-tab-b']) await r.imports.stage(id, 0, file[0], 2000);
    const digest = 'e'.repeat(64);
    const [a, b] = await Promise.all(['import-tab-a', 'import-tab-b'].map((id) => r.imports.commit(id, digest, 1, 2, 2001, 60_000)));
    // One applies it; the other finds it being applied (nothing applied), or applied already (again: only what is missing, nothing).
    expect([a, b].filter((s) => s.alreadyImported || (s.again && s.outcome.added === 0 && s.outcome.merged === 0))).toHaveLength(1);
    expect([a, b].every((s) => s.done)).toBe(true);
    expect(await r.get('https://x.example/shared')).toMatchObject({ visits: 3 });
    // A commit repeated after a lost answer gets the same answer.
    expect(await r.imports.commit('import-tab-b', digest, 1, 2, 2002, 60_000)).toEqual(b);
    expect(await r.get('https://x.example/shared')).toMatchObject({ visits: 3 });
  });

  it('applies each staged chunk exactly once when the commit and a restarted background race', async () => {
    const r = await repo();
    // The shared page's six records begin at six times: six visits of their own (records that began
    // with the same visit, to the millisecond, would be one history seen at six moments).
    const chunks = Array.from({ length: 6 }, (_, c) => [page(`https://x.example/${c}`, 10, 20, 1), page('https://x.example/shared', 10 - c, 20 + c, 1)]);
    for (const [seq, pages] of chunks.entries()) await r.imports.stage('import-0006', seq, pages, 2000);
    await r.imports.commit('import-0006', 'f'.repeat(64), 6, 12, 2000, 0);
    await Promise.all([r.imports.recover(2001), r.imports.commit('import-0006', 'f'.repeat(64), 6, 12, 2001, 60_000), r.imports.recover(2002)]);
    expect(await r.get('https://x.example/shared')).toMatchObject({ visits: 6 });
    expect(await r.count()).toBe(7);
  });
});

describe('storage faults', () => {
  it('turns a full disk into a message the reader can act on, and keeps the history', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 1);
    // The browser refuses writes once the origin's quota is used up.
    const realPut = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'blocks') throw new DOMException('quota', 'QuotaExceededError');
      return realPut.apply(this, args);
    };
    await expect(r.recordVisit(visit('https://a.example/2', '0123456789abcdef'), 2)).rejects.toThrow(StorageFullError);
    IDBObjectStore.prototype.put = realPut;
    expect(await r.count()).toBe(1);
    expect((await everyPage(r)).map((p) => p.url)).toEqual(['https://a.example/1']);
    // The write that failed left nothing behind: the next one works and finds what is there.
    await r.recordVisit(visit('https://a.example/2', '0123456789abcdef'), 3);
    expect((await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 0 })).map((p) => p.url)).toEqual(['https://a.example/2', 'https://a.example/1']);
  });
});

describe('a write that fails while another waits', () => {
  it('leaves the next write and a restarted background with the history as it is on disk', async () => {
    const db = await openDejaReadDB();
    const r = new PageRepository(db);
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 1);
    await r.recordVisit(visit('https://a.example/2', '0123456789abcdef'), 2);
    // The disk refuses the write of a "forget" (a full disk), while a visit to another page waits behind it.
    const realPut = IDBObjectStore.prototype.put;
    let refuse = true;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'blocks' && refuse) {
        refuse = false;
        throw new DOMException('quota', 'QuotaExceededError');
      }
      return realPut.apply(this, args);
    };
    const failed = r.forget('https://a.example/1').catch((e: unknown) => e);
    const waiting = r.recordVisit(visit('https://c.example/1', '0123456789abcdee'), 100);
    expect(await failed).toBeInstanceOf(StorageFullError);
    await waiting;
    IDBObjectStore.prototype.put = realPut;
    const kept = ['https://a.example/1', 'https://a.example/2', 'https://c.example/1'];
    expect((await everyPage(r)).map((p) => p.url)).toEqual(kept);
    // The page the failed write meant to forget is still found, in this background and in one started anew.
    for (const repository of [r, new PageRepository(db)]) {
      for (const url of kept) expect((await repository.get(url))?.url).toBe(url);
      expect((await repository.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 0 })).map((p) => p.url).sort()).toEqual(kept.slice(0, 2));
    }
  });
});

describe('schema upgrades', () => {
  it('opens a version 1 database with every record intact and the new indexes filled', async () => {
    // Version 1 as released: pages with four block indexes and lastSeen.
    const v1 = await openDB(DB_NAME, 1, {
      upgrade(db) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen']) pages.createIndex(name, name);
      },
    });
    const old = { url: 'https://www.a.example/1', title: 'Old', fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 400, lang: 'en', firstSeen: 1, lastSeen: 2, visits: 3 };
    await v1.put('pages', old);
    await v1.put('pages', { ...old, url: 'https://b.example/2' });
    v1.close();

    const r = new PageRepository(await openDejaReadDB());
    expect(await r.get(old.url)).toEqual({ ...old, canonicalUrl: old.url, site: 'a.example' });
    expect(await r.count()).toBe(2);
    expect((await r.findByCanonicalUrl('https://b.example/2')).length).toBe(1);
    expect(await r.forgetSite('a.example')).toBe(1);
    expect((await r.findSimilar(old.fp, { algo: 'dr1', maxDistance: 3 })).map((p) => p.url)).toEqual(['https://b.example/2']);
  });

  it('opens a version 2 database: pages intact, a half-applied import undone except where the reader visited since', async () => {
    // Version 2 as released: pages with seven indexes, and the import journal.
    const v2 = await openDB(DB_NAME, 2, {
      upgrade(db) {
        const pages = db.createObjectStore('pages', { keyPath: 'url' });
        for (const name of ['b0', 'b1', 'b2', 'b3', 'lastSeen', 'canonicalUrl', 'textHash']) pages.createIndex(name, name);
        db.createObjectStore('dismissals', { keyPath: 'pair' });
        db.createObjectStore('imports', { keyPath: 'digest' });
        db.createObjectStore('journal', { keyPath: ['importId', 'first'] });
      },
    });
    const rec = (url: string, lastSeen: number, visits: number, title = 'T') => ({ url, canonicalUrl: url, site: new URL(url).hostname, title, fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 400, lang: 'en', firstSeen: 1, lastSeen, visits });
    // Mine before the import; an import chunk at t=5000 added two pages and merged into two of mine.
    await v2.put('pages', rec('https://mine.example/kept', 100, 1));
    await v2.put('pages', rec('https://mine.example/merged', 4000, 6, 'Theirs'));
    await v2.put('pages', rec('https://mine.example/visited-since', 9000, 7));
    await v2.put('pages', rec('https://imp.example/a', 300, 2));
    await v2.put('pages', rec('https://imp.example/visited-since', 9500, 3));
    await v2.put('journal', { importId: 'old-import', first: 'https://imp.example/a', added: ['https://imp.example/a', 'https://imp.example/visited-since'], before: [rec('https://mine.example/merged', 200, 1, 'Mine'), rec('https://mine.example/visited-since', 200, 1)], at: 5000 });
    // A second import, under way at the same time, merged into the same page after the first (its
    // key sorts last): both are undone, newest first, to the page as it was before either.
    await v2.put('journal', { importId: 'z-later-import', first: 'https://mine.example/merged', added: [], before: [rec('https://mine.example/merged', 3000, 3, 'First import')], at: 5500 });
    await v2.put('imports', { digest: '0'.repeat(64), at: 1, pages: 9 });
    v2.close();

    const db = await openDejaReadDB();
    expect(db.objectStoreNames.contains('journal' as never)).toBe(false);
    const r = new PageRepository(db);
    expect((await everyPage(r)).map((p) => [p.url, p.visits, p.title])).toEqual([
      ['https://imp.example/visited-since', 3, 'T'],
      ['https://mine.example/kept', 1, 'T'],
      ['https://mine.example/merged', 1, 'Mine'],
      ['https://mine.example/visited-since', 7, 'T'],
    ]);
    expect(await r.wasImported('0'.repeat(64))).toBe(true);
  });
});
