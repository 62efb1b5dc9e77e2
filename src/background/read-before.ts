// What the reader had read of each page a tab recorded, before that visit (handlers' ReadBefore),
// held in the browser's session storage (in memory, never on disk) while the browser runs: the
// popup, asked once a visit replaced its record's read set, tells the notice's story with it. A tab
// keeps it for its last few recorded pages, not the last one only: Back brings a page and its notice
// from the browser's cache as they were, and the popup over it tells the same story.
import type { ReadBefore, ReadBeforeStore } from './handlers';

/** Recorded pages a tab keeps this for, latest first: as far Back as a reader commonly goes. */
export const READ_BEFORE_PER_TAB = 8;

const PREFIX = 'readBefore:';
const keyOf = (tabId: number) => `${PREFIX}${tabId}`;

/** The part of `storage.session` this needs (the browser's, or a test's). */
export interface SessionArea {
  get(keys: string | null): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string | string[]): Promise<void>;
}

/** A tab's entries as stored (one entry alone, as before 28 November 2026, counts as a list of one). */
function entriesOf(value: unknown): ReadBefore[] {
  const list: unknown[] = Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : [];
  return list.filter((e): e is ReadBefore => !!e && typeof e === 'object' && typeof (e as ReadBefore).url === 'string');
}

export function readBeforeStore(area: SessionArea): ReadBeforeStore & { forgetTab(tabId: number): Promise<void> } {
  const entries = async (tabId: number) => entriesOf((await area.get(keyOf(tabId)))[keyOf(tabId)]);
  return {
    get: async (tabId, identity) => (await entries(tabId)).find((e) => e.url === identity),
    async set(tabId, value) {
      const others = (await entries(tabId)).filter((e) => e.url !== value.url);
      await area.set({ [keyOf(tabId)]: [value, ...others].slice(0, READ_BEFORE_PER_TAB) });
    },
    async drop(picked) {
      const changed: Record<string, ReadBefore[]> = {};
      const emptied: string[] = [];
      for (const [key, value] of Object.entries(await area.get(null))) {
        if (!key.startsWith(PREFIX)) continue;
        const list = entriesOf(value);
        const kept = list.filter((e) => !picked(e.url));
        if (kept.length === list.length) continue;
        if (kept.length > 0) changed[key] = kept;
        else emptied.push(key);
      }
      if (Object.keys(changed).length > 0) await area.set(changed);
      if (emptied.length > 0) await area.remove(emptied);
    },
    forgetTab: (tabId) => area.remove(keyOf(tabId)),
  };
}
