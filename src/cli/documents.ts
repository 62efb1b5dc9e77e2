// Reads a document from disk the way the extension would see it: HTML goes through jsdom and the
// content script's own extraction (Readability on a clone), plain text is taken as the article.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { cutPassages, DEFAULT_MATCH_SETTINGS, fingerprint, INVISIBLE, passageSet, passageSignature, sketchOf, textHash, textStats, type PageSignature, type PassageLookup, type PassageSignature, type Sketch } from '../core';
import { extractArticle } from '../content/extract';
import { MAX_PAGE_PASSAGES } from '../content/extract-limits';
import { MAX_ELEMENTS, serialise } from '../content/snapshot';

export interface LoadedDocument {
  path: string;
  /** The text that was fingerprinted ('' when the page holds no article). */
  text: string;
  fp: string;
  textHash: string;
  sketch: Sketch;
  passages: PassageSignature;
  /** Reading length in word-equivalents. */
  words: number;
  lang: string;
  /** The article's title, as the extension records it ('' for a text file). */
  title: string;
  /** Why no article was extracted, when none was. */
  skipped?: string;
}

/**
 * What the extension knows of a text to compare it with others (the decision's PageSignature): what
 * it keeps of a page, and, as the content script sends them for the page being read, all its
 * passages (used only when the text is the current page of a pair).
 */
export function textSignature(text: string, stats = textStats(text)): PageSignature & { sketch: Sketch; passages: PassageSignature; textHash: string; allPassages: PassageLookup } {
  return { fp: fingerprint(text), words: stats.words, textHash: textHash(text), sketch: sketchOf(text), passages: passageSignature(text), allPassages: passageSet(cutPassages(text).slice(0, MAX_PAGE_PASSAGES).map((p) => p.hash)) };
}

/** A user-facing error: printed as one line, no stack trace. */
export class CliError extends Error {}

export async function htmlToText(html: string, minWords = DEFAULT_MATCH_SETTINGS.minWords): Promise<{ text: string; lang: string; title: string; skipped?: string }> {
  // Page scripts never run and sub-resources are never fetched; CSS parse errors are not ours to report.
  let dom = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  try {
    // A page of more elements than the extension copies is read as it reads it: its first part.
    if ((dom.window.document.body?.getElementsByTagName('*').length ?? 0) > MAX_ELEMENTS) {
      const copy = await serialise(dom.window.document, { timeUp: () => false, pause: () => Promise.resolve() });
      if (!copy) return { text: '', lang: '', title: '', skipped: 'too large to copy' };
      dom.window.close();
      dom = new JSDOM(copy.join(''), { virtualConsole: new VirtualConsole() });
    }
    const result = extractArticle(dom.window.document, minWords);
    return result.ok ? { text: result.article.text, lang: result.article.lang, title: result.article.title } : { text: '', lang: '', title: '', skipped: result.reason };
  } finally {
    dom.window.close();
  }
}

/**
 * A file's text, or a CliError that says what is wrong in the same words for every command: no
 * such file, cannot read it, or not text (a NUL byte, or bytes that are not UTF-8: a binary file
 * named .html is not fingerprinted, and its bytes are never echoed back).
 */
export async function readTextFile(path: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `${path}: no such file` : `${path}: cannot read (${code ?? String(e)})`);
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) throw new CliError(`${path}: UTF-16 text (save it as UTF-8)`);
  if (bytes.includes(0)) throw new CliError(`${path}: not a text file (it holds NUL bytes)`);
  try {
    // A byte order mark (as Windows tools write UTF-8) is not text.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new CliError(`${path}: not UTF-8 text`);
  }
}

const HTML = new Set(['.html', '.htm', '.xhtml']);
const TEXT = new Set(['.txt', '.text', '.md']);

export async function loadDocument(path: string): Promise<LoadedDocument> {
  // The type first: a video named .mp4 is refused by its name, not after it was read whole.
  const ext = extname(path).toLowerCase();
  if (!HTML.has(ext) && !TEXT.has(ext)) throw new CliError(`${path}: unsupported file type "${ext || '(none)'}" (use .html or .txt)`);
  const raw = await readTextFile(path);
  // Soft hyphens and zero-width spaces left out of a text file as the extraction leaves them out of a page.
  let text = raw.replace(INVISIBLE, '');
  let declaredLang = '';
  let title = '';
  let skipped: string | undefined;
  if (HTML.has(ext)) ({ text, lang: declaredLang, title, skipped } = await htmlToText(raw));
  const stats = textStats(text);
  return { path, text, ...textSignature(text, stats), lang: declaredLang || stats.lang, title, ...(skipped ? { skipped } : {}) };
}
