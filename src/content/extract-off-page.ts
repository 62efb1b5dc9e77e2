// Extraction without holding the page's thread: a copy of the page is written out in slices and
// sent in pieces to the background, which parses it, runs Readability and digests the article's
// text away from the page (in Chrome's offscreen document, or in Firefox's event page); only the
// digest comes back. See docs/extraction.md.
import browser from '../ext';
import { EXTRACT_PORT, type ExtractPortMessage, type ExtractPortReply } from '../messaging/protocol';
import { checkExtension } from '../messaging/send';
import type { DigestedExtraction } from './extract';
import { pageSlicer, pieces, snapshotDocument, type Slicer } from './snapshot';

/** A port closed under the copy (the background was stopped): sending it again may succeed. */
const LOST = 'extraction stopped';
const TRIES = 6;
/** Longer than any page takes (a 10 MB page: a few seconds): an answer that has not come by then will not, and the copy is let go. */
const ANSWER_WITHIN_MS = 120_000;

export async function extractOffPage(doc: Document, minWords: number): Promise<DigestedExtraction> {
  const slicer = pageSlicer();
  const snapshot = await snapshotDocument(doc, minWords, slicer);
  if (!snapshot.ok) return snapshot;
  for (let attempt = 1, delay = 250; ; attempt++, delay *= 2) {
    const extraction = await sendForExtraction(snapshot.chunks, minWords, slicer);
    if (extraction.ok || extraction.reason !== LOST || attempt >= TRIES) return extraction;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

async function sendForExtraction(chunks: string[], minWords: number, slicer: Slicer): Promise<DigestedExtraction> {
  checkExtension();
  const port = browser.runtime.connect({ name: EXTRACT_PORT });
  let closed = false;
  let waited: ReturnType<typeof setTimeout> | undefined;
  const answer = new Promise<DigestedExtraction>((resolve) => {
    waited = setTimeout(() => {
      resolve({ ok: false, reason: 'no answer from the extraction' });
      port.disconnect();
    }, ANSWER_WITHIN_MS);
    port.onMessage.addListener((message: unknown) => {
      const reply = message as ExtractPortReply;
      if ('ok' in reply) resolve(reply.ok);
      else resolve({ ok: false, reason: `extraction failed: ${reply.error.message}` });
      port.disconnect();
    });
    port.onDisconnect.addListener(() => {
      closed = true;
      resolve({ ok: false, reason: LOST });
    });
  });
  const post = (m: ExtractPortMessage) => port.postMessage(m);
  try {
    for (const piece of pieces(chunks)) {
      if (closed) break;
      post({ piece });
      // One piece per slice at most: sending is the costly part.
      await slicer.pause();
    }
    if (!closed) post({ end: true, minWords });
  } catch {
    // Posting to a port whose other end is gone: the background was stopped.
    clearTimeout(waited);
    port.disconnect();
    return { ok: false, reason: LOST };
  }
  return answer.finally(() => clearTimeout(waited));
}
