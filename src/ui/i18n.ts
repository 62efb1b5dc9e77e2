// Every string the reader sees comes from _locales (English, Simplified and Traditional Chinese).
import browser from '../ext';

/** The message `key` in the browser's UI language, with $1, $2… filled from `subs`. */
export function t(key: string, ...subs: Array<string | number>): string {
  const text = browser.i18n.getMessage(key, subs.map(String));
  return text || key;
}

/** Sentences one after another: a space after one ending in a Latin full stop, none after 。！？： (Chinese and Japanese put none). */
export function sentences(parts: readonly string[]): string {
  return parts.reduce((text, part) => (!text ? part : /[。！？：]$/.test(text) ? text + part : `${text} ${part}`), '');
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
 * `uiLocale` and `t` for the background (background/messages.ts), which asks for the same few
 * messages for every page it checks (the notice's "just now", the toolbar button's name): each
 * `i18n` call goes into the browser's extension bindings. The language of the messages cannot
 * change while the worker runs (another needs the browser restarted), so a message without
 * substitutions is asked once; an empty answer (none yet) is not kept, and is asked again next
 * time. (What it saves is within the spread of `npm run bench:store`: docs/storage.md.)
 */
export function rememberedMessages(): { locale(): string; message(key: string, ...subs: string[]): string } {
  const known = new Map<string, string>();
  const remembered = (key: string): string => {
    let text = known.get(key);
    if (text === undefined) {
      text = browser.i18n.getMessage(key);
      if (text) known.set(key, text);
    }
    return text;
  };
  return {
    locale: () => remembered('uiLocale') || browser.i18n.getUILanguage(),
    message: (key, ...subs) => (subs.length > 0 ? t(key, ...subs) : remembered(key) || key),
  };
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
