// Reads a file to import off the page's thread (check-in-worker.ts is the page's side): its digest
// when asked, then one chunk of checked records per request, the next read while the page sends
// the one before. Given the background's bulk channel, it keeps each chunk until the page says it
// was staged, and posts it to the background itself at each try, so the records never cross the page.
import type { StoredPage } from '../storage/layout';
import { postChunk, type FromReader, type ReadPhase, type ToReader } from './check-in-worker';
import { fileDigest, fileProblem, readHistoryFile } from './import-check';

const post = (message: FromReader) => self.postMessage(message);
const progress = (phase: ReadPhase) => (done: number, total: number) => post({ type: 'progress', done, total, phase });

let records: AsyncGenerator<StoredPage[], number> | null = null;
let ahead: Promise<IteratorResult<StoredPage[], number>> | null = null;
let channel: BroadcastChannel | null = null;
const kept = new Map<number, StoredPage[]>();
let seq = 0;

self.onmessage = async (e: MessageEvent<ToReader>) => {
  const m = e.data;
  if (m.type === 'release') return void kept.delete(m.seq);
  const { re } = m;
  try {
    if (m.type === 'digest') {
      const digest = await fileDigest(m.file, progress('checking'));
      records = readHistoryFile(m.file, m.now, m.chunk, progress('reading'));
      channel = m.channel ? new BroadcastChannel(m.channel) : null;
      return post({ type: 'digest', re, digest });
    }
    if (m.type === 'post') {
      const pages = kept.get(m.seq);
      if (!channel || !pages) throw new Error(`no chunk ${m.seq} to send`);
      return post({ type: 'posted', re, parcel: postChunk(channel, pages) });
    }
    if (!records) throw new Error('no file to read');
    const r = await (ahead ?? records.next());
    ahead = null;
    if (r.done) return post({ type: 'end', re, count: r.value });
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
