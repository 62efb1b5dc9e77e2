// The browser's own extension API, for every part of the extension (no webextension-polyfill:
// the content script, evaluated on every page the reader opens, was a third smaller and quicker to
// start without it, and one way of calling the API is simpler than two). In Manifest V3 both
// browsers return promises for all that is called (Chrome 116+, Firefox). The one difference left
// is a message listener that answers with a promise, which Chrome before 148 ignores:
// `answerMessages` answers through `sendResponse`, which both take. The polyfill's type
// definitions (`@types/webextension-polyfill`) still describe the API.
import type Browser from 'webextension-polyfill';

// Chosen by the build, not by looking for a global `browser`: in Chrome (before it had one) a page's
// element with id="browser" would answer to that name in the content script's world.
const scope = globalThis as unknown as { browser: Browser.Browser; chrome: Browser.Browser };
const ext = import.meta.env.TARGET === 'firefox' ? scope.browser : scope.chrome;
export default ext;

/** Listens for messages; `route` answers one with a promise (never rejected), or ignores it with undefined. */
export function answerMessages(route: (message: unknown, sender: Browser.Runtime.MessageSender) => Promise<unknown> | undefined): void {
  const listener = (message: unknown, sender: Browser.Runtime.MessageSender, sendResponse: (answer: unknown) => void): true | undefined => {
    const answer = route(message, sender);
    if (!answer) return undefined;
    void answer.then(sendResponse);
    return true;
  };
  ext.runtime.onMessage.addListener(listener as Parameters<typeof ext.runtime.onMessage.addListener>[0]);
}
