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
 * changes nothing; otherwise combinePages. Where the two share a visit (by its id), they are one
 * history at two moments (a backup restored after more reading, or a later backup into an
 * earlier restore): only the incoming visits not known here are added, and one adding none and
 * seen no later is the same history.
 */
export function mergePage(existing: PageRecord, incoming: PageRecord): PageRecord {
  if (incoming.firstSeen === existing.firstSeen && incoming.lastSeen === existing.lastSeen && incoming.visits === existing.visits) return existing;
  const known = new Set(existing.visitIds);
  const ids = incoming.visitIds ?? [];
  if (!ids.some((id) => known.has(id))) return combinePages(existing, incoming);
  const unknown = ids.filter((id) => !known.has(id)).length;
  if (unknown === 0 && incoming.lastSeen <= existing.lastSeen) return existing;
  return { ...combinePages(existing, incoming), visits: existing.visits + unknown };
}
