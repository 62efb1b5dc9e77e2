// The history page: every recorded page, newest first, searchable by title or URL, loaded a page
// at a time (so 10^5+ records never stall it); near-duplicates are shown together under the page
// listed first; any page can be forgotten from here.
import { displayHost, displayUrl, matchesSearch, searchTerms, type SearchTerm } from '../core';
import { UNDO_MS, type HistoryItem, type MatchSummary, type UndoAbout } from '../messaging/protocol';
import { onHistoryEvent } from '../messaging/history-events';
import { send } from '../messaging/send';
import { bidiSafe, isolate, isolated, localizedNodes } from '../ui/bidi';
import { localizePage, t, uiLocale } from '../ui/i18n';
import { errorText } from '../ui/error-text';
import { describeMatch } from '../ui/similarity';
import { clipped, isOpenableUrl, placeOf, siteOf, sitePatternName } from '../ui/site';
import { relativeTime } from '../ui/relative-time';
import { timeAgo } from '../ui/time-ago';

const PAGE = 50;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const list = $<HTMLOListElement>('list');
const more = $<HTMLButtonElement>('more');
const summary = $('summary');
const number = new Intl.NumberFormat(uiLocale());

let query = '';
/** The search's terms (core's searchTerms), made once per query. */
let terms: SearchTerm[] = [];
let next: [number, number] | undefined;
let generation = 0;
/**
 * URLs on screen, as a page or as a copy under one (each group is shown once), and whether each
 * matches the search: a copy is shown with its page whether or not it matches.
 */
const onScreen = new Map<string, boolean>();

/** Whether a page matches the search, as the background's search decides (history:list). */
const matchesQuery = (url: string, title: string) => matchesSearch(terms, [title, url, displayUrl(url)]);

/** What names a page: its title, or where it has none, its address (cut short: placeOf). */
const nameOf = (title: string, url: string) => title || clipped(url);

function link(url: string, title: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.append(isolated(nameOf(title, url)));
  a.title = bidiSafe(displayUrl(url));
  if (isOpenableUrl(url)) {
    a.href = url;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
  }
  return a;
}

/** Confirmations shown so far: each question's id. */
let confirmations = 0;

/**
 * Asks before a page leaves the history for good: the question and a button that forgets, beside
 * Cancel (focused, so Enter is safe; Escape cancels too), in place of the page's Forget button,
 * which gets the focus back when cancelled.
 */
function confirmForget(button: HTMLButtonElement, title: string, url: string, forget: () => Promise<void>): void {
  // Asked already (a double click): the question is there.
  if (button.hidden) return;
  const box = document.createElement('span');
  box.className = 'confirm';
  box.setAttribute('role', 'group');
  const question = document.createElement('span');
  question.id = `confirm-${++confirmations}`;
  question.textContent = t('historyForgetConfirm', isolate(title), isolate(placeOf(url)));
  box.setAttribute('aria-labelledby', question.id);
  const yes = document.createElement('button');
  yes.type = 'button';
  yes.className = 'destructive';
  yes.textContent = t('popupForgetYes');
  const no = document.createElement('button');
  no.type = 'button';
  no.textContent = t('popupCancel');
  box.append(question, ' ', yes, ' ', no);
  const close = () => {
    box.remove();
    button.hidden = false;
  };
  no.addEventListener('click', () => {
    close();
    button.focus();
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') no.click();
  });
  yes.addEventListener('click', () => {
    yes.disabled = no.disabled = true;
    void forget().catch((e: unknown) => {
      // Not forgotten: the page stays, and its button can be tried again.
      close();
      button.focus();
      showError(e);
    });
  });
  button.hidden = true;
  button.after(box);
  no.focus();
}
function forgetButton(title: string, url: string): HTMLButtonElement {
  const forget = document.createElement('button');
  forget.type = 'button';
  forget.className = 'forget';
  forget.textContent = t('historyForget');
  // Named with the address as the row shows it: copies of one article often share their title.
  forget.setAttribute('aria-label', t('historyForgetPageAt', isolate(nameOf(title, url)), isolate(placeOf(url))));
  return forget;
}

/**
 * How a copy stands to the page it is listed under, said of the copy: the match was judged from
 * that page ("contains most of what you read" meant the page above holds the copy).
 */
function describeCopy(m: MatchSummary): string {
  if (m.kind === 'contains-earlier') return t('historyCopyPartOf');
  if (m.kind === 'part-of-earlier') return t('historyCopyHolds');
  return describeMatch(m);
}

function copyItem(m: MatchSummary, now: number, readSince: (changed: NonNullable<HistoryItem['changed']>) => boolean): HTMLLIElement {
  const li = document.createElement('li');
  const label = document.createElement('span');
  label.className = 'label';
  label.append(' — ', isolated(placeOf(m.url)), ` · ${describeCopy(m)} · `, timeAgo(m.lastSeen, now));
  // A copy can be forgotten by itself: the page it is listed under stays.
  const forget = forgetButton(m.title, m.url);
  forget.addEventListener('click', () =>
    confirmForget(forget, nameOf(m.title, m.url), m.url, async () => {
      const { undo } = await send('popup:forgetPage', { url: m.url });
      offerUndo({ kind: 'page', title: m.title, url: m.url }, undo);
      onScreen.delete(m.url);
      const group = li.parentElement;
      const next = li.nextElementSibling ?? li.previousElementSibling;
      li.remove();
      if (group && !group.childElementCount) group.remove();
      (next?.querySelector<HTMLElement>('a') ?? $('summary')).focus();
      await showSummary();
    }),
  );
  li.append(link(m.url, m.title), label, ' ', forget);
  if (m.changed && !readSince(m.changed)) li.append(' ', changedMark(m.changed, now));
  return li;
}

/**
 * "met again 2 days ago, with 3 parts you had not read" on the page itself come back changed; on the
 * closest copy of a page that held more than it, "a copy on example.org had 3 parts you had not
 * read, 2 days ago" (the reader did not open this address again, and this page may not have changed).
 */
function changedMark(changed: NonNullable<HistoryItem['changed']>, now: number): HTMLSpanElement {
  const mark = document.createElement('span');
  mark.className = 'changed';
  const when = relativeTime(changed.at, now, uiLocale(), t('timeJustNow'));
  if (changed.where) mark.append(...localizedNodes(changed.parts === 1 ? 'historyCopyHadOne' : 'historyCopyHad', [isolated(displayHost(changed.where)), changed.parts, when]));
  else mark.textContent = t(changed.parts === 1 ? 'historyChangedOne' : 'historyChanged', changed.parts, when);
  return mark;
}

function pageItem(item: HistoryItem, now: number): HTMLLIElement {
  const li = document.createElement('li');
  li.className = 'page';
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.append(isolated(placeOf(item.url)), ' · ', timeAgo(item.lastSeen, now), item.visits > 1 ? ` · ${t('historyVisits', item.visits)}` : '');
  const forget = forgetButton(item.title, item.url);
  const copies = item.copies.filter((c) => !onScreen.has(c.url));
  forget.addEventListener('click', () => confirmForget(forget, nameOf(item.title, item.url), item.url, () => forgetPage(li, item, copies.map((c) => c.url))));
  li.append(link(item.url, item.title), forget, meta);
  // "A copy on example.org had 3 parts you had not read" is past once that copy is in the group,
  // read at or after the moment it was met: the reader read those parts there (a review found the
  // mark under a copy whose fuller version, read at that moment, headed the same group).
  const group = [item, ...copies];
  const readSince = (changed: NonNullable<HistoryItem['changed']>) => changed.where !== undefined && group.some((p) => p.lastSeen >= changed.at && siteOf(p.url) === changed.where);
  if (item.changed && !readSince(item.changed)) li.append(changedMark(item.changed, now));
  if (copies.length) {
    const sub = document.createElement('ul');
    sub.className = 'copies';
    sub.setAttribute('aria-label', t('historyAlsoRead'));
    sub.append(...copies.map((c) => copyItem(c, now, readSince)));
    li.append(sub);
    for (const c of copies) onScreen.set(c.url, matchesQuery(c.url, c.title));
  }
  return li;
}

/**
 * Forgets a group's page. Its copies stay in the history, so they stay on screen: in its place,
 * newest first, each grouped with its own copies.
 */
async function forgetPage(li: HTMLLIElement, { url, title }: HistoryItem, copies: string[]): Promise<void> {
  const shown = generation;
  const rows = list.childElementCount;
  const { undo } = await send('popup:forgetPage', { url });
  offerUndo({ kind: 'page', title, url }, undo);
  onScreen.delete(url);
  for (const c of copies) onScreen.delete(c);
  const { items } = copies.length ? await send('history:items', { urls: copies }) : { items: [] };
  // A search started meanwhile has drawn the list anew, from the history as it is now.
  if (shown !== generation) return;
  const now = Date.now();
  const groups: HTMLLIElement[] = [];
  for (const item of items.sort((a, b) => b.lastSeen - a.lastSeen)) {
    if (onScreen.has(item.url)) continue; // a copy of a copy already regrouped
    onScreen.set(item.url, matchesQuery(item.url, item.title));
    groups.push(pageItem(item, now));
  }
  // Focus goes where the reader would look next: the first regrouped copy, or the next page.
  const after = groups[0] ?? li.nextElementSibling;
  li.replaceWith(...groups);
  (after?.querySelector<HTMLElement>('a, button') ?? $('search')).focus();
  // The list keeps its length while the history has more: the page that follows takes the place
  // of the one forgotten (as "Show more" would bring it), and the focus stays where it went.
  const short = rows - list.childElementCount;
  if (short > 0 && !more.hidden) await loadOrSay(false, short);
  else await showSummary();
}

/** Whether the list holds every page the search matches ("Show more" has nothing more to find). */
let searched = true;

/** The history's newest page and its count when the list was drawn (or last counted): what tells that it changed behind it. */
let drawnTop: Pick<HistoryItem, 'url' | 'lastSeen'> | undefined;
let drawnTotal: number | undefined;

/** What the list shows: every page on screen, or with a search, those that match it (so far, until the search has read everything). */
async function showSummary(): Promise<void> {
  const { pages } = await send('options:stats', {});
  drawnTotal = pages;
  const total = number.format(pages);
  if (!query.trim()) {
    summary.textContent = t('historyShowing', number.format(onScreen.size), total);
    return;
  }
  const found = [...onScreen.values()].filter(Boolean).length;
  // Before the search has read the whole history, what is on screen is what it found so far.
  summary.textContent = searched ? t(found === 1 ? 'historyFoundOne' : 'historyFoundMany', number.format(found), total) : t(found === 1 ? 'historyFoundSoFarOne' : 'historyFoundSoFar', number.format(found), total);
}

const undoBar = $('undo-bar');
const undoText = $('undo-text');
const undoButton = $<HTMLButtonElement>('undo');
let undoTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * After a page is forgotten: "“Title” (site) was forgotten. [Undo]", for as long as the background
 * keeps what it took (UNDO_MS, or `ms` left of it: a forget made before this page opened, here or
 * in a popup, which names a page or a site's pages). Undo brings it back and draws the list anew; a
 * second forget replaces the offer (only the last can be undone).
 */
function offerUndo(about: UndoAbout, token: string | undefined, ms = UNDO_MS): void {
  clearTimeout(undoTimer);
  undoBar.hidden = token === undefined;
  if (token === undefined) return;
  undoText.textContent =
    about.kind === 'page'
      ? t('historyForgotten', isolate(nameOf(about.title, about.url)), isolate(placeOf(about.url)))
      : t(about.pages === 1 ? 'popupSiteForgottenOne' : 'popupSiteForgotten', number.format(about.pages), isolate(sitePatternName(about.site)));
  undoButton.hidden = undoButton.disabled = false;
  undoButton.onclick = async () => {
    undoButton.disabled = true;
    clearTimeout(undoTimer);
    try {
      const { expired, restored } = await send('history:undoForget', { undo: token });
      undoButton.hidden = true;
      undoText.textContent = expired ? t('forgetUndoExpired') : about.kind === 'site' && restored !== 1 ? t('forgetUndoneMany', number.format(restored)) : t('forgetUndone');
      undoText.focus();
      if (!expired) await loadOrSay(true);
    } catch (e) {
      undoText.textContent = errorText(e);
      undoButton.disabled = false;
    }
  };
  undoTimer = setTimeout(() => {
    // Past its time: the offer goes, and the focus, if it was on Undo, to the count.
    const focused = undoButton === document.activeElement;
    undoBar.hidden = true;
    if (focused) summary.focus();
  }, ms);
}

function showError(e: unknown): void {
  summary.textContent = errorText(e);
}

/** How many pages of the history the search on screen has looked through so far. */
let looked = 0;

/** Draws the list anew (`reset`) or adds to it `want` pages (a screenful unless said) of those not shown yet. */
async function load(reset: boolean, want = PAGE): Promise<void> {
  const mine = ++generation;
  if (reset) {
    list.replaceChildren();
    onScreen.clear();
    next = undefined;
    looked = 0;
  }
  // "Show more", hidden while it loads, hands the focus to the first page it brings.
  const moreHadFocus = document.activeElement === more;
  const firstNew = list.childElementCount;
  more.hidden = true;
  summary.textContent = t('historyLoading');
  // A rare search may need several steps through a large history before a page fills.
  let done = false;
  let added = 0;
  while (added < want && !done) {
    const res = await send('history:list', { query, after: next, limit: want });
    if (mine !== generation) return; // a newer search started
    if (reset && next === undefined) drawnTop = res.items[0];
    const now = Date.now();
    for (const item of res.items) {
      // Shown already as a copy under another page: it matches the search all the same.
      if (onScreen.has(item.url)) {
        onScreen.set(item.url, true);
        continue;
      }
      onScreen.set(item.url, true);
      list.append(pageItem(item, now));
      added++;
    }
    next = res.next;
    done = res.done || !res.next;
    looked += res.scanned ?? 0;
    // A rare search through a large history takes several steps (seconds at 100,000 pages): it
    // says how far it has looked, not only "Loading…" until a screenful is found.
    if (!done && added < want && query.trim()) {
      drawnTotal ??= (await send('options:stats', {})).pages;
      if (mine !== generation) return;
      const found = [...onScreen.values()].filter(Boolean).length;
      summary.textContent = t('historySearching', number.format(found), number.format(Math.min(looked, drawnTotal)), number.format(drawnTotal));
    }
  }
  searched = done;
  await showSummary();
  if (mine !== generation) return; // a newer search started while the count was asked
  more.hidden = done;
  if (moreHadFocus) (list.children[firstNew]?.querySelector('a') ?? (done ? summary : more)).focus();
}

localizePage();
/** A load that failed says why, and leaves "Show more" to try again. */
const loadOrSay = (reset: boolean, want = PAGE) => {
  const mine = generation + 1; // the number load() takes at once
  return load(reset, want).catch((e: unknown) => {
    if (mine !== generation) return; // a newer search says how it went
    showError(e);
    more.hidden = false;
  });
};
more.addEventListener('click', () => void loadOrSay(false));

/**
 * The history changes while this page waits in a tab behind: pages read, forgotten from a popup.
 * When the reader comes back to it, the list is drawn anew where its newest page or its count
 * moved (until 28 November 2026 it showed the history as it was when opened, until reloaded). Not
 * during a search, a question or an Undo offer: the reader is in the middle of those.
 */
async function drawAgainIfChanged(): Promise<void> {
  if (document.visibilityState === 'hidden' || query.trim() || !undoBar.hidden || list.querySelector('.confirm') || drawnTotal === undefined) return;
  const asked = generation;
  const [{ items }, { pages }] = await Promise.all([send('history:list', { limit: 1 }), send('options:stats', {})]);
  if (asked !== generation) return; // drawn anew meanwhile
  const [top] = items;
  if (pages === drawnTotal && top?.url === drawnTop?.url && top?.lastSeen === drawnTop?.lastSeen) return;
  // A focus in the list would go with the rows drawn anew: it goes to the count, which says what the list shows now.
  const focused = list.contains(document.activeElement);
  await loadOrSay(true);
  if (focused) summary.focus();
}
const whenBack = () => void drawAgainIfChanged().catch(() => undefined);
onHistoryEvent(({ type }) => {
  // An import has ended: its pages are shown as they would be on coming back to the page.
  if (type === 'imported') return whenBack();
  // The history cleared in another tab or window: nothing of it stays on screen, nor its Undo (gone with it).
  clearTimeout(undoTimer);
  undoBar.hidden = true;
  void loadOrSay(true);
});
document.addEventListener('visibilitychange', whenBack);
window.addEventListener('focus', whenBack);
let debounce: ReturnType<typeof setTimeout> | undefined;
$<HTMLInputElement>('search').addEventListener('input', (e) => {
  clearTimeout(debounce);
  debounce = setTimeout(() => {
    query = (e.target as HTMLInputElement).value;
    terms = searchTerms(query);
    void loadOrSay(true);
  }, 250);
});
$<HTMLFormElement>('search-form').addEventListener('submit', (e) => e.preventDefault());
// A forget made before this page opened (in a popup, which closes at any click outside it, or in
// this page before a reload) is offered for Undo for the time it has left.
void loadOrSay(true)
  .then(() => send('history:pendingUndo', {}))
  .then(({ undo: pending }) => {
    if (pending && undoBar.hidden) offerUndo(pending.about, pending.token, pending.left);
  })
  .catch(() => undefined);
