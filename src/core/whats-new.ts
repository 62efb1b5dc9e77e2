// What is new in a page read before: its passages that the earlier page does not hold, and the
// share of its text (by characters of words and Han/kana) the reader has already read. Both texts
// are cut with cutPassages. A passage the earlier text holds (same hash: the same words and
// characters, whatever the punctuation, spacing or case) is read. Any other passage is compared
// word by word: its words that lie in a run of EDIT_RUN words the earlier text also holds were
// read (an edited sentence keeps most of them); it is new when most of its text was not.
import { normalizeText } from './normalize';
import { cutPassages, type Passage } from './passages';
import { coveredTokens, tokenize } from './tokens';

/** Words (or Han/kana characters) per run when an edited passage is compared with the earlier text. */
export const EDIT_RUN = 6;
/** A passage is new when less than this share of its characters was read. */
const READ_SHARE = 0.5;

export interface WhatsNew {
  /** Share of the new text's characters found in the old one (0..1; 0 for a text without passages). */
  read: number;
  /** Passages of the new text, in order, each marked new or read, with its characters found in the old text. */
  passages: Array<Passage & { isNew: boolean; readChars: number }>;
}

export function whatsNew(oldText: string, newText: string): WhatsNew {
  const seen = new Set(cutPassages(oldText).map((p) => p.hash));
  const oldTokens = tokenize(normalizeText(oldText));
  let total = 0;
  let read = 0;
  const passages = cutPassages(newText).map((p) => {
    let readChars = p.chars;
    if (!seen.has(p.hash)) {
      const tokens = tokenize(normalizeText(newText.slice(p.start, p.end)));
      const covered = coveredTokens(oldTokens, tokens, EDIT_RUN);
      readChars = tokens.lengths.reduce((n, len, k) => n + (covered[k] ? len : 0), 0);
    }
    total += p.chars;
    read += readChars;
    return { ...p, isNew: readChars < READ_SHARE * p.chars, readChars };
  });
  return { read: total ? read / total : 0, passages };
}
