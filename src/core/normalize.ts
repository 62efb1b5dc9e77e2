// Normalisation before fingerprinting: compatibility forms (full-width letters, ligatures, circled
// digits) fold to their plain form under NFKC, then case folds. Whitespace needs no collapsing:
// the tokenizer treats any run of it as one separator.

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/** The text with each lone surrogate (half of a character, as a cut may leave one) as U+FFFD, as UTF-8 writes it. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
