// The page's side of the import check: starts the worker, relays its progress, gathers the records.
import type { CheckProgress, FileProblem } from '../storage/history-import';
import type { PageRecord } from '../storage/schema';
import type { ImportCheck } from './import-check';

export type ToChecker = { file: Blob; now: number };
export type FromChecker =
  | { type: 'progress'; done: number; total: number }
  | { type: 'pages'; pages: PageRecord[] }
  | { type: 'valid'; algorithm: string; digest: string; count: number }
  | { type: 'invalid'; error: FileProblem };

export type ImportChecker = (file: Blob, progress: CheckProgress) => Promise<ImportCheck>;

/** Checks a history file in a dedicated worker; the page stays free to draw and respond. */
export const checkInWorker: ImportChecker = (file, progress) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./import-check.worker.ts', import.meta.url), { type: 'module' });
    const pages: PageRecord[] = [];
    const finish = (settle: () => void) => {
      worker.terminate();
      settle();
    };
    worker.onmessage = (e: MessageEvent<FromChecker>) => {
      const m = e.data;
      if (m.type === 'progress') progress(m.done, m.total);
      else if (m.type === 'pages') for (const p of m.pages) pages.push(p);
      else if (m.type === 'invalid') finish(() => resolve({ ok: false, error: m.error }));
      else if (pages.length !== m.count) finish(() => reject(new Error(`the checker sent ${pages.length} of ${m.count} records`)));
      else finish(() => resolve({ ok: true, pages, algorithm: m.algorithm, digest: m.digest }));
    };
    worker.onerror = (e) => finish(() => reject(new Error(e.message || 'the file could not be checked')));
    worker.onmessageerror = () => finish(() => reject(new Error('the file could not be checked')));
    worker.postMessage({ file, now: Date.now() } satisfies ToChecker);
  });
