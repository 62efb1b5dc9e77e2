// What a forget took, kept for its Undo while the page that forgot offers it (UNDO_MS), in the
// browser's session storage: in memory, never on disk, cleared when the browser closes, and kept
// across the background's stops. The browser stops an idle background after 30 s (Chrome and
// Firefox): kept in the background's own memory, as until 28 November 2026, an Undo clicked after
// that said "That can no longer be undone." while its button still showed, and the page stayed
// forgotten (a data-safety review). Each forget keeps its own, so the Undo of each tab works (only
// the last forget's did).
import type { PendingUndo, UndoAbout } from '../messaging/protocol';
import { fromStored, type Forgotten, type PageRecord } from '../storage';
import { toStored } from '../storage/layout';
import type { SessionArea } from './read-before';

const PREFIX = 'undo:';
/**
 * The most characters of JSON one forget may keep in session storage (Chrome holds 10 MB in all,
 * this included): a larger one is kept in the background's memory, as before, and lost if it stops.
 */
const MAX_KEPT_CHARS = 4_000_000;

interface Kept {
  until: number;
  /** What the forget took, as a page that opens later names it (absent in what a build before kept). */
  about?: UndoAbout;
  pages: PageRecord[];
  numbers?: number[];
  pairs: Forgotten['pairs'];
  imports: Forgotten['imports'];
}

export interface UndoStore {
  /** Keeps what a forget took, under `token`, until `until` (`now` on the same clock); `about` says what it was. */
  keep(token: string, gone: Forgotten, until: number, now: number, about?: UndoAbout): Promise<void>;
  /** The forget kept last that can still be undone (the one whose time ends last), if any is. */
  latest(now: number): Promise<PendingUndo | undefined>;
  /** What was kept under `token` if it is still within its time, and no longer kept. */
  take(token: string, now: number): Promise<{ gone: Forgotten; until: number; about?: UndoAbout } | undefined>;
  /** Drops every undo past its time (all of them, with Infinity: the history was cleared). */
  sweep(now: number): Promise<void>;
}

const isKept = (v: unknown): v is Kept => !!v && typeof v === 'object' && typeof (v as Kept).until === 'number' && Array.isArray((v as Kept).pages);

export function undoStore(area: SessionArea): UndoStore {
  /** Those too large for session storage. */
  const memory = new Map<string, { gone: Forgotten; until: number; about?: UndoAbout }>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const drop = async (token: string) => {
    clearTimeout(timers.get(token));
    timers.delete(token);
    memory.delete(token);
    await area.remove(PREFIX + token);
  };
  return {
    async keep(token, gone, until, now, about) {
      const kept: Kept = { until, ...(about ? { about } : {}), pages: gone.pages.map(fromStored), ...(gone.numbers ? { numbers: gone.numbers } : {}), pairs: gone.pairs, imports: gone.imports };
      if (JSON.stringify(kept).length > MAX_KEPT_CHARS) memory.set(token, { gone, until, ...(about ? { about } : {}) });
      else await area.set({ [PREFIX + token]: kept });
      // Gone once its time is past: at that moment if the background runs, else at its next keep or take.
      timers.set(
        token,
        setTimeout(() => void drop(token).catch(() => undefined), Math.max(0, until - now)),
      );
    },
    async take(token, now) {
      await this.sweep(now);
      const inMemory = memory.get(token);
      if (inMemory) {
        await drop(token);
        return inMemory;
      }
      const value = (await area.get(PREFIX + token))[PREFIX + token];
      if (!isKept(value)) return undefined;
      await drop(token);
      return { gone: { pages: value.pages.map(toStored), ...(value.numbers ? { numbers: value.numbers } : {}), pairs: value.pairs, imports: value.imports }, until: value.until, ...(value.about ? { about: value.about } : {}) };
    },
    async latest(now) {
      // Those past their time are passed over here (and dropped by the next keep, take or sweep).
      let found: PendingUndo | undefined;
      const consider = (token: string, until: number, about: UndoAbout | undefined) => {
        if (about && until >= now && (!found || until - now > found.left)) found = { token, left: until - now, about };
      };
      for (const [token, { until, about }] of memory) consider(token, until, about);
      for (const [key, value] of Object.entries(await area.get(null))) if (key.startsWith(PREFIX) && isKept(value)) consider(key.slice(PREFIX.length), value.until, value.about);
      return found;
    },
    async sweep(now) {
      for (const [token, { until }] of memory) if (until < now) await drop(token);
      const all = await area.get(null);
      const past = Object.entries(all)
        .filter(([key, value]) => key.startsWith(PREFIX) && (!isKept(value) || value.until < now))
        .map(([key]) => key);
      if (past.length > 0) await area.remove(past);
    },
  };
}

/** A session area held in this background's memory (`kept`): where no browser's is at hand (tests, Node). */
export function memoryArea(kept = new Map<string, unknown>()): SessionArea {
  return {
    get: async (key) => structuredClone(key === null ? Object.fromEntries(kept) : kept.has(key) ? { [key]: kept.get(key) } : {}),
    set: async (items) => {
      for (const [key, value] of Object.entries(items)) kept.set(key, structuredClone(value));
    },
    remove: async (keys) => {
      for (const key of typeof keys === 'string' ? [keys] : keys) kept.delete(key);
    },
  };
}
