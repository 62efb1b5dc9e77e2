// Clusters of near-duplicates in an exported history: pages linked when their fingerprints are
// within the decision's distance, found through the same four-block pigeonhole as the extension.
import { blocksOf, hamming, isFingerprintHex, probeKeys } from '../core';
import { CliError } from './documents';

export interface ScannedPage {
  url: string;
  title: string;
  fp: string;
  algo: string;
  lastSeen: number;
}

export function parseExportPages(json: string, source: string): ScannedPage[] {
  if (json.trim() === '') throw new CliError(`${source}: the file is empty (expected a history exported by Déjà Read)`);
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    throw new CliError(`${source}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const d = doc as { format?: unknown; pages?: unknown };
  if (!d || typeof d !== 'object' || d.format !== 'deja-read-history') throw new CliError(`${source}: not a Déjà Read history export (format must be "deja-read-history")`);
  if (!Array.isArray(d.pages)) throw new CliError(`${source}: "pages" must be an array`);
  return d.pages.map((p: unknown, i: number) => {
    const r = p as Record<string, unknown>;
    if (!r || typeof r !== 'object' || typeof r.url !== 'string') throw new CliError(`${source}: page ${i + 1}: "url" must be a string`);
    if (!isFingerprintHex(r.fp)) throw new CliError(`${source}: page ${i + 1}: "fp" must be 16 lowercase hex digits`);
    return {
      url: r.url,
      title: typeof r.title === 'string' ? r.title : '',
      fp: r.fp,
      algo: typeof r.algo === 'string' ? r.algo : '',
      lastSeen: typeof r.lastSeen === 'number' ? r.lastSeen : 0,
    };
  });
}

/**
 * Groups of two or more pages linked by distance ≤ maxDistance (at most 7), largest first. Of two
 * fingerprints within 7 bits, one of the four 16-bit blocks differs in at most one bit (within 3,
 * one is equal): each page looks in the buckets of its blocks and, past 3, of their one-bit
 * neighbours, as the extension's lookup does (core's probeKeys).
 */
export function clusterPages(pages: ScannedPage[], maxDistance: number): ScannedPage[][] {
  const parent = pages.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const buckets = [new Map<string, number[]>(), new Map<string, number[]>(), new Map<string, number[]>(), new Map<string, number[]>()];
  const blocks = pages.map((p) => blocksOf(p.fp));
  pages.forEach((p, i) => {
    blocks[i].forEach((block, b) => {
      const key = `${p.algo}:${block}`;
      const list = buckets[b].get(key);
      if (list) list.push(i);
      else buckets[b].set(key, [i]);
    });
  });
  const neighbours = maxDistance > 3;
  pages.forEach((p, i) => {
    blocks[i].forEach((block, b) => {
      for (const probe of probeKeys(block, neighbours)) {
        for (const j of buckets[b].get(`${p.algo}:${probe}`) ?? []) {
          if (j > i && root(i) !== root(j) && hamming(p.fp, pages[j].fp) <= maxDistance) parent[root(i)] = root(j);
        }
      }
    });
  });
  const groups = new Map<number, ScannedPage[]>();
  pages.forEach((p, i) => {
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(p);
    else groups.set(r, [p]);
  });
  return [...groups.values()].filter((g) => g.length > 1).sort((a, b) => b.length - a.length);
}
