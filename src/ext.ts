// The browser's own extension API, without webextension-polyfill, for the code the content script
// runs: every page the reader opens evaluates the content script, and the polyfill (which wraps
// Chrome's callback API in promises) was about a third of its size and of its start-up time. In
// Manifest V3 both browsers return promises for all that is called through here (Chrome 116+:
// runtime, storage, i18n, tabs; Firefox: everything). The one difference left is a message listener
// that answers with a promise, which Chrome before 148 ignores: `answerMessages` answers through
// `sendResponse`, which both take. Extension pages and the background may keep the polyfill.
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
