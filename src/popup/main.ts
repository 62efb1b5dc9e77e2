// The popup: the status of the active tab's page, the earlier pages it matches (each can be marked
// "not the same"), and quick actions (forget this page or site, after a confirmation; pause on this
// site or everywhere). `?tab=ID` shows another tab's status (the
// popup opened as a page, as the tests do).
import browser from '../ext';
import { UNDO_MS, type MatchSummary, type PendingUndo, type TabStatus, type UndoAbout } from '../messaging/protocol';
import { send, sendToTab } from '../messaging/send';
import { isExcluded, normalizeSitePattern, type Settings } from '../settings/settings';
import { loadSettings, saveSettings } from '../settings/settings-store';
import { displayUrl } from '../core/idn';
import { pageIdentity, schemeFree } from '../core/url';
import { isSearchResultPage } from '../core/links';
import { bidiSafe, isolate, isolated, listOf, localizedNodes } from '../ui/bidi';
import { localizePage, sentences, t, uiLocale } from '../ui/i18n';
import { describeFresh, describeMatch, describeReadShare } from '../ui/similarity';
import { isOpenableUrl, placeOf, siteName, siteOf, sitePatternName } from '../ui/site';
import { timeAgo } from '../ui/time-ago';
import { errorText } from '../ui/error-text';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const statusEl = $<HTMLParagraphElement>('status');
const listEl = $<HTMLOListElement>('matches');

async function targetTab(): Promise<number | undefined> {
  const param = new URLSearchParams(location.search).get('tab');
  if (param !== null && /^\d+$/.test(param)) {
    document.documentElement.classList.add('in-tab');
    return Number(param);
  }
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id;
}

/**
 * Asks before a deletion: the question, a button that does it and Cancel
 * (focused, so Enter is safe; Escape cancels too). Focus goes back to `from` when cancelled.
 */
function confirmThen(from: HTMLElement, question: Array<string | Node>, yes: string, action: () => Promise<void>): void {
  const box = $('confirm');
  const yesButton = $<HTMLButtonElement>('confirm-yes');
  const noButton = $<HTMLButtonElement>('confirm-no');
  $('confirm-text').replaceChildren(...question);
  yesButton.textContent = yes;
  box.hidden = false;
  const close = () => {
    box.hidden = true;
    box.onkeydown = yesButton.onclick = noButton.onclick = null;
  };
  yesButton.onclick = () => {
    close();
    // What was asked about is gone (its button hidden): the focus goes to the status, which says what was done (or what went wrong).
    void action()
      .catch((e: unknown) => void (statusEl.textContent = errorText(e)))
      .finally(() => (from.hidden ? statusEl : from).focus());
  };
  noButton.onclick = () => {
    close();
    from.focus();
  };
  box.onkeydown = (e) => {
    if (e.key === 'Escape') noButton.click();
  };
  noButton.focus();
}

/**
 * `m`'s place as the list shows it: its site, or with its path where another match, or the page in
 * the tab (`here`), is on the same site (its site alone would not say which page it was).
 */
function placeIn(m: MatchSummary, all: readonly MatchSummary[], here?: string): string {
  const site = siteOf(m.url);
  return all.some((o) => o !== m && siteOf(o.url) === site) || (here !== undefined && siteOf(here) === site) ? placeOf(m.url) : siteName(m.url);
}

function matchItem(m: MatchSummary, now: number, place: string, notSame?: (m: MatchSummary) => Promise<void>): HTMLLIElement {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.append(isolated(m.title || m.url));
  link.title = m.title ? `${bidiSafe(m.title)}\n${bidiSafe(displayUrl(m.url))}` : bidiSafe(displayUrl(m.url));
  if (isOpenableUrl(m.url)) {
    link.href = m.url;
    link.addEventListener('click', (e) => {
      e.preventDefault();
      void browser.tabs.create({ url: m.url });
    });
  }
  const meta = document.createElement('span');
  meta.className = 'meta';
  meta.append(isolated(place), ` · ${describeMatch(m)}${m.fresh ? ` · ${describeReadShare(m.fresh)}` : ''} · `, timeAgo(m.lastSeen, now));
  if (notSame) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'not-same';
    button.textContent = t('noticeNotSame');
    button.title = t('popupNotSameHint');
    // Each match's button named by its page: a list of "Not the same" buttons is otherwise a list of one name.
    button.setAttribute('aria-label', t('popupNotSameLabel', isolate(m.title || m.url)));
    button.addEventListener('click', () => void notSame(m).catch((e: unknown) => void (statusEl.textContent = errorText(e))));
    meta.append(button);
  }
  li.append(link, meta);
  return li;
}

/** "You said 3 pages you read are not the same as this one." */
const notSameText = (n: number) => (n === 1 ? t('popupNotSameHereOne') : t('popupNotSameHere', n));

function statusText(status: TabStatus, settings: Settings, pageUrl: string | undefined): string {
  if (settings.paused) return t('popupPausedEverywhere');
  // Never read, paused or not (a search engine's result page is in the suggested exclusions too): that is what to say.
  if (pageUrl && isSearchResultPage(pageUrl)) return t('popupSearchResults');
  if (pageUrl && isExcluded(pageUrl, settings.excludedSites)) {
    // Paused by paths of the site only ("example.com/reads"): the rest of the site is read.
    const byPath = settings.excludedSites.every((s) => !isExcluded(pageUrl, [s]) || s.includes('/'));
    return t(byPath ? 'popupPausedPart' : 'popupPausedHere');
  }
  if (status.state === 'unsupported') return t(status.loading ? 'popupStillLoading' : 'popupUnsupported');
  if (status.state === 'not-article') return status.checking ? t('popupChecking') : t('popupNotArticle');
  const n = status.matches.length;
  // Forgotten here, in this popup or in one opened before on this page load (the list below still shows what else the history holds like it).
  if (forgottenHere) return t('popupForgotten');
  // A page visited before whose text has changed since: what is new, as the notice tells it where no page elsewhere matches.
  const since = status.visitedBefore && status.sinceVisit ? t('popupSinceVisit', describeFresh(status.sinceVisit)) : '';
  const lines = [status.visitedBefore ? t('popupVisitedBefore') : '', since, n === 1 ? t('popupReadElsewhereOne') : n > 1 ? t('popupReadElsewhereMany', n) : ''].filter(Boolean);
  // Just recorded: the reader is told it went into the history, not only that nothing matched.
  if (lines.length) return sentences(lines);
  // Nothing flagged because the reader said the pages like it are not the same: not "nothing like it".
  if (status.notSame) return notSameText(status.notSame);
  return t(status.recorded ? 'popupRecordedNothingLikeIt' : 'popupNothingLikeIt');
}

/**
 * The reader forgot this page (or its site) here: the page open in the tab is left unread, so the
 * popup offers neither "Forget" nor "Not the same" for it any more (a pair would name a page the
 * history no longer holds).
 */
let forgottenHere = false;
/** The address of the page the popup tells of. */
let shownUrl: string | undefined;

let undoTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Whether a pending forget is of the page the popup tells of, which its status line already says
 * was forgotten: the Undo is offered without saying it again (a review: "This page was forgotten.
 * Forgot "…" (…). Undo").
 */
function aboutThisPage(about: UndoAbout): boolean {
  return about.kind === 'page' && forgottenHere && shownUrl !== undefined && schemeFree(pageIdentity(about.url)) === schemeFree(pageIdentity(shownUrl));
}

/**
 * After a forget: Undo under the status that says what was forgotten, while the background keeps
 * what it took (UNDO_MS). Undo brings the page, or the site's pages, back as they were; the page
 * open in the tab stays unrecorded for this visit, as the forget left it. A popup opened after the
 * one that forgot had closed (it closes at any click outside it) offers the same Undo for the time
 * left (`pending`), saying beside it what was forgotten, unless `named` is false (aboutThisPage).
 */
function offerUndo(tabId: number, token: string | undefined, pages = 1, pending?: PendingUndo, named = true): void {
  const bar = $('undo-forget-here');
  const button = $<HTMLButtonElement>('undo-forget');
  clearTimeout(undoTimer);
  bar.hidden = token === undefined;
  $('undo-forget-text').replaceChildren(...(pending && named ? forgottenText(pending.about) : []));
  if (token === undefined) return;
  button.disabled = false;
  button.onclick = async () => {
    button.disabled = true;
    clearTimeout(undoTimer);
    try {
      const { restored, expired } = await send('history:undoForget', { undo: token });
      bar.hidden = true;
      if (!expired) forgottenHere = false;
      await render(tabId, true);
      // What was done, then the page's story as it stands now.
      statusEl.textContent = sentences([expired ? t('forgetUndoExpired') : pages === 1 ? t('forgetUndone') : t('forgetUndoneMany', new Intl.NumberFormat(uiLocale()).format(restored)), statusEl.textContent ?? '']);
    } catch (e) {
      statusEl.textContent = errorText(e);
    }
    statusEl.focus();
  };
  undoTimer = setTimeout(
    () => {
      const focused = button === document.activeElement;
      bar.hidden = true;
      if (focused) statusEl.focus();
    },
    pending ? pending.left : UNDO_MS,
  );
}

/** What a forget took, as the History page and the popup after a site's forget say it. */
function forgottenText(about: UndoAbout): Node[] {
  if (about.kind === 'page') return localizedNodes('historyForgotten', [isolated(about.title || about.url), isolated(placeOf(about.url))]);
  return localizedNodes(about.pages === 1 ? 'popupSiteForgottenOne' : 'popupSiteForgotten', [new Intl.NumberFormat(uiLocale()).format(about.pages), isolated(sitePatternName(about.site))]);
}

/** A page still being checked is asked about again this often, a few times (a page takes about a second). */
const CHECKING_AGAIN_MS = 400;
const CHECKING_TRIES = 25;

/**
 * Shows the tab's status. `acted`: after the reader did something here ("not the same", forget,
 * pause), so the toolbar button is set to tell the same.
 */
async function render(tabId: number, acted = false, tries = CHECKING_TRIES): Promise<void> {
  const [status, settings] = await Promise.all([send('popup:tabStatus', { tabId, refreshBadge: acted }), loadSettings()]);
  if (status.state === 'checked' && status.forgotten) forgottenHere = true;
  if (status.state === 'not-article' && status.checking && tries > 0) {
    statusEl.textContent = t('popupChecking');
    await new Promise((resolve) => setTimeout(resolve, CHECKING_AGAIN_MS));
    return render(tabId, acted, tries - 1);
  }
  const page = status.state === 'checked' ? status.page : undefined;
  const url = status.state === 'checked' ? status.page.url : status.state === 'not-article' ? status.url : undefined;
  shownUrl = url;
  statusEl.textContent = statusText(status, settings, url);
  const linksRead = status.state === 'unsupported' ? 0 : (status.linksRead ?? 0);
  const linksEl = $('links-read');
  linksEl.textContent = linksRead === 1 ? t('popupLinksReadOne') : t('popupLinksReadMany', linksRead);
  linksEl.hidden = linksRead === 0;
  const now = Date.now();
  const matches = status.state === 'checked' ? status.matches : [];
  const notSame = page && !forgottenHere && !(status.state === 'checked' && status.unrecorded)
    ? async (m: MatchSummary) => {
        await send('popup:notSame', { url: page.url, other: m.url });
        await render(tabId, true);
        // Which page it was (its row is gone now), then what the list holds still.
        statusEl.textContent = sentences([t('popupNotSameDone', isolate(m.title || m.url), isolate(placeIn(m, matches, url))), statusEl.textContent ?? '']);
        statusEl.focus();
      }
    : undefined;
  listEl.replaceChildren(...matches.map((m) => matchItem(m, now, placeIn(m, matches, url), notSame)));
  listEl.hidden = matches.length === 0;

  // "Not the same" said of this page (here, or in its notice) can be taken back: its matches come back.
  const saidNotSame = status.state === 'checked' && !forgottenHere ? (status.notSame ?? 0) : 0;
  $('not-same-here').hidden = saidNotSame === 0;
  // Beside Undo, what it undoes, unless the status above says it already (nothing else to say there):
  // a page visited before said only that, and Undo stood alone.
  $('not-same-text').textContent = saidNotSame && statusEl.textContent !== notSameText(saidNotSame) ? notSameText(saidNotSame) : '';
  $<HTMLButtonElement>('same-again').onclick = page
    ? async () => {
        await send('popup:sameAgain', { url: page.url });
        await render(tabId, true);
        statusEl.textContent = sentences([t('popupSameAgainDone'), statusEl.textContent ?? '']);
        statusEl.focus();
      }
    : null;

  const forget = $<HTMLButtonElement>('forget');
  forget.hidden = !page || forgottenHere;
  forget.onclick = () => {
    if (!page) return;
    confirmThen(forget, localizedNodes('popupForgetConfirm', [isolated(page.title || page.url)]), t('popupForgetYes'), async () => {
      const { undo } = await send('popup:forgetPage', { url: page.url });
      // Not recorded again at the end of its dwell time, by the page still open in the tab.
      await sendToTab(tabId, 'background:leaveUnread', { url: page.url }).catch(() => undefined);
      forgottenHere = true;
      await render(tabId, true);
      offerUndo(tabId, undo);
    });
  };

  const site = url ? normalizeSitePattern(siteOf(url)) : null;
  const forgetSite = $<HTMLButtonElement>('forget-site');
  forgetSite.hidden = !site;
  forgetSite.replaceChildren(...localizedNodes('popupForgetSite', [isolated(sitePatternName(site ?? ''))]));
  forgetSite.onclick = async () => {
    if (!site) return;
    // A site with no page in the history: nothing to forget, and no question that would end in "0 pages".
    const { recorded } = await send('popup:siteRecorded', { site });
    if (!recorded) {
      forgetSite.hidden = true;
      statusEl.replaceChildren(...localizedNodes('popupSiteNothing', [isolated(sitePatternName(site))]));
      statusEl.focus();
      return;
    }
    confirmThen(forgetSite, localizedNodes('popupForgetSiteConfirm', [isolated(sitePatternName(site))]), t('popupForgetSiteYes'), async () => {
      const { forgotten, undo } = await send('popup:forgetSite', { site });
      await sendToTab(tabId, 'background:leaveUnread', { site }).catch(() => undefined);
      forgottenHere = true;
      // Its pages go from the list of matches too.
      await render(tabId, true);
      forgetSite.hidden = true;
      statusEl.replaceChildren(...localizedNodes(forgotten === 1 ? 'popupSiteForgottenOne' : 'popupSiteForgotten', [new Intl.NumberFormat(uiLocale()).format(forgotten), isolated(sitePatternName(site))]));
      offerUndo(tabId, undo, forgotten);
    });
  };
  const pauseSite = $<HTMLButtonElement>('pause-site');
  const excludedHere = url !== undefined && isExcluded(url, settings.excludedSites);
  // Every exclusion that covers this page, as the list holds it: the site with or without "www.", a
  // domain above it, a path of it. Resume takes them all away, or the page would stay paused.
  const coversHere = (s: string) => url !== undefined && isExcluded(url, [s]);
  // A search engine's result page is never read: pausing or resuming there would change nothing it says.
  pauseSite.hidden = !site || (url !== undefined && isSearchResultPage(url));
  // Resume names what it takes away, as the list holds it ("google.com" on mail.google.com: every
  // site under it resumes too), so that it never widens silently.
  const covering = excludedHere ? settings.excludedSites.filter(coversHere) : [];
  pauseSite.replaceChildren(...localizedNodes(excludedHere ? 'popupResumeSite' : 'popupPauseSite', [covering.length ? listOf(covering.map(sitePatternName)) : isolated(sitePatternName(site ?? ''))]));
  pauseSite.onclick = async () => {
    if (!site) return;
    try {
      await saveSettings((now) => ({ excludedSites: excludedHere ? now.excludedSites.filter((s) => !coversHere(s)) : [...now.excludedSites, site] }));
      await render(tabId, true);
    } catch (e) {
      statusEl.textContent = errorText(e);
    }
  };

  const pauseAll = $<HTMLButtonElement>('pause-all');
  pauseAll.textContent = settings.paused ? t('popupResumeAll') : t('popupPauseAll');
  pauseAll.onclick = async () => {
    try {
      await saveSettings({ paused: !settings.paused });
      await render(tabId, true);
    } catch (e) {
      statusEl.textContent = errorText(e);
    }
  };
}

async function main(): Promise<void> {
  localizePage();
  $('open-options').addEventListener('click', (e) => {
    e.preventDefault();
    void browser.runtime.openOptionsPage();
  });
  $('open-history').addEventListener('click', (e) => {
    e.preventDefault();
    void browser.tabs.create({ url: browser.runtime.getURL('src/history/index.html') });
  });
  const tabId = await targetTab();
  if (tabId === undefined) {
    statusEl.textContent = t('popupUnsupported');
    return;
  }
  await render(tabId);
  // A forget made in a popup since closed, or in the History page, that can still be undone.
  const { undo: pending } = await send('history:pendingUndo', {});
  if (pending && $('undo-forget-here').hidden) offerUndo(tabId, pending.token, pending.about.kind === 'site' ? pending.about.pages : 1, pending, !aboutThisPage(pending.about));
}

main().catch((e: unknown) => {
  statusEl.textContent = errorText(e);
});
