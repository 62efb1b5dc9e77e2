// What the background does for each message. Browser APIs come in through `deps`, so the
// handlers run in unit tests; nothing is kept in memory between events.
import { ALGORITHM, DEFAULT_MATCH_SETTINGS, fingerprint, textStats } from '../core';
import type { Handlers } from '../messaging/router';
import type { ContentProtocol, PageVerdict, Protocol } from '../messaging/protocol';
import type { PageRepository } from '../storage';
import { summarize } from './summary';
import { historyHandlers } from './history-handlers';
import { parsePageReport } from './page-report';

export interface BackgroundDeps {
  repository(): Promise<PageRepository>;
  now(): number;
  /** Shows the verdict on the tab's toolbar button. */
  showOnTab(tabId: number, verdict: PageVerdict): Promise<void>;
  /** Asks a tab's content script what page it fingerprinted; rejects if there is no content script. */
  askTab(tabId: number): Promise<ContentProtocol['background:getPage']['res']>;
}

export function createHandlers(deps: BackgroundDeps): Handlers<Protocol> {
  const settings = DEFAULT_MATCH_SETTINGS;
  return {
    async 'content:pageSeen'(req, sender) {
      const page = parsePageReport(req);
      const stats = textStats(page.text);
      const fp = fingerprint(page.text);
      const repo = await deps.repository();
      const longEnough = stats.words >= settings.minWords;
      const similar = longEnough ? await repo.findSimilar(fp, { algo: ALGORITHM, maxDistance: settings.maxDistance, excludeUrl: page.url }) : [];
      const before = await repo.get(page.url);
      if (longEnough) {
        await repo.recordVisit(
          { url: page.url, title: page.title, fp, algo: ALGORITHM, textLength: stats.words, lang: page.lang || stats.lang },
          deps.now(),
        );
      }
      const verdict: PageVerdict = { fp, algo: ALGORITHM, matches: similar.map(summarize), visitedBefore: before !== undefined };
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
      const repo = await deps.repository();
      const similar = await repo.findSimilar(page.fp, { algo: ALGORITHM, maxDistance: settings.maxDistance, excludeUrl: page.url });
      return { state: 'checked', page, matches: similar.map(summarize) };
    },

    ...historyHandlers(deps.repository, deps.now),
  };
}
