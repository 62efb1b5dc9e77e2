// How two histories of one page become one record: an imported record joining the stored one, or
// records of one page under several addresses merged by the upgrade to one record per page.
import type { PageRecord } from './schema';

/** How many visit ids a record remembers: enough for the tabs that may retry at once. */
export const KEPT_VISIT_IDS = 16;

/**
 * Two histories of one page as one: earliest firstSeen, latest lastSeen, visits added; title,
 * fingerprint, sketch, passages and language from the most recently seen (they describe one text,
 * so they are taken together), and the latest visit ids of both. Keeps `a`'s address on a tie.
 */
export function combinePages(a: PageRecord, b: PageRecord): PageRecord {
  const [older, newer] = b.lastSeen > a.lastSeen ? [a, b] : [b, a];
  const visitIds = [...new Set([...(older.visitIds ?? []), ...(newer.visitIds ?? [])])].slice(-KEPT_VISIT_IDS);
  const { visitIds: _dropped, ...content } = newer;
  return {
    ...content,
    url: a.url,
    firstSeen: Math.min(a.firstSeen, b.firstSeen),
    lastSeen: Math.max(a.lastSeen, b.lastSeen),
    visits: a.visits + b.visits,
    ...(visitIds.length ? { visitIds } : {}),
  };
}

/**
 * An imported record joining the stored one of the same page. Returns `existing` itself when the
 * incoming record is the same history (the reader's own export imported back), so re-importing
 * changes nothing; otherwise combinePages.
 */
export function mergePage(existing: PageRecord, incoming: PageRecord): PageRecord {
  if (incoming.firstSeen === existing.firstSeen && incoming.lastSeen === existing.lastSeen && incoming.visits === existing.visits) return existing;
  return combinePages(existing, incoming);
}
