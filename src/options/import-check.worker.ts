// Reads a file to import off the page's thread (check-in-worker.ts is the page's side): one chunk
// of checked records per request, the next read while the page sends the one before, and at the
// end what the file came to (its digest). Given the background's bulk channel, it keeps each chunk
// until the page says it was staged, and posts it to the background itself at each try (as a
// page's BulkPort posts), so the records never cross the page.
import type { StoredPage } from '../storage/layout';
import { postParcel } from '../messaging/bulk';
import type { FromReader, ToReader } from './check-in-worker';
import { fileProblem, readHistoryFile, type FileRead } from './import-check';

const post = (message: FromReader) => self.postMessage(message);
const progress = (done: number, total: number) => post({ type: 'progress', done, total });

let records: AsyncGenerator<StoredPage[], FileRead> | null = null;
let ahead: Promise<IteratorResult<StoredPage[], FileRead>> | null = null;
let channel: BroadcastChannel | null = null;
const kept = new Map<number, StoredPage[]>();
let seq = 0;

self.onmessage = async (e: MessageEvent<ToReader>) => {
  const m = e.data;
  if (m.type === 'release') return void kept.delete(m.seq);
  if (m.type === 'open') {
    records = readHistoryFile(m.file, m.now, m.chunk, progress);
    channel = m.channel ? new BroadcastChannel(m.channel) : null;
    return;
  }
  const { re } = m;
  try {
    if (m.type === 'post') {
      const pages = kept.get(m.seq);
      if (!channel || !pages) throw new Error(`no chunk ${m.seq} to send`);
      return post({ type: 'posted', re, parcel: postParcel(channel, pages) });
    }
    if (!records) throw new Error('no file to read');
    const r = await (ahead ?? records.next());
    ahead = null;
    if (r.done) return post({ type: 'end', re, read: r.value });
    if (channel) {
      kept.set(seq, r.value);
      post({ type: 'kept', re, seq: seq++, count: r.value.length });
    } else post({ type: 'pages', re, pages: r.value });
    // The next chunk is read while the page sends this one; a problem in it waits for its request.
    ahead = records.next();
    ahead.catch(() => undefined);
  } catch (err) {
    const problem = fileProblem(err);
    post(problem ? { type: 'invalid', re, error: problem } : { type: 'failed', re, message: err instanceof Error ? err.message : String(err) });
  }
};
