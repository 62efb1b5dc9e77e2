// The fingerprint core: pure functions of text, identical in Chrome, Firefox and Node.
// No browser API, no DOM, no IndexedDB here — the CLI runs this same code in Node.
export { ALGORITHM, comparableAlgorithms, fingerprint, FINGERPRINT_OPTIONS, fingerprintWith } from './fingerprint';
export type { SimhashOptions, Weighting } from './simhash';
export { fromHex, hamming, isFingerprintHex, toHex } from './fingerprint-hex';
export { hammingHalves } from './hamming';
export { fmix32 } from './hash';
export { fromBase64, toBase64 } from './base64';
export { blocksOf, probeKeys, type Blocks } from './blocks';
export { textStats, wordCount, type TextStats } from './text-stats';
export { normalizeText, wellFormed } from './normalize';
export { matchesSearch, searchTerms, type SearchTerm } from './search';
export { DEFAULT_MATCH_SETTINGS, FINGERPRINT_ONLY_DISTANCE, judgePair, MIN_RECORDED_WORDS, SENSITIVITY, type MatchKind, type MatchSettings, type PageSignature, type Sensitivity, type Verdict } from './decision';
export { decodeSketch, decodeSketchBytes, encodeSketch, overlap, sketchOf, SKETCH_BUCKETS, type Overlap, type Sketch } from './sketch';
export { textHash } from './text-hash';
export { bothSchemes, canonicalizeUrl, isRouteFragment, MAX_STORED_URL_LENGTH, MAX_URL_LENGTH, otherScheme, pageIdentity, parseWebUrl, pickCanonicalUrl, registrableDomain, schemeFree, siteOf, TRACKING_PARAMETERS } from './url';
export { decodePunycode, displayHost, displayUrl } from './idn';
export { isSearchResultPage, linkKey, linkTarget } from './links';
export { cutPassages, type Passage } from './passages';
export { ANCHOR_CAP, ANCHOR_COUNT, anchorCount, LEAD_COUNT, PROBE_COUNT, anchorsOf, decodePassageBytes, decodePassages, encodePassages, heldIn, PASSAGE_CAP, PASSAGE_MIN_WORDS, passageOverlap, passageSet, passageSignature, shareAnchor, withPassageChars, type PassageLookup, type PassageOverlap, type PassageSignature } from './passage-signature';
export { frameAtEnds, lookupWithoutFrame, siteFrame, titledApart, touchesFrame, withoutFrame } from './site-frame';
export { whatsNew, type WhatsNew } from './whats-new';
export { digestArticle, type ArticleDigest } from './digest';
export { INVISIBLE, LOCATOR_CHARS, passageLocator, SKIPPED_CHAR, spacedPattern, withoutSpaces, type PassageLocator } from './locator';
export { decodeSentPassages, encodeSentPassages, type SentPassageLimits } from './sent-passages';
export { decodeReadSet, decodeReadSetBytes, inThirds, isReadSetBytes, MAX_READ_SET_LENGTH, newParts, pagePassages, READ_SET_CAP, READ_SET_OPTIONS, readSetOf, readSetOfKeys, RUN_SAMPLE, titleRead, whatsNewByHashes, type HashedWhatsNew, type PagePassage, type ReadSet } from './read-set';
