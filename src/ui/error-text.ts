// An error as the reader reads it: for the failures a reader can act on, what to do, in their
// language; anything else by its name only (the background's own messages are for developers, in
// English, and go to the console).
import { isolate } from './bidi';
import { t } from './i18n';

/** Error names (they cross from the background intact, see messaging/router.ts) and their _locales messages. */
const KNOWN: Record<string, string> = {
  StorageFullError: 'errorStorageFull',
  ImportIncompleteError: 'errorImportIncomplete',
  HistoryClearedError: 'errorHistoryCleared',
  ImportClearedError: 'errorImportCleared',
  DeliveryError: 'errorNoAnswer',
  SettingsFullError: 'errorSettingsFull',
};

/** A bad record the background found in an import (storage's FileProblemError): its message is the problem as JSON. */
function fileProblem(message: string): string | null {
  try {
    const { key, subs } = JSON.parse(message) as { key?: unknown; subs?: unknown };
    if (typeof key !== 'string' || !/^import[A-Z]\w+$/.test(key) || !Array.isArray(subs) || !subs.every((s) => typeof s === 'string')) return null;
    return t('importInvalid', t(key, ...subs.map((s) => isolate(s))));
  } catch {
    return null;
  }
}

export function errorText(e: unknown): string {
  const name = e instanceof Error ? e.name : '';
  const key = Object.hasOwn(KNOWN, name) ? KNOWN[name] : undefined;
  if (key) return t(key);
  const problem = name === 'FileProblemError' ? fileProblem((e as Error).message) : null;
  if (problem) return problem;
  console.error('Déjà Read:', e);
  return t('errorGeneric', /^\w{1,40}$/.test(name) ? name : 'Error');
}
