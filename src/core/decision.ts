// When a page counts as "read before" given an earlier one: the one decision function shared by
// the extension and the command line benchmark, with its settings as data.
//
// Layers, in order: the same normalised text is always the same article; below a minimum of prose
// nothing is a near-duplicate; the pair must be retrievable: fingerprints within the retrieval
// distance (the block index finds nothing farther) or a shared passage-index anchor (the passage
// index finds a copy whatever surrounds it); then verification must agree: the sketch (enough shared
// shingles, or one text holding most of the other) or the passage signatures (most of the shorter
// page's passages found in the other, and at least a few of them). Records without a sketch fall
// back to the fingerprint alone at ≤ 3 bits; records without passages are found by fingerprint only.
import { hamming } from './fingerprint-hex';
import { heldIn, passageOverlap, shareAnchor, type PassageLookup, type PassageSignature } from './passage-signature';
import { overlap, type Sketch } from './sketch';

export interface MatchSettings {
  /** Largest Hamming distance between fingerprints retrieved for verification (≤ 7). */
  maxDistance: number;
  /** Pages with less prose than this many word-equivalents are never near-duplicates. */
  minWords: number;
  /** Estimated resemblance (shared shingles / all shingles) from which two texts are the same article. */
  minResemblance: number;
  /** Estimated containment (shared shingles, or shared passages, over those of the shorter text) from which the shorter is part of the longer. */
  minContainment: number;
  /** Passages the two samples must share before passage containment counts: one or two common sentences are not a copy. */
  minSharedPassages: number;
  /**
   * Fingerprints at most this far apart weigh the two texts' words alike as a whole; there the
   * sketch need only show `closeResemblance`, the resemblance threshold less one standard error of
   * the sketch's estimate (about 0.05 at 128 buckets), so that a pair the sketch puts just under
   * the threshold is not decided by its sampling noise when the fingerprints agree. Strict, which
   * promises only near-identical copies, asks its full threshold there too.
   */
  closeDistance: number;
  closeResemblance: number;
}

export type Sensitivity = 'strict' | 'normal' | 'loose';

export const SENSITIVITY: Readonly<Record<Sensitivity, Readonly<MatchSettings>>> = /* @__PURE__ */ Object.freeze({
  strict: Object.freeze({ maxDistance: 3, minWords: 150, minResemblance: 0.7, minContainment: 0.9, minSharedPassages: 4, closeDistance: 3, closeResemblance: 0.7 }),
  normal: Object.freeze({ maxDistance: 7, minWords: 80, minResemblance: 0.5, minContainment: 0.75, minSharedPassages: 3, closeDistance: 4, closeResemblance: 0.45 }),
  loose: Object.freeze({ maxDistance: 7, minWords: 50, minResemblance: 0.35, minContainment: 0.6, minSharedPassages: 3, closeDistance: 4, closeResemblance: 0.3 }),
});

export const DEFAULT_MATCH_SETTINGS: Readonly<MatchSettings> = SENSITIVITY.normal;

/** Pages with less prose than this (word-equivalents) are not recorded at all: menus, sign-in pages, errors. */
export const MIN_RECORDED_WORDS = 30;

/** Beyond this distance a fingerprint alone says nothing; used for records without a sketch. */
export const FINGERPRINT_ONLY_DISTANCE = 3;

export interface PageSignature {
  fp: string;
  /** Reading length in word-equivalents (see textStats). */
  words: number;
  textHash?: string;
  sketch?: Sketch | null;
  /** Passage signature; absent on records made before passages existed. */
  passages?: PassageSignature | null;
  /**
   * Every passage of the page being read, when it is at hand (the content script sends them; a
   * stored page's read set holds them): an earlier page's passages are then looked for among them
   * all, not in a sample (heldIn).
   */
  allPassages?: PassageLookup;
}

export type MatchKind =
  | 'same-text' // the normalised texts are identical
  | 'near-duplicate' // most passages shared
  | 'contains-earlier' // this page holds most of the earlier one (a repost with extras, the full article after a preview)
  | 'part-of-earlier' // this page is mostly a part of the earlier one (a preview or excerpt of what was read)
  | 'fingerprint'; // an old record without a sketch: the fingerprints alone agree

export interface Verdict {
  flagged: boolean;
  kind?: MatchKind;
  distance: number;
  /** Estimated share of passages in common (0..1), when a sketch gave one. */
  resemblance?: number;
  /** Estimated share of the shorter text found in the longer (0..1), when a sketch or the passages gave one. */
  containment?: number;
  /** Estimated share of the current page's text found in the earlier one (0..1), from shared passages. */
  read?: number;
  /** Passages found in both (of the shorter page's, where the current page's were all at hand), when both had passages. */
  shared?: number;
}

const ZERO = '0000000000000000';

/** A text with fewer shingles than this share of another's is "part of" it rather than a copy. */
const PART_RATIO = 0.85;

/**
 * Whether `current` counts as read before given `earlier`, and how. `framed`: the two are pages of
 * one site whose frame (site-frame.ts) the caller took out of their passages; the sketch, which
 * sees the whole text, frame and all, then decides nothing, and the passages left decide alone,
 * their share in common standing for the sketch's resemblance.
 */
export function judgePair(current: PageSignature, earlier: PageSignature, settings: MatchSettings = DEFAULT_MATCH_SETTINGS, { framed = false } = {}): Verdict {
  const distance = hamming(current.fp, earlier.fp);
  if (current.textHash && current.textHash !== ZERO && current.textHash === earlier.textHash) {
    return { flagged: true, kind: 'same-text', distance, resemblance: 1, containment: 1, read: 1 };
  }
  if (current.words < settings.minWords || earlier.words < settings.minWords) return { flagged: false, distance };
  const passages = current.passages && earlier.passages ? { a: current.passages, b: earlier.passages } : null;
  if (distance > settings.maxDistance && !(passages && shareAnchor(passages.a, passages.b))) return { flagged: false, distance };
  if (!current.sketch || !earlier.sketch) {
    const flagged = distance <= Math.min(settings.maxDistance, FINGERPRINT_ONLY_DISTANCE);
    return flagged ? { flagged, kind: 'fingerprint', distance } : { flagged, distance };
  }
  const sketch = overlap(current.sketch, earlier.sketch);
  let resemblance = framed ? 0 : sketch.resemblance;
  const sketchContainment = framed ? 0 : sketch.containment;
  let containment = sketchContainment;
  let read: number | undefined;
  let passageContained = false;
  let shared: number | undefined;
  if (passages) {
    const o = passageOverlap(passages.a, passages.b);
    // Containment of the page with fewer passages in the other: exact below the cap, a consistent
    // sample above; by characters where `a` carries its passages' lengths (a text's signature, or
    // the page being read, whose content script sends them: withPassageChars), else by passages.
    let passageContainment = passages.a.count <= passages.b.count ? o.aInB : o.bInA;
    shared = o.shared;
    // An earlier page with fewer passages than this one is looked for among all of this one's where
    // they are at hand: an article whole inside a page many times as long shares every passage with
    // it, but only the one or two that both samples keep would be seen. (As many passages as this
    // one: its share held there, by characters, as above; until 28 November 2026 the earlier page's
    // share held here, by passages, which a site's many short lines made most of a page: review 50.)
    if (current.allPassages && passages.b.count < passages.a.count) {
      const held = heldIn(passages.b, current.allPassages);
      passageContainment = held.share;
      shared = held.found;
    }
    passageContained = shared >= settings.minSharedPassages && passageContainment >= settings.minContainment;
    containment = Math.max(containment, passageContainment);
    read = o.aInB;
    // The passages' resemblance, on the two consistent samples (exact below the cap): in common over either.
    if (framed) resemblance = o.shared / Math.max(1, o.inA + o.inB - o.shared);
  }
  const a = current.sketch.size;
  const b = earlier.sketch.size;
  const contained = sketchContainment >= settings.minContainment || passageContained;
  let kind: MatchKind | undefined;
  // One text mostly inside a clearly longer one is a preview or an extended copy, however much
  // of the longer one it covers; otherwise shared passages make a near-duplicate.
  if (contained && Math.min(a, b) < PART_RATIO * Math.max(a, b)) kind = a > b ? 'contains-earlier' : 'part-of-earlier';
  else if (resemblance >= (distance <= settings.closeDistance ? settings.closeResemblance : settings.minResemblance)) kind = 'near-duplicate';
  else if (contained) kind = 'near-duplicate';
  return { flagged: kind !== undefined, ...(kind ? { kind } : {}), distance, resemblance, containment, ...(read !== undefined ? { read } : {}), ...(shared !== undefined ? { shared } : {}) };
}
