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
 * Serves one extraction port: gathers the pieces, extracts, answers with the article's digest.
 * Only content scripts of this extension may open one; a copy over MAX_HTML_CHARS or a malformed message ends it.
 */
export function serveExtractPort(port: Runtime.Port, extensionId: string, extensionOrigin: string, extract: (req: ExtractRequest) => Promise<DigestedExtraction> = extractAnywhere): void {
  if (port.name !== EXTRACT_PORT) return;
  if (!port.sender || senderKind(port.sender, extensionId, extensionOrigin) !== 'content') {
    port.disconnect();
    return;
  }
  const pieces: string[] = [];
  let length = 0;
  let done = false;
  const answer = (reply: ExtractPortReply) => {
    try {
      port.postMessage(reply);
    } catch {
      // The page went away: nobody to answer.
    }
  };
  const fail = (message: string) => {
    done = true;
    answer({ error: { name: 'TypeError', message } });
    port.disconnect();
  };
  port.onDisconnect.addListener(() => {
    done = true;
    pieces.length = 0;
  });
  port.onMessage.addListener((message: unknown) => {
    if (done) return;
    const m = (message ?? {}) as Record<string, unknown>;
    if (typeof m.piece === 'string') {
      length += m.piece.length;
      if (length > MAX_HTML_CHARS) return fail('page copy too large');
      pieces.push(m.piece);
    } else if (m.end === true && validMinWords(m.minWords)) {
      done = true;
      const html = pieces.join('');
      pieces.length = 0;
      extract({ html, minWords: m.minWords }).then(
        (extraction) => answer({ ok: extraction }),
        (e: unknown) => answer({ error: { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) } }),
      );
    } else fail('malformed extraction message');
  });
}
