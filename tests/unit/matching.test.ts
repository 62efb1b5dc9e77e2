import { describe, expect, it } from 'vitest';
import { canonicalizeUrl, digestArticle, decodeSketch, encodeSketch, judgePair, overlap, pageIdentity, pickCanonicalUrl, registrableDomain, SENSITIVITY, sketchOf, textHash, textStats, titledApart, fingerprint } from '../../src/core';
import { loadArticle } from '../e2e/site';
import { makeBackground } from './helpers';

const text = (name: string) => loadArticle(name).paragraphs.join('\n\n');
const en = text('en-library');
const zh = text('zh-library');

/** The first `share` of an article's paragraphs: a preview or paywall cut. */
function preview(name: string, share: number): string {
  const ps = loadArticle(name).paragraphs;
  return ps.slice(0, Math.round(ps.length * share)).join('\n\n');
}

describe('URL identity', () => {
  it('drops tracking parameters, fragments and default ports, and keeps what names the page', () => {
    expect(canonicalizeUrl('HTTPS://News.Example.com:443/a/b?id=7&utm_source=x&UTM_Medium=y&fbclid=1&gclid=2#comments')).toBe('https://news.example.com/a/b?id=7');
    expect(canonicalizeUrl('https://item.taobao.example/item.htm?id=42&spm=a1z10.1&scm=1007')).toBe('https://item.taobao.example/item.htm?id=42');
    expect(canonicalizeUrl('https://mp.weixin.example/s?__biz=MzA&mid=1&idx=1&sn=abc&from=timeline&isappinstalled=0&scene=1')).toBe('https://mp.weixin.example/s?__biz=MzA&mid=1&idx=1&sn=abc');
    expect(canonicalizeUrl('http://example.com:80/?share_source=copy')).toBe('http://example.com/');
    expect(canonicalizeUrl('javascript:alert(1)')).toBeNull();
  });

  it('gives every variant of an address one identity, keeping the parameters that stay as they were written', () => {
    const page = 'https://news.example/s?q=a%20b&path=/x/y&flag';
    for (const variant of [
      page,
      'HTTPS://NEWS.example:443/s?q=a%20b&path=/x/y&flag',
      'https://news.example/s?utm_source=x&q=a%20b&path=/x/y&flag&fbclid=1#top',
      'https://news.example/s?q=a%20b&gclid=2&path=/x/y&utm%5Fmedium=y&flag&',
      'https://reader:secret@news.example/s?q=a%20b&path=/x/y&flag#',
    ]) {
      expect(pageIdentity(variant), variant).toBe(page);
    }
    expect(pageIdentity('http://news.example/s')).not.toBe(pageIdentity('https://news.example/s'));
    expect(pageIdentity('https://news.example/s?id=1')).not.toBe(pageIdentity('https://news.example/s?id=2'));
    // Idempotent, and anything that is not a web page's address is its own identity.
    expect(pageIdentity(pageIdentity('https://a.example/?x=1&utm_term=2'))).toBe('https://a.example/?x=1');
    expect(pageIdentity('not a url')).toBe('not a url');
  });

  it('accepts a declared canonical URL only on the same site', () => {
    expect(pickCanonicalUrl('https://m.example.com/story?utm_source=tw', ['https://www.example.com/story'])).toBe('https://www.example.com/story');
    expect(pickCanonicalUrl('https://news.example.co.uk/a', ['https://www.example.co.uk/a'])).toBe('https://www.example.co.uk/a');
    // A page cannot claim another site's identity.
    expect(pickCanonicalUrl('https://copycat.example/a?utm_medium=x', ['https://original.example/a'])).toBe('https://copycat.example/a');
    expect(pickCanonicalUrl('https://alice.github.io/post', ['https://bob.github.io/post'])).toBe('https://alice.github.io/post');
    expect(registrableDomain('a.b.example.com.cn')).toBe('example.com.cn');
  });
});

describe('exact identity and the verification sketch', () => {
  it('hashes the same text the same whatever its spacing and case', () => {
    expect(textHash(en)).toBe(textHash(en.toUpperCase().replace(/ /g, '  \n')));
    expect(textHash(en)).not.toBe(textHash(`${en}.`));
    expect(textHash('')).toBe('0000000000000000');
  });

  it('estimates resemblance and containment', () => {
    const full = sketchOf(en);
    expect(overlap(full, sketchOf(en))).toEqual({ resemblance: 1, containment: 1 });
    const part = overlap(full, sketchOf(preview('en-library', 0.6)));
    expect(part.containment).toBeGreaterThan(0.85);
    expect(part.resemblance).toBeLessThan(0.8);
    const other = overlap(full, sketchOf(text('en-balcony')));
    expect(other.resemblance).toBeLessThan(0.1);
    expect(other.containment).toBeLessThan(0.2);
  });

  it('round-trips through its stored form and refuses damaged ones', () => {
    const s = sketchOf(zh);
    const encoded = encodeSketch(s);
    expect(encoded.length).toBeLessThanOrEqual(180);
    expect(decodeSketch(encoded)).toEqual(s);
    expect(decodeSketch(encoded.slice(4))).toBeNull();
    expect(decodeSketch('not base64!')).toBeNull();
  });

  it('keeps a page record within 512 bytes beyond its URL and title', () => {
    const record = { fp: fingerprint(zh), b0: 65535, b1: 65535, b2: 65535, b3: 65535, algo: 'dr1', textHash: textHash(zh), sketch: encodeSketch(sketchOf(zh)), site: 'news.example.com', textLength: 12345, lang: 'zh-cn', firstSeen: 1_800_000_000_000, lastSeen: 1_800_000_000_000, visits: 999 };
    expect(new TextEncoder().encode(JSON.stringify(record)).length).toBeLessThanOrEqual(512);
  });
});

describe('titles of two pages of one site', () => {
  it('are two articles where neither headline is in the other title', () => {
    expect(titledApart('Storm closes the port - Harbor Ledger', 'Council votes on the budget - Harbor Ledger')).toBe(true);
    expect(titledApart('市图书馆延长夜间开放时间_新闻网', '阳台种菜的几个小窍门_新闻网')).toBe(true);
    expect(titledApart('駅前に新しいパン屋｜港北新聞', '秋祭りの日程が決まる｜港北新聞')).toBe(true);
  });

  it('are one article updated, under another name, or with words around its headline', () => {
    expect(titledApart('A year of crossings | The Daily Courier', 'A year of crossings (updated) — Weekend Digest')).toBe(false);
    expect(titledApart('Long thread: everything about A year of crossings — Commons Forum', 'A year of crossings | Preview')).toBe(false);
    expect(titledApart('市图书馆延长夜间开放时间_新闻网', '【转载】市圖書館延長夜間開放時間（更新）')).toBe(false);
    // A site that titles every page alike tells no two articles apart; nor does a missing title.
    expect(titledApart('新闻网', '新闻网')).toBe(false);
    expect(titledApart('', 'Council votes on the budget')).toBe(false);
  });
});

describe('the decision function', () => {
  const sig = (t: string) => ({ fp: fingerprint(t), words: textStats(t).words, textHash: textHash(t), sketch: sketchOf(t) });

  it('flags the same text whatever the fingerprint settings, even on a short page', () => {
    const short = 'A short note that was copied word for word.';
    expect(judgePair(sig(short), sig(short.toUpperCase()))).toMatchObject({ flagged: true, kind: 'same-text' });
  });

  it('does not flag near-duplicates below the minimum prose', () => {
    const a = en.slice(0, 300);
    expect(judgePair(sig(a), sig(`${a} Share this.`)).flagged).toBe(false);
  });

  it('recognises a preview either way round, and says which is which', () => {
    const full = sig(en);
    const part = sig(preview('en-library', 0.6));
    expect(judgePair(part, full)).toMatchObject({ flagged: true, kind: 'part-of-earlier' });
    expect(judgePair(full, part)).toMatchObject({ flagged: true, kind: 'contains-earlier' });
  });

  it('lets fingerprints within 4 bits break a tie the sketch cannot: a resemblance just under one half, within its error', () => {
    const a = sketchOf(en);
    // The same shingle count, and 60 of the 128 buckets kept: an estimated resemblance of about 0.47.
    const b = { size: a.size, mins: a.mins.map((m, i) => (i < 60 ? m : (m + 1) & 0xff)) };
    const page = (fp: string, sketch: typeof a) => ({ fp, words: 600, sketch });
    const close = judgePair(page('000000000000000f', b), page('0000000000000000', a));
    expect(close.resemblance).toBeGreaterThan(0.45);
    expect(close.resemblance).toBeLessThan(0.5);
    expect(close).toMatchObject({ flagged: true, kind: 'near-duplicate', distance: 4 });
    // Farther apart, the fingerprints say nothing of their own, and the sketch decides alone.
    expect(judgePair(page('000000000000003f', b), page('0000000000000000', a))).toMatchObject({ flagged: false, distance: 6 });
    // "Strict" promises only near-identical copies: no tie goes its way (about 0.67, under its 0.7).
    const nearStrict = { size: a.size, mins: a.mins.map((m, i) => (i < 86 ? m : (m + 1) & 0xff)) };
    const strict = judgePair(page('0000000000000007', nearStrict), page('0000000000000000', a), SENSITIVITY.strict);
    expect(strict.resemblance).toBeGreaterThan(0.65);
    expect(strict.flagged).toBe(false);
    // And a clearly lower resemblance is not raised by close fingerprints.
    const c = { size: a.size, mins: a.mins.map((m, i) => (i < 50 ? m : (m + 1) & 0xff)) };
    expect(judgePair(page('000000000000000f', c), page('0000000000000000', a)).flagged).toBe(false);
  });

  it('falls back to the fingerprint alone at distance 3 for records without a sketch', () => {
    const a = { ...sig(en), sketch: null, textHash: undefined };
    expect(judgePair(sig(en), a)).toMatchObject({ flagged: true, kind: 'fingerprint', distance: 0 });
  });
});

describe('matching in the background', () => {
  const seen = (bg: ReturnType<typeof makeBackground>, url: string, body: string, canonical: string[] = []) => bg.read({ url, title: url, digest: digestArticle(body), lang: '', canonical });

  it('flags a Chinese repost with 转载 boilerplate on another site', async () => {
    const bg = makeBackground();
    await seen(bg, 'https://original.example/zh/1', zh);
    const repost = `转载自每日信使，原文链接：https://original.example/zh/1 。版权归原作者所有，如有侵权请联系删除。\n\n${zh}\n\n本文仅代表作者观点。点赞、在看、分享三连！相关阅读：阳台种菜指南；二手自行车怎么挑`;
    const v = await seen(bg, 'https://reposts.example/p/99', repost);
    expect(v.matches.map((m) => [m.url, m.kind])).toEqual([['https://original.example/zh/1', 'near-duplicate']]);
    expect(v.matches[0].resemblance).toBeGreaterThan(0.7);
  });

  it('flags a preview after the full article, and the full article after a preview', async () => {
    const bg = makeBackground();
    await seen(bg, 'https://paper.example/full', en);
    expect((await seen(bg, 'https://aggregator.example/preview', preview('en-library', 0.7))).matches.map((m) => m.kind)).toEqual(['part-of-earlier']);
    const other = makeBackground();
    await seen(other, 'https://aggregator.example/preview', preview('en-library', 0.7));
    expect((await seen(other, 'https://paper.example/full', en)).matches.map((m) => m.kind)).toEqual(['contains-earlier']);
  });

  it('names first, for an update of an article, the article it holds whole rather than a repost of it with lines of its own', async () => {
    const article = ['en-library', 'en-bridges', 'en-ferry'].flatMap((n) => loadArticle(n).paragraphs);
    const own = [
      'This story first ran in the Harbour Gazette, and we share it here with the kind permission of its editors, who asked us to keep every word as they printed it.',
      'Our readers in the valley wrote to us about their own lending shelves: a school that lends microscopes, a church hall that lends folding tables, and a garage where neighbours share ladders.',
      'Share this story with your friends. Follow us for more stories like this one every day, and tell us which of your town’s small institutions deserves a piece of its own next month.',
      'Comments are closed on reposted stories. Letters to the editor may be edited for length and clarity; we print a selection every Saturday in the weekend paper and on our website.',
    ];
    const bg = makeBackground();
    await seen(bg, 'https://original.example/story', article.join('\n\n'));
    await seen(bg, 'https://repost.example/p/7', [own[0], ...article, ...own.slice(1)].join('\n\n'));
    // The article with five paragraphs added: it holds the original whole, and shares as much with the repost.
    const update = await seen(bg, 'https://updated.example/story', [...article, ...loadArticle('en-balcony').paragraphs].join('\n\n'));
    expect(update.matches.map((m) => [m.url, m.kind])).toEqual([
      ['https://original.example/story', 'contains-earlier'],
      ['https://repost.example/p/7', 'near-duplicate'],
    ]);
    // A copy closer than the page held whole still comes first.
    const copy = await seen(bg, 'https://mirror.example/story', [own[0], ...article, ...own.slice(1, 3)].join('\n\n'));
    expect(copy.matches[0]).toMatchObject({ url: 'https://repost.example/p/7', kind: 'near-duplicate' });
  });

  it('does not flag two different articles from one site with the same template', async () => {
    const bg = makeBackground();
    await seen(bg, 'https://site.example/a', `Site menu Home News Sports\n\n${en}\n\nCopyright Site. All rights reserved. Subscribe to our newsletter.`);
    const v = await seen(bg, 'https://site.example/b', `Site menu Home News Sports\n\n${text('en-balcony')}\n\nCopyright Site. All rights reserved. Subscribe to our newsletter.`);
    expect(v.matches).toEqual([]);
    expect(v.visitedBefore).toBe(false);
  });

  it('shows a revisit with tracking parameters as "visited before", not as a copy', async () => {
    const bg = makeBackground();
    await seen(bg, 'https://paper.example/story', en);
    const v = await seen(bg, 'https://paper.example/story?utm_source=newsletter&fbclid=abc#top', en);
    expect(v.visitedBefore).toBe(true);
    expect(v.matches).toEqual([]);
    expect(bg.shown.at(-1)?.[1].visitedBefore).toBe(true);
  });

  it('never flags a pair again once the reader said "not the same"', async () => {
    const bg = makeBackground();
    await seen(bg, 'https://a.example/1', en);
    expect((await seen(bg, 'https://b.example/2', en)).matches).toHaveLength(1);
    await (await bg.repository).dismiss('https://b.example/2', 'https://a.example/1', 1);
    expect((await seen(bg, 'https://b.example/2', en)).matches).toEqual([]);
  });
});
