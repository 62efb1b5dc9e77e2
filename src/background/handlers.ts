// What the background does for each message. Browser APIs come in through `deps`, so the
// handlers run in unit tests; nothing is kept in memory between events.
import { ALGORITHM, DEFAULT_MATCH_SETTINGS, encodeSketch, fingerprint, MIN_RECORDED_WORDS, pickCanonicalUrl, sketchOf, textHash, textStats, type MatchSettings } from '../core';
import type { Handlers } from '../messaging/router';
import type { ContentProtocol, PageVerdict, Protocol } from '../messaging/protocol';
import { StorageFullError, type PageRepository } from '../storage';
import { historyHandlers } from './history-handlers';
import { earlierVisit, findMatches, signatureOf } from './matching';
import { parsePageReport } from './page-report';

export interface BackgroundDeps {
  repository(): Promise<PageRepository>;
  now(): number;
  /** The reader's matching settings (sensitivity, minimum length). */
  settings?(): Promise<MatchSettings>;
  /** Shows the verdict on the tab's toolbar button. */
  showOnTab(tabId: number, verdict: PageVerdict): Promise<void>;
  /** Asks a tab's content script what page it fingerprinted; rejects if there is no content script. */
  askTab(tabId: number): Promise<ContentProtocol['background:getPage']['res']>;
}

export function createHandlers(deps: BackgroundDeps): Handlers<Protocol> {
  const settingsNow = () => (deps.settings ? deps.settings() : Promise.resolve(DEFAULT_MATCH_SETTINGS));
  return {
    async 'content:pageSeen'(req, sender) {
      const page = parsePageReport(req);
      const stats = textStats(page.text);
      const sketch = sketchOf(page.text);
      const current = {
        url: page.url,
        canonicalUrl: pickCanonicalUrl(page.url, page.canonical ?? []),
        signature: { fp: fingerprint(page.text), words: stats.words, textHash: textHash(page.text), sketch },
      };
      const [repo, settings] = await Promise.all([deps.repository(), settingsNow()]);
      const [before, matches] = await Promise.all([earlierVisit(repo, current), findMatches(repo, current, settings)]);
      const verdict: PageVerdict = {
        fp: current.signature.fp,
        algo: ALGORITHM,
        matches,
        visitedBefore: before !== undefined,
        ...(before ? { lastVisit: before.lastSeen } : {}),
      };
      if (stats.words >= MIN_RECORDED_WORDS) {
        try {
          await repo.recordVisit(
            {
              url: page.url,
              canonicalUrl: current.canonicalUrl,
              title: page.title,
              fp: current.signature.fp,
              algo: ALGORITHM,
              textHash: current.signature.textHash,
              sketch: encodeSketch(sketch),
              textLength: stats.words,
              lang: page.lang || stats.lang,
            },
            deps.now(),
          );
        } catch (e) {
          if (!(e instanceof StorageFullError)) throw e;
          verdict.problem = e.message;
        }
      }
      if (sender.tab?.id !== undefined) await deps.showOnTab(sender.tab.id, verdict);
      return verdict;
    },

    async 'popup:tabStatus'({ tabId }) {
      if (!Number.isInteger(tabId)) throw new TypeError('tabId must be an integer');
      let page;
      try {
        page = await deps.askTab(tabId);
      } catch {
        return { state: 'unsupported' };
      }
      if (!page) return { state: 'not-article' };
      const [repo, settings] = await Promise.all([deps.repository(), settingsNow()]);
      const record = await repo.get(page.url);
      if (!record) return { state: 'checked', page, matches: [], visitedBefore: false };
      const current = { url: record.url, canonicalUrl: record.canonicalUrl, signature: signatureOf(record) };
      const matches = await findMatches(repo, current, settings);
      // The record was updated by this very visit: an earlier visit shows as a second visit, or as
      // a record of the same page under another address.
      const elsewhere = (await repo.findByCanonicalUrl(record.canonicalUrl)).filter((r) => r.url !== record.url);
      return { state: 'checked', page, matches, visitedBefore: record.visits > 1 || elsewhere.length > 0 };
    },

    ...historyHandlers(deps.repository, deps.now),
  };
}
