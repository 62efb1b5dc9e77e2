// How two histories of one page become one record: an imported record joining the stored one, or
// records of one page under several addresses merged by the upgrade to one record per page.
import type { PageRecord } from './schema';

/** How many visit ids a record remembers: enough for the tabs that may retry at once. */
export const KEPT_VISIT_IDS = 16;
/** Visits a record counts at most: what an import takes back (history-import.ts LIMITS.visits). */
export const MAX_VISITS = 1e9;

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
    visits: Math.min(a.visits + b.visits, MAX_VISITS),
    ...(visitIds.length ? { visitIds } : {}),
  };
}

/**
 * An imported record joining the stored one of the same page. Returns `existing` itself when the
 * incoming record is the same history (the reader's own export imported back), so re-importing
 * changes nothing; otherwise combinePages. Two records are one history at two moments (a backup
 * restored after more reading, or a later backup into an earlier restore) when they share a visit
 * (by its id: ids are kept in the order of the visits, the latest 16): then only the incoming
 * visits made after the last one both know are added; or, sharing no id (none in common any more,
 * or a record without ids: a CSV file, an export made before them), when they began with the very
 * same visit (the same first time, to the millisecond, which two browsers reading the page apart
 * never give): then the one seen later holds the other's visits.
 */
export function mergePage(existing: PageRecord, incoming: PageRecord): PageRecord {
  if (incoming.firstSeen === existing.firstSeen && incoming.lastSeen === existing.lastSeen && incoming.visits === existing.visits) return withWhatItLacks(existing, incoming);
  const known = new Set(existing.visitIds);
  const ids = incoming.visitIds ?? [];
  let lastShared = -1;
  ids.forEach((id, i) => {
    if (known.has(id)) lastShared = i;
  });
  if (lastShared >= 0) {
    const later = ids.slice(lastShared + 1).filter((id) => !known.has(id)).length;
    if (later === 0 && incoming.lastSeen <= existing.lastSeen) return withWhatItLacks(existing, incoming);
    return { ...combinePages(existing, incoming), visits: Math.min(existing.visits + later, MAX_VISITS) };
  }
  // No visit shared by id (more than 16 visits since, or ids missing on either side), and the same
  // first visit: the one seen later holds the other's visits (a backup is an earlier moment of the
  // history it was made from). Until 28 November 2026 records without ids were added, so a CSV
  // backup restored after more reading counted its visits twice (a data-safety review); another
  // browser's record of the page, begun at another time, still is.
  if (incoming.firstSeen === existing.firstSeen) {
    if (incoming.lastSeen <= existing.lastSeen && incoming.visits <= existing.visits) return withWhatItLacks(existing, incoming);
    return { ...combinePages(existing, incoming), visits: Math.max(existing.visits, incoming.visits) };
  }
  return combinePages(existing, incoming);
}

/**
 * The stored record of a history that the incoming one shows at the same or an earlier moment, with
 * what only the incoming one kept: its visit ids where it has none (a CSV file keeps none), and the mark "met
 * again with new parts" where it has none (nor does CSV). `existing` itself when there is nothing,
 * so the page counts as up to date. Until 28 November 2026 a JSON backup imported after its CSV
 * said every page was up to date and brought neither back (a Firefox review).
 */
function withWhatItLacks(existing: PageRecord, incoming: PageRecord): PageRecord {
  const ids = existing.visitIds?.length ? undefined : incoming.visitIds?.slice(-KEPT_VISIT_IDS);
  const mark = !existing.changed && incoming.changed;
  if (!ids?.length && !mark) return existing;
  return { ...existing, ...(ids?.length ? { visitIds: ids } : {}), ...(mark ? { changed: incoming.changed } : {}) };
}

/**
 * A forgotten record brought back by an undo (`forgotten`), joining the record made of the page
 * since the forget (`meanwhile`): every visit of both, each once. A visit the forgotten record holds
 * that was sent again after the forget (its answer lost) made the record meanwhile; it is not
 * counted twice, and the forgotten record's earlier visits and first visit are not lost to it, as
 * mergePage would lose them, taking the shared visit for the same history seen later.
 */
export function restoredPage(meanwhile: PageRecord, forgotten: PageRecord): PageRecord {
  const known = new Set(forgotten.visitIds);
  const again = (meanwhile.visitIds ?? []).filter((id) => known.has(id)).length;
  return { ...combinePages(meanwhile, forgotten), visits: Math.min(forgotten.visits + Math.max(0, meanwhile.visits - again), MAX_VISITS) };
}

/**
 * `join` of two records of one page (mergePage, restoredPage) that may be under its two addresses,
 * http and https: the record joined is under the address read last, as a visit over the other
 * scheme renames the record (one page, one record).
 */
export function joinRecords(stored: PageRecord, incoming: PageRecord, join: (stored: PageRecord, incoming: PageRecord) => PageRecord = mergePage): PageRecord {
  const joined = join(stored, incoming);
  return joined !== stored && incoming.url !== stored.url && incoming.lastSeen > stored.lastSeen ? { ...joined, url: incoming.url } : joined;
}
