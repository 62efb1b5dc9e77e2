// The import check off the page's thread: validating 10^6 records takes seconds, and the options
// page, the popup and the history page share one renderer. Sends progress as it goes, then the
// records in slices so that receiving them is many short tasks on the page, not one long one.
import { checkImportFile } from './import-check';
import type { FromChecker, ToChecker } from './check-in-worker';

const SLICE = 1000;
const post = (message: FromChecker) => self.postMessage(message);

self.onmessage = async (e: MessageEvent<ToChecker>) => {
  const result = await checkImportFile(e.data.file, (done, total) => post({ type: 'progress', done, total }), e.data.now);
  if (!result.ok) return post({ type: 'invalid', error: result.error });
  const { pages, ...rest } = result;
  for (let i = 0; i < pages.length; i += SLICE) post({ type: 'pages', pages: pages.slice(i, i + SLICE) });
  post({ type: 'valid', algorithm: rest.algorithm, digest: rest.digest, count: pages.length });
};
