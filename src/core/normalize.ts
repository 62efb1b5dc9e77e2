// Normalisation before fingerprinting: compatibility forms (full-width letters, ligatures, circled
// digits) fold to their plain form under NFKC, then case folds. Whitespace needs no collapsing:
// the tokenizer treats any run of it as one separator.

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}
