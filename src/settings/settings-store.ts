// Settings live in storage.sync (small, and they follow the reader to their other browsers).
// Every read parses, so a value from an older version or a damaged one still gives valid settings.
import browser from '../ext';
import { parseSettings, type Settings } from './settings';

const KEY = 'settings';

export async function loadSettings(): Promise<Settings> {
  const stored = await browser.storage.sync.get(KEY);
  return parseSettings(stored[KEY]);
}

export async function saveSettings(changes: Partial<Settings>): Promise<Settings> {
  const next = parseSettings({ ...(await loadSettings()), ...changes });
  await browser.storage.sync.set({ [KEY]: next });
  return next;
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
