// Pulls the readable article out of a document. The extension runs it away from the page, on a
// parsed copy (src/background/extract-port.ts) and digests it there; the command line runs this same
// function on jsdom documents, so the extension and the CLI fingerprint the same text.
import { Readability } from '@mozilla/readability';
import { digestArticle, encodeSentPassages, INVISIBLE, pagePassages, passageLocator, wordCount, type ArticleDigest, type PassageLocator } from '../core';
import { isList, listShape } from './list-page';
import { MAX_PAGE_PASSAGES, MAX_TEXT_LENGTH } from './extract-limits';
import { MAX_ELEMENTS } from './snapshot';

export interface Article {
  title: string;
  text: string;
  /** Declared language of the page (`<html lang>`), or ''. */
  lang: string;
  /** Reading length of `text` in word-equivalents. */
  words: number;
}

export type Extraction = { ok: true; article: Article } | { ok: false; reason: string };

/**
 * The article in `doc`, or why there is none. Readability runs on a clone, because it rewrites
 * the document it is given.
 */
export function extractArticle(doc: Document, minWords: number): Extraction {
  const body = doc.body;
  if (!body) return { ok: false, reason: 'no body' };
  const elements = body.getElementsByTagName('*').length;
  if (elements > MAX_ELEMENTS) return { ok: false, reason: `too large (${elements} elements)` };
  // Cheap first look: not even the whole page holds enough prose.
  if (wordCount(body.textContent ?? '') < minWords) return { ok: false, reason: 'too little text' };

  let parsed: ReturnType<Readability<Element>['parse']>;
  try {
    // The article comes back as an element (not serialised to HTML): its shape is looked at below.
    parsed = new Readability(doc.cloneNode(true) as Document, { serializer: (node) => node as Element }).parse();
  } catch (e) {
    return { ok: false, reason: `readability failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  const text = parsed?.content ? blockText(parsed.content) : '';
  const words = wordCount(text);
  if (words < minWords) return { ok: false, reason: 'not an article' };
  // Search results, link lists, category pages: plenty of text, but in short items, each a link away.
  if (parsed?.content && isList(listShape(parsed.content, wordCount))) return { ok: false, reason: 'a list of links, not an article' };
  const title = articleTitle(parsed?.title || doc.title || '', doc);
  const lang = (doc.documentElement.getAttribute('lang') ?? '').trim();
  return { ok: true, article: { title, text, lang, words } };
}

/** Elements whose text stands apart from the text around it, whatever whitespace the page's HTML has between them. */
const BLOCKS = new Set('address article aside blockquote caption dd details div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section summary table td th tr ul'.split(' '));
/** Where a block ends, in blockText's list of what is left to read. */
const BLOCK_END = null;

/**
 * The article's text (its textContent) with a blank line around each block (core's passages end
 * there), a space for each br, and no soft hyphen or zero-width space (INVISIBLE). textContent runs the
 * blocks of HTML written without whitespace between its tags together, as pages rendered by
 * script frameworks are: "…hold it.</p><p>A new…" gave "hold it.A new", one sentence, and
 * "<h2>Tools</h2><p>Members…" the word "ToolsMembers". The same article written with line breaks
 * between its tags (another site's copy) was then cut into other passages: a third of an English
 * article's differed (the Readability pages of ../shared/corpus, their HTML without that
 * whitespace). Whitespace is no part of the text hash or of any token. One pass over the nodes,
 * without recursion (a page may nest deeper than the stack) and without changing the document.
 */
function blockText(article: Element): string {
  const parts: string[] = [];
  const left: Array<Node | typeof BLOCK_END> = [];
  for (let c = article.lastChild; c; c = c.previousSibling) left.push(c);
  while (left.length) {
    const node = left.pop();
    if (node === BLOCK_END) parts.push('\n\n');
    else if (node === undefined) break;
    // Soft hyphens and zero-width spaces inside words (a site's hyphenation points) are left out:
    // they split a word in two for the fingerprint and the passages, so a copy without them (or
    // with them elsewhere) looked different, and "what's new" took its sentences for new.
    else if (node.nodeType === 3 || node.nodeType === 4) parts.push((node as CharacterData).data.replace(INVISIBLE, ''));
    else if (node.nodeType === 1) {
      const name = (node as Element).localName;
      // A line break inside a paragraph keeps the words apart, and starts no paragraph (core's PagePassage.para).
      if (name === 'br') parts.push(' ');
      else if (BLOCKS.has(name)) {
        parts.push('\n\n');
        left.push(BLOCK_END);
      }
      for (let c = node.lastChild; c; c = c.previousSibling) left.push(c);
    }
  }
  return parts.join('').trim();
}

/**
 * The article in a page's HTML (a copy made by src/content/snapshot.ts), parsed by `parser`: the
 * DOMParser of the offscreen document or of Firefox's event page, whose documents are inert (no
 * scripts run, nothing is fetched).
 */
export function extractFromHtml(html: string, minWords: number, parser: DOMParser): Extraction {
  return extractArticle(parser.parseFromString(html, 'text/html'), minWords);
}

/** What leaves the place of extraction: the article's title and declared language, and the digest of its text. */
export interface DigestedArticle {
  title: string;
  /** Declared language of the page (`<html lang>`), or ''. */
  lang: string;
  /** Of the text's first MAX_TEXT_LENGTH characters. */
  digest: ArticleDigest;
  /** Its passages in order, as hashes (for the background to tell which are new), packed (core's encodeSentPassages)... */
  passages: string;
  /** ...and where each is on the page (for the content script to find the new ones, from this page's own text). */
  locators: PassageLocator[];
}

export type DigestedExtraction = { ok: true; article: DigestedArticle } | { ok: false; reason: string };

/**
 * The article in a page's HTML, digested where it was extracted: the text, up to megabytes, never
 * travels on, so neither the page's thread nor a message pays for it.
 */
export function digestFromHtml(html: string, minWords: number, parser: DOMParser): DigestedExtraction {
  const extraction = extractFromHtml(html, minWords, parser);
  if (!extraction.ok) return extraction;
  const { title, lang } = extraction.article;
  const text = extraction.article.text.length > MAX_TEXT_LENGTH ? extraction.article.text.slice(0, MAX_TEXT_LENGTH) : extraction.article.text;
  const cut = pagePassages(text, undefined, MAX_PAGE_PASSAGES);
  return {
    ok: true,
    article: {
      title,
      lang,
      // Its read set from these passages, unless they are not all of the text's.
      digest: digestArticle(text, cut.length < MAX_PAGE_PASSAGES ? cut : undefined),
      passages: encodeSentPassages(cut),
      locators: cut.map((p) => passageLocator(text, p.start, p.end)),
    },
  };
}

/**
 * Readability drops a " | Site name" suffix only when the rest has three or more space-separated
 * words (never true of a Chinese or Japanese title), and sometimes keeps only the part after a
 * colon. A heading that the document's <title> contains is the article's own title in any language.
 */
function articleTitle(readabilityTitle: string, doc: Document): string {
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
  const docTitle = clean(doc.title);
  for (const h of Array.from(doc.querySelectorAll('h1')).slice(0, 3)) {
    const heading = clean(h.textContent ?? '');
    if (heading.length >= 4 && docTitle.includes(heading)) return heading;
  }
  return clean(readabilityTitle);
}
