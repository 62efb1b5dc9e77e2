// The history's search: what the reader types, folded as a text is before its fingerprint (case,
// full- and half-width forms, Traditional characters as Simplified: normalize.ts), and split at
// spaces into terms that must all be found. "後果 嚴重" finds 后果很严重, "ﾄﾚﾝﾄﾞ" finds トレンド,
// "class 语法" finds "Class 的基本语法".
import { normalizeText } from './normalize';

/** The terms of a search (none for a query of spaces only). */
export function searchTerms(query: string): string[] {
  return normalizeText(query)
    .split(/\s+/u)
    .filter((t) => t.length > 0);
}

/** Whether every term is found in one of the fields (a title, an address), each folded as the terms are. */
export function matchesSearch(terms: readonly string[], fields: readonly string[]): boolean {
  if (terms.length === 0) return true;
  const folded = fields.map(normalizeText);
  return terms.every((t) => folded.some((f) => f.includes(t)));
}
