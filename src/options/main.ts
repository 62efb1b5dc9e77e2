// The options page: export of the history.
import { send } from '../messaging/send';
import { downloadJson } from './download';

const button = document.getElementById('export') as HTMLButtonElement;
const status = document.getElementById('export-status') as HTMLParagraphElement;

button.addEventListener('click', () => {
  button.disabled = true;
  status.textContent = 'Preparing the export…';
  send('options:export', {})
    .then((doc) => {
      const day = doc.exportedAt.slice(0, 10);
      downloadJson(doc, `deja-read-history-${day}.json`);
      status.textContent = `Exported ${doc.pages.length} page${doc.pages.length === 1 ? '' : 's'}.`;
    })
    .catch((e: unknown) => {
      status.textContent = `Export failed: ${e instanceof Error ? e.message : String(e)}`;
    })
    .finally(() => {
      button.disabled = false;
    });
});
