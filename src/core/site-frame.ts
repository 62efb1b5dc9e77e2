// A site's frame: the lines a site puts around every article it carries (a copyright notice, a
// disclaimer, a newsletter pitch, 关注公众号). Two different articles of one site share them, and
// around a short article they can be most of the text, so a sketch of the whole text, or a count of
// shared passages, would take two articles for one. The frame is learned from the reader's own
// history when a page is judged: the passages it shares with two earlier pages of its own site
// that are two other articles, each with passages of its own that the page does not hold, and not
// the same ones (three copies of one article share everything, and none has text of its own; a
// preview of an article read at two addresses of its site finds the rest of it in both, the same
// rest). The history's own rule (a passage more than 24 pages share is no anchor) needs many pages
// of a site; this one needs two.
import { normalizeText } from './normalize';
import type { PassageLookup, PassageSignature } from './passage-signature';
import { TITLE_PARTS } from './read-set';

/** The 24-bit keys of the passages that make the frame of `current`'s site, given earlier pages of that site. */
export function siteFrame(current: PassageLookup, earlier: readonly PassageSignature[], minOwn: number): Set<number> {
  const pages: Array<{ held: number[]; own: Set<number> }> = [];
  for (const e of earlier) {
    const shift = e.bits === 32 ? 8 : 0;
    const held: number[] = [];
    const own = new Set<number>();
    for (const h of e.hashes) {
      if (current.has(h >>> shift)) held.push(h >>> shift);
      else own.add(h >>> shift);
    }
    if (own.size >= minOwn && held.length > 0) pages.push({ held, own });
  }
  const frame = new Set<number>();
  for (let i = 0; i < pages.length; i++) {
    for (let j = i + 1; j < pages.length; j++) {
      const [a, b] = [pages[i], pages[j]];
      // Two other articles: what each has of its own, the other has little of.
      let common = 0;
      for (const k of a.own) if (b.own.has(k)) common++;
      if (2 * common >= Math.min(a.own.size, b.own.size)) continue;
      const inB = new Set(b.held);
      for (const k of a.held) if (inB.has(k)) frame.add(k);
    }
  }
  return frame;
}

/** Whether a signature keeps a passage of the frame. */
export function touchesFrame(s: PassageSignature, frame: ReadonlySet<number>): boolean {
  const shift = s.bits === 32 ? 8 : 0;
  return frame.size > 0 && s.hashes.some((h) => frame.has(h >>> shift));
}

/** A signature without the frame's passages (its count less those it kept of them). */
export function withoutFrame(s: PassageSignature, frame: ReadonlySet<number>): PassageSignature {
  const shift = s.bits === 32 ? 8 : 0;
  const hashes = s.hashes.filter((h) => !frame.has(h >>> shift));
  return { count: s.count - (s.hashes.length - hashes.length), hashes, bits: s.bits };
}

/** Every passage of a page but the frame's. */
export const lookupWithoutFrame = (all: PassageLookup, frame: ReadonlySet<number>): PassageLookup => ({ has: (k) => !frame.has(k) && all.has(k) });

/** A title as compared: its case, width, script (Traditional or Simplified), spaces and punctuation aside. */
const titleKey = (title: string) => normalizeText(title).replace(/[\s\p{P}\p{S}]+/gu, '');

/**
 * Whether two pages of one site are titled as two articles: the headline of neither (the longest
 * part of its title, split from the site's name as core's titleRead splits it) is in the other's
 * title. An update ("…（更新）", "… (updated)"), the same article under another site's name, or a
 * headline with words added keeps the same; a site that titles every page alike, or whose name is
 * longer than its headlines, gives no two articles.
 */
export function titledApart(a: string, b: string): boolean {
  const headline = (t: string) => t.split(TITLE_PARTS).map(titleKey).reduce((x, y) => (y.length > x.length ? y : x), '');
  const [ka, kb] = [titleKey(a), titleKey(b)];
  const [ha, hb] = [headline(a), headline(b)];
  return ha.length > 0 && hb.length > 0 && !kb.includes(ha) && !ka.includes(hb);
}

/**
 * The site's lines around a page, told by where they stand, for a page of a site whose frame its
 * history cannot teach yet (one earlier page of the site: siteFrame needs two). What this page
 * shares with the earlier one is taken for the lines the site puts around its articles when all of
 * it stands at this page's end (a disclaimer, 关注公众号, a copyright; with its start, a source
 * line) and none among the text between, and each page has text of its own: `minOwn` passages
 * here between them, and as many of the earlier page's not here. Anything else gives null: an
 * excerpt or preview shares this page's start only; a page held whole in this one has nothing of
 * its own; a revision keeps sentences all through. `passages` are this page's, in order; `earlier`
 * finds the earlier page's passages, and `signature` is its own.
 */
export function frameAtEnds(passages: ReadonlyArray<{ hash: number }>, earlier: PassageLookup, signature: PassageSignature, minOwn: number): Set<number> | null {
  const held = passages.map((p) => earlier.has(p.hash));
  let end = held.length;
  while (end > 0 && held[end - 1]) end--;
  if (end === held.length) return null;
  let start = 0;
  while (start < end && held[start]) start++;
  if (end - start < minOwn || held.slice(start, end).some(Boolean)) return null;
  const here = new Set(passages.map((p) => p.hash));
  const shift = signature.bits === 32 ? 8 : 0;
  if (signature.hashes.filter((h) => !here.has(h >>> shift)).length < minOwn) return null;
  return new Set([...passages.slice(0, start), ...passages.slice(end)].map((p) => p.hash));
}
