// Chrome's offscreen document: a page with a DOM, never shown, where the service worker has copies
// of pages parsed and their articles extracted and digested (src/background/offscreen-client.ts). It answers only
// the extension's own background, and closes itself after a minute without work.
import browser, { answerMessages } from '../ext';
import { digestFromHtml } from '../content/extract';
import type { OffscreenProtocol } from '../messaging/protocol';
import { createRouter, senderKind } from '../messaging/router';

const IDLE_MS = 60_000;
let idle: ReturnType<typeof setTimeout> | undefined;
const closeWhenIdle = () => {
  clearTimeout(idle);
  idle = setTimeout(() => window.close(), IDLE_MS);
};

answerMessages(
  createRouter<OffscreenProtocol>(
    {
      async 'background:extract'({ html, minWords }) {
        closeWhenIdle();
        return digestFromHtml(html, minWords, new DOMParser());
      },
    },
    (sender) => senderKind(sender, browser.runtime.id, browser.runtime.getURL('')),
  ),
);
closeWhenIdle();
