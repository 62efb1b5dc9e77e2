// The reader's shortcut to the in-page notice (the manifest's "focus-notice" command; the notice
// comes last in a page's Tab order). The browser hands the keys to the extension, never to the
// page, and the tab's content script hears of it as a message: it moves focus into the notice only
// while one is shown, and otherwise does nothing at all, so a page learns nothing from it.
import browser from '../ext';
import type { NoticeProtocol } from '../messaging/protocol';

export const FOCUS_NOTICE = 'focus-notice';

export function listenForShortcut(): void {
  browser.commands.onCommand.addListener((command, tab) => {
    if (command !== FOCUS_NOTICE) return;
    void (async () => {
      const tabId = tab?.id ?? (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.id;
      const message: { type: keyof NoticeProtocol; req: NoticeProtocol['background:focusNotice']['req'] } = { type: 'background:focusNotice', req: {} };
      if (tabId !== undefined) await browser.tabs.sendMessage(tabId, message);
    })().catch(() => undefined); // a tab without our content script (a browser page) has no notice
  });
}
