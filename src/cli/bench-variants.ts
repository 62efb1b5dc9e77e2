// The variants benchmark: copies harder than a corpus lists, made at run time from its documents,
// to see whether the method holds on the principle rather than on the corpus's own kinds. From the
// fullest document of each group it makes a shorter preview, a stretch from the middle, the end,
// and the whole text inside a page two to sixteen times as long (other groups' documents around it),
// and judges each against the document with the extension's decision (retrieval included), the
// copy read after the document and before it. `noTerminals` removes sentence ends from every text
// first, as scripts that do not mark them (Thai) or pages without punctuation would have it: the
// passages of such text are cut by content alone (core/passages.ts).
import { cutPassages, judgePair, textStats, type MatchSettings } from '../core';
import { textSignature as signature } from './documents';

export interface VariantDoc {
  id: string;
  lang: string;
  group: string;
  /** "<kind>:<id>" for a document made from another one of the corpus (docs.jsonl's `source`). */
  source?: string;
  text: string;
}

export interface VariantTally {
  pairs: number;
  /** Flagged with the copy read after the document, and before it. */
  later: number;
  earlier: number;
  /** Documents whose copy was missed (the copy read after), the first few. */
  missed: string[];
}

export interface VariantReport {
  documents: number;
  /** The documents copied: the fullest of each group. */
  bases: string[];
  noTerminals: boolean;
  /** By kind of copy; each also by script: "cjk" (Chinese, Japanese) and "other". */
  kinds: Record<string, VariantTally & { byScript: Record<'cjk' | 'other', VariantTally> }>;
}

const TERMINALS = /[.!?。！？｡．]/g;
/** Where a cut may fall: after a sentence end or at a line break. */
const BREAK = /[.!?。！？｡．\n]/g;

/**
 * The position after the first sentence end or line break at or after `share` of the text's
 * non-space characters (so that pages indented with runs of spaces are cut where their words are).
 */
export function cutAt(text: string, share: number): number {
  if (share <= 0) return 0;
  let total = 0;
  for (let i = 0; i < text.length; i++) if (!/\s/.test(text[i])) total++;
  const wanted = share * total;
  let seen = 0;
  let at = text.length;
  for (let i = 0; i < text.length; i++) {
    if (seen >= wanted) {
      at = i;
      break;
    }
    if (!/\s/.test(text[i])) seen++;
  }
  BREAK.lastIndex = at;
  const m = BREAK.exec(text);
  return m ? m.index + 1 : text.length;
}

/** The copies made of one document: kind → text. `filler(chars, seed)` gives unrelated text of about that length. */
export function variantsOf(text: string, filler: (chars: number, seed: number) => string): Array<[string, string]> {
  const part = (from: number, to: number) => text.slice(cutAt(text, from), cutAt(text, to)).trim();
  const around = (times: number) => `${filler(((times - 1) / 2) * text.length, 1)}\n\n${text}\n\n${filler(((times - 1) / 2) * text.length, 2)}`;
  return [
    ['preview, first 20 %', part(0, 0.2)],
    ['preview, first 30 %', part(0, 0.3)],
    ['middle 30 %', part(0.35, 0.65)],
    ['last 30 %', part(0.7, 1)],
    ['whole, after as much other text', `${filler(text.length, 3)}\n\n${text}`],
    ['whole, inside a page 2 × as long', around(2)],
    ['whole, inside a page 3 × as long', around(3)],
    ['whole, inside a page 4 × as long', around(4)],
    // An article inside a forum thread or a まとめ page many times its length.
    ['whole, inside a page 8 × as long', around(8)],
    ['whole, inside a page 16 × as long', around(16)],
    // Reposts re-punctuated: Chinese and Japanese full-width punctuation typed or converted half-width (no change elsewhere).
    ['preview, first 30 %, half-width punctuation', halfWidth(part(0, 0.3))],
    ['whole, inside a page 3 × as long, half-width punctuation', halfWidth(around(3))],
    // A repost that puts a line of its own (a caption, "Related: …", an ad) after every paragraph.
    ['whole, a line put after every paragraph', withLines(text, filler)],
    // A revision that rewords sentences here and there: its fingerprint may move past 7 bits, and
    // the passages it still shares are not the page's smallest.
    ['revision, a word put in 4 sentences in 5', revised(text, 0.8, filler)],
    ['revision, 1 sentence in 5 rewritten, a word put in 3 in 5', revised(text, 0.8, filler, 0.2)],
  ];
}

/** The text with a short line after each paragraph: the start of each paragraph of other text (a caption's or a headline's length). */
export function withLines(text: string, filler: (chars: number, seed: number) => string): string {
  const paragraphs = text.split(/\n[ \t]*\n/);
  const lines = filler(paragraphs.length * 400, 5)
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter(Boolean)
    .map((p) => (/[\u3040-\u30ff\u3400-\u9fff]/.test(p) ? p.slice(0, 14) : p.split(' ').slice(0, 7).join(' ')));
  return paragraphs.map((p, k) => (lines.length ? `${p}\n\n${lines[k % lines.length]}` : p)).join('\n\n');
}

/**
 * The text revised: of its passages (spread evenly: passage k when the fractional part of k × the
 * golden ratio is below a share), a share `replaced` rewritten (other text of about its length in its
 * place), and up to a share `edited` in all given a word of other text in their middle (two Han or
 * kana characters in Chinese or Japanese, a word at the space nearest the middle elsewhere).
 */
export function revised(text: string, edited: number, filler: (chars: number, seed: number) => string, replaced = 0): string {
  const other = filler(Math.max(4000, text.length), 6);
  const words = other.split(/\s+/).filter((w) => /^[\p{L}]+$/u.test(w));
  const han = other.replace(/[^\u3040-\u30ff\u3400-\u9fff]/g, '');
  const sentences = cutPassages(other).map((p) => other.slice(p.start, p.end).trim());
  let out = '';
  let from = 0;
  cutPassages(text).forEach((p, k) => {
    const f = (k * 0.6180339887) % 1;
    if (f < replaced && sentences.length) {
      out += `${text.slice(from, p.start)}${sentences[k % sentences.length]}`;
      from = p.end;
      return;
    }
    if (f >= edited) return;
    const mid = (p.start + p.end) >> 1;
    const cjk = /[\u3040-\u30ff\u3400-\u9fff]/.test(text[mid] ?? '');
    const at = cjk ? mid : text.lastIndexOf(' ', mid);
    if (at <= p.start) return;
    const h = (2 * k) % Math.max(1, han.length - 2);
    out += text.slice(from, at) + (cjk ? han.slice(h, h + 2) : ` ${words[k % Math.max(1, words.length)] ?? 'also'}`);
    from = at;
  });
  return out + text.slice(from);
}

/** Full-width punctuation as half-width: 。．→ . and ，、！？：；（）as , , ! ? : ; ( ) — no space after, as such reposts write it. */
export function halfWidth(text: string): string {
  return text.replace(/[。．，、！？：；（）]/g, (c) => '..,,!?:;()'['。．，、！？：；（）'.indexOf(c)]);
}

const isCjk = (lang: string) => /^(zh|ja)/.test(lang);
const emptyTally = (): VariantTally => ({ pairs: 0, later: 0, earlier: 0, missed: [] });

/** Whether a document was made from another one of the corpus (an excerpt, a repost, a page around it): its source names that one. */
const madeFrom = (d: VariantDoc, ids: ReadonlySet<string>) => d.source !== undefined && ids.has(d.source.slice(d.source.indexOf(':') + 1));

/**
 * Scores every variant of the fullest document of each group (of those not made from another
 * document, with at least `minWords`). Filler for a document comes from other groups' documents of
 * the same script family.
 */
export function benchVariants(docs: readonly VariantDoc[], settings: MatchSettings, { noTerminals = false, minWords = 300 } = {}): VariantReport {
  const ids = new Set(docs.map((d) => d.id));
  const prepared = docs.filter((d) => !madeFrom(d, ids)).map((d) => ({ ...d, text: noTerminals ? d.text.replace(TERMINALS, ' ') : d.text, words: textStats(d.text).words }));
  const fullest = new Map<string, (typeof prepared)[number]>();
  for (const d of prepared) if (d.words >= minWords && (fullest.get(d.group)?.words ?? -1) < d.words) fullest.set(d.group, d);
  const bases = [...fullest.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  const kinds: VariantReport['kinds'] = {};
  bases.forEach((base, k) => {
    const others = bases.filter((o) => o.group !== base.group && isCjk(o.lang) === isCjk(base.lang));
    const filler = (chars: number, seed: number) => {
      let out = '';
      for (let i = 0; out.length < chars && i < others.length; i++) out += `${others[(k + seed * 7 + i) % others.length].text}\n\n`;
      return out.slice(0, cutAt(out, Math.min(1, chars / Math.max(1, out.length))));
    };
    const original = signature(base.text);
    for (const [kind, text] of variantsOf(base.text, filler)) {
      const copy = signature(text);
      const later = judgePair(copy, original, settings).flagged;
      const earlier = judgePair(original, copy, settings).flagged;
      const entry = (kinds[kind] ??= { ...emptyTally(), byScript: { cjk: emptyTally(), other: emptyTally() } });
      for (const t of [entry, entry.byScript[isCjk(base.lang) ? 'cjk' : 'other']]) {
        t.pairs++;
        if (later) t.later++;
        else if (t.missed.length < 5) t.missed.push(base.id);
        if (earlier) t.earlier++;
      }
    }
  });
  return { documents: bases.length, bases: bases.map((b) => b.id), noTerminals, kinds };
}

const pct = (n: number, d: number) => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)} %`);

export function formatVariants(r: VariantReport, header: string): string {
  const rows = Object.entries(r.kinds).map(([kind, t]) => [kind, `${pct(t.later, t.pairs)} (${t.later}/${t.pairs})`, pct(t.earlier, t.pairs), pct(t.byScript.cjk.later, t.byScript.cjk.pairs), pct(t.byScript.other.later, t.byScript.other.pairs), t.missed.join(' ')]);
  const head = ['copy of the fullest document of a group', 'flagged, copy read after', 'copy read before', 'zh/ja', 'other', 'missed (copy read after)'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [header, line(head), ...rows.map(line)].join('\n');
}
