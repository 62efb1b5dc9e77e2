// A site's frame: the lines a site puts around every article it carries (a copyright notice, a
// disclaimer, a newsletter pitch, 关注公众号). Two different articles of one site share them, and
// around a short article they can be most of the text, so a sketch of the whole text, or a count of
// shared passages, would take two articles for one. The frame is learned from the reader's own
// history when a page is judged: the passages it shares with two or more earlier pages of its own
// site, each of which has passages of its own that the page does not hold (other articles, not
// copies of this one: three copies of one article share everything, and none has text of its own).
// The history's own rule (a passage more than 24 pages share is no anchor) needs many pages of a
// site; this one needs two.
import type { PassageLookup, PassageSignature } from './passage-signature';

/** The 24-bit keys of the passages that make the frame of `current`'s site, given earlier pages of that site. */
export function siteFrame(current: PassageLookup, earlier: readonly PassageSignature[], minOwn: number): Set<number> {
  const pages = new Map<number, number>();
  for (const e of earlier) {
    const shift = e.bits === 32 ? 8 : 0;
    const held: number[] = [];
    for (const h of e.hashes) if (current.has(h >>> shift)) held.push(h >>> shift);
    if (e.hashes.length - held.length < minOwn) continue;
    for (const k of held) pages.set(k, (pages.get(k) ?? 0) + 1);
  }
  const frame = new Set<number>();
  for (const [k, n] of pages) if (n >= 2) frame.add(k);
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
