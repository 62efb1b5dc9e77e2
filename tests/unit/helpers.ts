// A background wired to fake-indexeddb and fake tabs, and a direct caller for its messages.
import type { Runtime } from 'webextension-polyfill';
import { createHandlers, type BackgroundDeps } from '../../src/background/handlers';
import { readBeforeStore } from '../../src/background/read-before';
import { memoryArea, undoStore } from '../../src/background/undo-store';
import type { BulkHandle } from '../../src/messaging/bulk';
import type { Caller, ContentProtocol, PageReport, PageVerdict } from '../../src/messaging/protocol';
import { parseSettings, type Settings } from '../../src/settings/settings';
import { openDejaReadDB, PageRepository, type PageRecord } from '../../src/storage';
import { message } from './messages';

export type TabPages = Record<number, ContentProtocol['background:getPage']['res']>;

let databases = 0;

export function makeBackground(tabPages: TabPages = {}, settings: Partial<Settings> = {}, bulk?: BulkHandle, privateTab?: (tabId: number) => boolean, more: Partial<BackgroundDeps> = {}) {
  const shown: Array<[number, PageVerdict]> = [];
  /** The tabs whose list of matches the background was asked to show (content:showMatches). */
  const listed: Array<{ id: number; windowId?: number; index: number }> = [];
  /** Pages each tab has started loading (the browser's tabs.onUpdated "loading"), as a test sets them. */
  const loads: Record<number, number> = {};
  const clock = { now: 1_700_000_000_000 };
  // Each background has a database of its own, as two browsers would.
  const database = openDejaReadDB(`deja-read-test-${++databases}`);
  let repository = database.then((db) => new PageRepository(db));
  /** The background stopped and started anew: the same database and session storage, nothing of it in memory. */
  const restart = () => {
    repository = database.then((db) => new PageRepository(db));
    handlers = createHandlers({ ...deps, readBefore: readBeforeStore(area), undo: undoStore(area) });
  };
  /** The browser's session storage of what each tab's recorded visit left aside (handlers' readBefore). */
  const session = new Map<string, unknown>();
  const area = memoryArea(session);
  const deps: BackgroundDeps = {
    repository: () => repository,
    now: () => (clock.now += 1000),
    locale: () => 'en',
    message: (key, ...subs) => message(key, subs),
    settings: async () => parseSettings({ dwellSeconds: 0, ...settings }),
    showOnTab: async (tabId, verdict) => void shown.push([tabId, verdict]),
    showMatches: async (tab) => void listed.push(tab),
    tabLoads: (tabId) => loads[tabId] ?? 0,
    askTab: async (tabId) => {
      if (!(tabId in tabPages)) throw new Error('Could not establish connection. Receiving end does not exist.');
      return tabPages[tabId];
    },
    // The real stores, on a stand-in for the browser's session storage.
    readBefore: readBeforeStore(area),
    undo: undoStore(area),
    ...(bulk ? { bulk } : {}),
    ...(privateTab ? { tabIsPrivate: async (tabId: number) => privateTab(tabId) } : {}),
    ...more,
  };
  let handlers = createHandlers(deps);
  const page: Runtime.MessageSender = { id: 'ext', url: 'chrome-extension://ext/src/options/index.html' };
  // Messages go through JSON as they would between contexts.
  const call: Caller = async (type, req) => JSON.parse(JSON.stringify(await handlers[type](JSON.parse(JSON.stringify(req)) as never, page)));
  /** What a content script does for a page the reader stays on: check it, then record the visit. */
  /** Returns the whole verdict, as the toolbar button gets it (the content script gets only what the notice shows). */
  const read = async (report: PageReport, sender: Runtime.MessageSender = fromTab(1, report.url)): Promise<PageVerdict> => {
    const before = shown.length;
    await handlers['content:pageSeen'](report, sender);
    await handlers['content:pageRead'](report, sender);
    return shown[before][1];
  };
  return {
    get handlers() {
      return handlers;
    },
    call,
    read,
    shown,
    listed,
    loads,
    get repository() {
      return repository;
    },
    restart,
    clock,
    /** What each tab holds in session storage (ReadBefore), by tab id. */
    session,
  };
}

/** A content script's sender, in the top frame of a tab showing `url`. */
export const fromTab = (id: number, url = 'https://site.example/'): Runtime.MessageSender => ({
  id: 'ext',
  url,
  frameId: 0,
  tab: { id, index: 0, highlighted: false, active: true, pinned: false, incognito: false },
});

/** Every page of the history, read through the export path, in URL order (the store keeps them by page number). */
export async function everyPage(r: PageRepository): Promise<PageRecord[]> {
  const pages: PageRecord[] = [];
  for (let after: number | undefined; ; ) {
    const chunk = await r.exportChunk(1000, after);
    pages.push(...chunk.pages);
    if (chunk.last === undefined) break;
    after = chunk.last;
  }
  return pages.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
}
