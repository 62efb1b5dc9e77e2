// A background wired to fake-indexeddb and fake tabs, and a direct caller for its messages.
import type { Runtime } from 'webextension-polyfill';
import { createHandlers, type BackgroundDeps } from '../../src/background/handlers';
import type { Caller, PageVerdict } from '../../src/messaging/protocol';
import { openDejaReadDB, PageRepository } from '../../src/storage';

export type TabPages = Record<number, { url: string; title: string; fp: string } | null>;

export function makeBackground(tabPages: TabPages = {}) {
  const shown: Array<[number, PageVerdict]> = [];
  const clock = { now: 1_700_000_000_000 };
  const repository = openDejaReadDB().then((db) => new PageRepository(db));
  const deps: BackgroundDeps = {
    repository: () => repository,
    now: () => (clock.now += 1000),
    showOnTab: async (tabId, verdict) => void shown.push([tabId, verdict]),
    askTab: async (tabId) => {
      if (!(tabId in tabPages)) throw new Error('Could not establish connection. Receiving end does not exist.');
      return tabPages[tabId];
    },
  };
  const handlers = createHandlers(deps);
  const page: Runtime.MessageSender = { id: 'ext', url: 'chrome-extension://ext/src/options/index.html' };
  // Messages go through JSON as they would between contexts.
  const call: Caller = async (type, req) => JSON.parse(JSON.stringify(await handlers[type](JSON.parse(JSON.stringify(req)) as never, page)));
  return { handlers, call, shown, repository, clock };
}

export const fromTab = (id: number): Runtime.MessageSender => ({
  id: 'ext',
  url: 'https://site.example/',
  tab: { id, index: 0, highlighted: false, active: true, pinned: false, incognito: false },
});
