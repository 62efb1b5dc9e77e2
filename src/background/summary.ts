// What the extension's pages and the notice are told about an earlier page.
import type { MatchSummary } from '../messaging/protocol';
import type { SimilarPage } from '../storage';

export function summarize(p: SimilarPage): MatchSummary {
  return { url: p.url, title: p.title, fp: p.fp, distance: p.distance, firstSeen: p.firstSeen, lastSeen: p.lastSeen, visits: p.visits };
}
