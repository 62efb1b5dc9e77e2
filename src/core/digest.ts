// Everything the history keeps of an article's text, computed in one place: the fingerprint, the
// reading length and guessed language, the exact-text hash, the resemblance sketch and the passage
// signature, in the encoded forms a record stores. The text itself is never kept; a digest is a
// few hundred bytes whatever the article's length, so it can travel between the parts of the
// extension where the text would be costly to send.
import { fingerprint } from './fingerprint';
import { encodePassages, passageSignature } from './passage-signature';
import { encodeSketch, sketchOf } from './sketch';
import { textHash } from './text-hash';
import { textStats } from './text-stats';

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
}

export function digestArticle(text: string): ArticleDigest {
  const { words, lang } = textStats(text);
  return { fp: fingerprint(text), words, lang, textHash: textHash(text), sketch: encodeSketch(sketchOf(text)), passages: encodePassages(passageSignature(text)) };
}
