// When one page counts as "read before" given another: the one decision function shared by the
// extension and the command line benchmark, with its settings as data.
import { hamming } from './fingerprint-hex';

export interface MatchSettings {
  /** Largest Hamming distance between fingerprints still flagged (at most 3 with block lookups). */
  maxDistance: number;
  /** Pages with less prose than this many word-equivalents are never flagged as near-duplicates. */
  minWords: number;
}

export const DEFAULT_MATCH_SETTINGS: Readonly<MatchSettings> = Object.freeze({ maxDistance: 3, minWords: 80 });

export interface Fingerprinted {
  fp: string;
  /** Reading length in word-equivalents (see textStats). */
  words: number;
}

export interface Verdict {
  flagged: boolean;
  distance: number;
}

export function judgePair(a: Fingerprinted, b: Fingerprinted, settings: MatchSettings = DEFAULT_MATCH_SETTINGS): Verdict {
  const distance = hamming(a.fp, b.fp);
  const longEnough = a.words >= settings.minWords && b.words >= settings.minWords;
  return { flagged: longEnough && distance <= settings.maxDistance, distance };
}
