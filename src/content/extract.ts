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
 * words, which a Chinese or Japanese title never has. A heading that the title contains is the
 * article's own title in any language.
 */
function articleTitle(title: string, doc: Document): string {
  const full = title.replace(/\s+/g, ' ').trim();
  for (const h of Array.from(doc.querySelectorAll('h1')).slice(0, 3)) {
    const heading = (h.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (heading.length >= 4 && heading.length < full.length && full.includes(heading)) return heading;
  }
  return full;
}
