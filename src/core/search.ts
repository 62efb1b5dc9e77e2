// The history's search: what the reader types, folded as a text is before its fingerprint (case,
// full- and half-width forms, Traditional characters as Simplified: normalize.ts), and split at
// spaces into terms that must all be found. "後果 嚴重" finds 后果很严重, "ﾄﾚﾝﾄﾞ" finds トレンド,
// "class 语法" finds "Class 的基本语法".
//
// Chinese and Japanese are written without spaces, so a term in those scripts is also cut into its
// words (the platform's `Intl.Segmenter`, whose dictionary knows them), and a title holding those
// words in that order matches: "太空喝酒" finds 宇航员在太空中喝酒, "東京天気" finds 東京の天気.
// Only looser than the whole term (a title holding the term holds its words in order), never
// stricter; the words may differ a little between browsers' dictionaries, which only the search sees.
import { normalizeText } from './normalize';

/** One term of a search: the pieces a field must hold in this order (one piece for most terms). */
export type SearchTerm = readonly string[];

/** Han, kana or a CJK iteration mark: a term with one of these is cut into words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3005]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** Word segmenters by language, made when first needed (none where the platform has none). */
const segmenters = new Map<string, Intl.Segmenter | null>();
function segmenter(lang: 'zh' | 'ja'): Intl.Segmenter | null {
  let s = segmenters.get(lang);
  if (s === undefined) {
    s = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(lang, { granularity: 'word' }) : null;
    segmenters.set(lang, s);
  }
  return s;
}

/** A folded term's pieces: its words where it is Chinese or Japanese, else the term itself. */
function pieces(term: string): SearchTerm {
  if (!CJK.test(term)) return [term];
  const words = segmenter(KANA.test(term) ? 'ja' : 'zh');
  if (!words) return [term];
  const out: string[] = [];
  for (const { segment, isWordLike } of words.segment(term)) if (isWordLike) out.push(segment);
  return out.length > 0 ? out : [term];
}

/** The terms of a search (none for a query of spaces only). */
export function searchTerms(query: string): SearchTerm[] {
  return normalizeText(query)
    .split(/\s+/u)
    .filter((t) => t.length > 0)
    .map(pieces);
}

/** Whether `field` holds the pieces in order, each after the one before. */
function holds(field: string, term: SearchTerm): boolean {
  let at = 0;
  for (const piece of term) {
    const found = field.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return true;
}

/** Whether every term is found in one of the fields (a title, an address), each folded as the terms are. */
export function matchesSearch(terms: readonly SearchTerm[], fields: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const folded = fields.map(normalizeText);
  return terms.every((t) => folded.some((f) => holds(f, t)));
}
