// The history page: every recorded page, newest first, searchable by title or URL, loaded a page
// at a time (so 10^5+ records never stall it); near-duplicates are shown together under the page
// listed first; any page can be forgotten from here.
import type { HistoryItem, MatchSummary } from '../messaging/protocol';
import { send } from '../messaging/send';
import { bidiSafe, isolate, isolated } from '../ui/bidi';
import { localizePage, t, uiLocale } from '../ui/i18n';
import { relativeTime } from '../ui/relative-time';
import { describeMatch } from '../ui/similarity';
import { isOpenableUrl, siteOf } from '../ui/site';

const PAGE = 50;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const list = $<HTMLOListElement>('list');
const more = $<HTMLButtonElement>('more');
const summary = $('summary');

let query = '';
let next: [number, string] | undefined;
let generation = 0;
/** URLs already on screen, as a page or as a copy: each group is shown once. */
const onScreen = new Set<string>();

function link(url: string, title: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.append(isolated(title || url));
  a.title = bidiSafe(url);
  if (isOpenableUrl(url)) {
    a.href = url;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
  }
  return a;
}

function copyItem(m: MatchSummary, now: number): HTMLLIElement {
  const li = document.createElement('li');
  const label = document.createElement('span');
  label.className = 'label';
  label.append(' — ', isolated(siteOf(m.url)), ` · ${describeMatch(m)} · ${relativeTime(m.lastSeen, now, uiLocale())}`);
  li.append(link(m.url, m.title), label);
  if (m.changed) li.append(' ', changedMark(m.changed, now));
  return li;
}

/** "changed since you read it: 3 new parts, met again 2 days ago". */
function changedMark(changed: NonNullable<HistoryItem['changed']>, now: number): HTMLSpanElement {
  const mark = document.createElement('span');
  mark.className = 'changed';
  mark.textContent = t('historyChanged', changed.parts, relativeTime(changed.at, now, uiLocale()));
  return mark;
}

function pageItem(item: HistoryItem, now: number): HTMLLIElement {
  const li = document.createElement('li');
  li.className = 'page';
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.append(isolated(siteOf(item.url)), ` · ${relativeTime(item.lastSeen, now, uiLocale())}${item.visits > 1 ? ` · ${t('historyVisits', item.visits)}` : ''}`);
  const forget = document.createElement('button');
  forget.type = 'button';
  forget.className = 'forget';
  forget.textContent = t('historyForget');
  forget.setAttribute('aria-label', t('historyForgetPage', isolate(item.title || item.url)));
  forget.addEventListener('click', async () => {
    forget.disabled = true;
    await send('popup:forgetPage', { url: item.url });
    li.remove();
  });
  li.append(link(item.url, item.title), forget, meta);
  if (item.changed) li.append(changedMark(item.changed, now));
  const copies = item.copies.filter((c) => !onScreen.has(c.url));
  if (copies.length) {
    const sub = document.createElement('ul');
    sub.className = 'copies';
    sub.setAttribute('aria-label', t('historyAlsoRead'));
    sub.append(...copies.map((c) => copyItem(c, now)));
    li.append(sub);
    for (const c of copies) onScreen.add(c.url);
  }
  return li;
}

async function load(reset: boolean): Promise<void> {
  const mine = ++generation;
  if (reset) {
    list.replaceChildren();
    onScreen.clear();
    next = undefined;
  }
  more.hidden = true;
  summary.textContent = t('historyLoading');
  // A rare search may need several steps through a large history before a page fills.
  let done = false;
  let added = 0;
  while (added < PAGE && !done) {
    const res = await send('history:list', { query, after: next, limit: PAGE });
    if (mine !== generation) return; // a newer search started
    const now = Date.now();
    for (const item of res.items) {
      if (onScreen.has(item.url)) continue;
      onScreen.add(item.url);
      list.append(pageItem(item, now));
      added++;
    }
    next = res.next;
    done = res.done || !res.next;
  }
  const { pages } = await send('options:stats', {});
  // Every page on screen counts, listed on its own or as a copy under another.
  summary.textContent = query ? t('historyFound', onScreen.size, pages) : t('historyShowing', onScreen.size, pages);
  more.hidden = done;
}

localizePage();
more.addEventListener('click', () => void load(false));
let debounce: ReturnType<typeof setTimeout> | undefined;
$<HTMLInputElement>('search').addEventListener('input', (e) => {
  clearTimeout(debounce);
  debounce = setTimeout(() => {
    query = (e.target as HTMLInputElement).value;
    void load(true);
  }, 250);
});
$<HTMLFormElement>('search-form').addEventListener('submit', (e) => e.preventDefault());
void load(true).catch((e: unknown) => {
  summary.textContent = t('errorGeneric', e instanceof Error ? e.message : String(e));
});
