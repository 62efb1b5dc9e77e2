// The fingerprint core: pure functions of text, identical in Chrome, Firefox and Node.
// No browser API, no DOM, no IndexedDB here — the CLI runs this same code in Node.
export { ALGORITHM, fingerprint, FINGERPRINT_OPTIONS, fingerprintWith } from './fingerprint';
export type { SimhashOptions, Weighting } from './simhash';
export { fromHex, hamming, isFingerprintHex, toHex } from './fingerprint-hex';
export { blocksOf, probeKeys, type Blocks } from './blocks';
export { textStats, type TextStats } from './text-stats';
export { normalizeText } from './normalize';
export { DEFAULT_MATCH_SETTINGS, judgePair, type Fingerprinted, type MatchSettings, type Verdict } from './decision';
export { siteOf } from './url';
