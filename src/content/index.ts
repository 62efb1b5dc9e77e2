// The content script: once the document is idle, extracts the article and asks the background
// whether it was read before (the background sets the toolbar badge, which the page cannot see);
// once the page has been visible for the dwell time, has the visit recorded, retrying until the
// background has it, and only then may show the in-page notice, once per page load at most, so a
// page learns nothing of the reader's history before the reader has stayed on it (design.md,
// "What a page may learn"). Runs again when a single-page app shows another article. Where the
// settings allow, it also marks the links on the page that lead to pages read (link-marks.ts).
// What it draws on the page comes in a second script, imported when there is something to draw
// (handoff.ts), so that a page with nothing to draw does not pay for evaluating it.
import browser, { answerMessages } from '../ext';
import { isRouteFragment, MIN_RECORDED_WORDS, siteOf, spacedPattern, type PassageLocator } from '../core';
import type { CheckedPage, ContentProtocol, NoticeMatch, NoticeProtocol, PageReport, PageSeenAnswer } from '../messaging/protocol';
import { deliver, type RetryOptions } from '../messaging/retry';
import { createRouter, senderKind } from '../messaging/router';
import { ExtensionGoneError, extensionGone, send } from '../messaging/send';
import { heldFromReading, linkMarksAllowed, type Settings } from '../settings/settings';
import { loadSettings, onSettingsChanged } from '../settings/settings-store';
import type { LinkMarks } from './link-marks';
import { visibleTimer } from './dwell';
import { declaredUrls } from './declared-urls';
import { extractOffPage } from './extract-off-page';
import { randomId } from './random-id';
import { drawingLoaded, loadDrawing } from './handoff';

/** A background being restarted answers within seconds; keep trying for a few minutes. */
const RECORD_RETRY: RetryOptions = { tries: 12, delayMs: 500, maxDelayMs: 30_000, timeoutMs: 20_000 };
/** The check is asked again a few times, within a minute or so. */
const CHECK_RETRY: RetryOptions = { tries: 8, delayMs: 250, maxDelayMs: 8_000, timeoutMs: 20_000 };

/** The address without a fragment that is a place in the page: moving to an anchor is not another page (a route, #/story/2, is). */
const pageAddress = (href: string) => {
  const hash = href.indexOf('#');
  return hash < 0 || isRouteFragment(href.slice(hash)) ? href : href.slice(0, hash);
};

/** How this page load came (the browser's own record of the navigation), and the address it loaded. */
const loadType = (performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
/** This page load is of a page the tab showed before: by Back or Forward, or reloaded. */
const cameAgain = loadType === 'back_forward' || loadType === 'reload';
const loadedAddress = pageAddress(location.href);

let checked: CheckedPage | null = null;
let checkedAddress = '';
/** The hash of the article text being shown: a new address with the same text is the same article. */
let checkedTextHash = '';
/** Patterns of a few of its passages' first characters (core's locators): whether it is still on the page (lookAgain). */
let checkedProbes: RegExp[] = [];
/** Stops counting the dwell time of the article being shown, keeping what was counted (its view is being checked again). */
let pauseDwell: () => void = () => undefined;
/** Counts on the dwell time of the article being shown, if it is not read yet. */
let resumeDwell: () => void = () => undefined;
/** Drops the dwell time of the article that was shown. */
let stopDwell: () => void = () => undefined;
/** Whether this page load has had its one chance to show the notice (at the first dwell reached). */
let noticeDecided = false;
/** The page was left unread because the extension is paused, or paused on this site. */
let heldBySettings = false;
/** Checks under way (one, or two overlapping in a single-page app): the popup says "checking" meanwhile. */
let checking = 0;
/** The number of the latest check: one that a later check replaced (the page moved on meanwhile) leaves everything to it. */
let generation = 0;
/**
 * The article whose visit this page load recorded last (its text hash): met again without another
 * article between (the same view after a look that found nothing, the page resumed after a
 * pause), it is not a new visit.
 */
let recordedTextHash = '';
/** The article whose visit the background said it recorded in this page load (its text hash): the popup is told so. */
let visitRecordedHash = '';
/** That visit's id: asked about again, the page is told apart from an earlier visit of it (tellAgain). */
let visitRecordedId = '';
/** And its address. */
let visitRecordedAddress = '';
/** Addresses the reader forgot from the popup in this page load (and whether the whole site was): never recorded now. */
const leftUnread = new Set<string>();
let siteLeftUnread = false;

/** What the notice drawn in this page load names. */
let shownMatch: NoticeMatch | undefined;

/** Takes down the notice, if one was drawn. */
const removeNotice = () => {
  shownMatch = undefined;
  drawingLoaded()?.removeNotice();
};

/** Passages' heads at least this long are probes: shorter ones (a heading, a date) may be on any page. */
const MIN_PROBE_CHARS = 12;
/** The heads of the article's first, middle and last long passages, as patterns that find them in the page's text. */
function probesOf(locators: readonly PassageLocator[]): RegExp[] {
  const long = locators.filter((l) => l.head.length >= MIN_PROBE_CHARS);
  return [...new Set([long[0], long[long.length >> 1], long[long.length - 1]].filter((l) => l !== undefined).map((l) => l.head))].map(spacedPattern);
}

/** What a check found: the page held by the settings, no article, the article shown before, or another; or a later check replaced it. */
type Outcome = 'held' | 'none' | 'same' | 'new' | 'replaced';

async function check(settingsNow = loadSettings()): Promise<Outcome> {
  const mine = ++generation;
  const replaced = () => mine !== generation;
  const url = location.href;
  checkedAddress = pageAddress(url);
  const settings = await settingsNow;
  if (replaced()) return 'replaced';
  // Excluded sites and a paused extension are not even read.
  heldBySettings = heldFromReading(url, settings);
  if (heldBySettings) {
    forgetView();
    return 'held';
  }
  const extraction = await extractOffPage(document, MIN_RECORDED_WORDS);
  // The page moved on while it was read (a slow page, a single-page app): the later check decides.
  if (replaced()) return 'replaced';
  if (!extraction.ok) {
    forgetView();
    removeNotice();
    return 'none';
  }
  const { title, digest, lang, passages, locators } = extraction.article;
  // A single-page app that only changed the query (?view=2) shows the same article: the view goes
  // on, its dwell time where it was, its notice (if one was shown) still there. The toolbar button
  // is told again: Chrome takes an address changed by the page's script (pushState, replaceState)
  // for a load, and the background cleared the button then.
  if (digest.textHash === checkedTextHash) {
    resumeDwell();
    tellAgain();
    return 'same';
  }
  forgetView();
  removeNotice();
  checkedTextHash = digest.textHash;
  checkedProbes = probesOf(locators);
  // This page load recorded another article at this address, which the page has replaced: this
  // one is that visit's, not a visit of its own (nor was the page visited before it).
  const thisVisit = visitRecordedId && visitRecordedAddress === checkedAddress ? { visitId: visitRecordedId } : {};
  const report: PageReport = { url, title, digest, lang, canonical: declaredUrls(document), passages };
  // The check, and the popup's, leave out the read set: only a recorded visit keeps it.
  const looked: PageReport = { ...report, digest: { ...digest, readSet: '' }, ...thisVisit };
  let verdict: PageSeenAnswer;
  try {
    verdict = await deliver(() => send('content:pageSeen', looked), { ...CHECK_RETRY, stillWanted: () => !replaced() });
  } catch (e) {
    // Not checked: a later look at this article asks again, rather than taking it for the view checked.
    if (!replaced()) forgetView();
    throw e;
  }
  if (replaced()) return 'replaced';
  // The background holds the page (paused, or an excluded site, as it read the settings): resumed, it is checked again.
  if (verdict.skipped) {
    heldBySettings = true;
    forgetView();
    return 'held';
  }
  checked = { ...looked, fp: verdict.fp };
  listenForReturn();
  // Recorded once in a page load, and never once the reader forgot it from the popup.
  if (digest.textHash === recordedTextHash || leftUnread.has(checkedAddress) || siteLeftUnread) return 'new';
  const visitId = thisVisit.visitId ?? randomId();
  // The page this load came to by Back, Forward or a reload (not a page the single-page app moved to since).
  const again = cameAgain && checkedAddress === loadedAddress ? { loadedAgain: true as const } : {};
  const dwell = visibleTimer(document, settings.dwellSeconds, () => {
    recordedTextHash = digest.textHash;
    void readAtLast(verdict, looked, { ...report, visitId, ...again }, locators);
  });
  pauseDwell = dwell.pause;
  resumeDwell = dwell.resume;
  stopDwell = dwell.stop;
  // The address may have changed while the background answered: the dwell waits for the check of the new one.
  if (pageAddress(location.href) === checkedAddress) resumeDwell();
  return 'new';
}

/**
 * A page brought back by Back or Forward from the browser's cache keeps this script as it was, but
 * the toolbar button was cleared when the tab navigated away: it is told again (nothing else
 * changes). Listened for once a page has been checked (a page with no article has nothing to tell).
 */
let listeningForReturn = false;
function listenForReturn(): void {
  if (listeningForReturn) return;
  listeningForReturn = true;
  window.addEventListener('pageshow', (e) => {
    // The browser's event only: one the page makes up would ask the background again at its will.
    if (!e.isTrusted || !e.persisted) return;
    tellAgain();
  });
}

/** Asks the background about the page checked last once more, so that it sets the toolbar button again (nothing else changes). */
function tellAgain(): void {
  if (!checked || gone) return;
  const { fp: _fp, ...report } = checked;
  // The visit this page load recorded is not a visit before it: its id says which it is.
  const visit = visitRecordedHash === checkedTextHash && visitRecordedId ? { visitId: visitRecordedId } : {};
  void send('content:pageSeen', { ...report, ...visit }).catch(() => undefined);
}

function forgetView(): void {
  checked = null;
  checkedTextHash = '';
  checkedProbes = [];
  stopDwell();
  pauseDwell = resumeDwell = stopDwell = () => undefined;
}

/**
 * The dwell time is over. The notice is decided on the history as it is now, not as it was when the
 * page was checked (`checkedAs`): meanwhile (hours, for a tab opened in the background) the reader
 * may have cleared the history, forgotten the page that matched, or said "Not the same" in the
 * popup, and the notice named what was gone. So where the check found a match, the background is
 * asked again, before the visit is written (asked after, it would take this visit for the reading
 * before it); then the visit is recorded. Asking again tells the page nothing: it is after the
 * dwell time, as the notice is, and the page sees no message.
 */
async function readAtLast(checkedAs: PageSeenAnswer, looked: PageReport, report: PageReport, locators: PassageLocator[]): Promise<void> {
  let verdict: PageSeenAnswer | undefined = checkedAs;
  if (checkedAs.match) {
    try {
      verdict = await deliver(() => send('content:pageSeen', looked), CHECK_RETRY);
    } catch (e) {
      if (e instanceof ExtensionGoneError) return shutDown();
      // Not answered: no notice (none can be told for sure), and the visit is still recorded.
      verdict = undefined;
    }
  }
  void recordVisit(report);
  // In a task of its own: drawing the notice is the page's work, not the report's; as the settings
  // say now (the reader may have turned the notice off while the page waited).
  setTimeout(() => void loadSettings().then((now) => showNoticeOnce(verdict, now.showNotice && !now.paused && !verdict?.skipped, locators), () => undefined), 0);
}

/** Sends the visit until the background has recorded it; the visit id makes a repeat count once. */
async function recordVisit(report: PageReport): Promise<void> {
  try {
    // Not sent again once the reader forgot the page or its site from the popup: that would record it anew.
    const address = pageAddress(report.url);
    const answer = await deliver(() => send('content:pageRead', report), { ...RECORD_RETRY, stillWanted: () => !leftUnread.has(address) && !siteLeftUnread });
    // Recorded, as the background says (not in a private window left unrecorded, nor on a full disk).
    if (answer.recorded) {
      visitRecordedHash = report.digest.textHash;
      visitRecordedId = report.visitId ?? '';
      visitRecordedAddress = address;
    }
  } catch (e) {
    if (e instanceof ExtensionGoneError) return shutDown();
    console.info('Déjà Read: visit not recorded:', e instanceof Error ? e.message : e);
  }
}

/**
 * The first view of a page load to reach the dwell time decides, once, whether the notice shows:
 * later views (in-page navigation) never show one, so a page cannot swap its text to test one
 * article after another.
 */
function showNoticeOnce(verdict: PageSeenAnswer | undefined, enabled: boolean, locators: PassageLocator[]): void {
  if (noticeDecided) return;
  noticeDecided = true;
  const match = verdict?.match;
  if (!enabled || !match) return;
  const parts = match.fresh?.parts ?? [];
  const view = checkedTextHash;
  loadDrawing().then(
    ({ showNotice, showNewParts }) => {
      // The reader moved on to another view while the drawing came.
      if (gone || checkedTextHash !== view) return;
      shownMatch = match;
      showNotice(match, verdict.more, {
        notSame: (m) => void send('content:notSame', { other: m.url, ...(checked ? { page: checked.url } : {}) }).catch(() => undefined),
        showMatches: () => void send('content:showMatches', {}).catch(() => undefined),
        ...(parts.length ? { showWhatsNew: (within: ParentNode) => showNewParts(document, within, locators, parts) } : {}),
      });
    },
    (e: unknown) => console.info('Déjà Read: notice not shown:', e instanceof Error ? e.message : e),
  );
}

function checkSafely(settingsNow?: Promise<Settings>): Promise<Outcome | undefined> {
  checking++;
  // Nothing is checked before the page is shown (a prerendered page that changes its address or
  // hears of a change of the settings waits as its first check does).
  return shown
    .then(() => check(settingsNow))
    .catch((e: unknown) => {
      if (e instanceof ExtensionGoneError) shutDown();
      else console.info('Déjà Read: page not checked:', e instanceof Error ? e.message : e);
      return undefined;
    })
    .finally(() => checking--);
}

/**
 * The reader forgot the page shown (or its site) from the popup: it is not recorded at the end of
 * its dwell time, nor is a notice shown; the next article the page shows is read as any other.
 */
function leaveUnread({ url, site }: { url?: string; site?: string }): { left: boolean } {
  const here = siteOf(location.href);
  // The popup names the page by the address it was checked at, which the page may have changed
  // since with the same article shown (a tracking parameter taken off, a slug written in).
  const addresses = [checkedAddress, ...(checked ? [pageAddress(checked.url)] : [])];
  const page = url !== undefined && addresses.includes(pageAddress(url));
  const onSite = site !== undefined && here === site.replace(/^www\./, '');
  if (!page && !onSite) return { left: false };
  // A check still under way for it does not start a dwell either.
  if (page) for (const a of addresses) leftUnread.add(a);
  if (onSite) siteLeftUnread = true;
  stopDwell();
  pauseDwell = resumeDwell = stopDwell = () => undefined;
  // A notice about what the reader just forgot goes too: this page's own earlier version, or a page of the site forgotten.
  if (shownMatch && ((page && shownMatch.kind === 'earlier-visit') || (onSite && siteOf(shownMatch.url) === here))) removeNotice();
  return { left: true };
}

/**
 * The extension was reloaded, updated or removed while the page stayed open: this script is cut
 * off from it for good (Chrome leaves it running), so it stops everything it does on the page.
 */
let gone = false;
function shutDown(): void {
  if (gone) return;
  gone = true;
  forgetView();
  removeNotice();
  linkMarks?.stop();
  linkMarks = undefined;
  linkWatch?.disconnect();
  clearTimeout(pending);
  clearInterval(poll);
}

let linkMarks: LinkMarks | undefined;
/** Whether the settings now ask for link marks (they may change while the drawing script comes). */
let marksWanted = false;
/** Links that come after the page was first looked at (a page that draws itself later) are marked when they come. */
let linkWatch: MutationObserver | undefined;
/**
 * Starts or stops the link marks as the settings now say. The drawing script is imported only once
 * the page has a link: a page without any has nothing to mark.
 */
function markLinksAsSettingsSay(settings: Settings): void {
  marksWanted = linkMarksAllowed(location.href, settings, browser.extension.inIncognitoContext === true);
  if (marksWanted && !linkMarks) {
    if (document.links.length > 0) startMarks();
    else watchForLinks();
  } else if (!marksWanted) {
    linkWatch?.disconnect();
    linkWatch = undefined;
    linkMarks?.stop();
    linkMarks = undefined;
  }
}
function startMarks(): void {
  linkWatch?.disconnect();
  linkWatch = undefined;
  loadDrawing().then(
    ({ startLinkMarks }) => {
      if (marksWanted && !linkMarks && !gone) linkMarks = startLinkMarks(document);
    },
    (e: unknown) => console.info('Déjà Read: links not marked:', e instanceof Error ? e.message : e),
  );
}
/** A page that changes all the time is looked at for links at most this often (counting them walks its DOM). */
const LINK_WATCH_MS = 500;
function watchForLinks(): void {
  if (linkWatch) return;
  let due: ReturnType<typeof setTimeout> | undefined;
  linkWatch = new MutationObserver(() => {
    due ??= setTimeout(() => {
      due = undefined;
      if (linkWatch && document.links.length > 0) startMarks();
    }, LINK_WATCH_MS);
  });
  linkWatch.observe(document, { childList: true, subtree: true });
}

answerMessages(
  createRouter<ContentProtocol>(
    {
      'background:getPage': () => Promise.resolve({ url: location.href, page: checked, ...(!checked && checking > 0 ? { checking: true as const } : {}), ...(checked && checkedTextHash === visitRecordedHash ? { recorded: true as const } : {}), ...(checked && (siteLeftUnread || leftUnread.has(checkedAddress)) ? { forgotten: true as const } : {}), ...(linkMarks ? { linksRead: linkMarks.readCount(), linkStats: linkMarks.stats() } : {}) }),
      'background:leaveUnread': (req) => Promise.resolve(leaveUnread(req ?? {})),
    },
    (sender) => senderKind(sender, browser.runtime.id, browser.runtime.getURL('')),
  ),
);

// A page prerendered (Chrome's address bar, speculation rules) is not in front of the reader yet,
// and the browser does not yet count it as a tab's page: everything waits until it is shown.
const shown = (document as { prerendering?: boolean }).prerendering
  ? new Promise<void>((resolve) => {
      const onShown = (e: Event) => {
        if (!e.isTrusted) return; // the page's own event would start the check while it is still unseen
        document.removeEventListener('prerenderingchange', onShown);
        resolve();
      };
      document.addEventListener('prerenderingchange', onShown);
    })
  : Promise.resolve();
// One read of the settings for both at the start.
const startSettings = shown.then(() => loadSettings());
void checkSafely(startSettings).then((outcome) => {
  if (outcome === 'none' || outcome === 'new') lookAgain(0, pageAddress(location.href), textLength());
});
startSettings
  .then(markLinksAsSettingsSay)
  .catch((e: unknown) => console.info('Déjà Read: links not marked:', e instanceof Error ? e.message : e));

// Single-page apps change the URL without a reload: check again once the new view has settled.
// A fragment (#section) is not a new page.
let pending: ReturnType<typeof setTimeout> | undefined;
/**
 * When a new address is checked: 1.5 s after it, and once more 3.5 s later if the first check found
 * no article or the one shown before (a slow single-page app may still show a skeleton, or the old
 * article, while it fetches the new one).
 */
const RECHECK_AFTER_MS = [1500, 3500];
function addressMayHaveChanged(): void {
  if (gone) return;
  if (extensionGone()) return shutDown();
  if (pageAddress(location.href) === checkedAddress || pending) return;
  // Until the new view is checked, the old one is not being read: its dwell time stops counting.
  pauseDwell();
  checkAgain(0);
}
function checkAgain(step: number): void {
  pending = setTimeout(
    () => {
      pending = undefined;
      // The address this look is at (the page may have changed it again meanwhile: a slug written after the push).
      const address = pageAddress(location.href);
      void checkSafely().then((outcome) => {
        const unsettled = outcome === 'none' || outcome === 'same';
        if (unsettled && step + 1 < RECHECK_AFTER_MS.length && !pending && !gone && pageAddress(location.href) === address) checkAgain(step + 1);
      });
      // "Search engines only" may start or stop with the new address.
      void shown.then(() => loadSettings()).then(markLinksAsSettingsSay, () => undefined);
    },
    RECHECK_AFTER_MS[step],
  );
}
/** How much text the page holds (scripts' and styles' too: what changes when a script writes an article in). */
const textLength = () => document.body?.textContent?.length ?? 0;
/**
 * A page's text longer than this is not searched for the article's probes (it is taken as still
 * shown): three probes not found in 1.1 million characters took 2 ms in Chromium.
 */
const MAX_PROBED_CHARS = 2_000_000;
/** Whether the article checked is still on the page: one of its probes is in the page's text. */
const articleStillOn = (text: string) => checkedProbes.length === 0 || text.length > MAX_PROBED_CHARS || checkedProbes.some((p) => p.test(text));
/**
 * The page may change its article after the first look, at the same address. A page built in the
 * browser (common among Chinese news and blog sites) shows "Loading…", then writes its article in;
 * another replaces the article it showed with the next one. So the page is looked at again on the
 * same steps as a new address (RECHECK_AFTER_MS), each time only if its text changed since the last
 * look and, where an article was found, none of that article's probes is on the page any more (a
 * page that only adds comments under it goes on as it was). A page that stays as it loaded (a
 * sign-in form, an app's shell) is not read again. A new address is checked as such. An article
 * that replaced the one checked takes down the notice drawn for that one (check does), and gets none
 * of its own: the page load had its one chance.
 */
function lookAgain(step: number, address: string, seen: number): void {
  if (step >= RECHECK_AFTER_MS.length) return;
  setTimeout(() => {
    if (gone || pending || checking > 0 || pageAddress(location.href) !== address || checkedAddress !== address) return;
    const text = document.body?.textContent ?? '';
    if (text.length === seen || (checked && articleStillOn(text))) return lookAgain(step + 1, address, text.length);
    void checkSafely().then((outcome) => {
      if (outcome === 'none' || outcome === 'new' || outcome === 'same') lookAgain(step + 1, address, text.length);
    });
  }, RECHECK_AFTER_MS[step]);
}

// The Navigation API tells of every same-document navigation (pushState, replaceState, back and
// forward, fragments), so an idle tab runs nothing; its `navigate` event comes before the address
// changes, hence the timer. Where a browser lacks it, the address is polled once a second.
// Resumed (everywhere, or on this site) while the page is open: it is checked now, not at the next load.
onSettingsChanged((settings) => {
  // A prerendered page hears of it once it is shown.
  void shown.then(() => {
    if (gone) return;
    markLinksAsSettingsSay(settings);
    // Notices turned off: the one on the page goes too (turned on again, it does not come back).
    if (!settings.showNotice) removeNotice();
    const held = heldFromReading(location.href, settings);
    if (heldBySettings && !held) checkSafely();
    // Paused (everywhere, or on this site) while the page is being read: it is left unread (a check
    // under way too), and its notice goes.
    else if (held && !heldBySettings) {
      heldBySettings = true;
      generation++;
      forgetView();
      removeNotice();
    }
  });
});

const navigation = (window as { navigation?: EventTarget }).navigation;
let poll: ReturnType<typeof setInterval> | undefined;
if (navigation && typeof navigation.addEventListener === 'function') navigation.addEventListener('navigate', () => setTimeout(addressMayHaveChanged, 0));
else poll = setInterval(addressMayHaveChanged, 1000);

// The reader's shortcut to the notice (background/shortcut.ts).
answerMessages(
  createRouter<NoticeProtocol>({ 'background:focusNotice': () => Promise.resolve((drawingLoaded()?.focusNotice(), {})) }, (sender) => senderKind(sender, browser.runtime.id, browser.runtime.getURL(''))),
);
