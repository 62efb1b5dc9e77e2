// The copy of the page that is extracted away from the page: it must give the same article as the
// page itself, be made without changing the page, and travel in small pieces.
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { digestArticle, encodeSentPassages, pagePassages, passageLocator, textStats } from '../../src/core';
import { digestFromHtml, extractArticle, extractFromHtml } from '../../src/content/extract';
import { MAX_TEXT_LENGTH } from '../../src/content/extract-limits';
import { hasEnoughProse, pieces, serialise, snapshotDocument, type Slicer } from '../../src/content/snapshot';
import { VECTORS } from '../fixtures/vectors';
import { PAGES, renderPage, type PageName } from '../e2e/site';

const window = new JSDOM('').window;
const doc = (html: string) => new JSDOM(html).window.document;
const parser = () => new window.DOMParser();

/** Never pauses. */
const straight: Slicer = { timeUp: () => false, pause: () => Promise.resolve() };
/** Pauses at every check, and counts the pauses. */
function everyCheck(): Slicer & { pauses: number } {
  const s = { pauses: 0, timeUp: () => true, pause: () => Promise.resolve(void s.pauses++) };
  return s;
}

const html = async (d: Document, slicer: Slicer = straight) => ((await serialise(d, slicer)) ?? []).join('');
const vectorPage = (text: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Vector</title></head><body><article>${text
  .split(/\n\n/)
  .map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
  .join('\n')}</article></body></html>`;

describe('the copy of the page', () => {
  it.each((Object.keys(PAGES) as PageName[]).filter((n) => !n.startsWith('longRead')))('gives the same article as the page itself: %s', async (name) => {
    const page = doc(renderPage(name));
    const copy = await html(page);
    expect(extractFromHtml(copy, 30, parser())).toEqual(extractArticle(page, 30));
  });

  it.each(Object.keys(VECTORS).filter((n) => VECTORS[n].browser))('gives the same article for the test vector page %s', async (name) => {
    const page = doc(vectorPage(VECTORS[name].text()));
    expect(extractFromHtml(await html(page), 30, parser())).toEqual(extractArticle(page, 30));
  }, 120_000); // the megabyte goes through Readability twice, in jsdom

  it('digests the article where it is extracted: the text stays there, its digest and passage hashes and locators travel', async () => {
    const page = doc(renderPage('enA'));
    const full = extractArticle(page, 30);
    const digested = digestFromHtml(await html(page), 30, parser());
    if (!full.ok || !digested.ok) throw new Error('no article');
    const text = full.article.text;
    const passages = pagePassages(text);
    expect(digested.article).toEqual({
      title: full.article.title,
      lang: full.article.lang,
      digest: digestArticle(text),
      passages: encodeSentPassages(passages),
      locators: passages.map((p) => passageLocator(text, p.start, p.end)),
    });
    // No run of the text's words travels, only the ends of each passage without their spaces.
    const sent = JSON.stringify(digested);
    const openings = passages.map((p) => text.slice(p.start, p.end).slice(0, 40)).filter((s) => /\s/.test(s));
    expect(openings.length).toBeGreaterThan(5);
    for (const s of openings) expect(sent).not.toContain(s);
    expect(digestFromHtml('<p>Too short.</p>', 30, parser())).toEqual({ ok: false, reason: 'too little text' });
  });

  it('digests no more than the first MAX_TEXT_LENGTH characters of a longer article', () => {
    const paragraph = (i: number) => `<p>Paragraph ${i} tells of rivers, bridges and the people who crossed them in the old days.</p>`;
    const body = Array.from({ length: 40_000 }, (_, i) => paragraph(i)).join('');
    const digested = digestFromHtml(`<!doctype html><html><head><title>Long</title></head><body><article>${body}</article></body></html>`, 30, parser());
    const whole = extractFromHtml(`<!doctype html><html><head><title>Long</title></head><body><article>${body}</article></body></html>`, 30, parser());
    if (!digested.ok || !whole.ok) throw new Error('no article');
    expect(whole.article.text.length).toBeGreaterThan(MAX_TEXT_LENGTH);
    expect(digested.article.digest).toEqual(digestArticle(whole.article.text.slice(0, MAX_TEXT_LENGTH)));
  }, 120_000);

  it('writes a small subtree in one call, a big one node by node, and the same article either way', async () => {
    const small = doc('<body><article><p>One <a href="/a?x=1&amp;y=2">link</a> &amp; <em>more</em>\u00a0text.</p><!-- note --></article></body>');
    expect(await html(small)).toBe('<html><head></head><body><article><p>One <a href="/a?x=1&amp;y=2">link</a> &amp; <em>more</em>&nbsp;text.</p><!-- note --></article></body></html>');
    // A script inside sends the walk in, which leaves it out.
    const withScript = doc('<body><article><p>Text.</p><script>var secret = 1;</script></article></body>');
    expect(await html(withScript)).toBe('<html><head></head><body><article><p>Text.</p></article></body></html>');
  });

  it('keeps the markup, attributes and text, and leaves out scripts, styles and the notice', async () => {
    const page = doc(
      `<!DOCTYPE html><html lang="fr"><head><title>A &amp; B</title><style>p{color:red}</style>` +
        `<script type="application/ld+json">{"headline":"A < B"}</script><script>var x = "<p>";</script></head>` +
        `<body><p class="lead" data-x='say "hi" &amp; go'>1 &lt; 2 &amp;&amp; 3 &gt; 2<br>next</p><pre>\n\nindented</pre>` +
        `<noscript><p>no script</p></noscript><div data-deja-read="notice"><p>the notice</p></div><!-- a comment --><svg viewBox="0 0 1 1"><circle r="1"/></svg></body></html>`,
    );
    const copy = await html(page);
    expect(copy).toBe(
      '<!DOCTYPE html><html lang="fr"><head><title>A &amp; B</title><script type="application/ld+json">{"headline":"A < B"}</script></head>' +
        '<body><p class="lead" data-x="say &quot;hi&quot; &amp; go">1 &lt; 2 &amp;&amp; 3 &gt; 2<br>next</p><pre>\n\nindented</pre>' +
        '<svg viewBox="0 0 1 1"><circle r="1"></circle></svg></body></html>',
    );
    // Parsed again, the text is the page's own, the leading newline of <pre> included.
    const again = new window.DOMParser().parseFromString(copy, 'text/html');
    expect(again.querySelector('pre')?.textContent).toBe(page.querySelector('pre')?.textContent);
    expect(again.querySelector('p')?.getAttribute('data-x')).toBe('say "hi" & go');
  });

  it('is the same when made in many slices, and leaves the page as it was', async () => {
    // Too many elements for one native call: walked, in slices.
    const page = doc(`${renderPage('enB').replace('</body>', '')}${'<p>More <a href="/x">words</a>, <em>and</em> more.</p>'.repeat(400)}</body>`);
    const before = new window.XMLSerializer().serializeToString(page);
    const slicer = everyCheck();
    expect(await html(page, slicer)).toBe(await html(page));
    expect(slicer.pauses).toBeGreaterThan(3);
    expect(new window.XMLSerializer().serializeToString(page)).toBe(before);
  });

  it('gives up on a page larger than the limit', async () => {
    const page = doc(`<body>${'<p>words and more words</p>'.repeat(2000)}</body>`);
    expect(await serialise(page, straight, 10_000)).toBeNull();
    expect(await serialise(page, straight, 100_000)).not.toBeNull();
  });

  it('copies the first part of a page of more elements than it copies, every element it opened closed', async () => {
    const page = doc(`<body><main><article>${Array.from({ length: 400 }, (_, i) => `<p>Paragraph <b>${i}</b> of the article.</p>`).join('')}</article></main><footer><p>The end.</p></footer></body>`);
    const copy = (await serialise(page, straight, 1_000_000, 100)) ?? [];
    const parsed = new JSDOM(copy.join('')).window.document;
    const paragraphs = [...parsed.querySelectorAll('article p')].map((p) => p.textContent);
    expect(paragraphs.length).toBeGreaterThan(40);
    expect(paragraphs.length).toBeLessThan(60);
    expect(paragraphs.at(-1)).toBe(`Paragraph ${paragraphs.length - 1} of the article.`);
    expect(parsed.querySelectorAll('*').length).toBeLessThanOrEqual(100);
    expect(copy.join('').endsWith('</article></main></body></html>')).toBe(true);
    expect(parsed.querySelector('footer')).toBeNull();
  });

  it('reads a page of more than 60,000 elements (a 10 MB article in ordinary markup) in its first part, not as a page without prose', async () => {
    const page = doc(`<body><article>${'<p>An ordinary <a href="/a">paragraph</a> of <em>the</em> article, with <b>its</b> words.</p>'.repeat(16_000)}</article></body>`);
    expect(page.body.getElementsByTagName('*').length).toBeGreaterThan(60_000);
    const copy = await snapshotDocument(page, 30, straight);
    expect(copy.ok).toBe(true);
    const parsed = new JSDOM(copy.ok ? copy.chunks.join('') : '').window.document;
    expect(parsed.body.getElementsByTagName('*').length).toBeLessThanOrEqual(60_000);
    expect(parsed.querySelectorAll('article p').length).toBeGreaterThan(14_000);
    expect(extractArticle(parsed, 30)).toMatchObject({ ok: true });
  }, 60_000);
});

describe('a page built of web components', () => {
  /** The page `name` with its article moved into an open shadow root, its heading slotted in from the light tree. */
  function componentPage(name: PageName, mode: 'open' | 'closed' = 'open'): Document {
    const page = doc(renderPage(name));
    const article = page.querySelector('article') as Element;
    const host = page.createElement('x-article');
    const shadow = host.attachShadow({ mode });
    // The heading stays in the light tree, drawn through a named slot; a nested component holds the text.
    const heading = article.querySelector('h1, h2');
    const inner = page.createElement('x-body');
    const innerShadow = inner.attachShadow({ mode: 'open' });
    innerShadow.append(...[...article.childNodes].filter((n) => n !== heading));
    const slot = page.createElement('slot');
    slot.name = 'title';
    const empty = page.createElement('slot');
    empty.name = 'byline';
    empty.textContent = 'Staff writer';
    shadow.append(slot, empty, inner);
    if (heading) {
      heading.setAttribute('slot', 'title');
      host.append(heading);
    }
    // Light children no slot takes are not drawn, and not read.
    const unslotted = page.createElement('p');
    unslotted.textContent = 'Subscribe to our newsletter for more stories.';
    host.append(unslotted);
    article.replaceWith(host);
    return page;
  }

  it('copies what is drawn: the shadow roots, each slot with what it is given', async () => {
    const page = doc(renderPage('enA'));
    const copy = await snapshotDocument(componentPage('enA'), 30, straight);
    if (!copy.ok) throw new Error(copy.reason);
    const html = copy.chunks.join('');
    expect(html).not.toContain('Subscribe to our newsletter');
    expect(html).toContain('Staff writer');
    const extracted = extractFromHtml(html, 30, parser());
    const original = extractArticle(page, 30);
    if (!extracted.ok || !original.ok) throw new Error('no article');
    // Every paragraph the page itself gives is in the copy's text.
    const paragraphs = original.article.text.split(/\n+/).filter((p) => p.trim().length > 0);
    expect(paragraphs.length).toBeGreaterThanOrEqual(5);
    for (const p of paragraphs) expect(extracted.article.text).toContain(p.trim());
    expect(extracted.article.title).toBe(original.article.title);
  });

  it('leaves the page as it was, in many slices', async () => {
    const page = componentPage('zhA');
    const serializer = new window.XMLSerializer();
    const shadowHtml = () => [...page.querySelectorAll('x-article')].flatMap((h) => [...(h.shadowRoot?.childNodes ?? [])].map((n) => serializer.serializeToString(n))).join('');
    const before = [new window.XMLSerializer().serializeToString(page), shadowHtml()];
    const slicer = everyCheck();
    const sliced = await snapshotDocument(page, 30, slicer);
    expect(sliced).toEqual(await snapshotDocument(page, 30, straight));
    expect(slicer.pauses).toBeGreaterThan(1);
    expect([new window.XMLSerializer().serializeToString(page), shadowHtml()]).toEqual(before);
  });

  it.each(['enA', 'zhA'] as const)('gives the same article when a widget of the page has a shadow root: %s', async (name) => {
    // An article in the page's own tree, and beside it a chat button drawn in a shadow root (as
    // many sites have): the copy follows the composed tree, and the article is the same.
    const page = doc(renderPage(name));
    const widget = page.createElement('x-chat');
    const button = page.createElement('button');
    button.append(page.createElement('slot'));
    const line = page.createElement('p');
    line.textContent = 'Questions? We answer within the hour.';
    widget.attachShadow({ mode: 'open' }).append(button, line);
    widget.textContent = 'Talk to us';
    page.body.append(widget);
    const copy = await snapshotDocument(page, 30, straight);
    if (!copy.ok) throw new Error(copy.reason);
    expect(copy.chunks.join('')).toContain('Questions? We answer within the hour.');
    expect(extractFromHtml(copy.chunks.join(''), 30, parser())).toEqual(extractArticle(doc(renderPage(name)), 30));
  });

  it('does not open a closed shadow root', async () => {
    expect(await snapshotDocument(componentPage('enA', 'closed'), 30, straight)).toEqual({ ok: false, reason: 'too little text' });
  });
});

describe('the cheap look for prose', () => {
  it('agrees with counting the words of the whole page', async () => {
    const pages = [renderPage('enA'), renderPage('zhB'), '<body><nav><a href="/">Home</a></nav><p>Sign in to continue.</p></body>', `<body>${'<span>two words</span>'.repeat(20)}</body>`];
    for (const p of pages) {
      const body = doc(p).body;
      expect(await hasEnoughProse(body, 30, straight)).toBe(textStats(body.textContent ?? '').words >= 30);
    }
  });

  it('stops reading once an article has enough words', async () => {
    const body = doc(`<body>${'<p>Plenty of words in every single paragraph of this long page.</p>'.repeat(5000)}</body>`).body;
    const slicer = everyCheck();
    expect(await hasEnoughProse(body, 30, slicer)).toBe(true);
    expect(slicer.pauses).toBeLessThan(10);
  });

  it('skips pages that are not articles before copying anything', async () => {
    expect(await snapshotDocument(doc('<body><p>Sign in to continue.</p></body>'), 30, straight)).toEqual({ ok: false, reason: 'too little text' });
    const article = await snapshotDocument(doc(renderPage('enA')), 30, straight);
    expect(article.ok && article.chunks.join('').startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
  });
});

describe('pieces', () => {
  it('cuts the copy into small pieces that join back into it, never inside a character', () => {
    const chunks = ['a'.repeat(25), `${'b'.repeat(9)}😀${'c'.repeat(9)}`, '', 'd'];
    const cut = [...pieces(chunks, 10)];
    expect(cut.join('')).toBe(chunks.join(''));
    expect(cut.every((p) => p.length <= 10 && p.length > 0)).toBe(true);
    expect(cut.some((p) => p.endsWith('\ud83d'))).toBe(false);
  });
});
