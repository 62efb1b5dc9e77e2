// Every message between the parts of the extension, with its direction in its name. Payloads are
// JSON-safe: fingerprints travel as 16 hex digits.
import type { ExportDocument } from '../storage/export-format';

/** What the content script extracted from a page. */
export interface PageReport {
  url: string;
  title: string;
  /** The readable text of the article. */
  text: string;
  /** The page's declared language (`<html lang>`), or '' if none. */
  lang: string;
}

/** An earlier page that matches the one being looked at. */
export interface MatchSummary {
  url: string;
  title: string;
  fp: string;
  /** Hamming distance between the two fingerprints (0 = same fingerprint). */
  distance: number;
  firstSeen: number;
  lastSeen: number;
  visits: number;
}

/** The background's answer about a page. */
export interface PageVerdict {
  fp: string;
  algo: string;
  /** Earlier pages at other URLs with near-duplicate content, closest first. */
  matches: MatchSummary[];
  /** This URL itself had been recorded before this visit. */
  visitedBefore: boolean;
}

export type TabStatus =
  | { state: 'unsupported' } // no content script there (browser pages, the store, file viewers)
  | { state: 'not-article' } // the page has too little prose to fingerprint
  | { state: 'checked'; page: { url: string; title: string; fp: string }; matches: MatchSummary[] };

/** Messages the background answers. */
export interface Protocol {
  /** content → background: a page's readable text; records the visit and answers whether it was read before. */
  'content:pageSeen': { req: PageReport; res: PageVerdict };
  /** popup → background: status of the page in a tab, with the earlier pages it matches. */
  'popup:tabStatus': { req: { tabId: number }; res: TabStatus };
  /** options → background: the whole history as an export document. */
  'options:export': { req: Record<string, never>; res: ExportDocument };
}

/** Messages a content script answers. */
export interface ContentProtocol {
  /** background → content: the page this content script fingerprinted, if any. */
  'background:getPage': { req: Record<string, never>; res: { url: string; title: string; fp: string } | null };
}

export type Reply<R> = { ok: R } | { error: { name: string; message: string } };
