// The what's-new benchmark: for every duplicate pair of a corpus, in both directions, compares the
// passages `whatsNew` marks new with the truth of a character-level alignment. Truth: both texts are
// normalised and split into tokens (words, single Han/kana characters); a token of the new text was
// read when some run of WINDOW consecutive tokens covering it also occurs anywhere in the old text
// (the passage hashes play no part). `read` is scored against the share of characters so aligned.
// Marking is scored two ways, in characters summed over all pairs: per passage (the unit whatsnew
// reports: a passage is truly new when most of its characters are not aligned), and per token
// (every unaligned character, including a changed word inside a sentence that is otherwise read).
import { cutPassages, normalizeText, whatsNew } from '../core';
import { decodeReadSet, newParts, pagePassages, readSetOf, whatsNewByHashes, type ReadSetOptions } from '../core/read-set';
import { coveredTokens, tokenize, type Tokens } from '../core/tokens';
import type { CorpusPair } from './corpus';

/** Tokens per aligned run: long enough that a shared run is shared text, not a common phrase. */
export const WINDOW = 8;

export interface PairResult {
  /** Characters of the new text that are truly new (per passage), marked new, and both. */
  trulyNew: number;
  markedNew: number;
  both: number;
  /** The same with the truth per token. */
  tokenNew: number;
  tokenBoth: number;
  readTruth: number;
  read: number;
  toldNew?: boolean;
  /** Whether the notice would say "You read the first N%" (the extension's method only). */
  toldPreview?: boolean;
}

/** What a method of telling what is new says of a pair: the new text's passages, in order. */
export interface NewPassages {
  read: number;
  passages: Array<{ start: number; end: number; isNew: boolean }>;
  /** Whether the notice would name new parts, the earlier page taken as on another site (the extension's method only: a repost that only wraps what was read has none). */
  toldNew?: boolean;
  /** Whether the notice would say "You read the first N%" (the extension's method only). */
  toldPreview?: boolean;
}
export type WhatsNewMethod = (oldText: string, newText: string) => NewPassages;

/**
 * The extension's hash-only method: the earlier text's read set, encoded and decoded as stored,
 * against the new text's passages and their sampled runs.
 */
export function byReadSet(options: ReadSetOptions): WhatsNewMethod {
  return (oldText, newText) => {
    const set = decodeReadSet(readSetOf(oldText, options));
    if (!set) throw new Error('read set does not decode');
    const passages = pagePassages(newText, options.runSample);
    const r = whatsNewByHashes(set, passages);
    return { read: r.read, passages: passages.map((p, k) => ({ start: p.start, end: p.end, isNew: r.passages[k].isNew })), toldNew: newParts(passages, r.passages, { elsewhere: true }).length > 0, toldPreview: r.readUpTo !== undefined };
  };
}

/** Scores a method (whatsNew on the two texts by default) against the alignment. */
export function scoreWhatsNew(oldText: string, newText: string, method: WhatsNewMethod = whatsNew): PairResult {
  const result = method(oldText, newText);
  // The new text's tokens in passage order, each knowing whether its passage was marked new.
  const tokens: Tokens = { hashes: [], lengths: [] };
  const starts: number[] = [];
  for (const p of result.passages) {
    starts.push(tokens.hashes.length);
    tokenize(normalizeText(newText.slice(p.start, p.end)), tokens);
  }
  starts.push(tokens.hashes.length);
  const covered = coveredTokens(tokenize(normalizeText(oldText)), tokens, WINDOW);
  let total = 0;
  let tokenNew = 0;
  let tokenBoth = 0;
  let trulyNew = 0;
  let markedNew = 0;
  let both = 0;
  result.passages.forEach((p, i) => {
    let chars = 0;
    let fresh = 0;
    for (let k = starts[i]; k < starts[i + 1]; k++) {
      chars += tokens.lengths[k];
      if (!covered[k]) fresh += tokens.lengths[k];
    }
    total += chars;
    tokenNew += fresh;
    const truly = fresh * 2 > chars;
    if (truly) trulyNew += chars;
    if (p.isNew) {
      markedNew += chars;
      tokenBoth += fresh;
      if (truly) both += chars;
    }
  });
  return { trulyNew, markedNew, both, tokenNew, tokenBoth, readTruth: total ? 1 - tokenNew / total : 0, read: result.read, ...(result.toldNew !== undefined ? { toldNew: result.toldNew } : {}), ...(result.toldPreview !== undefined ? { toldPreview: result.toldPreview } : {}) };
}

export interface WhatsNewTally {
  pairs: number;
  /** Share of the characters of truly new passages marked new. */
  recall: number;
  /** Share of the characters marked new that are in truly new passages. */
  precision: number;
  /** Share of the unaligned characters marked new, and of the characters marked new that are unaligned. */
  tokenRecall: number;
  tokenPrecision: number;
  /** Mean |read − true read| per pair. */
  readError: number;
  /** Mean true share read, for scale. */
  readTruth: number;
  /** Share of the pairs whose notice would name new parts (the extension's method only). */
  toldNew?: number;
  /** Share of the pairs whose notice would say "You read the first N%" (the extension's method only). */
  toldPreview?: number;
}

export interface WhatsNewReport {
  window: number;
  all: WhatsNewTally;
  byKind: Record<string, WhatsNewTally>;
  byLang: Record<string, WhatsNewTally>;
}

/** Every duplicate pair in both directions. `text` gives a document's extracted text, `lang` its language. */
export function benchWhatsNew(pairs: CorpusPair[], text: (id: string) => string, lang: (id: string) => string, method: WhatsNewMethod = whatsNew): WhatsNewReport {
  type Sum = { pairs: number; trulyNew: number; markedNew: number; both: number; tokenNew: number; tokenBoth: number; err: number; truth: number; told: number; preview: number; toldKnown: boolean };
  const zero = (): Sum => ({ pairs: 0, trulyNew: 0, markedNew: 0, both: 0, tokenNew: 0, tokenBoth: 0, err: 0, truth: 0, told: 0, preview: 0, toldKnown: false });
  const sums = new Map<string, Sum>();
  const add = (key: string, r: PairResult) => {
    const s = sums.get(key) ?? zero();
    s.pairs++;
    s.tokenNew += r.tokenNew;
    s.tokenBoth += r.tokenBoth;
    s.trulyNew += r.trulyNew;
    s.markedNew += r.markedNew;
    s.both += r.both;
    s.err += Math.abs(r.read - r.readTruth);
    s.truth += r.readTruth;
    if (r.toldNew !== undefined) {
      s.toldKnown = true;
      if (r.toldNew) s.told++;
      if (r.toldPreview) s.preview++;
    }
    sums.set(key, s);
  };
  for (const p of pairs) {
    if (p.label !== 'duplicate') continue;
    for (const [a, b] of [
      [p.a, p.b],
      [p.b, p.a],
    ]) {
      const oldText = text(a);
      const newText = text(b);
      if (cutPassages(newText).length === 0) continue;
      const r = scoreWhatsNew(oldText, newText, method);
      add('all', r);
      add(`kind:${p.kind}`, r);
      add(`lang:${lang(b)}`, r);
    }
  }
  const tally = (key: string): WhatsNewTally => {
    const s = sums.get(key) ?? zero();
    return {
      tokenRecall: s.tokenNew ? s.tokenBoth / s.tokenNew : 1,
      tokenPrecision: s.markedNew ? s.tokenBoth / s.markedNew : 1,
      pairs: s.pairs,
      recall: s.trulyNew ? s.both / s.trulyNew : 1,
      precision: s.markedNew ? s.both / s.markedNew : 1,
      readError: s.pairs ? s.err / s.pairs : 0,
      readTruth: s.pairs ? s.truth / s.pairs : 0,
      ...(s.toldKnown ? { toldNew: s.pairs ? s.told / s.pairs : 0, toldPreview: s.pairs ? s.preview / s.pairs : 0 } : {}),
    };
  };
  const keys = [...sums.keys()].sort();
  return {
    window: WINDOW,
    all: tally('all'),
    byKind: Object.fromEntries(keys.filter((k) => k.startsWith('kind:')).map((k) => [k.slice(5), tally(k)])),
    byLang: Object.fromEntries(keys.filter((k) => k.startsWith('lang:')).map((k) => [k.slice(5), tally(k)])),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The table; with the extension's method, "told new" is the share of pairs whose notice names new parts ("3 new paragraphs", "continue where the preview ended"), not "Nothing new". */
export function formatWhatsNew(r: WhatsNewReport, header: string): string {
  const row = (name: string, t: WhatsNewTally) =>
    `  ${name.padEnd(20)} ${String(t.pairs).padStart(6)} ${pct(t.recall).padStart(8)} ${pct(t.precision).padStart(10)} ${pct(t.tokenRecall).padStart(13)} ${pct(t.tokenPrecision).padStart(16)} ${t.readError.toFixed(3).padStart(11)} ${pct(t.readTruth).padStart(10)}${t.toldNew !== undefined ? pct(t.toldNew).padStart(11) : ''}${t.toldPreview !== undefined ? pct(t.toldPreview).padStart(14) : ''}`;
  return [
    header,
    '',
    `what's new, both directions of every duplicate pair; truth: tokens covered by a shared run of ${r.window} tokens`,
    `  ${''.padEnd(20)} ${'pairs'.padStart(6)} ${'recall'.padStart(8)} ${'precision'.padStart(10)} ${'token recall'.padStart(13)} ${'token precision'.padStart(16)} ${'read error'.padStart(11)} ${'true read'.padStart(10)}${r.all.toldNew !== undefined ? 'told new'.padStart(11) : ''}${r.all.toldPreview !== undefined ? 'told preview'.padStart(14) : ''}`,
    ...Object.entries(r.byKind).map(([k, t]) => row(k, t)),
    ...Object.entries(r.byLang).map(([k, t]) => row(`lang ${k}`, t)),
    row('all', r.all),
  ].join('\n');
}

export interface ReadSetSize {
  pages: number;
  /** Base64 characters of the stored read set: mean, median, 95th percentile, largest. */
  mean: number;
  median: number;
  p95: number;
  max: number;
  /** Mean per page at a 5,000-word article (pages of 4,000–6,000 words), or 0 if none. */
  at5000Words: number;
}

/** How much the read sets of these texts take, as stored. */
export function readSetSizes(texts: Array<{ text: string; words: number }>, options: ReadSetOptions): ReadSetSize {
  const sizes = texts.map((t) => ({ chars: readSetOf(t.text, options).length, words: t.words }));
  const sorted = sizes.map((s) => s.chars).sort((a, b) => a - b);
  const near5000 = sizes.filter((s) => s.words >= 4000 && s.words <= 6000);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    pages: sorted.length,
    mean: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
    median: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1] ?? 0,
    at5000Words: near5000.length ? near5000.reduce((a, s) => a + s.chars, 0) / near5000.length : 0,
  };
}

export function formatReadSetSize(s: ReadSetSize, options: ReadSetOptions): string {
  return [
    `read set (runs 1 in ${options.runSample || '—'}, ${options.bits} bits a passage, ${options.runBits} a run, cap ${options.cap} keys), stored base64 characters per page over ${s.pages} pages:`,
    `  mean ${s.mean.toFixed(0)}, median ${s.median}, 95th percentile ${s.p95}, largest ${s.max}; pages of 4,000–6,000 words ${s.at5000Words.toFixed(0)}`,
    `  10^6 pages like these: ${((s.mean * 1e6) / 2 ** 20).toFixed(0)} MiB`,
  ].join('\n');
}
