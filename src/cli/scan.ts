// Clusters of near-duplicates in an exported history: pages linked when their fingerprints are
// within the decision's distance, found through the same four-block pigeonhole as the extension.
import { blocksOf, hamming, isFingerprintHex } from '../core';
import { CliError } from './documents';

export interface ScannedPage {
  url: string;
  title: string;
  fp: string;
  algo: string;
  lastSeen: number;
}

export function parseExportPages(json: string, source: string): ScannedPage[] {
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

/** Groups of two or more pages linked by distance ≤ maxDistance (≤ 3), largest first. */
export function clusterPages(pages: ScannedPage[], maxDistance: number): ScannedPage[][] {
  const parent = pages.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const buckets = [new Map<string, number[]>(), new Map<string, number[]>(), new Map<string, number[]>(), new Map<string, number[]>()];
  pages.forEach((p, i) => {
    blocksOf(p.fp).forEach((block, b) => {
      const key = `${p.algo}:${block}`;
      const list = buckets[b].get(key);
      if (list) list.push(i);
      else buckets[b].set(key, [i]);
    });
  });
  for (const bucket of buckets) {
    for (const list of bucket.values()) {
      for (let x = 0; x < list.length; x++) {
        for (let y = x + 1; y < list.length; y++) {
          if (hamming(pages[list[x]].fp, pages[list[y]].fp) <= maxDistance) parent[root(list[x])] = root(list[y]);
        }
      }
    }
  }
  const groups = new Map<number, ScannedPage[]>();
  pages.forEach((p, i) => {
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(p);
    else groups.set(r, [p]);
  });
  return [...groups.values()].filter((g) => g.length > 1).sort((a, b) => b.length - a.length);
}
