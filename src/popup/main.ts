// The popup: the status of the active tab's page and the earlier pages it matches.
// `?tab=ID` shows another tab's status (the popup opened as a page, as the tests do).
import browser from 'webextension-polyfill';
import type { MatchSummary, TabStatus } from '../messaging/protocol';
import { send } from '../messaging/send';
import { relativeTime } from '../ui/relative-time';
import { isOpenableUrl, siteOf } from '../ui/site';
import { describeMatch } from '../ui/similarity';

const statusEl = document.getElementById('status') as HTMLParagraphElement;
const listEl = document.getElementById('matches') as HTMLOListElement;

async function targetTabId(): Promise<number | undefined> {
  const param = new URLSearchParams(location.search).get('tab');
  if (param !== null && /^\d+$/.test(param)) return Number(param);
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

function matchItem(m: MatchSummary, now: number): HTMLLIElement {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.textContent = m.title || m.url;
  if (isOpenableUrl(m.url)) {
    link.href = m.url;
    link.addEventListener('click', (e) => {
      e.preventDefault();
      void browser.tabs.create({ url: m.url });
    });
  }
  const url = document.createElement('span');
  url.className = 'url';
  url.textContent = m.url;
  url.title = m.url;
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.textContent = `${siteOf(m.url)} · ${describeMatch(m)} · ${relativeTime(m.lastSeen, now)}`;
  li.append(link, url, meta);
  return li;
}

function render(status: TabStatus): void {
  if (status.state === 'unsupported') {
    statusEl.textContent = 'Déjà Read does not check this kind of page.';
    return;
  }
  if (status.state === 'not-article') {
    statusEl.textContent = 'This page has too little prose to check.';
    return;
  }
  const n = status.matches.length;
  const lines = [
    status.visitedBefore ? 'You visited this page before.' : '',
    n === 1 ? "You've read this before, elsewhere:" : n > 1 ? `You've read this before, ${n} times elsewhere:` : '',
  ].filter(Boolean);
  statusEl.textContent = lines.join(' ') || "You haven't read anything like this page before.";
  const now = Date.now();
  listEl.replaceChildren(...status.matches.map((m) => matchItem(m, now)));
  listEl.hidden = n === 0;
}

async function main(): Promise<void> {
  document.getElementById('options')?.addEventListener('click', (e) => {
    e.preventDefault();
    void browser.runtime.openOptionsPage();
  });
  const tabId = await targetTabId();
  if (tabId === undefined) {
    render({ state: 'unsupported' });
    return;
  }
  render(await send('popup:tabStatus', { tabId }));
}

main().catch((e: unknown) => {
  statusEl.textContent = `Something went wrong: ${e instanceof Error ? e.message : String(e)}`;
});
