/// <reference types="chrome" />
// Chrome only: the offscreen document that parses pages for the service worker (which has no DOM).
// Created on demand with the reason DOM_PARSER; it closes itself when idle (src/offscreen/main.ts).
import type { DigestedExtraction } from '../content/extract';
import type { ExtractRequest, OffscreenProtocol, Reply } from '../messaging/protocol';

export const OFFSCREEN_PATH = 'src/offscreen/index.html';

let creating: Promise<void> | undefined;

/** chrome.runtime directly, not the polyfill: this file is Chrome's alone, and the handlers that import it also run in Node tests. */
async function sendToOffscreen<K extends keyof OffscreenProtocol>(type: K, req: OffscreenProtocol[K]['req']): Promise<OffscreenProtocol[K]['res']> {
  const reply = (await chrome.runtime.sendMessage({ type, req })) as Reply<OffscreenProtocol[K]['res']> | undefined;
  if (!reply) throw new Error(`no answer to ${type}`);
  if ('error' in reply) {
    const error = new Error(reply.error.message);
    error.name = reply.error.name;
    throw error;
  }
  return reply.ok;
}

async function ensureOffscreen(): Promise<void> {
  const url = chrome.runtime.getURL(OFFSCREEN_PATH);
  const open = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] });
  if (open.length > 0) return;
  creating ??= chrome.offscreen
    .createDocument({ url: OFFSCREEN_PATH, reasons: [chrome.offscreen.Reason.DOM_PARSER], justification: 'Parses a copy of a page to extract its article away from the page itself.' })
    .catch((e: unknown) => {
      // Another request created it in the meantime.
      if (!(e instanceof Error && /single offscreen/i.test(e.message))) throw e;
    })
    .finally(() => {
      creating = undefined;
    });
  await creating;
}

export async function extractInOffscreen(req: ExtractRequest): Promise<DigestedExtraction> {
  // Chrome stops a service worker idle for 30 s, and waiting for the offscreen document's answer is
  // not activity: an extension API call every 20 s is, so a long extraction is not cut short.
  const awake = setInterval(() => void chrome.runtime.getPlatformInfo(), 20_000);
  try {
    await ensureOffscreen();
    try {
      return await sendToOffscreen('background:extract', req);
    } catch (e) {
      // The document may have closed itself (idle) between the check and the message: once more.
      if (!(e instanceof Error && /receiving end does not exist|no answer|port closed/i.test(e.message))) throw e;
      await ensureOffscreen();
      return await sendToOffscreen('background:extract', req);
    }
  } finally {
    clearInterval(awake);
  }
}
