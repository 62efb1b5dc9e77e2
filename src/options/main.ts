// The options page: settings (settings-form.ts), and export (JSON, CSV), import and clearing of the history.
import browser from '../ext';
import { FOCUS_NOTICE } from '../background/shortcut';
import { send } from '../messaging/send';
import { isolated, localizedNodes } from '../ui/bidi';
import { errorText } from '../ui/error-text';
import { localizePage, sentences, t, uiLocale } from '../ui/i18n';
import { initSettingsForm } from './settings-form';
import { downloadBlob } from './download';
import { afterLeftOut, exportHistory, importHistory, ImportClearedError, ImportInterruptedError, type LeftOut, type Progress, type WatchImport } from './history-transfer';
import type { FileProblem } from '../storage/history-import';
import type { ImportOutcome, UntoldImport } from '../storage';
import { IMPORT_PORT } from '../messaging/protocol';
import { onHistoryEvent } from '../messaging/history-events';
import { absoluteTime } from '../ui/relative-time';
import { BulkPort } from '../messaging/bulk';

/** Chunks of an export or import cross to the background as bulk parcels: cloned, not turned into JSON (messaging/bulk.ts). */
const bulk = new BulkPort();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLParagraphElement>('export-status');
const progressBar = $<HTMLProgressElement>('progress');
const buttons = ['export', 'export-csv', 'clear', 'clear-yes'].map((id) => $<HTMLButtonElement>(id));
const fileInput = $<HTMLInputElement>('import-file');
localizePage();
const number = new Intl.NumberFormat(uiLocale());
const percent = new Intl.NumberFormat(uiLocale(), { style: 'percent' });
const pages = (n: number) => t(n === 1 ? 'pagesOne' : 'pagesMany', number.format(n));

async function refreshStats(): Promise<void> {
  const { pages: count } = await send('options:stats', {});
  $('stats').textContent = t('optionsStats', pages(count));
}

/** Runs one long task with the buttons disabled and a progress bar; what it returns is the status. */
async function busy(label: string, failed: 'exportFailed' | 'importFailed' | 'clearFailed', task: (progress: Progress) => Promise<string | Node[]>): Promise<void> {
  buttons.forEach((b) => (b.disabled = true));
  fileInput.disabled = true;
  // A clear asked about before this task began is not left to be confirmed in the middle of it.
  $('clear-confirm').hidden = true;
  progressBar.hidden = false;
  progressBar.removeAttribute('value');
  status.textContent = `${label}…`;
  const progress: Progress = (done, total, phase) => {
    progressBar.max = Math.max(total, 1);
    progressBar.value = done;
    // An import's progress is a share of the whole (its total of records is known only at the end).
    if (phase) status.textContent = t('progressShare', label, percent.format(done / Math.max(total, 1)));
    else status.textContent = t('progress', label, number.format(done), number.format(total));
  };
  try {
    const result = await task(progress);
    if (typeof result === 'string') status.textContent = result;
    else status.replaceChildren(...result);
  } catch (e) {
    // An import cut by a clear in another tab says so whole: "Import failed: … Your history was not changed" would not be true.
    status.textContent = e instanceof ImportInterruptedError ? t('importInterrupted', errorText(e.cause)) : e instanceof ImportClearedError ? errorText(e) : t(failed, errorText(e));
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    fileInput.disabled = false;
    progressBar.hidden = true;
    await refreshStats().catch(() => undefined);
  }
}

function exportAs(kind: 'json' | 'csv'): void {
  void busy(t('exporting'), 'exportFailed', async (progress) => {
    const now = new Date();
    const { blob, pages: exported } = await exportHistory(send, kind, progress, now, bulk);
    // The reader's own date, not UTC's (an export at 7 in the morning in Beijing is of that day).
    const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    downloadBlob(blob, `deja-read-history-${day}.${kind}`);
    return t('exported', pages(exported));
  });
}

$('export').addEventListener('click', () => exportAs('json'));
$('export-csv').addEventListener('click', () => exportAs('csv'));

/** A file's problem as the reader reads it; what the file says (a parser's excerpt, a version, an algorithm's name) is shown isolated. */
function problemNodes(p: FileProblem): Node {
  const why = document.createElement('span');
  why.append(...localizedNodes(p.key, p.subs.map((s) => isolated(s))));
  return why;
}

/**
 * Some records of the file cannot be imported: asks whether to import the others. Nothing has
 * changed yet; "Import nothing" (focused first, so Enter is safe) or Escape keeps it so.
 */
function askLeaveOut({ left, total, first }: LeftOut): Promise<boolean> {
  const box = $('import-ask');
  const yes = $<HTMLButtonElement>('import-ask-yes');
  const no = $<HTMLButtonElement>('import-ask-no');
  const question =
    left === 0 // cut short between two records: all it holds can come in
      ? localizedNodes('importAskCut', [problemNodes(first), pages(total)])
      : left === 1
        ? localizedNodes('importAskOne', [pages(total), problemNodes(first)])
        : localizedNodes('importAskMany', [number.format(left), pages(total), problemNodes(first)]);
  $('import-ask-question').replaceChildren(...question);
  yes.textContent = left === 0 ? t('importAskYesAll', pages(total)) : t('importAskYes', pages(total - left));
  // The import waits for the answer: no bar moving, no "Importing… 50%" meanwhile.
  const said = status.textContent;
  progressBar.hidden = true;
  status.textContent = '';
  box.hidden = false;
  no.focus();
  return new Promise((resolve) => {
    const answered = new AbortController();
    const answer = (importRest: boolean) => {
      answered.abort();
      box.hidden = true;
      progressBar.hidden = false;
      status.textContent = said;
      status.focus();
      resolve(importRest);
    };
    const { signal } = answered;
    yes.addEventListener('click', () => answer(true), { signal });
    no.addEventListener('click', () => answer(false), { signal });
    box.addEventListener('keydown', (e) => e.key === 'Escape' && answer(false), { signal });
  });
}

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (!file) return;
  void busy(t('importing'), 'importFailed', async (progress) => {
    // Emptied whatever happens, so that the same file can be chosen again.
    const result = await importHistory(send, file, progress, undefined, bulk, askLeaveOut, watchImport).finally(() => (fileInput.value = ''));
    if (result.state === 'invalid') return localizedNodes('importInvalid', [problemNodes(result.error)]);
    if (result.state === 'already-imported') return t('importAgain');
    const done = importedText(result.outcome);
    return result.leftOut ? afterLeftOut(done, result.leftOut, t, pages) : done;
  });
});

/** "Imported 3 pages: 2 added, 1 merged…", from what the background counted. */
const importedText = ({ added, merged, unchanged }: ImportOutcome) => t('imported', pages(added + merged + unchanged), number.format(added), number.format(merged), number.format(unchanged));

/** The background hears this page go while it imports (a port it watches), and drops an import not committed then. */
const watchImport: WatchImport = (importId) => {
  const port = browser.runtime.connect({ name: IMPORT_PORT + importId });
  return () => port.disconnect();
};

/** How often a page follows an import begun by a page since closed, while the background applies it. */
const FOLLOW_EVERY_MS = 1_000;

/**
 * Tells the reader what became of an import this page did not see end: one whose page was closed
 * or reloaded after its commit (still being applied: followed to its end; or applied since), or
 * before it (stopped: nothing of it imported). Told once: the next page opened does not tell it
 * again. Until 29 November 2026 a page opened after said nothing of it, and the reader could not
 * tell whether the import had happened (a review).
 */
async function tellUntoldImports(): Promise<void> {
  const { imports } = await send('options:importsUntold', {});
  const said: string[] = [];
  for (const run of imports.filter((r) => r.state !== 'applying')) {
    said.push(endedText(run));
    await send('options:importTold', { importId: run.importId });
  }
  if (said.length > 0) status.textContent = sentences(said);
  // Those still being applied (one, as a rule), after what the ended ones did.
  for (const run of imports.filter((r) => r.state === 'applying')) {
    // Nothing to add where it failed (the status says why) or went with a clear.
    const ended = await followImport(run);
    if (!ended) continue;
    said.push(ended);
    status.textContent = sentences(said);
  }
}

/** What became of an import that has ended: stopped before anything was added, or applied after its page was closed. */
const endedText = (run: UntoldImport) => (run.state === 'left' ? t('importUntoldLeft', absoluteTime(run.at, uiLocale())) : t('importUntoldDone', absoluteTime(run.at, uiLocale()), importedText(run.outcome)));

/** An import being applied since its page was closed, followed with the bar until it ends: what it did. */
async function followImport(run: UntoldImport): Promise<string> {
  let told = '';
  await busy(t('importUntoldApplying'), 'importFailed', async (progress) => {
    for (let now = run; ; ) {
      progress(now.applied, now.chunks, 'importing');
      await new Promise((wake) => setTimeout(wake, FOLLOW_EVERY_MS));
      const { imports } = await send('options:importsUntold', {});
      const next = imports.find((r) => r.importId === run.importId);
      // Gone: the history was cleared meanwhile (in another tab), which says so there.
      if (!next) return '';
      if (next.state !== 'applying') {
        await send('options:importTold', { importId: run.importId });
        return (told = endedText(next));
      }
      now = next;
    }
  });
  return told;
}

const confirmBox = $('clear-confirm');
$('clear').addEventListener('click', () => {
  void send('options:stats', {}).then(({ pages: count }) => {
    $('clear-question').textContent = t('clearQuestion', pages(count));
    confirmBox.hidden = false;
    $('clear-no').focus();
  });
});
// Cancel (focused first, so Enter is safe) or Escape keeps the history, and focus goes back.
const cancelClear = () => {
  confirmBox.hidden = true;
  $('clear').focus();
};
$('clear-no').addEventListener('click', cancelClear);
confirmBox.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') cancelClear();
});
$('clear-yes').addEventListener('click', () => {
  confirmBox.hidden = true;
  // The question and the Clear button (disabled while it runs) cannot hold the focus: the status, which says how it went, does.
  $('export-status').focus();
  void busy(t('clearing'), 'clearFailed', async () => {
    await send('options:clear', {});
    return t('cleared');
  });
});

// The notice's shortcut as the reader set it (they may have changed or removed it), under the notice's checkbox.
void browser.commands
  ?.getAll()
  .then((commands) => {
    const shortcut = commands.find((c) => c.name === FOCUS_NOTICE)?.shortcut;
    const hint = document.createElement('p');
    hint.id = 'notice-shortcut';
    hint.className = 'muted hint';
    hint.textContent = shortcut ? t('optionsNoticeShortcut', shortcut) : t('optionsNoticeNoShortcut');
    const checkbox = $<HTMLInputElement>('show-notice');
    checkbox.setAttribute('aria-describedby', `${hint.id} notice-once`);
    checkbox.closest('label')?.after(hint);
  })
  .catch(() => undefined);

void refreshStats();
// The history cleared, or an import ended, in another tab or window: the count says so at once.
onHistoryEvent(() => void refreshStats().catch(() => undefined));
void initSettingsForm();
void tellUntoldImports().catch(() => undefined);
