import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { cutPassages, fingerprint, hamming, pagePassages, textHash } from '../../src/core';
import { declaredUrls } from '../../src/content/declared-urls';
import { extractArticle } from '../../src/content/extract';
import { loadArticle, PAGES, renderPage } from '../e2e/site';
import { articlesWithLinks, notArticles } from '../fixtures/pages-not-articles';

const doc = (html: string) => new JSDOM(html).window.document;

describe('extractArticle', () => {
  it.each(['en', 'zh'] as const)('pulls the same %s article out of two different site templates', (lang) => {
    const a = extractArticle(doc(renderPage(`${lang}A`)), 80);
    const b = extractArticle(doc(renderPage(`${lang}B`)), 80);
    if (!a.ok || !b.ok) throw new Error('not extracted');
    const article = loadArticle(PAGES[`${lang}A`].article);
    expect(a.article.title).toBe(article.title);
    expect(a.article.text).toContain(article.paragraphs[2]);
    expect(b.article.text).not.toMatch(/Sign in|Borrowed a ladder|登录|借过一次梯子/);
    expect(hamming(fingerprint(a.article.text), fingerprint(b.article.text))).toBeLessThanOrEqual(3);
  });

  it.each(['en', 'zh'] as const)('gives the same %s text, passages and fingerprint whether or not the HTML has whitespace between its tags', (lang) => {
    // Pages rendered by script frameworks have none: "…hold it.</p><p>A new…".
    const html = renderPage(`${lang}A`);
    const minified = html.replace(/>\s+</g, '><');
    expect(minified).not.toBe(html);
    const a = extractArticle(doc(html), 80);
    const b = extractArticle(doc(minified), 80);
    if (!a.ok || !b.ok) throw new Error('not extracted');
    expect(b.article.text.split(/\s+/)).toEqual(a.article.text.split(/\s+/));
    expect(cutPassages(b.article.text).map((p) => p.hash)).toEqual(cutPassages(a.article.text).map((p) => p.hash));
    expect([fingerprint(b.article.text), textHash(b.article.text), b.article.words]).toEqual([fingerprint(a.article.text), textHash(a.article.text), a.article.words]);
  });

  it('keeps a heading apart from the paragraph after it, and list items and cells apart', () => {
    const prose = loadArticle('en-library').paragraphs;
    const r = extractArticle(doc(`<html><body><article><h2>Tools</h2><p>${prose[0]}</p><ul><li>Ladders</li><li>Drills</li></ul><p>${prose[1]}</p><table><tr><td>Saws</td><td>Rakes</td></tr></table><p>${prose[2]}</p></article></body></html>`), 30);
    if (!r.ok) throw new Error('not extracted');
    expect(r.article.text).not.toMatch(/ToolsT|LaddersDrills|SawsRakes/);
    expect(r.article.text.split(/\s+/)).toEqual(expect.arrayContaining(['Tools', 'Ladders', 'Drills']));
  });

  it.each(['en', 'zh'] as const)('keeps the %s passages of a repost that puts a caption or "Related" line after every paragraph', (lang) => {
    // A line without a sentence end is a paragraph of its own, not the start of the sentence after it.
    const prose = loadArticle(`${lang}-library`).paragraphs;
    const page = (inserted: (k: number) => string) => `<html><body><article><h1>${lang === 'en' ? 'Tool libraries' : '工具图书馆'}</h1>${prose.map((p, k) => `<p>${p}</p>${inserted(k)}`).join('')}</article></body></html>`;
    const a = extractArticle(doc(page(() => '')), 30);
    const b = extractArticle(doc(page((k) => (lang === 'en' ? `<p>RELATED: Our guide to tools, part ${k}</p><figure><figcaption>Photo by a reader</figcaption></figure>` : `<p>相关阅读：工具指南第${k}篇</p><figure><figcaption>图片来源：读者</figcaption></figure>`))), 30);
    if (!a.ok || !b.ok) throw new Error('not extracted');
    const inB = new Set(cutPassages(b.article.text).map((p) => p.hash));
    expect(cutPassages(a.article.text).filter((p) => !inB.has(p.hash))).toEqual([]);
  });

  it('reads words with soft hyphens and zero-width spaces in them (a site\'s hyphenation points) as the words themselves', () => {
    const prose = loadArticle('en-library').paragraphs;
    const page = (mark: (w: string) => string) => `<html><body><article><h1>Tool libraries</h1>${prose.map((p) => `<p>${p.replace(/\w{7,}/g, mark)}</p>`).join('')}</article></body></html>`;
    const plain = extractArticle(doc(page((w) => w)), 30);
    const hyphenated = extractArticle(doc(page((w) => `${w.slice(0, 3)}\u00ad${w.slice(3, 5)}\u00ad${w.slice(5)}`)), 30);
    const zeroWidth = extractArticle(doc(page((w) => `${w.slice(0, 4)}\u200b${w.slice(4)}`)), 30);
    if (!plain.ok || !hyphenated.ok || !zeroWidth.ok) throw new Error('not extracted');
    expect(hyphenated.article.text).not.toMatch(/[\u00ad\u200b]/);
    for (const other of [hyphenated, zeroWidth]) {
      expect([fingerprint(other.article.text), textHash(other.article.text), cutPassages(other.article.text).map((p) => p.hash)]).toEqual([fingerprint(plain.article.text), textHash(plain.article.text), cutPassages(plain.article.text).map((p) => p.hash)]);
    }
  });

  it('keeps the words around a line break (br) apart, without starting a paragraph there', () => {
    const prose = loadArticle('en-library').paragraphs;
    const html = `<html><body><article>${prose.map((p) => `<p>${p.replace(/\. /, '.<br>')}</p>`).join('\n')}</article></body></html>`;
    const r = extractArticle(doc(html), 30);
    if (!r.ok) throw new Error('not extracted');
    expect(pagePassages(r.article.text).filter((p) => p.para)).toHaveLength(prose.length);
    const glued = extractArticle(doc('<html><body><article><p>' + `${prose[0]} Line one<br>line two. ${prose[1]}` + '</p></article></body></html>'), 30);
    if (!glued.ok) throw new Error('not extracted');
    expect(glued.article.text).toContain('one line two');
  });

  it('skips pages with too little prose', () => {
    const r = extractArticle(doc('<html><body><nav><a href="/">Home</a></nav><p>Sign in to continue.</p></body></html>'), 80);
    expect(r).toEqual({ ok: false, reason: 'too little text' });
  });

  it('skips a page without a body and a page too large to parse safely', () => {
    const noBody = doc('<html></html>');
    noBody.body.remove();
    expect(extractArticle(noBody, 80).ok).toBe(false);
    const huge = doc(`<html><body>${'<span>x</span>'.repeat(70_000)}</body></html>`);
    expect(extractArticle(huge, 80)).toMatchObject({ ok: false, reason: expect.stringMatching(/too large/) });
  }, 60_000); // jsdom builds 70,000 elements slowly
});

describe('pages that are not articles', () => {
  it.each(notArticles().map((p) => [p.name, p] as const))('does not record %s, though it holds plenty of text', (_, page) => {
    expect(extractArticle(doc(page.html), 30)).toEqual({ ok: false, reason: 'a list of links, not an article' });
  });

  it.each(articlesWithLinks().map((p) => [p.name, p] as const))('records the article %s, links and all', (_, page) => {
    expect(extractArticle(doc(page.html), 30).ok).toBe(true);
  });
});

describe('the addresses a page declares for itself', () => {
  it('reads rel=canonical and og:url from the head, made absolute, and nothing from the body', () => {
    const page = (head: string, body = '') => new JSDOM(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, { url: 'https://news.example/a/b?x=1' }).window.document;
    expect(declaredUrls(page('<link rel="Canonical" href="/story/1"><meta property="og:url" content="https://news.example/story/1?utm_source=x">'))).toEqual(['https://news.example/story/1', 'https://news.example/story/1?utm_source=x']);
    expect(declaredUrls(page('', '<link rel="canonical" href="https://evil.example/"><p>text</p>'))).toEqual([]);
    expect(declaredUrls(page('<link rel="canonical" href="http://[bad">'))).toEqual([]);
  });
});
