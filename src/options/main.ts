// The options page: export (JSON, CSV), import and clearing of the history.
import { send } from '../messaging/send';
import { downloadBlob } from './download';
import { exportHistory, importHistory, type Progress } from './history-transfer';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLParagraphElement>('export-status');
const progressBar = $<HTMLProgressElement>('progress');
const buttons = ['export', 'export-csv', 'clear'].map((id) => $<HTMLButtonElement>(id));
const fileInput = $<HTMLInputElement>('import-file');
const number = new Intl.NumberFormat();
const plural = (n: number, one: string, many: string) => `${number.format(n)} ${n === 1 ? one : many}`;

async function refreshStats(): Promise<void> {
  const { pages } = await send('options:stats', {});
  $('stats').textContent = `${plural(pages, 'page', 'pages')} recorded.`;
}

/** Runs one long task with the buttons disabled and a progress bar. */
async function busy(label: string, task: (progress: Progress) => Promise<string>): Promise<void> {
  buttons.forEach((b) => (b.disabled = true));
  fileInput.disabled = true;
  progressBar.hidden = false;
  progressBar.removeAttribute('value');
  status.textContent = `${label}…`;
  const progress: Progress = (done, total) => {
    progressBar.max = Math.max(total, 1);
    progressBar.value = done;
    status.textContent = `${label}… ${number.format(done)} of ${number.format(total)}`;
  };
  try {
    status.textContent = await task(progress);
  } catch (e) {
    status.textContent = `${label} failed: ${e instanceof Error ? e.message : String(e)} Your history was not changed.`;
  } finally {
    buttons.forEach((b) => (b.disabled = false));
    fileInput.disabled = false;
    progressBar.hidden = true;
    await refreshStats().catch(() => undefined);
  }
}

function exportAs(kind: 'json' | 'csv'): void {
  void busy('Exporting', async (progress) => {
    const now = new Date();
    const { blob, pages } = await exportHistory(send, kind, progress, now);
    downloadBlob(blob, `deja-read-history-${now.toISOString().slice(0, 10)}.${kind}`);
    return `Exported ${plural(pages, 'page', 'pages')}.`;
  });
}

$('export').addEventListener('click', () => exportAs('json'));
$('export-csv').addEventListener('click', () => exportAs('csv'));

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  if (!file) return;
  void busy('Importing', async (progress) => {
    const result = await importHistory(send, file, progress);
    fileInput.value = '';
    if (result.state === 'invalid') return `Nothing was imported: ${result.error}`;
    if (result.state === 'already-imported') return 'This file was imported before; nothing changed.';
    const { added, merged, unchanged } = result.outcome;
    return `Imported ${plural(result.pages, 'page', 'pages')}: ${number.format(added)} added, ${number.format(merged)} merged with pages already here, ${number.format(unchanged)} already up to date.`;
  });
});

const confirmBox = $('clear-confirm');
$('clear').addEventListener('click', () => {
  void send('options:stats', {}).then(({ pages }) => {
    $('clear-question').textContent = `Delete all ${plural(pages, 'page', 'pages')} of your history? This cannot be undone.`;
    confirmBox.hidden = false;
    $('clear-no').focus();
  });
});
$('clear-no').addEventListener('click', () => {
  confirmBox.hidden = true;
});
$('clear-yes').addEventListener('click', () => {
  confirmBox.hidden = true;
  void busy('Clearing', async () => {
    await send('options:clear', {});
    return 'Your history was cleared.';
  });
});

void refreshStats();
