// The content script: once the document is idle, extracts the article and asks the background
// whether it was read before (showing the notice if so); once the page has been visible for the
// dwell time, has the visit recorded. Runs again when a single-page app changes the URL.
import browser from 'webextension-polyfill';
import { MIN_RECORDED_WORDS } from '../core';
import type { ContentProtocol, PageReport } from '../messaging/protocol';
import { createRouter, senderKind } from '../messaging/router';
import { send } from '../messaging/send';
import { isExcluded } from '../settings/settings';
import { loadSettings } from '../settings/settings-store';
import { afterVisibleFor } from './dwell';
import { declaredUrls } from './declared-urls';
import { extractOffPage } from './extract-off-page';
import { removeNotice, showNotice } from './notice';

type CheckedPage = ContentProtocol['background:getPage']['res']['page'];

let checked: CheckedPage = null;
let checkedUrl = '';
let cancelDwell: () => void = () => undefined;

async function check(): Promise<void> {
  const url = location.href;
  checkedUrl = url;
  checked = null;
  cancelDwell();
  removeNotice();
  const settings = await loadSettings();
  // Excluded sites and a paused extension are not even read.
  if (settings.paused || isExcluded(url, settings.excludedSites)) return;
  const extraction = await extractOffPage(document, MIN_RECORDED_WORDS);
  if (!extraction.ok) return;
  const { title, text, lang } = extraction.article;
  const report: PageReport = { url, title, text, lang, canonical: declaredUrls(document) };
  const verdict = await send('content:pageSeen', report);
  if (location.href !== url || verdict.skipped) return; // navigated on while we waited
  checked = { url, title, fp: verdict.fp };
  if (verdict.matches.length > 0 && settings.showNotice) {
    showNotice(verdict.matches, Date.now(), { notSame: (m) => void send('content:notSame', { other: m.url }).catch(() => undefined) });
  }
  cancelDwell = afterVisibleFor(document, settings.dwellSeconds, () => {
    if (location.href === url) void send('content:pageRead', report).catch(() => undefined);
  });
}

function checkSafely(): void {
  check().catch((e: unknown) => console.info('Déjà Read: page not checked:', e instanceof Error ? e.message : e));
}

browser.runtime.onMessage.addListener(
  createRouter<ContentProtocol>({ 'background:getPage': () => Promise.resolve({ url: location.href, page: checked }) }, (sender) => senderKind(sender, browser.runtime.id, browser.runtime.getURL(''))),
);

checkSafely();

// Single-page apps change the URL without a reload: check again once the new view has settled.
let pending: ReturnType<typeof setTimeout> | undefined;
setInterval(() => {
  if (location.href === checkedUrl || pending) return;
  pending = setTimeout(() => {
    pending = undefined;
    checkSafely();
  }, 1500);
}, 1000);
