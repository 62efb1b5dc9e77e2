// What the background does for each message. Browser APIs come in through `deps`, so the
// handlers run in unit tests; nothing is kept in memory between events.
import { ALGORITHM, decodePassages, decodeSketch, judgePair, MAX_STORED_URL_LENGTH, MIN_RECORDED_WORDS, bothSchemes, pageIdentity, parseWebUrl, pickCanonicalUrl, siteOf, withPassageChars, type PagePassage, type PassageSignature } from '../core';
import { readLinksFor } from './links';
import { fromTopFrame, type Handlers } from '../messaging/router';
import type { ContentProtocol, Freshness, NoticeMatch, PageSeenAnswer, PageVerdict, Protocol } from '../messaging/protocol';
import { heldFromReading, matchSettingsOf, type Settings } from '../settings/settings';
import { StorageFullError, type PageRecord, type PageRepository } from '../storage';
import type { UndoStore } from './undo-store';
import { historyHandlers } from './history-handlers';
import { freshness, lookUp, signatureOf } from './matching';
import { parsePageReport, type CheckedReport } from './page-report';
import { relativeTime } from '../ui/relative-time';
import type { Runtime } from 'webextension-polyfill';
import type { BulkHandle } from '../messaging/bulk';

export interface BackgroundDeps {
  repository(): Promise<PageRepository>;
  now(): number;
  /** The browser's UI language ("en", "zh-CN"), for the dates the notice shows. */
  locale(): string;
  /** A _locales message in the browser's UI language (browser.i18n.getMessage), $1, $2… filled. */
  message(key: string, ...subs: string[]): string;
  /** The reader's settings. */
  settings(): Promise<Settings>;
  /** Shows the verdict on the tab's toolbar button, unless `current` says by then that the tab has moved on. */
  showOnTab(tabId: number, verdict: PageVerdict, current?: () => boolean): Promise<void>;
  /** Asks a tab's content script what page it fingerprinted; rejects if there is no content script. */
  askTab(tabId: number): Promise<ContentProtocol['background:getPage']['res']>;
  /** Whether a tab is in a private window (false when the browser does not say). */
  tabIsPrivate?(tabId: number): Promise<boolean>;
  /** Whether a tab is still loading its page (false when the browser does not say). */
  tabLoading?(tabId: number): Promise<boolean>;
  /** How many pages the tab has started loading since the background started: a check answered after it changed was of a page the tab no longer shows. */
  tabLoads?(tabId: number): number;
  /** Large payloads of imports and exports, from and to the extension's pages (messaging/bulk.ts). */
  bulk?: BulkHandle;
  /** Shows the popup's list of the matches of the page in `tab` (content:showMatches). */
  showMatches?(tab: { id: number; windowId?: number; index: number }): Promise<void>;
  /** Called between steps of work the background goes on with on its own (an import left to complete): keeps the browser from stopping it as idle. */
  keepAwake?(): void;
  /** How long one import commit message applies chunks before it answers (5 s). */
  commitBudgetMs?: number;
  /**
   * What the reader had read of the pages a tab's visits recorded, before those visits (ReadBefore),
   * held for the tab's last few recorded pages (the browser's session storage: read-before.ts): the
   * popup, asked once a visit replaced its record's read set, tells the notice's story with it.
   */
  readBefore?: ReadBeforeStore;
  /** Where a forget's Undo is kept (undo-store.ts; the background's memory when absent). */
  undo?: UndoStore;
}

/** Where each tab's ReadBefore is held. */
export interface ReadBeforeStore {
  /** What the tab holds for the page with this identity (one of its last few recorded pages). */
  get(tabId: number, identity: string): Promise<ReadBefore | undefined>;
  set(tabId: number, value: ReadBefore): Promise<void>;
  /** Drops every tab's entry whose page (its identity) is picked: a page forgotten leaves nothing of itself here either. */
  drop(picked: (identity: string) => boolean): Promise<void>;
}

/** What the reader had read of a page (its identity) before the visit a tab recorded: the record's read set then, if any, and its text's hash. */
export interface ReadBefore {
  url: string;
  readSet?: string;
  textHash?: string;
  /** The page recorded is the article the record held, changed or not (updateOf). */
  sameArticle?: true;
  /** The id of the visit the tab recorded (a page brought back by Back or Forward is that visit). */
  visitId?: string;
}

const withLengths = (s: PassageSignature | null, passages: PagePassage[] | undefined) => (s && passages?.length ? withPassageChars(s, passages) : s);

/** The page a content script reported, as the matching layers take it (its digest decoded). */
function currentPage(report: CheckedReport) {
  const { fp, words, textHash, sketch, passages } = report.digest;
  return {
    url: report.url,
    canonicalUrl: pickCanonicalUrl(report.url, report.canonical ?? []),
    title: report.title,
    // Its passages' lengths, as its content script sent them: a share of it held elsewhere is by characters, as core's text signature measures it.
    signature: { fp, words, textHash, sketch: decodeSketch(sketch), passages: withLengths(decodePassages(passages), report.passages) },
    ...(report.passages ? { passages: report.passages } : {}),
  };
}

function skipReason(settings: Settings, ...urls: string[]): PageVerdict['skipped'] | undefined {
  if (settings.paused) return 'paused';
  if (urls.some((url) => heldFromReading(url, settings))) return 'excluded';
  return undefined;
}

/** The page a content script speaks for: its tab's URL, not what the message claims. */
function senderPage(sender: Runtime.MessageSender): string {
  if (!sender.url) throw new TypeError('message from no page');
  return sender.url;
}

const originOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A content script's report, checked against what the browser says of its sender: the page's top
 * frame, on the origin of the reported URL (the path may differ: single-page apps change it), and
 * the tab's own URL where the browser gives it. A compromised page cannot record or query another
 * site's pages in the reader's name.
 */
function reportFrom(req: unknown, sender: Runtime.MessageSender, options?: { readSet: boolean }): CheckedReport {
  const report = parsePageReport(req, options);
  const origin = originOf(report.url);
  fromTopFrame(sender, 'page report');
  if (originOf(senderPage(sender)) !== origin) throw new TypeError("page report for another site than the sender's");
  if (sender.tab?.url !== undefined && originOf(sender.tab.url) !== origin) throw new TypeError("page report for another site than the tab's");
  return report;
}

/**
 * The history marks an earlier page the reader meets again with text they had not read there: this
 * page's own record when it came back changed, and the closest copy read at another address, with
 * the site where it was met (the history says "a copy on example.org had…", not "met again": that
 * address was not opened again). Written with the visit, in its transaction. `update`: the page
 * is its record's article, changed (updateOf); another article at the record's address (a front
 * page, a page that replaced its article) is nothing "met again".
 */
function changesOf(report: CheckedReport, before: PageRecord | undefined, update: boolean, closest: { url: string; fresh: Freshness | undefined } | undefined, now: number): Array<{ url: string; changed: NonNullable<PageRecord['changed']> }> {
  const own = before && update ? freshness(before, report.passages, { title: report.title }) : undefined;
  // The page met again: this page's record (the visit is written to it, under this address, where
  // it was read over the other scheme too), or the record at another address of the same page (its
  // canonical address) that the reader read, not the record this first visit here makes.
  const metAgain = before && !bothSchemes(pageIdentity(report.url)).includes(before.url) ? before.url : report.url;
  const out: Array<{ url: string; changed: NonNullable<PageRecord['changed']> }> = [];
  for (const [url, fresh, where] of [
    [metAgain, own, undefined],
    [closest?.url, closest?.fresh, siteOf(report.url)],
  ] as const) {
    if (url && fresh && fresh.parts.length > 0) out.push({ url, changed: { at: now, parts: fresh.parts.length, read: fresh.read, ...(where ? { where } : {}) } });
  }
  return out;
}

/** A tab of a private window, where the reader has not asked for pages to be recorded. */
const unrecordedPrivate = (sender: Runtime.MessageSender, settings: Settings) => sender.tab?.incognito === true && !settings.recordPrivate;

/**
 * Whether the reader visited the page before: its earlier record (`before`), or, where that record
 * holds this very visit (`record`: this page load recorded it), a second visit of it or a record of
 * the same page under another address.
 */
async function visitedBeforeThis(repo: PageRepository, before: PageRecord | undefined, record: PageRecord | undefined): Promise<boolean> {
  if (!record) return before !== undefined;
  return record.visits > 1 || (await repo.findByCanonicalUrl(record.canonicalUrl)).some((r) => r.url !== record.url);
}

/** This page as the reader read it on the visit before, and what is new since: where its text has changed and has new parts. */
interface SinceVisit {
  record: PageRecord;
  fresh: Freshness;
}

/**
 * Whether the page now is the article its record holds, changed (the decision that flags a copy
 * elsewhere): a page whose address shows another article each day (a front page, a live page) is
 * not an update of what was read there.
 */
const updateOf = (current: ReturnType<typeof currentPage>, earlier: PageRecord, settings: Settings) => judgePair(current.signature, signatureOf(earlier), matchSettingsOf(settings)).flagged;

/**
 * What is new on a page read before at its own address whose text changed (`earlier`: that visit's
 * record, or what the record held then): against that reading alone, or, where a page elsewhere
 * matches too, against both (the closest match's freshness counts this page's earlier reading:
 * lookUp); none when nothing is new.
 */
function sinceVisit(earlier: Pick<PageRecord, 'readSet' | 'textHash' | 'title'> | undefined, closest: Freshness | undefined, report: CheckedReport): Freshness | undefined {
  if (!earlier?.readSet || earlier.textHash === report.digest.textHash) return undefined;
  // A copy whose record keeps no read set (from before read sets, or imported without) tells nothing of its own.
  const fresh = closest ?? freshness(earlier, report.passages, { title: report.title });
  return fresh && fresh.parts.length > 0 ? fresh : undefined;
}

/**
 * What a content script is told: what the notice shows, nothing more. `fresh`: what is new to the
 * reader against the closest match and their own earlier reading (lookUp).
 */
function forNotice(verdict: PageVerdict, now: number, locale: string, justNow: string, since?: SinceVisit, fresh?: Freshness): PageSeenAnswer {
  const [first] = verdict.matches;
  // This page itself, as read on the visit before, where it has been updated since with something new.
  const own: NoticeMatch | undefined = since && { url: since.record.url, title: since.record.title, kind: 'earlier-visit', when: relativeTime(since.record.lastSeen, now, locale, justNow), fresh: since.fresh };
  const match = own ?? (first && {
    url: first.url,
    title: first.title,
    kind: first.kind,
    when: relativeTime(first.lastSeen, now, locale, justNow),
    ...(first.resemblance !== undefined ? { resemblance: first.resemblance } : {}),
    ...(first.containment !== undefined ? { containment: first.containment } : {}),
    ...(fresh ? { fresh } : {}),
  });
  const more = own ? verdict.matches.length : Math.max(0, verdict.matches.length - 1);
  return { fp: verdict.fp, ...(match ? { match } : {}), more, ...(verdict.skipped ? { skipped: verdict.skipped } : {}) };
}

export function createHandlers(deps: BackgroundDeps): Handlers<Protocol> {
  const handlers: Handlers<Protocol> = {
    async 'content:pageSeen'(req, sender) {
      const report = reportFrom(req, sender, { readSet: false });
      const tabId = sender.tab?.id;
      const loads = tabId === undefined ? undefined : deps.tabLoads?.(tabId);
      const settings = await deps.settings();
      // The page reported and the page the sender is on (a report may name another path of its site).
      const skipped = skipReason(settings, report.url, senderPage(sender));
      const current = currentPage(report);
      let verdict: PageVerdict = { fp: current.signature.fp, algo: ALGORITHM, matches: [], visitedBefore: false };
      let since: SinceVisit | undefined;
      let told: Freshness | undefined;
      if (skipped) verdict = { ...verdict, skipped };
      else {
        const repo = await deps.repository();
        // The notice names the best match only, and tells what is new against it alone.
        // Asked before this view is recorded: `before` is an earlier visit, and what was read then is read.
        const { before, matches, fresh: newToReader } = await lookUp(repo, current, matchSettingsOf(settings), { fresh: 'best', ownReadSet: (r) => r.readSet });
        told = newToReader;
        // Asked again after this page load recorded its visit (back from the cache, the same article
        // at a changed address): the record holds this visit, which is no visit before it (as the popup counts it).
        const record = report.visitId !== undefined && before?.visitIds?.includes(report.visitId) ? before : undefined;
        const visitedBefore = await visitedBeforeThis(repo, before, record);
        verdict = { ...verdict, matches, visitedBefore, ...(before && !record ? { lastVisit: before.lastSeen } : {}) };
        // An update of the article read here, with something new: the notice names this page's
        // earlier version (the reader came back to it), with what is new against all that was read,
        // here and in the closest copy elsewhere; pages elsewhere are "more".
        const fresh = sinceVisit(before, newToReader, report);
        if (before && fresh && updateOf(current, before, settings)) since = { record: before, fresh };
      }
      // The badge is set after the answer, not before it: the notice need not wait for the toolbar.
      // Not once the tab has started loading another page: its button is that page's now.
      const stillHere = () => deps.tabLoads?.(tabId!) === loads;
      if (tabId !== undefined && stillHere()) void deps.showOnTab(tabId, verdict, stillHere).catch(() => undefined);
      // In a private window that is not recorded, the page is told nothing of the history (no
      // notice): the badge and the popup, which the page cannot see, still tell the reader.
      const hidden = unrecordedPrivate(sender, settings);
      const shown = hidden ? { ...verdict, matches: [] } : verdict;
      const answer = forNotice(shown, deps.now(), deps.locale(), deps.message('timeJustNow'), hidden ? undefined : since, told);
      // What a background started anew did not read for this answer, it reads once the answer is on its way.
      if (!skipped) void deps.repository().then((repo) => repo.warmUp());
      return answer;
    },

    async 'content:pageRead'(req, sender) {
      let report = reportFrom(req, sender);
      const settings = await deps.settings();
      if (skipReason(settings, report.url, senderPage(sender)) || unrecordedPrivate(sender, settings)) return { recorded: false };
      const { digest } = report;
      if (digest.words < MIN_RECORDED_WORDS) return { recorded: false };
      const repo = await deps.repository();
      // Before the visit replaces it: this page's own earlier record, and the closest copy read elsewhere.
      const current = currentPage(report);
      const { before, matches, fresh: newToReader } = await lookUp(repo, current, matchSettingsOf(settings), { fresh: 'best', ownReadSet: (r) => r.readSet });
      // The page's record holds this article, changed since (not another article at its address).
      const update = before !== undefined && before.textHash !== digest.textHash && updateOf(current, before, settings);
      // Kept for the tab until its next recorded visit: the record's read set is about to be this visit's.
      // Not for a visit sent again (its answer lost), whose record already holds it and this visit's read set.
      const tabId = sender.tab?.id;
      // Back or Forward to a page this tab recorded, its text as recorded: the browser loaded it again
      // (it keeps no page showing the notice in its cache), and it is the visit the tab recorded, not
      // another (a page it brings back from its cache is not checked again at all). So is the page
      // reloaded: until 29 November 2026 each reload counted a visit (review 50, Firefox, #7).
      if (report.loadedAgain && tabId !== undefined && before?.textHash === digest.textHash) {
        const earlier = await deps.readBefore?.get(tabId, pageIdentity(report.url)).catch(() => undefined);
        if (earlier?.visitId) report = { ...report, visitId: earlier.visitId };
      }
      const repeated = report.visitId !== undefined && before?.visitIds?.includes(report.visitId) === true;
      if (tabId !== undefined && !repeated) {
        const kept: ReadBefore = { url: pageIdentity(report.url), ...(before?.readSet ? { readSet: before.readSet } : {}), ...(before?.textHash ? { textHash: before.textHash } : {}), ...(update ? { sameArticle: true as const } : {}), ...(report.visitId ? { visitId: report.visitId } : {}) };
        await deps.readBefore?.set(tabId, kept).catch(() => undefined);
      }
      const now = deps.now();
      try {
        await repo.recordVisit(
          {
            url: report.url,
            canonicalUrl: pickCanonicalUrl(report.url, report.canonical ?? []),
            title: report.title,
            fp: digest.fp,
            algo: ALGORITHM,
            textHash: digest.textHash,
            sketch: digest.sketch,
            passages: digest.passages,
            ...(digest.readSet ? { readSet: digest.readSet } : {}),
            textLength: digest.words,
            lang: report.lang || digest.lang,
            ...(report.visitId ? { visitId: report.visitId } : {}),
          },
          now,
          changesOf(report, before, update, matches[0] && { url: matches[0].url, fresh: newToReader }, now),
        );
        return { recorded: true };
      } catch (e) {
        if (e instanceof StorageFullError) return { recorded: false, problem: e.message };
        throw e;
      }
    },

    async 'content:linksRead'(req, sender) {
      return readLinksFor(req, sender, deps);
    },

    async 'content:notSame'({ other, page: checkedAt }, sender) {
      // The page as it was checked (the popup and the button judge that address), which its script
      // may have changed since with the same article shown; on the sender's own site only.
      const named = typeof checkedAt === 'string' ? parseWebUrl(checkedAt) : undefined;
      const page = named && originOf(named.href) === originOf(senderPage(sender)) ? named : parseWebUrl(senderPage(sender));
      if (typeof other !== 'string' || !parseWebUrl(other)) throw new TypeError('other must be a URL');
      // From the top frame, as every report: the notice is drawn there only.
      fromTopFrame(sender, '"not the same"');
      if (!page || unrecordedPrivate(sender, await deps.settings())) return {};
      const repo = await deps.repository();
      // Only a page of the history can be the other of a pair: a page cannot fill the store with made-up ones.
      if (await repo.get(other)) {
        await repo.dismiss(page.href, other, deps.now());
        // The toolbar button counts one match fewer, as the popup does once the notice said "not the same".
        const tabId = sender.tab?.id;
        if (tabId !== undefined) void handlers['popup:tabStatus']({ tabId, refreshBadge: true }, sender).catch(() => undefined);
      }
      return {};
    },

    async 'content:showMatches'(_req, sender) {
      fromTopFrame(sender, '"show the matches"');
      const tab = sender.tab;
      if (tab?.id === undefined) throw new TypeError('"show the matches" from no tab');
      await deps.showMatches?.({ id: tab.id, index: tab.index, ...(tab.windowId !== undefined ? { windowId: tab.windowId } : {}) });
      return {};
    },

    async 'popup:notSame'({ url, other }) {
      if (typeof url !== 'string' || url.length > MAX_STORED_URL_LENGTH || typeof other !== 'string' || other.length > MAX_STORED_URL_LENGTH) throw new TypeError('url and other must be URLs');
      await (await deps.repository()).dismiss(url, other, deps.now());
      return {};
    },

    async 'popup:sameAgain'({ url }) {
      if (typeof url !== 'string' || url.length > MAX_STORED_URL_LENGTH) throw new TypeError('url must be a URL');
      return { restored: await (await deps.repository()).sameAgain(url) };
    },

    async 'popup:tabStatus'({ tabId, refreshBadge }) {
      if (!Number.isInteger(tabId)) throw new TypeError('tabId must be an integer');
      let answer;
      try {
        answer = await deps.askTab(tabId);
      } catch {
        // No content script there yet: a page still loading gets one once it has loaded (one
        // held up by a script that does not come is not "a kind of page" the extension skips).
        const loading = await deps.tabLoading?.(tabId).catch(() => false);
        return { state: 'unsupported', ...(loading ? { loading: true as const } : {}) };
      }
      const links = answer.linksRead === undefined ? {} : { linksRead: answer.linksRead };
      if (!answer.page) {
        // Paused there from the popup: the button no longer counts what the page no longer is checked for.
        if (refreshBadge) void deps.showOnTab(tabId, { fp: '', algo: ALGORITHM, matches: [], visitedBefore: false }).catch(() => undefined);
        return { state: 'not-article', url: answer.url, ...links, ...(answer.checking ? { checking: true as const } : {}) };
      }
      // Judged on the digest the content script reported, as the badge and the notice were: the
      // same story before the visit is recorded (within the dwell time) and after it is forgotten.
      const report = parsePageReport(answer.page, { readSet: false });
      const page = { url: report.url, title: report.title, fp: report.digest.fp };
      const [repo, settings, isPrivate] = await Promise.all([deps.repository(), deps.settings(), deps.tabIsPrivate?.(tabId).catch(() => false) ?? false]);
      // A private window that is not recorded keeps nothing, not even a "not the same" pair.
      const extra = { ...links, ...(isPrivate && !settings.recordPrivate ? { unrecorded: true as const } : {}) };
      const current = currentPage(report);
      const identity = pageIdentity(report.url);
      // This page's record, when this page load has recorded the visit, holds this visit: what
      // was read before it counts (as the notice counted it), as the tab's visit left it aside
      // (or, where it was not, the record's own read set if there was an earlier visit).
      const thisVisit = (r: PageRecord) => answer.recorded === true && r.url === identity;
      const kept = answer.recorded === true ? await deps.readBefore?.get(tabId, identity).catch(() => undefined) : undefined;
      const readBefore = (r: PageRecord) => (!thisVisit(r) ? r.readSet : kept ? kept.readSet : r.visits > 1 ? r.readSet : undefined);
      const { before, matches, fresh: newToReader } = await lookUp(repo, current, matchSettingsOf(settings), { ownReadSet: readBefore });
      const record = before && thisVisit(before) ? before : undefined;
      // The record was updated by this very visit: an earlier visit shows as a second visit, or as
      // a record of the same page under another address.
      const visitedBefore = await visitedBeforeThis(repo, before, record);
      // After the reader acted in the popup ("not the same", forget, pause), the toolbar button tells the same story.
      if (refreshBadge) {
        const skipped = skipReason(settings, report.url);
        const verdict: PageVerdict = skipped ? { fp: page.fp, algo: ALGORITHM, matches: [], visitedBefore: false, skipped } : { fp: page.fp, algo: ALGORITHM, matches, visitedBefore, ...(!record && before ? { lastVisit: before.lastSeen } : {}) };
        void deps.showOnTab(tabId, verdict).catch(() => undefined);
      }
      // Pages said not to be the same as this one: the popup offers to take that back.
      const notSame = extra.unrecorded ? 0 : (await repo.notSameWith(report.url)).length;
      // What is new here since the visit before, as the notice tells it (before this visit was recorded, or as it left it aside).
      const earlier = !before ? undefined : !record ? before : kept?.sameArticle ? { ...kept, title: before.title } : undefined;
      const fresh = sinceVisit(earlier, newToReader, report);
      const since = fresh && before && (record || updateOf(current, before, settings)) ? fresh : undefined;
      // Forgotten from a popup in this page load (and not brought back since): the popup opened again says so.
      const forgotten = answer.forgotten === true && !before;
      return { state: 'checked', page, matches, visitedBefore, ...(since ? { sinceVisit: since } : {}), ...(record ? { recorded: true as const } : {}), ...(notSame ? { notSame } : {}), ...(forgotten ? { forgotten: true as const } : {}), ...extra };
    },

    ...historyHandlers(deps.repository, deps.now, deps.settings, deps.bulk, deps.keepAwake, deps.commitBudgetMs, deps.readBefore, deps.undo),
  };
  return handlers;
}
