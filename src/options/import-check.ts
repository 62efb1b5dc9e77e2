// What an import checks before anything is sent to the background: the file's bytes, their
// digest (the same file is imported once) and every record (history-import.ts). Runs in the
// worker (import-check.worker.ts) so a large file never blocks the page, and in Node for tests.
import { validateHistoryBytes, type CheckProgress, type FileProblem } from '../storage/history-import';
import type { PageRecord } from '../storage/schema';

export type ImportCheck = { ok: true; pages: PageRecord[]; algorithm: string; digest: string } | { ok: false; error: FileProblem };

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Reads, digests and validates a history file on the thread it is called on. */
export async function checkImportFile(file: Blob, progress: CheckProgress, now = Date.now()): Promise<ImportCheck> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const digest = await sha256(bytes);
  const validation = validateHistoryBytes(bytes, now, progress);
  return validation.ok ? { ...validation, digest } : validation;
}
