// What held the page's thread in Firefox, read from the Gecko profiler's own output: bench:page:firefox
// --profile starts Firefox with the profiler on (MOZ_PROFILER_STARTUP, sampling every millisecond)
// and has it write its profile when the browser closes (MOZ_PROFILER_SHUTDOWN). For each hold the
// page's timer saw, the samples of the content process's main thread in that span are sorted by
// whose code they were in: the add-on's (a moz-extension:// frame on the stack), Firefox's own
// scripts (resource:// or chrome://), the page's, or the browser's native work (layout, paint,
// garbage collection) with none of those on the stack. A hold can be two tasks back to back, with
// no turn of the page's timer between them; the share says whose they were.
import { readFileSync } from 'node:fs';

/** The profiler's environment: every thread's main loop sampled each millisecond, JS frames named. */
export function profilerEnv(out: string): Record<string, string> {
  return {
    MOZ_PROFILER_STARTUP: '1',
    MOZ_PROFILER_STARTUP_INTERVAL: '1',
    // Entries in the profiler's ring buffer (8 bytes each): enough for some minutes of sampling.
    MOZ_PROFILER_STARTUP_ENTRIES: '100000000',
    // JavaScript frames and the browser's own labels (style, layout, paint, GC), without native
    // stack walking: its frames would be bare addresses here, and fill the buffer.
    MOZ_PROFILER_STARTUP_FEATURES: 'js',
    MOZ_PROFILER_STARTUP_FILTERS: 'GeckoMain',
    MOZ_PROFILER_SHUTDOWN: out,
  };
}

/** A span in which the page's thread was held: from `at` (ms since the epoch) for `ms`. */
export interface Hold {
  at: number;
  ms: number;
}

export type Owner = 'addOn' | 'firefoxScripts' | 'page' | 'native';

export interface HoldShare {
  hold: Hold;
  /** Samples in the span (about one a millisecond), by whose code they were in. */
  samples: Record<Owner, number>;
  /** The script of Firefox's own that most samples were in, if any (for example Readerable.sys.mjs). */
  firefoxScript: string | null;
  /** The add-on function most samples were in, if any. */
  addOnFunction: string | null;
}

interface Table {
  schema: Record<string, number>;
  data: Array<Array<number | null>>;
}

interface Thread {
  name: string;
  processType?: string;
  stringTable: string[];
  samples: Table;
  stackTable: Table;
  frameTable: Table;
}

interface Process {
  meta: { startTime: number };
  /** The documents the process held, with their addresses. */
  pages?: Array<{ url: string }>;
  threads: Thread[];
  processes?: Process[];
}

/** The profile as Firefox wrote it (the Gecko format: each process with its threads and children). */
export type Profile = Process;

export function readProfile(file: string): Profile {
  return JSON.parse(readFileSync(file, 'utf8')) as Profile;
}

function* processes(p: Process): Generator<Process> {
  yield p;
  for (const c of p.processes ?? []) yield* processes(c);
}

/** A frame's name is `function (url:line:column)[n]`: the URL, or '' for a native frame. */
function frameUrl(location: string): string {
  const m = /\((\w[\w-]*:\/\/[^)]*?):\d+:\d+\)/.exec(location);
  return m ? m[1] : '';
}

interface Sampled {
  owner: Owner;
  /** The first add-on or Firefox-script frame's function name or script file, for the summary. */
  where: string | null;
}

function classify(frames: string[]): Sampled {
  // From the leaf to the root: the innermost script frame decides whose work this was.
  for (const f of frames) {
    const url = frameUrl(f);
    if (!url) continue;
    if (url.startsWith('moz-extension://')) return { owner: 'addOn', where: f.split(' (')[0] };
    if (url.startsWith('resource://') || url.startsWith('chrome://')) return { owner: 'firefoxScripts', where: url.split('/').pop() ?? url };
    if (url.startsWith('http://') || url.startsWith('https://')) return { owner: 'page', where: null };
  }
  return { owner: 'native', where: null };
}

function top(counts: Map<string, number>): string | null {
  let best: string | null = null;
  let n = 0;
  for (const [k, v] of counts) if (v > n) [best, n] = [k, v];
  return best;
}

/**
 * The main threads of the processes that held the page at `url` (not the add-on's own process,
 * where its background works), each with its stacks read as frame names, leaf first.
 */
function pageThreads(root: Profile, url: string): Array<{ start: number; thread: Thread; frames: (stack: number) => string[] }> {
  const threads: Array<{ start: number; thread: Thread; frames: (stack: number) => string[] }> = [];
  for (const proc of processes(root)) {
    if (!proc.pages?.some((p) => p.url === url)) continue;
    for (const thread of proc.threads) {
      if (thread.name !== 'GeckoMain') continue;
      const { stackTable: st, frameTable: ft, stringTable: strings } = thread;
      const [prefix, frame, location] = [st.schema.prefix, st.schema.frame, ft.schema.location];
      const frames = (stack: number): string[] => {
        const out: string[] = [];
        for (let s: number | null = stack; s !== null; s = st.data[s][prefix]) out.push(strings[ft.data[st.data[s][frame] as number][location] as number]);
        return out;
      };
      threads.push({ start: proc.meta.startTime, thread, frames });
    }
  }
  return threads;
}

/** Tells, for each hold of the page at `url`, whose code the page's thread was in. */
export function attributeHolds(root: Profile, url: string, holds: Hold[]): HoldShare[] {
  const threads = pageThreads(root, url);
  return holds.map((hold) => {
    let best: HoldShare | null = null;
    let bestBusy = -1;
    for (const { start, thread, frames } of threads) {
      const { schema, data } = thread.samples;
      const from = hold.at - start;
      const to = from + hold.ms;
      const samples: Record<Owner, number> = { addOn: 0, firefoxScripts: 0, page: 0, native: 0 };
      const scripts = new Map<string, number>();
      const functions = new Map<string, number>();
      let busy = 0;
      for (const row of data) {
        const time = row[schema.time] as number;
        const stack = row[schema.stack];
        if (time < from || time > to || stack === null) continue;
        const fs = frames(stack);
        // A thread waiting for its next event is not held by anything.
        if (fs.some((f) => f.startsWith('PollWrapper') || f.includes('ProcessNextNativeEvent'))) continue;
        busy++;
        const { owner, where } = classify(fs);
        samples[owner]++;
        if (where && owner === 'firefoxScripts') scripts.set(where, (scripts.get(where) ?? 0) + 1);
        if (where && owner === 'addOn') functions.set(where, (functions.get(where) ?? 0) + 1);
      }
      if (busy > bestBusy) {
        bestBusy = busy;
        best = { hold, samples, firefoxScript: top(scripts), addOnFunction: top(functions) };
      }
    }
    return best ?? { hold, samples: { addOn: 0, firefoxScripts: 0, page: 0, native: 0 }, firefoxScript: null, addOnFunction: null };
  });
}
