// What is new in a page read before: its passages that the earlier page does not hold, and the
// share of its text (by characters of words and Han/kana) the reader has already read. Both texts
// are cut with cutPassages. A passage the earlier text holds (same hash: the same words and
// characters, whatever the punctuation, spacing or case) is read. Any other passage is compared
// word by word: its words that lie in a run of EDIT_RUN words the earlier text also holds were
// read (an edited sentence keeps most of them); it is new when most of its text was not. A
// passage of fewer words than a run is compared in the runs that reach across its ends: it is
// read where it stands in the earlier text among the same words ("We met." after "We met; it
// rained."), and new where what surrounds it there is not.
import { normalizeText } from './normalize';
import { cutPassages, type Passage } from './passages';
import { coveredTokens, tokenize, type Tokens } from './tokens';

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

/**
 * `oldTitle`, the earlier page's title, was read too: the extraction keeps it apart from the text
 * (see read-set.ts, titleRead), and a copy that keeps the headline in its text has read it there.
 */
export function whatsNew(oldText: string, newText: string, oldTitle = ''): WhatsNew {
  const seen = new Set([...cutPassages(oldText), ...cutPassages(oldTitle)].map((p) => p.hash));
  const oldTokens = tokenize(normalizeText(oldText));
  const cut = cutPassages(newText);
  // The new text's tokens, passage after passage (no token spans a cut), and the passage of each.
  const newTokens: Tokens = { hashes: [], lengths: [] };
  const firstToken = cut.map((p) => {
    const at = newTokens.hashes.length;
    tokenize(normalizeText(newText.slice(p.start, p.end)), newTokens);
    return at;
  });
  // Runs within a passage, and across the ends of one shorter than a run; the old text's runs are
  // gathered once (once per passage, it took seconds for two texts of 100 KB).
  const covered = coveredTokens(oldTokens, newTokens, EDIT_RUN, firstToken);
  let total = 0;
  let read = 0;
  const passages = cut.map((p, k) => {
    let readChars = p.chars;
    if (!seen.has(p.hash)) {
      readChars = 0;
      const end = firstToken[k + 1] ?? newTokens.hashes.length;
      for (let t = firstToken[k]; t < end; t++) if (covered[t]) readChars += newTokens.lengths[t];
    }
    total += p.chars;
    read += readChars;
    return { ...p, isNew: readChars < READ_SHARE * p.chars, readChars };
  });
  return { read: total ? read / total : 0, passages };
}

