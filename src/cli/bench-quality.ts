// The quality benchmark: fingerprints every document of a corpus, applies the extension's own
// decision function to every listed pair and to every pair of documents in different groups.
import { judgePair, type MatchSettings, type PageSignature } from '../core';
import type { CorpusDoc, CorpusPair } from './corpus';

export interface PrintedDoc extends CorpusDoc, PageSignature {}

interface Tally {
  pairs: number;
  flagged: number;
}
export type RecallTally = Tally & { recall: number };
export type RateTally = Tally & { rate: number };

export interface QualityReport {
  duplicate: Record<string, RecallTally>;
  hardNegative: Record<string, RateTally>;
  crossGroup: Tally & { fpr: number };
  /** The same figures per language of the pair's first document. */
  byLang: Record<string, { duplicate: Record<string, RecallTally>; hardNegative: Record<string, RateTally> }>;
}

const ratio = (n: number, d: number) => (d === 0 ? 0 : n / d);

function add(table: Record<string, Tally>, kind: string, flagged: boolean): void {
  const t = (table[kind] ??= { pairs: 0, flagged: 0 });
  t.pairs++;
  if (flagged) t.flagged++;
}

function finish<K extends 'recall' | 'rate'>(table: Record<string, Tally>, key: K): Record<string, Tally & Record<K, number>> {
  const out: Record<string, Tally & Record<K, number>> = {};
  let pairs = 0;
  let flagged = 0;
  for (const kind of Object.keys(table).sort()) {
    const t = table[kind];
    out[kind] = { ...t, [key]: ratio(t.flagged, t.pairs) } as unknown as Tally & Record<K, number>;
    pairs += t.pairs;
    flagged += t.flagged;
  }
  out.all = { pairs, flagged, [key]: ratio(flagged, pairs) } as unknown as Tally & Record<K, number>;
  return out;
}

export function scoreCorpus(docs: PrintedDoc[], pairs: CorpusPair[], settings: MatchSettings): QualityReport {
  const byId = new Map(docs.map((d) => [d.id, d]));
  const dup: Record<string, Tally> = {};
  const neg: Record<string, Tally> = {};
  const langDup: Record<string, Record<string, Tally>> = {};
  const langNeg: Record<string, Record<string, Tally>> = {};
  for (const p of pairs) {
    const a = byId.get(p.a) as PrintedDoc;
    const b = byId.get(p.b) as PrintedDoc;
    const { flagged } = judgePair(a, b, settings);
    if (p.label === 'duplicate') {
      add(dup, p.kind, flagged);
      add((langDup[a.lang] ??= {}), p.kind, flagged);
    } else {
      add(neg, p.kind, flagged);
      add((langNeg[a.lang] ??= {}), p.kind, flagged);
    }
  }
  let cross = 0;
  let crossFlagged = 0;
  for (let i = 0; i < docs.length; i++) {
    for (let j = i + 1; j < docs.length; j++) {
      if (docs[i].group === docs[j].group) continue;
      cross++;
      if (judgePair(docs[i], docs[j], settings).flagged) crossFlagged++;
    }
  }
  const byLang: QualityReport['byLang'] = {};
  for (const lang of new Set([...Object.keys(langDup), ...Object.keys(langNeg)])) {
    byLang[lang] = { duplicate: finish(langDup[lang] ?? {}, 'recall'), hardNegative: finish(langNeg[lang] ?? {}, 'rate') };
  }
  return {
    duplicate: finish(dup, 'recall'),
    hardNegative: finish(neg, 'rate'),
    crossGroup: { pairs: cross, flagged: crossFlagged, fpr: ratio(crossFlagged, cross) },
    byLang,
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The report as a table for people. */
export function formatQuality(r: QualityReport, header: string): string {
  const lines = [header, '', 'duplicates (recall: share flagged)'];
  const langs = Object.keys(r.byLang).sort();
  lines.push(`  ${'kind'.padEnd(20)} ${'pairs'.padStart(6)} ${'flagged'.padStart(8)} ${'recall'.padStart(7)}  ${langs.map((l) => `${l}`.padStart(14)).join(' ')}`);
  for (const [kind, t] of Object.entries(r.duplicate)) {
    const perLang = langs.map((l) => {
      const x = r.byLang[l].duplicate[kind];
      return (x && x.pairs ? `${pct(x.recall)} of ${x.pairs}` : '—').padStart(14);
    });
    lines.push(`  ${kind.padEnd(20)} ${String(t.pairs).padStart(6)} ${String(t.flagged).padStart(8)} ${pct(t.recall).padStart(7)}  ${perLang.join(' ')}`);
  }
  lines.push('', 'hard negatives (rate: share wrongly flagged)');
  for (const [kind, t] of Object.entries(r.hardNegative)) {
    lines.push(`  ${kind.padEnd(20)} ${String(t.pairs).padStart(6)} ${String(t.flagged).padStart(8)} ${pct(t.rate).padStart(7)}`);
  }
  lines.push('', `cross-group pairs: ${r.crossGroup.pairs}, flagged ${r.crossGroup.flagged}, false-positive rate ${r.crossGroup.fpr.toExponential(2)}`);
  return lines.join('\n');
}
