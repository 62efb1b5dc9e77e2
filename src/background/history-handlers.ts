// The reader's history as a whole: counts, export in chunks, all-or-nothing import, forgetting.
import type { Runtime } from 'webextension-polyfill';
import { senderKind, type Handlers } from '../messaging/router';
import { announceHistory } from '../messaging/history-events';
import { IMPORT_PORT, UNDO_MS, type HistoryItem, type Protocol, type UndoAbout } from '../messaging/protocol';
import { ALGORITHM, bothSchemes, isFingerprintHex, MAX_STORED_URL_LENGTH, pageIdentity, type MatchSettings } from '../core';
import { matchSettingsOf, type Settings } from '../settings/settings';
import { checkNotSame, checkStaged, csvChunk, fromStored, jsonChunkOfStored, NOT_SAME_CHUNK, siteOfIdentity, type Forgotten, type PageRecord, type PageRepository } from '../storage';
import type { ReadBeforeStore } from './handlers';
import { findMatches, signatureOf } from './matching';
import type { BulkHandle } from '../messaging/bulk';
import { memoryArea, undoStore, type UndoStore } from './undo-store';

export type HistoryMessages = Pick<
  Protocol,
  'history:list' | 'history:items' | 'history:findSimilar' | 'options:wake' | 'options:stats' | 'options:exportChunk' | 'options:exportNotSame' | 'options:importChunk' | 'options:importCommit' | 'options:importOpen' | 'options:importHold' | 'options:importRollback' | 'options:importsUntold' | 'options:importTold' | 'popup:forgetSite' | 'options:clear' | 'popup:forgetPage' | 'history:undoForget' | 'history:pendingUndo' | 'popup:siteRecorded'
>;

const MAX_CHUNK = 10_000;
/** More chunks than any history file can hold (10^7 pages at the options page's chunk size). */
const MAX_CHUNKS = 10_000;
/** How long one commit message applies chunks before answering with its progress (well under any browser's limit for one event). */
const COMMIT_BUDGET_MS = 5_000;
const IMPORT_ID = /^[A-Za-z0-9-]{8,64}$/;
const DIGEST = /^[0-9a-f]{64}$/;
const PARCEL = /^[0-9a-f-]{36}$/;

/** A site as the popup names it, as pages keep it: lower case, without "www.". */
const siteName = (site: string) => site.toLowerCase().replace(/^www\./, '');

function importId(id: unknown): string {
  if (typeof id !== 'string' || !IMPORT_ID.test(id)) throw new TypeError('bad import id');
  return id;
}

/**
 * Serves an options page's import port (IMPORT_PORT and the import's id): when the page goes
 * (closed, reloaded) with its import not committed, what it staged is dropped at once and the
 * import noted as stopped, which the options page opened next tells (ImportStore.leave). Only the
 * extension's own pages may open one. A port lost because the background stopped is not heard
 * going: that import is left once ABANDONED_STAGING_MS passes without word from its page.
 */
export function serveImportPort(port: Runtime.Port, extensionId: string, extensionOrigin: string, repository: () => Promise<PageRepository>, now: () => number): void {
  if (!port.name.startsWith(IMPORT_PORT)) return;
  const id = port.name.slice(IMPORT_PORT.length);
  if (!port.sender || senderKind(port.sender, extensionId, extensionOrigin) !== 'extension-page' || !IMPORT_ID.test(id)) {
    port.disconnect();
    return;
  }
  port.onDisconnect.addListener(() => {
    void repository()
      .then((repo) => repo.imports.leave(id, now()))
      .catch((e: unknown) => console.warn('Déjà Read: could not drop an import its page left:', e));
  });
}

/** A recorded page as the history view lists it, with the other pages of the same content. */
async function historyItem(repo: PageRepository, r: PageRecord, match: MatchSettings): Promise<HistoryItem> {
  return {
    url: r.url,
    title: r.title,
    lastSeen: r.lastSeen,
    firstSeen: r.firstSeen,
    visits: r.visits,
    ...(r.changed ? { changed: r.changed } : {}),
    copies: await findMatches(repo, { url: r.url, canonicalUrl: r.canonicalUrl, signature: signatureOf(r), ...(r.readSet ? { readSet: r.readSet } : {}) }, match, 'latest'),
  };
}

/**
 * The most pages a forget may take and still be undone (UNDO_MS): what it took is kept in the
 * browser's session storage (undo-store.ts: in memory, never written to disk) and dropped after
 * that time, so forgotten stays forgotten.
 */
export const UNDO_MAX_PAGES = 5_000;

export function historyHandlers(repository: () => Promise<PageRepository>, now: () => number, settings: () => Promise<Settings>, bulk?: BulkHandle, keepAwake?: () => void, commitBudgetMs = COMMIT_BUDGET_MS, readBefore?: Pick<ReadBeforeStore, 'drop'>, undo: UndoStore = undoStore(memoryArea())): Handlers<HistoryMessages> {
  /** What the tabs hold of pages forgotten goes with them (a failure to drop it is no reason to fail the forget). */
  const dropReadBefore = (picked: (identity: string) => boolean) => readBefore?.drop(picked).catch(() => undefined);
  /** Keeps what a forget took for UNDO_MS; the token the page sends back to undo it. */
  const keepForUndo = async (gone: Forgotten, about: UndoAbout): Promise<{ undo?: string }> => {
    if (gone.pages.length === 0 || gone.pages.length > UNDO_MAX_PAGES) return {};
    const token = crypto.randomUUID();
    const at = now();
    try {
      await undo.keep(token, gone, at + UNDO_MS, at, about);
    } catch (e) {
      // Not kept (session storage full): the forget stands, without an Undo.
      console.warn('Déjà Read: a forget cannot be undone:', e);
      return {};
    }
    return { undo: token };
  };
  return {
    async 'history:list'({ query, after, limit }) {
      const n = Math.max(1, Math.min(200, Number(limit) | 0));
      const cursor = Array.isArray(after) && Number.isFinite(after[0]) && Number.isInteger(after[1]) ? ([after[0], after[1]] as [number, number]) : undefined;
      const [repo, s] = await Promise.all([repository(), settings()]);
      const { items, next, done, scanned } = await repo.listRecent(n, cursor, typeof query === 'string' ? query.slice(0, 200) : '');
      const match = matchSettingsOf(s);
      return { items: await Promise.all(items.map((r) => historyItem(repo, r, match))), ...(next ? { next } : {}), done, ...(scanned !== undefined ? { scanned } : {}) };
    },
    async 'history:items'({ urls }) {
      if (!Array.isArray(urls) || urls.length > 200 || !urls.every((u) => typeof u === 'string' && u.length <= MAX_STORED_URL_LENGTH)) throw new TypeError('urls must be at most 200 URLs');
      const [repo, s] = await Promise.all([repository(), settings()]);
      const match = matchSettingsOf(s);
      const records = (await Promise.all(urls.map((u) => repo.get(u)))).filter((r) => r !== undefined);
      return { items: await Promise.all(records.map((r) => historyItem(repo, r, match))) };
    },
    async 'history:findSimilar'({ fp, maxDistance }) {
      if (!isFingerprintHex(fp)) throw new TypeError('fp must be 16 lowercase hex digits');
      if (!Number.isInteger(maxDistance) || maxDistance < 0 || maxDistance > 7) throw new RangeError('maxDistance must be a whole number from 0 to 7');
      const stats = { candidates: 0 };
      const similar = await (await repository()).findSimilar(fp, { algo: ALGORITHM, maxDistance, stats });
      return { candidates: stats.candidates, matches: similar.map((r) => ({ url: r.url, title: r.title, fp: r.fp, distance: r.distance, kind: 'fingerprint' as const, firstSeen: r.firstSeen, lastSeen: r.lastSeen, visits: r.visits })) };
    },
    async 'options:wake'() {
      return {};
    },
    async 'options:stats'() {
      return (await repository()).stats();
    },
    async 'options:exportChunk'({ after, limit, format, first, parcel }) {
      const n = Math.max(1, Math.min(MAX_CHUNK, Number(limit) | 0));
      const { pages, last, cleared } = await (await repository()).exportStored(n, Number.isInteger(after) && (after as number) >= 0 ? after : undefined);
      // Written here, so one string crosses to the page instead of thousands of objects.
      const text = format === 'csv' ? csvChunk(pages.map(fromStored)) : jsonChunkOfStored(pages, first === true);
      const next = { ...(last !== undefined ? { next: last } : {}), cleared };
      if (bulk && typeof parcel === 'string' && PARCEL.test(parcel)) {
        // As a Blob: the page joins the chunks into the file without copying them again.
        bulk.post(parcel, new Blob([text]));
        return { text: '', count: pages.length, ...next };
      }
      return { text, count: pages.length, ...next };
    },
    async 'options:exportNotSame'({ after, limit }) {
      // An options page from before the pairs came in chunks asks for them all at once.
      if (limit === undefined && after === undefined) return { pairs: await (await repository()).notSamePairs() };
      const n = Math.max(1, Math.min(NOT_SAME_CHUNK, Number(limit ?? NOT_SAME_CHUNK) | 0));
      const from = Array.isArray(after) && after.length === 2 && after.every((u) => typeof u === 'string') ? after : undefined;
      const { pairs, last, cleared } = await (await repository()).notSameChunk(n, from);
      return { pairs, ...(last ? { next: last } : {}), cleared };
    },
    async 'options:importChunk'({ importId: id, seq, pages: sent, parcel, notSame }) {
      if (!Number.isInteger(seq) || seq < 0 || seq > MAX_CHUNKS) throw new TypeError('bad chunk number');
      if (notSame !== undefined) {
        // A chunk of the file's "Not the same" pairs, after its pages: checked as the commit's were.
        if (!Array.isArray(notSame) || notSame.length > NOT_SAME_CHUNK) throw new TypeError(`a chunk holds at most ${NOT_SAME_CHUNK} pairs`);
        const pairs = checkNotSame(notSame, now());
        await (await repository()).imports.stageStored(importId(id), seq, [], now(), pairs);
        return { staged: pairs.length };
      }
      const pages = bulk && typeof parcel === 'string' && PARCEL.test(parcel) ? await bulk.take(parcel) : sent;
      if (!Array.isArray(pages) || pages.length > MAX_CHUNK) throw new TypeError(`a chunk holds at most ${MAX_CHUNK} pages`);
      // The options page's worker checked every record of the file; here, their shape (checkStaged).
      const checked = checkStaged(pages, now());
      await (await repository()).imports.stageStored(importId(id), seq, checked, now());
      return { staged: checked.length };
    },
    async 'options:importCommit'({ importId: id, digest, chunks, pages, notSame }) {
      if (typeof digest !== 'string' || !DIGEST.test(digest)) throw new TypeError('bad digest');
      if (!Number.isInteger(chunks) || chunks < 0 || chunks > MAX_CHUNKS) throw new TypeError('bad chunk count');
      // The worker checked the pairs as it read the file; checked again here, as the pages are.
      const { imports } = await repository();
      const step = await imports.commit(importId(id), digest, chunks, Number(pages) | 0, now(), commitBudgetMs, { notSame: checkNotSame(notSame, now()) });
      // The rest is applied on its own, at once: if the page that sent this is closed, the import
      // does not wait, half applied, for the background's next start. (A failure is met again by
      // the page's next commit, or at that start.)
      if (!step.done)
        void imports
          .completeLater(now, keepAwake)
          .then(() => announceHistory({ type: 'imported' }))
          .catch((e: unknown) => console.warn('Déjà Read: an import could not be completed yet:', e));
      // A History page open meanwhile shows what it brought.
      else if (!step.alreadyImported) announceHistory({ type: 'imported' });
      return step;
    },
    async 'options:importOpen'({ importId: id }) {
      const repo = await repository();
      await repo.imports.open(importId(id), now());
      // How many times the history was cleared: a clear in another tab before the commit drops
      // what was staged, and the page tells the reader so rather than blaming the file.
      return { cleared: (await repo.stats()).cleared };
    },
    async 'options:importHold'({ importId: id }) {
      return { held: await (await repository()).imports.hold(importId(id), now()) };
    },
    async 'options:importRollback'({ importId: id }) {
      return { discarded: await (await repository()).imports.discard(importId(id)) };
    },
    async 'options:importsUntold'() {
      return { imports: await (await repository()).imports.untold(now()) };
    },
    async 'options:importTold'({ importId: id }) {
      await (await repository()).imports.told(importId(id));
      return {};
    },
    async 'popup:siteRecorded'({ site }) {
      if (typeof site !== 'string' || !site) throw new TypeError('site must be a host name');
      return { recorded: (await (await repository()).pagesOfSite(siteName(site), 1)).length > 0 };
    },
    async 'popup:forgetSite'({ site }) {
      if (typeof site !== 'string' || !site) throw new TypeError('site must be a host name');
      const gone: Forgotten = { pages: [], numbers: [], pairs: [], imports: [] };
      const name = siteName(site);
      const forgotten = await (await repository()).forgetSite(name, gone);
      await dropReadBefore((identity) => siteOfIdentity(identity) === name);
      return { forgotten, ...(await keepForUndo(gone, { kind: 'site', site: name, pages: forgotten })) };
    },
    async 'options:clear'() {
      await undo.sweep(Infinity);
      await (await repository()).clear();
      await dropReadBefore(() => true);
      // A History page open in another tab or window lists nothing of it any more.
      announceHistory({ type: 'cleared' });
      return {};
    },
    async 'popup:forgetPage'({ url }) {
      if (typeof url !== 'string') throw new TypeError('url must be a string');
      const gone: Forgotten = { pages: [], numbers: [], pairs: [], imports: [] };
      const forgotten = await (await repository()).forget(url, gone);
      // The page over both schemes, as the forget took it.
      const addresses = bothSchemes(pageIdentity(url));
      await dropReadBefore((id) => addresses.includes(id));
      const page = gone.pages[0];
      return { forgotten, ...(page ? await keepForUndo(gone, { kind: 'page', title: page.title, url: page.url }) : {}) };
    },
    async 'history:undoForget'({ undo: token }) {
      // The time past, undone already, or the history cleared since: nothing to bring back.
      const kept = typeof token === 'string' ? await undo.take(token, now()) : undefined;
      if (!kept) return { restored: 0, expired: true };
      try {
        return { restored: await (await repository()).restore(kept.gone) };
      } catch (e) {
        // Not brought back (the disk full, the store failing): the Undo can be tried again.
        await undo.keep(token as string, kept.gone, kept.until, now(), kept.about).catch(() => undefined);
        throw e;
      }
    },
    async 'history:pendingUndo'() {
      const pending = await undo.latest(now());
      return pending ? { undo: pending } : {};
    },
  };
}
