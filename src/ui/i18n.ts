// Every string the reader sees comes from _locales (English and Simplified Chinese).
import browser from '../ext';

/** The message `key` in the browser's UI language, with $1, $2… filled from `subs`. */
export function t(key: string, ...subs: Array<string | number>): string {
  const text = browser.i18n.getMessage(key, subs.map(String));
  return text || key;
}

/**
 * The language of the messages shown ("en", "zh-CN"), for the dates and numbers beside them: named
 * by the translation itself (message `uiLocale`). Not getUILanguage(): Chrome's service worker gave
 * "en-US" for its first moments after each start in a Chinese browser, so the background wrote
 * English dates into Chinese sentences ("Nov 22, 2026读过"); nor `@@ui_locale`, which gave "en_US"
 * there throughout.
 */
export function uiLocale(): string {
  return browser.i18n.getMessage('uiLocale') || browser.i18n.getUILanguage();
}

/**
 * Fills a page's static text: `data-i18n="key"` sets textContent, `data-i18n-title`,
 * `data-i18n-placeholder` and `data-i18n-aria-label` set those attributes.
 */
export function localizePage(root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-i18n]')) el.textContent = t(el.dataset.i18n ?? '');
  for (const attr of ['title', 'placeholder', 'aria-label'] as const) {
    const data = `data-i18n-${attr}`;
    for (const el of root.querySelectorAll<HTMLElement>(`[${data}]`)) el.setAttribute(attr, t(el.getAttribute(data) ?? ''));
  }
  document.documentElement.lang = uiLocale();
}
