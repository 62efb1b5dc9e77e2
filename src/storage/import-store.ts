// Imports of a history file, all or nothing. Chunks are staged apart from the history; the commit
// marks the import as applying and then merges one staged chunk per transaction, deleting the chunk
// in the same transaction. So an import ends with the whole file or as it was: an import that was
// never committed has not touched `pages`, and a committed one is rolled forward, exactly once per
// chunk, by whoever gets there (the commit message, or the background when it next starts). Nothing
// is ever rolled back, so no visit made while an import runs can be undone by it.
import type { IDBPDatabase } from 'idb';
import { pageIdentity, schemeFree } from '../core';
import { asStorageError } from './errors';
import { fromStored, siteOfIdentity, toStored, type StoredPage } from './layout';
import { joinRecords } from './merge';
import type { NotSamePair } from './history-file';
import { dismissalKey, type PageWrite, type StoreName } from './page-repository';
import type { DejaReadDB, ImportOutcome, ImportRun, PageRecord } from './schema';

/** A staging run with no chunk for this long was abandoned (its tab closed, the browser crashed). */
export const ABANDONED_STAGING_MS = 10 * 60_000;
/** A finished run is remembered this long, so a commit repeated after a lost answer gets the same answer. */
const DONE_KEPT_MS = 24 * 3600_000;
/**
 * Staged chunks applied in one transaction (160,000 pages, as the options page sends 5,000 a
 * chunk): many pages a write, because a write's cost grows with the store, not only with its pages
 * (the passage index gets a value per bucket, the column segments it fills are written whole).
 * Applying 10^6 imported pages took 70 s at 20,000 a transaction, 29.7 s at 80,000, 21.5 s at
 * 160,000. A transaction then takes about 3.5 s at 10^6 pages: a background stopped meanwhile does
 * it again, and a visit or a lookup made meanwhile waits for it.
 */
export const CHUNKS_PER_APPLY = 32;

/** Runs one write of the history (PageRepository's), with these stores in its transaction too. */
export type HistoryWriter = <T>(extra: readonly StoreName[], work: (w: PageWrite) => Promise<T>) => Promise<T>;

export class ImportIncompleteError extends Error {
  override name = 'ImportIncompleteError';
}

const LEFT = 'this import was stopped when its page was closed or reloaded; nothing was changed, please import the file again';

/** An import an options page opened now should tell the reader of: one its own page did not see end. */
export interface UntoldImport {
  importId: string;
  /** `applying`: still being applied (its page was closed after the commit); `done`: applied; `left`: stopped before its commit, nothing imported. */
  state: 'applying' | 'done' | 'left';
  applied: number;
  chunks: number;
  outcome: ImportOutcome;
  /** When it last changed: when it was applied, or stopped. */
  at: number;
  again?: true;
}

export interface CommitProgress {
  done: boolean;
  applied: number;
  chunks: number;
  outcome: ImportOutcome;
  /** The same file is being imported by another tab (which committed it first): nothing was applied. */
  alreadyImported?: true;
  /** The file was imported before: only the pages the history no longer holds were added. */
  again?: true;
}

const chunkRange = (importId: string) => IDBKeyRange.bound([importId, 0], [importId, Number.MAX_SAFE_INTEGER]);
/** Whether an import keeps a page (by its identity): not while the reader has forgotten it, or its site, since the import began. */
function keptBy(run: ImportRun): (identity: string) => boolean {
  const pages = new Set(run.forgotten?.pages);
  const sites = new Set(run.forgotten?.sites);
  return (identity) => !pages.has(identity) && !(sites.size > 0 && sites.has(siteOfIdentity(identity)));
}

const progressOf = (run: ImportRun): CommitProgress => ({ done: run.state === 'done', applied: run.applied, chunks: run.chunks, outcome: run.outcome, ...(run.alreadyImported ? { alreadyImported: true as const } : {}), ...(run.again ? { again: true as const } : {}) });
/** How a file imported before joins a page the history holds: it leaves it as it is. */
const keepStored = (stored: PageRecord) => stored;

/** An import's run before any of its chunks is applied. */
const newRun = (importId: string, now: number): ImportRun => ({ importId, state: 'staging', chunks: 0, applied: 0, pages: 0, outcome: { added: 0, merged: 0, unchanged: 0 }, at: now });

export class ImportStore {
  /** `dismissalsChanged` is told when a commit has written "Not the same" pairs (the repository keeps them in memory). */
  constructor(
    private readonly db: IDBPDatabase<DejaReadDB>,
    private readonly write: HistoryWriter,
    private readonly dismissalsChanged: () => void = () => undefined,
  ) {}

  /**
   * Opens an import before its file is read (idempotent): from then on a page or site forgotten is
   * noted on its run and left out when it is applied. Until 28 November 2026 the run began with its
   * first chunk staged, and what the reader forgot in the moments before (the bar at "Importing…
   * 4%") came back with the file (a data-safety review).
   */
  async open(importId: string, now: number): Promise<void> {
    try {
      const tx = this.db.transaction(['importRuns'], 'readwrite');
      const runs = tx.objectStore('importRuns');
      const run = await runs.get(importId);
      await Promise.all([run ? undefined : runs.put(newRun(importId, now)), tx.done]);
    } catch (e) {
      throw asStorageError(e);
    }
  }

  /** Parks one chunk (idempotent: the same `seq` again replaces it). The history is not touched. */
  stage(importId: string, seq: number, pages: PageRecord[], now: number): Promise<void> {
    return this.stageStored(importId, seq, pages.map(toStored), now);
  }

  /**
   * The same, for pages already as blocks keep them (storage's checkStoredPages gives them so). A
   * chunk of the file's "Not the same" pairs (`notSame`, checked) has no pages: the pairs are kept
   * when it is applied, with the import or not at all.
   */
  async stageStored(importId: string, seq: number, stored: StoredPage[], now: number, notSame?: NotSamePair[]): Promise<void> {
    try {
      const tx = this.db.transaction(['staging', 'importRuns'], 'readwrite');
      const runs = tx.objectStore('importRuns');
      const run = await runs.get(importId);
      if (run?.left) throw new ImportIncompleteError(LEFT);
      if (run && run.state !== 'staging') throw new ImportIncompleteError('this import is already being applied');
      await Promise.all([
        tx.objectStore('staging').put({ importId, seq, stored, ...(notSame ? { notSame } : {}) }),
        runs.put(run ? { ...run, at: now } : newRun(importId, now)),
        tx.done,
      ]);
    } catch (e) {
      throw asStorageError(e);
    }
  }

  /**
   * Commits an import whose `chunks` chunks (0 … chunks-1) are all staged, then applies chunks until
   * `budgetMs` has passed (one at least); call again until `done`. Calling it for an import already committed
   * resumes it (or answers how it ended), so a commit lost with a stopped background can be retried.
   * "Not the same" pairs sent with the commit (`notSame`; the options page now stages them as chunks
   * instead, as many as it takes) are kept in the commit's own transaction: with the import, or not at all.
   */
  async commit(importId: string, digest: string, chunks: number, pages: number, now: number, budgetMs: number, { clock = Date.now, notSame = [] }: { clock?: () => number; notSame?: readonly NotSamePair[] } = {}): Promise<CommitProgress> {
    let run = await this.begin(importId, digest, chunks, pages, now, notSame);
    const start = clock();
    // At least one chunk per call, so every call makes progress.
    if (run.state === 'applying') run = await this.applyNext(importId, now);
    while (run.state === 'applying' && clock() - start < budgetMs) run = await this.applyNext(importId, now);
    return progressOf(run);
  }

  private async begin(importId: string, digest: string, chunks: number, pages: number, now: number, notSame: readonly NotSamePair[]): Promise<ImportRun> {
    try {
      return await this.beginIn(importId, digest, chunks, pages, now, notSame);
    } catch (e) {
      // A full disk is told as such (the reader can make room), as a write's is.
      throw e instanceof ImportIncompleteError ? e : asStorageError(e);
    }
  }

  private async beginIn(importId: string, digest: string, chunks: number, pages: number, now: number, notSame: readonly NotSamePair[]): Promise<ImportRun> {
    const tx = this.db.transaction(['staging', 'importRuns', 'imports', 'dismissals'], 'readwrite');
    const runs = tx.objectStore('importRuns');
    const run = await runs.get(importId);
    if (run?.left) {
      await tx.done;
      throw new ImportIncompleteError(LEFT);
    }
    if (run && run.state !== 'staging') {
      await tx.done;
      return run;
    }
    const keys = await tx.objectStore('staging').getAllKeys(chunkRange(importId));
    const complete = keys.length === chunks && keys.every(([, seq], i) => seq === i);
    if (!run || !complete) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new ImportIncompleteError(`the background holds ${keys.length} of the ${chunks} parts of this import; nothing was changed, please import the file again`);
    }
    // The same file committed meanwhile by another tab, and still being applied: applied once, so
    // this run drops what it staged and ends as a file imported already.
    const before = await tx.objectStore('imports').get(digest);
    if (before && (await runs.getAll()).some((r) => r.importId !== importId && r.digest === digest && r.state === 'applying')) {
      const skipped: ImportRun = { ...run, state: 'done', digest, chunks, pages, at: now, alreadyImported: true };
      await Promise.all([tx.objectStore('staging').delete(chunkRange(importId)), runs.put(skipped), tx.done]);
      return skipped;
    }
    // A file imported before is imported again for what the history no longer holds (a backup
    // restoring pages forgotten since): until 28 November 2026 it was refused ("imported before;
    // nothing changed"), and the backup could not bring them back (a data-safety review).
    const applying: ImportRun = { ...run, state: 'applying', digest, chunks, pages, at: now, ...(before ? { again: true as const } : {}) };
    // The digest is remembered now: the import will complete, so the same file again adds only what is missing then.
    // A pair naming a page forgotten while the file was staged would bring its address back: left out, as the page is.
    const kept = keptBy(run);
    const pairs = notSame.filter((p) => kept(p.a) && kept(p.b));
    await Promise.all([runs.put(applying), tx.objectStore('imports').put({ digest, at: now, pages }), keepNotSame(tx.objectStore('dismissals'), pairs), tx.done]);
    if (pairs.length > 0) this.dismissalsChanged();
    return applying;
  }

  /**
   * Applies the next staged chunks of an applying import (up to CHUNKS_PER_APPLY), and deletes
   * them, in one transaction.
   */
  private async applyNext(importId: string, now: number): Promise<ImportRun> {
    let keptPairs = false;
    const run = await this.write<ImportRun>(['staging', 'importRuns', 'dismissals'], async (w) => {
      const runs = w.tx.objectStore('importRuns');
      const staging = w.tx.objectStore('staging');
      const [run, keys, chunks] = await Promise.all([runs.get(importId), staging.getAllKeys(chunkRange(importId), CHUNKS_PER_APPLY), staging.getAll(chunkRange(importId), CHUNKS_PER_APPLY)]);
      if (!run || run.state !== 'applying') {
        // Cleared meanwhile ("clear history"): there is nothing left to apply.
        return run ?? { importId, state: 'done', chunks: 0, applied: 0, pages: 0, outcome: { added: 0, merged: 0, unchanged: 0 }, at: now };
      }
      if (keys.length === 0) {
        const done: ImportRun = { ...run, state: 'done', at: now };
        await runs.put(done);
        return done;
      }
      // What the reader forgot while the import was under way stays forgotten.
      const kept = keptBy(run);
      // Chunks staged by versions 3 to 5 kept addresses as written: both are taken to identities (no tracking parameter kept).
      const incoming = onePerPage(chunks.flatMap((c) => c.stored ?? (c.pages ?? []).map((p) => toStored({ ...p, url: pageIdentity(p.url), canonicalUrl: pageIdentity(p.canonicalUrl ?? p.url) })))).filter((page) => kept(page.url));
      // New pages numbered in the file's order.
      // The first number this import gives a page (numbers are never reused): a page of the file
      // met again in a later transaction is one it added, and is not counted again.
      const ownFrom = run.ownFrom ?? w.meta.next;
      const { added, merged, unchanged } = await w.merge(incoming, run.again ? keepStored : undefined, ownFrom);
      const outcome = { added: run.outcome.added + added, merged: run.outcome.merged + merged, unchanged: run.outcome.unchanged + unchanged };
      // A pair naming a page forgotten meanwhile would bring its address back: left out, as the page is.
      const pairs = chunks.flatMap((c) => c.notSame ?? []).filter((p) => kept(p.a) && kept(p.b));
      if (pairs.length > 0) {
        await keepNotSame(w.tx.objectStore('dismissals'), pairs);
        keptPairs = true;
      }
      const next: ImportRun = { ...run, applied: run.applied + keys.length, outcome, at: now, ownFrom };
      await Promise.all([...keys.map((k) => staging.delete(k)), runs.put(next)]);
      return next;
    });
    if (keptPairs) this.dismissalsChanged();
    return run;
  }

  /** Drops an import that will not be committed. One already committed goes on: that is refused. */
  async discard(importId: string): Promise<boolean> {
    const tx = this.db.transaction(['staging', 'importRuns'], 'readwrite');
    const runs = tx.objectStore('importRuns');
    const run = await runs.get(importId);
    if (run && run.state !== 'staging') {
      await tx.done;
      return false;
    }
    await Promise.all([tx.objectStore('staging').delete(chunkRange(importId)), runs.delete(importId), tx.done]);
    return true;
  }

  /**
   * Keeps a staged import from being taken for abandoned while its page waits on the reader (a
   * question about records left out): whether it is still staged.
   */
  async hold(importId: string, now: number): Promise<boolean> {
    const tx = this.db.transaction(['importRuns'], 'readwrite');
    const runs = tx.objectStore('importRuns');
    const run = await runs.get(importId);
    if (run?.state !== 'staging') {
      await tx.done;
      return false;
    }
    await Promise.all([runs.put({ ...run, at: now }), tx.done]);
    return true;
  }

  /**
   * A staged import whose page went away (closed, reloaded) before its commit, or, with
   * `idleBefore`, one not heard from since then: what it staged is dropped, and the run is kept,
   * `left`, for DONE_KEPT_MS so that the options page opened next can say nothing was imported.
   * One committed goes on: that is refused. Whether it was left now.
   */
  async leave(importId: string, now: number, idleBefore = Infinity): Promise<boolean> {
    try {
      const tx = this.db.transaction(['staging', 'importRuns'], 'readwrite');
      const runs = tx.objectStore('importRuns');
      const run = await runs.get(importId);
      if (run?.state !== 'staging' || run.at >= idleBefore) {
        await tx.done;
        return false;
      }
      // When it stopped: as its page went, or as it was last heard from.
      const left: ImportRun = { ...run, state: 'done', left: true, at: idleBefore === Infinity ? now : run.at };
      await Promise.all([tx.objectStore('staging').delete(chunkRange(importId)), runs.put(left), tx.done]);
      return true;
    } catch (e) {
      throw asStorageError(e);
    }
  }

  /**
   * The imports an options page opened now tells the reader of: those still being applied, and
   * those ended (applied, or left) in the last DONE_KEPT_MS that no page has told yet (`told`).
   * A staged one not heard from for ABANDONED_STAGING_MS is left first. Not one found applied by
   * another tab first (that tab's import tells).
   */
  async untold(now: number): Promise<UntoldImport[]> {
    for (const run of await this.db.getAll('importRuns')) {
      if (run.state === 'staging') await this.leave(run.importId, now, now - ABANDONED_STAGING_MS);
    }
    const runs = await this.db.getAll('importRuns');
    return runs
      .filter((r) => r.state === 'applying' || (r.state === 'done' && !r.told && !r.alreadyImported && r.at >= now - DONE_KEPT_MS))
      .sort((a, b) => a.at - b.at)
      .map((r) => ({ importId: r.importId, state: r.left ? 'left' : r.state === 'applying' ? 'applying' : 'done', applied: r.applied, chunks: r.chunks, outcome: r.outcome, at: r.at, ...(r.again ? { again: true as const } : {}) }));
  }

  /** An options page has told the reader how this import ended: no page opened later tells it again. */
  async told(importId: string): Promise<void> {
    try {
      const tx = this.db.transaction(['importRuns'], 'readwrite');
      const runs = tx.objectStore('importRuns');
      const run = await runs.get(importId);
      await Promise.all([run?.state === 'done' && !run.told ? runs.put({ ...run, told: true }) : undefined, tx.done]);
    } catch (e) {
      throw asStorageError(e);
    }
  }

  /** The completion under way (completeLater), if any, and whether it is to look again once done. */
  private completing?: Promise<unknown>;
  private lookAgain = false;

  /**
   * Completes every committed import on its own, one completion at a time (recover's loop): a
   * commit that answers before its import is done leaves the rest here, so the import completes
   * though the page that sent it is gone, rather than at the background's next start. A commit
   * made while a completion runs has it look again once it is through (recover reads the imports
   * when it starts). A later commit meanwhile applies chunks too; each chunk is applied once,
   * whoever gets there.
   */
  completeLater(clock: () => number, keepAlive: () => unknown = () => undefined): Promise<unknown> {
    this.lookAgain = true;
    this.completing ??= (async () => {
      try {
        while (this.lookAgain) {
          this.lookAgain = false;
          await this.recover(clock(), keepAlive);
        }
      } finally {
        // Reached in the same task as the loop's last test: no call can slip in between.
        this.completing = undefined;
      }
    })();
    return this.completing;
  }

  /**
   * Run whenever the background starts: finishes every committed import, drops staging left by
   * abandoned ones (harmless to the history, but it takes disk space), forgets old finished runs.
   * `keepAlive` is called between chunks, so a browser that stops idle workers keeps this one.
   */
  async recover(now: number, keepAlive: () => unknown = () => undefined): Promise<{ resumed: string[]; dropped: string[] }> {
    const runs = await this.db.getAll('importRuns');
    const resumed: string[] = [];
    const dropped: string[] = [];
    for (const run of runs) {
      if (run.state === 'applying') {
        resumed.push(run.importId);
        for (let r = run; r.state === 'applying'; r = await this.applyNext(run.importId, now)) keepAlive();
      } else if (run.state === 'staging' && run.at < now - ABANDONED_STAGING_MS) {
        if (await this.leave(run.importId, now, now - ABANDONED_STAGING_MS)) dropped.push(run.importId);
      } else if (run.state === 'done' && run.at < now - DONE_KEPT_MS) {
        await this.db.delete('importRuns', run.importId);
      }
    }
    return { resumed, dropped };
  }
}

/** What keepNotSame uses of the `dismissals` store, in whichever transaction. */
interface DismissalStore {
  get(pair: [string, string]): Promise<{ at: number } | undefined>;
  put(d: { pair: [string, string]; at: number }): Promise<unknown>;
}

/** The file's "Not the same" pairs added to the reader's (a pair known to both keeps its later time). */
export async function keepNotSame(store: DismissalStore, pairs: readonly NotSamePair[]): Promise<void> {
  const byKey = new Map<string, { pair: [string, string]; at: number }>();
  for (const { a, b, at } of pairs) {
    const pair = dismissalKey(a, b);
    if (pair[0] === pair[1]) continue;
    const key = pair.join('\n');
    byKey.set(key, { pair, at: Math.max(at, byKey.get(key)?.at ?? 0) });
  }
  await Promise.all(
    [...byKey.values()].map(async (d) => {
      const existing = await store.get(d.pair);
      if (!existing || existing.at < d.at) await store.put(d);
    }),
  );
}

/**
 * A batch's pages, one per page: per identity, over either scheme (chunks are checked, and so keyed
 * by identity, before they are staged; a chunk staged by version 4 kept addresses as written, and
 * is keyed here).
 */
export function onePerPage(pages: readonly StoredPage[]): StoredPage[] {
  const byPage = new Map<string, StoredPage>();
  for (const page of pages) {
    // A page over http and over https is one page.
    const key = schemeFree(page.url);
    const earlier = byPage.get(key);
    byPage.set(key, earlier ? toStored(joinRecords(fromStored(earlier), fromStored(page))) : page);
  }
  return [...byPage.values()];
}
