// Article extraction for content scripts, away from the page's thread: a content script sends a
// copy of its page as HTML over a port (EXTRACT_PORT), and the copy is parsed where there is a DOM
// to parse it in. Firefox's event page has one (DOMParser); Chrome's service worker has none, so
// it hands the copy to an offscreen document (src/offscreen/), created when first needed.
import type { Runtime } from 'webextension-polyfill';
import { digestFromHtml, type DigestedExtraction } from '../content/extract';
import { MAX_HTML_CHARS } from '../content/snapshot';
import { EXTRACT_PORT, type ExtractPortReply, type ExtractRequest } from '../messaging/protocol';
import { senderKind } from '../messaging/router';
import { extractInOffscreen } from './offscreen-client';

/**
 * Parses here when this context has a DOM (Firefox's event page), else in the offscreen document
 * (Chrome). Each build leaves the other's way out: Firefox has no offscreen API, and Chrome's
 * service worker, which has no DOM, does not carry Readability (it starts quicker without it).
 */
export function extractAnywhere(req: ExtractRequest): Promise<DigestedExtraction> {
  if (import.meta.env.TARGET === 'chrome') return extractInOffscreen(req);
  if (import.meta.env.TARGET !== 'firefox' && typeof DOMParser !== 'function') return extractInOffscreen(req);
  // In a promise, so that a throw (a page too much for the engine's memory) is answered as an error.
  return Promise.resolve().then(() => digestFromHtml(req.html, req.minWords, new DOMParser()));
}

const validMinWords = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 100_000;

/**
 * A copy not ended this long after its port opened is dropped (the content script itself gives up
 * on an answer after two minutes; a 10 MB page's copy takes seconds).
 */
export const COPY_DEADLINE_MS = 120_000;

/**
 * Copies one tab may send at once. Its content script sends one, two while a single-page app's
 * check overlaps the one before; a port beyond is closed at once, and the content script tries
 * again a moment later, as when the background is stopped under it.
 */
export const COPIES_PER_TAB = 3;
const copying = new Map<number, number>();

/**
 * Serves one extraction port: gathers the pieces, extracts, answers with the article's digest.
 * Only content scripts of this extension may open one, in a tab's top frame; a copy over
 * MAX_HTML_CHARS, a malformed message or COPY_DEADLINE_MS without its end ends it, and a tab
 * sends COPIES_PER_TAB at once at most: what a page (or a renderer broken into) can make the
 * background hold is bounded, and for a bounded time.
 */
export function serveExtractPort(port: Runtime.Port, extensionId: string, extensionOrigin: string, extract: (req: ExtractRequest) => Promise<DigestedExtraction> = extractAnywhere): void {
  if (port.name !== EXTRACT_PORT) return;
  if (!port.sender || senderKind(port.sender, extensionId, extensionOrigin) !== 'content' || (port.sender.frameId ?? 0) !== 0) {
    port.disconnect();
    return;
  }
  const tab = port.sender.tab?.id;
  if (tab !== undefined && (copying.get(tab) ?? 0) >= COPIES_PER_TAB) {
    port.disconnect();
    return;
  }
  if (tab !== undefined) copying.set(tab, (copying.get(tab) ?? 0) + 1);
  const pieces: string[] = [];
  let length = 0;
  let done = false;
  // A copy counts against its tab until it is answered or its port closes, extraction included.
  let counted = tab !== undefined;
  const release = () => {
    if (!counted || tab === undefined) return;
    counted = false;
    const left = (copying.get(tab) ?? 1) - 1;
    if (left > 0) copying.set(tab, left);
    else copying.delete(tab);
  };
  const finish = () => {
    done = true;
    pieces.length = 0;
    clearTimeout(deadline);
  };
  const answer = (reply: ExtractPortReply) => {
    try {
      port.postMessage(reply);
    } catch {
      // The page went away: nobody to answer.
    }
  };
  const fail = (message: string) => {
    if (done) return;
    finish();
    release();
    answer({ error: { name: 'TypeError', message } });
    port.disconnect();
  };
  const deadline = setTimeout(() => fail('the copy of the page did not end in time'), COPY_DEADLINE_MS);
  port.onDisconnect.addListener(() => {
    finish();
    release();
  });
  port.onMessage.addListener((message: unknown) => {
    if (done) return;
    const m = (message ?? {}) as Record<string, unknown>;
    if (typeof m.piece === 'string') {
      length += m.piece.length;
      if (length > MAX_HTML_CHARS) return fail('page copy too large');
      pieces.push(m.piece);
    } else if (m.end === true && validMinWords(m.minWords)) {
      const html = pieces.join('');
      finish();
      extract({ html, minWords: m.minWords })
        .then(
          (extraction) => answer({ ok: extraction }),
          (e: unknown) => answer({ error: { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) } }),
        )
        .finally(release);
    } else fail('malformed extraction message');
  });
}
