// The extension's messages as the reader sees them, in Node: public/_locales filled as
// browser.i18n.getMessage fills them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Messages = Record<string, { message: string }>;
const load = (locale: string) => JSON.parse(readFileSync(join(process.cwd(), 'public/_locales', locale, 'messages.json'), 'utf8')) as Messages;
export const MESSAGES = { en: load('en'), zh_CN: load('zh_CN'), zh_TW: load('zh_TW') };

export function message(key: string, subs: Array<string | number> = [], locale: keyof typeof MESSAGES = 'en'): string {
  const entry = MESSAGES[locale][key];
  if (!entry) throw new Error(`no message "${key}" in ${locale}`);
  return entry.message.replace(/\$(\d)/g, (_, n: string) => String(subs[Number(n) - 1] ?? ''));
}

/** A problem found in a history file, in English. */
export const english = (p: { key: string; subs: string[] }) => message(p.key, p.subs);

/**
 * `runtime.sendMessage` as a page of the extension sees it, answered by `call` (a test's
 * background): `{ ok }`, or `{ error }` with the name and message of what it threw, as the
 * background's router answers.
 */
export function sendTo(call: () => null | ((type: string, req: unknown) => Promise<unknown>)) {
  return async (m: { type: string; req: unknown }) => {
    try {
      return { ok: await call()?.(m.type, m.req) };
    } catch (e) {
      return { error: { name: (e as Error).name, message: (e as Error).message } };
    }
  };
}
