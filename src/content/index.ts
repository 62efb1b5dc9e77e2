// The content script: at document idle, extracts the article, asks the background whether it
// was read before, and shows the notice. Runs again when a single-page app changes the URL.
import browser from 'webextension-polyfill';
import { MIN_RECORDED_WORDS } from '../core';
import type { ContentProtocol } from '../messaging/protocol';
import { createRouter, senderKind } from '../messaging/router';
import { send } from '../messaging/send';
import { declaredUrls, extractArticle } from './extract';
import { removeNotice, showNotice } from './notice';

type CheckedPage = ContentProtocol['background:getPage']['res'];

let checked: CheckedPage = null;
let checkedUrl = '';

async function check(): Promise<void> {
  const url = location.href;
  checkedUrl = url;
  checked = null;
  removeNotice();
  const extraction = extractArticle(document, MIN_RECORDED_WORDS);
  if (!extraction.ok) return;
  const { title, text, lang } = extraction.article;
  const verdict = await send('content:pageSeen', { url, title, text, lang, canonical: declaredUrls(document) });
  if (location.href !== url) return; // navigated on while we waited
  checked = { url, title, fp: verdict.fp };
  const [closest] = verdict.matches;
  if (closest) showNotice(closest, verdict.matches.length, Date.now());
}

function checkSafely(): void {
  check().catch((e: unknown) => console.info('Déjà Read: page not checked:', e instanceof Error ? e.message : e));
}

browser.runtime.onMessage.addListener(
  createRouter<ContentProtocol>(
    { 'background:getPage': () => Promise.resolve(checked) },
    (sender) => senderKind(sender, browser.runtime.id, browser.runtime.getURL('')),
  ),
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
