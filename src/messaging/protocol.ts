// Every message between the parts of the extension, with its direction in its name. Payloads are
// JSON-safe: fingerprints travel as 16 hex digits.
import type { MatchKind } from '../core';
import type { DigestedExtraction } from '../content/extract';
import type { ArticleDigest } from '../core';
import type { ImportOutcome, NotSamePair, StoredPage, UntoldImport } from '../storage';
import type { LinkStats } from '../content/link-marks';

/** What the content script extracted from a page. */
export interface PageReport {
  url: string;
  title: string;
  /** The digest of the article's text, made where it was extracted (the text itself never comes back to the page). */
  digest: ArticleDigest;
  /** The page's declared language (`<html lang>`), or '' if none. */
  lang: string;
  /** URLs the page declares for itself (rel=canonical, og:url), absolute; the background keeps a same-site one. */
  canonical?: string[];
  /** With `content:pageRead`: one id per visit, so a visit sent again (its answer lost) counts once. */
  visitId?: string;
  /**
   * With `content:pageRead`: the page load came by Back or Forward, the browser loading the page
   * again rather than bringing it from its cache (which it does not for a page showing the notice),
   * or by a reload. A page this tab recorded is then the visit it recorded, not another.
   */
  loadedAgain?: true;
  /** The page's passages as hashes, in order, to tell which are new against an earlier page: packed (core's encodeSentPassages). */
  passages?: string;
}

/** What is new in this page against an earlier one, from the earlier page's read set (hashes only). */
export interface Freshness {
  /** Share of this page's text (by characters) read on the earlier page, 0..1. */
  read: number;
  /** The new parts, in order, each the indices of its passages in the page's passage list. */
  parts: number[][];
  /** When the earlier page was the start of this one (a preview): the share of this page it reached, 0..1. */
  readUpTo?: number;
}

/** An earlier page that matches the one being looked at. */
export interface MatchSummary {
  url: string;
  title: string;
  fp: string;
  /** Hamming distance between the two fingerprints (0 = same fingerprint). */
  distance: number;
  /** How the two pages relate (see core/decision.ts). */
  kind: MatchKind;
  /** Estimated share of passages in common, 0..1 (absent for old records without a sketch). */
  resemblance?: number;
  /** Estimated share of the shorter text found in the longer, 0..1. */
  containment?: number;
  /** Estimated share of this page's text found in the earlier one, 0..1, from shared passages (absent for records without passages). */
  read?: number;
  /** What is new since the earlier page, passage by passage (absent for records made before read sets, or without the page's passages). */
  fresh?: Freshness;
  /** The earlier page was met again with text not read on it (HistoryItem's `changed`). */
  changed?: HistoryItem['changed'];
  firstSeen: number;
  lastSeen: number;
  visits: number;
}

/** An earlier page as the in-page notice shows it: nothing more about the history crosses into a page's content script. */
/**
 * What the notice names: an earlier page at another address (its match kind), or, where there is
 * none, this very page as the reader read it on an earlier visit, when its text has changed since
 * and has new parts ('earlier-visit': an article updated in place).
 */
export type NoticeMatch = Pick<MatchSummary, 'url' | 'title' | 'resemblance' | 'containment' | 'fresh'> & {
  kind: MatchSummary['kind'] | 'earlier-visit';
  /** When it was last read, in the reader's language ("3 days ago"): written by the background, whose
   * Intl formatters are warm, where the content script's first would hold the page for 30-40 ms. */
  when: string;
};

/** The background's answer to a content script about its page: only what the notice shows. */
export interface PageSeenAnswer {
  fp: string;
  /** The closest earlier page at another address, if any; else this page's earlier visit, if it has changed since. */
  match?: NoticeMatch;
  /** How many other earlier pages match too. */
  more: number;
  skipped?: PageVerdict['skipped'];
}

/** A link on a page that leads to a page read before, as its mark shows it. */
export interface LinkMark {
  /** The link key asked about (core's linkKey). */
  key: string;
  /** The day it was last read, in the reader's language ("Nov 19, 2026"). */
  date: string;
  /** It was last read today (the tip says "Read today"). */
  today?: true;
  /** It was last read yesterday, as the reader's calendar counts days (the tip says "Read yesterday"). */
  yesterday?: true;
  /** The title of the page read elsewhere that this one is a known copy of (untrusted text). */
  copyOf?: string;
  /** For a page read at this very address: the site where its text was read first, elsewhere. */
  firstReadAt?: string;
}

/** Link keys sent at most in one message (a page with more sends several). */
export const MAX_LINK_KEYS = 2000;
/**
 * Characters of link keys at most in one message: 2,000 keys of 500 characters, far more than a
 * page's links take; the background reads each key again (its identity), and 2,000 keys of 8,192
 * characters cost it 2.5 s.
 */
export const MAX_LINK_KEY_CHARS = 1_000_000;

/** The first keys of `keys` that one message may carry: at most MAX_LINK_KEYS, and MAX_LINK_KEY_CHARS characters in all (always the first). */
export function linkKeysForOneMessage(keys: readonly string[]): string[] {
  let chars = 0;
  let n = 0;
  while (n < keys.length && n < MAX_LINK_KEYS && (n === 0 || chars + keys[n].length <= MAX_LINK_KEY_CHARS)) chars += keys[n++].length;
  return keys.slice(0, n);
}

/** The background's answer about a page (the toolbar button and the popup show it). */
export interface PageVerdict {
  fp: string;
  algo: string;
  /** Earlier pages at other URLs with near-duplicate content, closest first. */
  matches: MatchSummary[];
  /** This page itself (same URL, or same canonical URL) had been recorded before this visit. */
  visitedBefore: boolean;
  /** When it was last seen before this visit. */
  lastVisit?: number;
  /** Set when the page was not checked: paused, or an excluded site. */
  skipped?: 'paused' | 'excluded';
}

/** A page of the history view. */
export interface HistoryItem {
  url: string;
  title: string;
  lastSeen: number;
  firstSeen: number;
  visits: number;
  /** Other recorded pages with the same content (near-duplicates), best first. */
  copies: MatchSummary[];
  /** The reader met this page again with text not read here: when, how many new parts, the share read, and on which site when it was a copy (PageRecord's `changed`). */
  changed?: { at: number; parts: number; read: number; where?: string };
}

export type TabStatus =
  | { state: 'unsupported'; /** The tab is still loading: its content script comes once it has loaded. */ loading?: true } // no content script there (browser pages, the store, file viewers)
  | { state: 'not-article'; url: string; linksRead?: number; /** The content script is still checking the page (it loaded a moment ago, or was just resumed). */ checking?: true } // not checked: too little prose, an excluded site, or paused
  | { state: 'checked'; page: { url: string; title: string; fp: string }; matches: MatchSummary[]; visitedBefore: boolean; /** What is new since the visit before, where this page's text has changed since and has new parts. */ sinceVisit?: Freshness; lastVisit?: number; linksRead?: number; /** This page load recorded the visit. */ recorded?: true; /** The reader forgot this page (or its site) in this page load, and the history does not hold it. */ forgotten?: true; /** A private window whose pages are not recorded: nothing about it is kept. */ unrecorded?: true; /** Pages of the history the reader said are not the same as this one ("Not the same"), which the popup offers to take back. */ notSame?: number };

type Empty = Record<string, never>;

/** Messages the background answers. */
export interface Protocol {
  /** content → background: a page's article, digested as soon as it is extracted; answers whether it was read before (records nothing). */
  'content:pageSeen': { req: PageReport; res: PageSeenAnswer };
  /** content → background: the page has now been visible for the dwell time: record the visit. */
  'content:pageRead': { req: PageReport; res: { recorded: boolean; problem?: string } };
  /** content → background: which of the links on the sender's page (their keys, at most MAX_LINK_KEYS) lead to pages read; `off` when marks are not shown there. */
  'content:linksRead': { req: { keys: string[] }; res: { read: LinkMark[]; off?: true } };
  /** content → background: the reader says this page and an earlier one are not the same; never flag the pair again. */
  'content:notSame': { req: { other: string; page?: string }; res: Empty };
  /**
   * content → background: the reader asked, in the notice, to see every earlier page this one
   * matches: the popup opens over the sender's tab, or, where the browser opens it only from its own
   * toolbar, the popup's page in a tab beside it.
   */
  'content:showMatches': { req: Empty; res: Empty };
  /** popup → background: status of the page in a tab, with the earlier pages it matches; with `refreshBadge` (after the reader acted in the popup), the tab's toolbar button is set to tell the same. */
  'popup:tabStatus': { req: { tabId: number; refreshBadge?: boolean }; res: TabStatus };
  /** popup → background: the reader says the page in the tab (`url`) and an earlier one are not the same; never flag the pair again. */
  'popup:notSame': { req: { url: string; other: string }; res: Empty };
  /** popup → background: take back every "not the same" naming this page: its matches are flagged again. */
  'popup:sameAgain': { req: { url: string }; res: { restored: number } };
  /** popup → background: forget one page of the history. */
  /** `undo`: a token that brings the page back within UNDO_MS ('history:undoForget'). */
  'popup:forgetPage': { req: { url: string }; res: { forgotten: boolean; undo?: string } };
  /** Brings back what the last forget took, given its token; `expired` when that can no longer be done. */
  'history:undoForget': { req: { undo: string }; res: { restored: number; expired?: true } };
  /**
   * popup/history → background: the latest forget that can still be undone, if any: its token, how
   * long it still can be (ms), and what it took; for the popup or History page opened after the one
   * that forgot was closed (a popup closes at any click outside it).
   */
  'history:pendingUndo': { req: Empty; res: { undo?: PendingUndo } };
  /** history → background: recorded pages, newest first, optionally only those whose title or URL holds `query`; each with the other pages it matches. */
  'history:list': {
    req: { query?: string; after?: [number, number]; limit: number };
    /** `scanned`: with a query, how many pages of the history this step looked through. */
    res: { items: HistoryItem[]; next?: [number, number]; done: boolean; scanned?: number };
  };
  /** history → background: these recorded pages (at most 200; those not recorded are left out), each with its copies, as history:list gives them. */
  'history:items': { req: { urls: string[] }; res: { items: HistoryItem[] } };
  /** history/options → background: recorded pages whose fingerprint is within `maxDistance` (≤ 7) of `fp`. */
  'history:findSimilar': { req: { fp: string; maxDistance: number }; res: { matches: MatchSummary[]; candidates: number } };
  /** options → background: nothing; answered once the background runs, so that a bulk parcel posted next reaches it (messaging/bulk.ts). */
  'options:wake': { req: Empty; res: Empty };
  /** options → background: how many pages the history holds; `cleared`, how many times it has been cleared. */
  'options:stats': { req: Empty; res: { pages: number; cleared?: number } };
  /** options → background: the next chunk of the history (after the page `after`, in the store's order), for export, already written as JSON array items or CSV rows; `next` goes on from there. With `parcel`, the text comes as a bulk parcel of that id (messaging/bulk.ts), and `text` is empty. `cleared` counts the history's clears: a change between two chunks means the export was cut by one. */
  'options:exportChunk': { req: { after?: number; limit: number; format: 'json' | 'csv'; first: boolean; parcel?: string }; res: { text: string; count: number; next?: number; cleared?: number } };
  /** options → background: the next "Not the same" pairs (after the pair `after`, at most `limit`), for the end of a JSON export; `next` goes on from there, `cleared` as for exportChunk. */
  'options:exportNotSame': { req: { after?: [string, string]; limit?: number }; res: { pairs: NotSamePair[]; next?: [string, string]; cleared?: number } };
  /** options → background: park chunk `seq` of validated records of an import (the history is not touched until the commit); sending it again replaces it. The records come in `pages`, or as the bulk parcel `parcel` (messaging/bulk.ts); a chunk after the pages may hold the file's "Not the same" pairs instead (`notSame`). */
  'options:importChunk': { req: { importId: string; seq: number; pages?: StoredPage[]; parcel?: string; notSame?: NotSamePair[] }; res: { staged: number } };
  /** options → background: chunks 0 … chunks-1 are all sent: commit the import (pairs sent here rather than staged are kept in the same transaction), and apply it for a few seconds; send again until `done` (a repeat resumes, never applies twice). */
  'options:importCommit': { req: { importId: string; digest: string; chunks: number; pages: number; notSame?: NotSamePair[] }; res: { done: boolean; applied: number; chunks: number; outcome: ImportOutcome; alreadyImported?: true; again?: true } };
  /** options → background: opens an import before its file is read (what is forgotten from then on stays forgotten). */
  'options:importOpen': { req: { importId: string }; res: { cleared?: number } };
  /** options → background: the page still waits on the reader before this staged import's commit: not abandoned. */
  'options:importHold': { req: { importId: string }; res: { held: boolean } };
  /** options → background: drop an import that will not be committed (refused once it is committed: it completes). */
  'options:importRollback': { req: { importId: string }; res: { discarded: boolean } };
  /** options → background: the imports an options page opened now tells the reader of (its own page did not see them end): still being applied, applied, or stopped before their commit. */
  'options:importsUntold': { req: Empty; res: { imports: UntoldImport[] } };
  /** options → background: the reader has been told how this import ended (by the page that made it, or by one opened after). */
  'options:importTold': { req: { importId: string }; res: Empty };
  /** popup → background: whether the history holds any page of a site (before "Forget all of <site>" asks to confirm). */
  'popup:siteRecorded': { req: { site: string }; res: { recorded: boolean } };
  /** popup → background: forget every page of a site. */
  'popup:forgetSite': { req: { site: string }; res: { forgotten: number; undo?: string } };
  /** options → background: delete the whole history. */
  'options:clear': { req: Empty; res: Empty };
}

/**
 * options → background, over a port named this and the import's id: open while the page imports,
 * so that the background hears the page go (closed, reloaded) and drops an import not committed
 * then, noting it stopped (ImportStore.leave).
 */
export const IMPORT_PORT = 'options:import:';

/**
 * content → background, over a port of this name: a copy of the page as HTML, in pieces small
 * enough that sending one never holds the page's thread for long, then the end; the background
 * answers once, with the article's title, declared language and the digest of its text, and the
 * port closes. A port, not messages: the pieces belong together, and the port keeps the background
 * awake until the answer.
 */
export const EXTRACT_PORT = 'content:extract';
export type ExtractPortMessage = { piece: string } | { end: true; minWords: number };
export type ExtractPortReply = Reply<DigestedExtraction>;

/** A page's HTML (see src/content/snapshot.ts) and the least words that make an article. */
export interface ExtractRequest {
  html: string;
  /** Fewer words than this is not an article. */
  minWords: number;
}

/** Messages the offscreen document answers (Chrome: the service worker has no DOM to parse pages in). */
export interface OffscreenProtocol {
  /** background → offscreen: parse a page's HTML, extract its article and digest it. */
  'background:extract': { req: ExtractRequest; res: DigestedExtraction };
}

/** The page a content script checked: what it reported, so the popup is judged on what the badge was. */
export type CheckedPage = Omit<PageReport, 'visitId'> & { fp: string };

/** Messages a content script answers. */
export interface ContentProtocol {
  /** background → content: the tab's address, and the page this content script fingerprinted there, if any (`checking` while it is still checking one). */
  'background:getPage': { req: Record<string, never>; res: { url: string; page: CheckedPage | null; checking?: true; /** This page load has recorded the visit of `page` (its dwell time passed). */ recorded?: true; /** The reader forgot this page, or its site, from the popup in this page load: it is left unread. */ forgotten?: true; linksRead?: number; linkStats?: LinkStats } };
  /** popup → content: the reader forgot this page (or every page of this site) from the popup: this page load does not record it. */
  'background:leaveUnread': { req: { url?: string; site?: string }; res: { left: boolean } };
}

/** Something that delivers a message to the background and returns its answer (`send`, or a test's direct call). */
export type Caller = <K extends keyof Protocol>(type: K, req: Protocol[K]['req']) => Promise<Protocol[K]['res']>;

export type Reply<R> = { ok: R } | { error: { name: string; message: string } };

/** Messages the in-page notice answers (a router of their own beside the content script's). */
export interface NoticeProtocol {
  /** background → content: the reader pressed the notice's shortcut; focus moves into the notice if one is shown, else nothing happens. */
  'background:focusNotice': { req: Record<string, never>; res: Record<string, never> };
}

/**
 * How long a forget can be undone. What it took is kept in the browser's session storage (in
 * memory, never written to disk: background/undo-store.ts) and dropped after that time.
 */
export const UNDO_MS = 60_000;

/** What a forget that can still be undone took: a page (its title and address) or a site's pages. */
export type UndoAbout = { kind: 'page'; title: string; url: string } | { kind: 'site'; site: string; pages: number };
export interface PendingUndo {
  token: string;
  /** Milliseconds left to undo it. */
  left: number;
  about: UndoAbout;
}
