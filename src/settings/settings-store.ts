// Settings live in storage.sync (small, and they follow the reader to their other browsers).
// Every read parses, so a value from an older version or a damaged one still gives valid settings.
import browser from '../ext';
import { LIMITS, parseSettings, type Settings } from './settings';

const KEY = 'settings';

export async function loadSettings(): Promise<Settings> {
  const stored = await browser.storage.sync.get(KEY);
  return parseSettings(stored[KEY]);
}

/** storage.sync keeps at most this many bytes in one item (its key and its value as JSON), in Chrome and Firefox. */
export const SYNC_ITEM_BYTES = 8192;

/** The settings would not fit in storage.sync's one item (a long list of excluded sites): nothing was saved. */
export class SettingsFullError extends Error {
  override name = 'SettingsFullError';
}

/** This page's saves, one after another: each reads what the one before wrote. */
let saving: Promise<unknown> = Promise.resolve();

/**
 * Saves changes to the settings as they are now in storage: the changes themselves, or a function
 * of the stored settings (an edit of the list of excluded sites, so that two quick edits do not
 * undo each other). Refused, changing nothing, if the result would not fit in storage.sync.
 */
export function saveSettings(changes: Partial<Settings> | ((now: Settings) => Partial<Settings>)): Promise<Settings> {
  const save = saving.then(async () => {
    const now = await loadSettings();
    const merged = { ...now, ...(typeof changes === 'function' ? changes(now) : changes) };
    if (new Set(merged.excludedSites).size > LIMITS.excludedSites) throw new SettingsFullError('too many excluded sites');
    const next = parseSettings(merged);
    if (new TextEncoder().encode(KEY + JSON.stringify(next)).length > SYNC_ITEM_BYTES) throw new SettingsFullError('the settings do not fit in storage.sync');
    await browser.storage.sync.set({ [KEY]: next });
    return next;
  });
  saving = save.catch(() => undefined);
  return save;
}

/**
 * The settings for the background, which asks for them at every page: read once, then kept up to
 * date by storage.onChanged (a read costs a round trip to the browser each time). A background
 * started anew reads them again.
 */
export function settingsKeptInMemory(): () => Promise<Settings> {
  let current: Promise<Settings> | undefined;
  onSettingsChanged((settings) => {
    current = Promise.resolve(settings);
  });
  return () => {
    const read = (current ??= loadSettings());
    read.catch(() => {
      if (current === read) current = undefined;
    });
    return read;
  };
}

/** Calls `listener` with the new settings whenever they change (in any part of the extension). */
export function onSettingsChanged(listener: (settings: Settings) => void): void {
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'sync' && KEY in changes) listener(parseSettings(changes[KEY].newValue));
  });
}
