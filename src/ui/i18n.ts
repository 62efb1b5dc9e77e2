// Every string the reader sees comes from _locales (English and Simplified Chinese).
import browser from '../ext';

/** The message `key` in the browser's UI language, with $1, $2… filled from `subs`. */
export function t(key: string, ...subs: Array<string | number>): string {
  const text = browser.i18n.getMessage(key, subs.map(String));
  return text || key;
}

/** The UI language, for dates and numbers ("en", "zh-CN"). */
export function uiLocale(): string {
  return browser.i18n.getUILanguage();
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
