// Pulls the readable article out of a document. The command line runs this same function on
// jsdom documents, so the extension and the CLI fingerprint the same text.
import { Readability } from '@mozilla/readability';
import { textStats } from '../core';

export interface Article {
  title: string;
  text: string;
  /** Declared language of the page (`<html lang>`), or ''. */
  lang: string;
  /** Reading length of `text` in word-equivalents. */
  words: number;
}

export type Extraction = { ok: true; article: Article } | { ok: false; reason: string };

/** Pages with more elements than this are skipped rather than risk freezing the tab. */
export const MAX_ELEMENTS = 60_000;

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
  if (textStats(body.textContent ?? '').words < minWords) return { ok: false, reason: 'too little text' };

  let parsed: ReturnType<Readability<string>['parse']>;
  try {
    parsed = new Readability(doc.cloneNode(true) as Document).parse();
  } catch (e) {
    return { ok: false, reason: `readability failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  const text = parsed?.textContent?.trim() ?? '';
  const words = textStats(text).words;
  if (words < minWords) return { ok: false, reason: 'not an article' };
  const title = articleTitle(parsed?.title || doc.title || '', doc);
  const lang = (doc.documentElement.getAttribute('lang') ?? '').trim();
  return { ok: true, article: { title, text, lang, words } };
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

/** The URLs a page declares for itself (rel=canonical, og:url), made absolute. */
export function declaredUrls(doc: Document): string[] {
  const out: string[] = [];
  const add = (value: string | null | undefined) => {
    if (!value) return;
    try {
      out.push(new URL(value.trim(), doc.baseURI).href);
    } catch {
      // not a URL: ignored
    }
  };
  add(doc.querySelector('link[rel~="canonical" i]')?.getAttribute('href'));
  add(doc.querySelector('meta[property="og:url" i]')?.getAttribute('content'));
  return out;
}
