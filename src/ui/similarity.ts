// How a match is put into words: the similarity comes from the verification sketch's estimate.
import type { Freshness, NoticeMatch } from '../messaging/protocol';
import { t } from './i18n';

/** Containment from which a page is said to contain what was read, not most of it. */
const CONTAINS_ALL = 0.95;

export function describeMatch(m: Pick<NoticeMatch, 'kind' | 'resemblance' | 'containment'>): string {
  switch (m.kind) {
    case 'same-text':
      return t('matchSameText');
    case 'near-duplicate':
      return t('matchPercent', Math.round(100 * (m.resemblance ?? 0)));
    case 'contains-earlier':
      // "Most" where part of the earlier page is missing; where all of it (or nearly) is here, not.
      return t((m.containment ?? 0) >= CONTAINS_ALL ? 'matchContainsAllEarlier' : 'matchContainsEarlier');
    case 'part-of-earlier':
      return t('matchPartOfEarlier');
    case 'fingerprint':
      return t('matchNearly');
    case 'earlier-visit':
      return t('matchEarlierVisit');
  }
}

/** A share as a whole percentage that never claims all of a page that has something new, nor none of one with something read. */
function percent(share: number, somethingNew: boolean): number {
  const p = Math.round(100 * share);
  if (somethingNew && p >= 100) return 99;
  return share > 0 && p === 0 ? 1 : p;
}

/** What is new since the earlier page, in words: "You've read 80% of this — 3 new paragraphs". */
export function describeFresh(f: Freshness): string {
  const n = f.parts.length;
  if (n === 0) return t('freshNothingNew');
  if (f.readUpTo !== undefined) return t('freshPreview', percent(f.readUpTo, true));
  return n === 1 ? t('freshReadNewOne', percent(f.read, true)) : t('freshReadNew', percent(f.read, true), n);
}

/**
 * The read share alone, for lists: "read 80%"; "nothing new" where the notice says so (some words
 * may be unread, no part is new); "read the first 35%" of a page whose preview was read, the share
 * the notice gives (up to where the preview ended, not the share of the words read).
 */
export function describeReadShare(f: Freshness): string {
  if (f.parts.length === 0) return t('freshReadAll');
  return f.readUpTo !== undefined ? t('freshReadFirst', percent(f.readUpTo, true)) : t('freshReadShare', percent(f.read, true));
}
