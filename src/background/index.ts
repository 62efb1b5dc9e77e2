// The background: a service worker in Chrome, an event page in Firefox. It only wires message
// handlers to browser APIs; it may be stopped between any two events and keeps nothing in memory
// that matters (every answer comes from IndexedDB).
import browser, { answerMessages } from '../ext';
import { createRouter, senderKind } from '../messaging/router';
import { BulkInbox } from '../messaging/bulk';
import { sendToTab } from '../messaging/send';
import { settingsKeptInMemory } from '../settings/settings-store';
import { openDejaReadDB, PageRepository } from '../storage';
import { clearTab, forgetTab, showVerdictOnTab } from './badge';
import { locale, message } from './messages';
import { serveExtractPort } from './extract-port';
import { serveImportPort } from './history-handlers';
import { listenForShortcut } from './shortcut';
import { createHandlers } from './handlers';
import { readBeforeStore, type SessionArea } from './read-before';
import { undoStore } from './undo-store';
import { keepFromEviction } from './persistence';

let repository: Promise<PageRepository> | undefined;
/** The history, opened once; an open that failed (a disk error) is tried again at the next event rather than kept. */
function openRepository(): Promise<PageRepository> {
  const opening = (repository ??= openDejaReadDB().then((db) => new PageRepository(db)));
  opening.catch(() => {
    if (repository === opening) repository = undefined;
  });
  return opening;
}

/** Pages each tab has started loading since the background started (below). */
const tabLoads = new Map<number, number>();

/** Where each tab's ReadBefore is kept: the browser's session storage, in memory, while the browser runs. */
const readBefore = readBeforeStore(browser.storage.session as unknown as SessionArea);

/** Where a forget's Undo is kept while its page offers it: the same session storage (undo-store.ts). */
const undo = undoStore(browser.storage.session as unknown as SessionArea);
// An Undo past its time, left by a background stopped before it was dropped, goes now.
void undo.sweep(Date.now()).catch(() => undefined);

/** An extension call: made between steps of long work, it keeps the browser from stopping the background as idle. */
const keepAwake = () => void browser.runtime.getPlatformInfo();

const handlers = createHandlers({
  repository: openRepository,
  now: () => Date.now(),
  locale,
  message,
  settings: settingsKeptInMemory(),
  showOnTab: showVerdictOnTab,
  askTab: (tabId) => sendToTab(tabId, 'background:getPage', {}),
  tabIsPrivate: (tabId) => browser.tabs.get(tabId).then((tab) => tab.incognito),
  tabLoading: (tabId) => browser.tabs.get(tabId).then((tab) => tab.status === 'loading'),
  tabLoads: (tabId) => tabLoads.get(tabId) ?? 0,
  bulk: new BulkInbox(),
  showMatches,
  keepAwake,
  readBefore,
  undo,
});

/**
 * The popup over the reader's tab, as its toolbar button opens it. Where the browser opens it only
 * from its own toolbar (Chrome before 127, Firefox before 149 refuse the call), the popup's page
 * opens in a tab beside the reader's instead, with the same list (its `?tab=`).
 */
async function showMatches(tab: { id: number; windowId?: number; index: number }): Promise<void> {
  const inWindow = tab.windowId === undefined ? {} : { windowId: tab.windowId };
  try {
    await browser.action.openPopup(inWindow);
    return;
  } catch {
    // Refused: the page in a tab, below.
  }
  await browser.tabs.create({ url: browser.runtime.getURL(`src/popup/index.html?tab=${tab.id}`), index: tab.index + 1, openerTabId: tab.id, ...inWindow });
}

// Whenever the background starts: the fingerprints a lookup scans start loading at once (it was most
// likely woken by a page to check), a committed import that was cut short is completed, and the
// staging of abandoned ones is dropped, then what an upgrade left to empty is emptied and the pages
// it left without names are named (for the History page's search). An extension API call between
// chunks keeps Chrome from stopping the worker as idle while it works.
void (async () => {
  const repo = await openRepository();
  repo.prefetch();
  // An import that cannot be finished now (a full disk) does not hold back the emptying of the
  // records an upgrade left, forgotten pages among them.
  await repo.imports.recover(Date.now(), keepAwake).catch((e: unknown) => console.warn('Déjà Read: could not finish an interrupted import:', e));
  await repo.dropOldPages(keepAwake);
  await repo.nameOldPages(keepAwake);
})().catch((e: unknown) => console.warn('Déjà Read: could not finish an upgrade:', e));

const origin = browser.runtime.getURL('');
answerMessages(createRouter(handlers, (sender) => senderKind(sender, browser.runtime.id, origin)));
browser.runtime.onConnect.addListener((port) => {
  serveExtractPort(port, browser.runtime.id, origin);
  serveImportPort(port, browser.runtime.id, origin, openRepository, () => Date.now());
});

listenForShortcut();

// The history is the reader's: the browser must not clear it to make room (./persistence.ts).
void keepFromEviction().catch((e: unknown) => console.warn('Déjà Read: could not mark the history as persistent storage:', e));

// A tab that starts loading another page no longer shows the last page's verdict, nor one of a
// check the last page asked for that is answered after this (handlers' tabLoads).
browser.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status !== 'loading') return;
  tabLoads.set(tabId, (tabLoads.get(tabId) ?? 0) + 1);
  void clearTab(tabId);
});
browser.tabs.onRemoved.addListener((tabId) => {
  tabLoads.delete(tabId);
  forgetTab(tabId);
  void readBefore.forgetTab(tabId).catch(() => undefined);
});

browser.runtime.onInstalled.addListener(({ reason }) => {
  if (reason === 'install') void browser.tabs.create({ url: browser.runtime.getURL('src/welcome/index.html') });
});
