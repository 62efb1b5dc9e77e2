// How an imported record joins an existing record of the same URL.
import type { PageRecord } from './schema';

/**
 * Earliest firstSeen, latest lastSeen, visits added; title and fingerprint from the most recent
 * visit. Returns `existing` itself when the incoming record is the same history (the reader's own
 * export imported back), so re-importing changes nothing.
 */
export function mergePage(existing: PageRecord, incoming: PageRecord): PageRecord {
  if (incoming.firstSeen === existing.firstSeen && incoming.lastSeen === existing.lastSeen && incoming.visits === existing.visits) return existing;
  const newer = incoming.lastSeen > existing.lastSeen ? incoming : existing;
  return {
    ...newer,
    firstSeen: Math.min(existing.firstSeen, incoming.firstSeen),
    lastSeen: Math.max(existing.lastSeen, incoming.lastSeen),
    visits: existing.visits + incoming.visits,
  };
}
