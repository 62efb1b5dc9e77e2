// Everything the history keeps of an article's text, computed in one place: the fingerprint, the
// reading length and guessed language, the exact-text hash, the resemblance sketch and the passage
// signature, in the encoded forms a record stores. The text itself is never kept; a digest is a
// few hundred bytes whatever the article's length, so it can travel between the parts of the
// extension where the text would be costly to send.
//
// The background computes one digest per page, so this is the per-page cost: the text is
// normalised once (or, when it is plain, read through a fold: normalize.ts) and scanned twice (the
// separate functions would normalise it three times and scan it five): once normalised, for the
// fingerprint, the sketch and the text hash together
// (digest-scan.ts), and once as it is, for the passages (whose cutting reads the characters as
// written) and the counts behind the reading length and language. The result equals the separate
// functions' field by field (tests/unit/digest.test.ts).
import { scanForDigest } from './digest-scan';
import { FINGERPRINT_OPTIONS } from './fingerprint';
import { toHex } from './fingerprint-hex';
import { normalizeText, plainFold } from './normalize';
import { encodePassages, PASSAGE_CAP, PASSAGE_MIN_WORDS, passageSignatureWith } from './passage-signature';
import { readSetOf, readSetOfPassages, type PagePassage } from './read-set';
import { FeatureCounter, simhashOfCounts } from './simhash';
import { encodeSketch, SketchBuilder } from './sketch';
import { statsFromCounts, type ScriptCounts } from './text-stats';

export interface ArticleDigest {
  /** 64-bit simhash, 16 hex digits. */
  fp: string;
  /** Reading length in word-equivalents (see textStats). */
  words: number;
  /** A BCP 47 primary language subtag guessed from the script mix ('und' when unsure). */
  lang: string;
  /** Hash of the normalised text: equal for the same text. */
  textHash: string;
  /** The resemblance sketch, encoded (encodeSketch). */
  sketch: string;
  /** The passage signature, encoded (encodePassages). */
  passages: string;
  /** The read set (read-set.ts): what a later page needs to tell which of its passages were read here. */
  readSet: string;
}

// Scratch tables reused from page to page (nothing of one text survives into the next digest).
const counter = /* @__PURE__ */ new FeatureCounter();
const sketch = /* @__PURE__ */ new SketchBuilder();

/**
 * `pagePassages`: every passage of `text` as pagePassages gives them (runs at RUN_SAMPLE), where
 * the caller has them already: the read set is made from them rather than by cutting the text again.
 */
export function digestArticle(text: string, pagePassages?: ReadonlyArray<Pick<PagePassage, 'hash' | 'runs'>>): ArticleDigest {
  counter.clear();
  sketch.reset();
  const fold = plainFold(text);
  const textHash = scanForDigest(fold ? text : normalizeText(text), counter, sketch, fold);
  const fp = simhashOfCounts(counter, FINGERPRINT_OPTIONS);
  // The passage scan reads the text as written, as textStats does: it counts for the stats too.
  const counts: ScriptCounts = { latinWords: 0, hanKana: 0, kana: 0, hangul: 0, abugida: 0, thai: 0, cyrillic: 0 };
  const passages = passageSignatureWith(text, PASSAGE_MIN_WORDS, PASSAGE_CAP, counts);
  const { words, lang } = statsFromCounts(text, counts);
  return { fp: toHex(fp.hi, fp.lo), words, lang, textHash, sketch: encodeSketch(sketch.sketch()), passages: encodePassages(passages), readSet: pagePassages ? readSetOfPassages(pagePassages) : readSetOf(text) };
}
