// @vitest-environment jsdom
// The options page opened after an import it did not see end, against the real background on
// fake-indexeddb: it says whether the import stopped before anything was added or was applied, and
// follows one still being applied to its end; each is told once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNKS_PER_APPLY, type PageRecord } from '../../src/storage';
import { makeBackground } from './helpers';
import { message, sendTo } from './messages';

const fake = vi.hoisted(() => ({ call: null as null | ((type: string, req: unknown) => Promise<unknown>) }));

vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    runtime: {
      id: 'ext',
      sendMessage: sendTo(() => fake.call),
      connect: () => ({ disconnect: () => undefined }),
    },
    storage: { sync: { get: async () => ({}), set: async () => undefined }, onChanged: { addListener: () => undefined } },
    extension: { isAllowedIncognitoAccess: async () => true },
  },
}));

const page = (i: number): PageRecord => ({ url: `https://imp.example/${i}`, canonicalUrl: `https://imp.example/${i}`, site: 'imp.example', title: `T${i}`, fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 300, lang: 'en', firstSeen: 10, lastSeen: 20, visits: 1 });

async function openOptions(): Promise<void> {
  vi.resetModules();
  const html = readFileSync(join(process.cwd(), 'src/options/index.html'), 'utf8');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
  await import('../../src/options/main');
  await vi.waitFor(() => expect(document.getElementById('stats')?.textContent).toMatch(/recorded/));
}

const status = () => document.getElementById('export-status')?.textContent ?? '';
const at = (time: number) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(time);

/** An import of `n` chunks (more than one transaction applies), committed, one transaction applied, and then its page closed: the background goes on with it. */
async function appliedInPart(bg: ReturnType<typeof makeBackground>, n: number): Promise<void> {
  const { imports } = await bg.repository;
  for (let seq = 0; seq < n; seq++) await imports.stage('import-closed', seq, [page(seq)], bg.clock.now);
  await imports.commit('import-closed', 'c'.repeat(64), n, n, bg.clock.now, 0);
}

/** An options page opened again has nothing more to tell. */
async function toldOnce(): Promise<void> {
  await openOptions();
  await new Promise((r) => setTimeout(r, 200));
  expect(status()).toBe('');
}

function background() {
  const bg = makeBackground();
  fake.call = (type, req) => bg.call(type as never, req as never);
  return bg;
}

beforeEach(() => {
  fake.call = null;
});
afterEach(() => {
  document.documentElement.replaceChildren();
});

describe('the options page, as the history changes in another tab', () => {
  it('counts the pages again when another tab clears the history or an import there ends', async () => {
    const bg = background();
    const { imports } = await bg.repository;
    await openOptions();
    expect(document.getElementById('stats')?.textContent).toBe('0 pages recorded.');
    await bg.call('options:importOpen', { importId: 'import-elsewhere' });
    await imports.stage('import-elsewhere', 0, [page(1), page(2), page(3)], bg.clock.now);
    await bg.call('options:importCommit', { importId: 'import-elsewhere', digest: 'e'.repeat(64), chunks: 1, pages: 3 });
    await vi.waitFor(() => expect(document.getElementById('stats')?.textContent).toBe('3 pages recorded.'));
    await bg.call('options:clear', {});
    await vi.waitFor(() => expect(document.getElementById('stats')?.textContent).toBe('0 pages recorded.'));
  });
});

describe('the options page, after an import its own page did not see end', () => {
  it('says an import stopped before anything was added when its page was closed or reloaded, once', async () => {
    const bg = background();
    const { imports } = await bg.repository;
    await imports.open('import-reloaded', bg.clock.now);
    await imports.stage('import-reloaded', 0, [page(1), page(2)], bg.clock.now);
    const left = bg.clock.now + 500;
    await imports.leave('import-reloaded', left);
    await openOptions();
    await vi.waitFor(() => expect(status()).toBe(`An import stopped at ${at(left)}: its page was closed or reloaded before anything was added to your history. To import the file, choose it again.`));
    expect(document.getElementById('stats')?.textContent).toBe('0 pages recorded.');
    await toldOnce();
  });

  it('follows an import still being applied with its bar, then says what it did, once', async () => {
    const bg = background();
    const { imports } = await bg.repository;
    const n = CHUNKS_PER_APPLY + 2;
    await appliedInPart(bg, n);
    await openOptions();
    await vi.waitFor(() => expect(status()).toBe('Finishing an import whose page was closed… 94%'));
    const bar = document.getElementById('progress') as HTMLProgressElement;
    expect(bar.hidden).toBe(false);
    expect((document.getElementById('export') as HTMLButtonElement).disabled).toBe(true);
    const done = bg.clock.now + 1;
    await imports.recover(done);
    await vi.waitFor(() => expect(status()).toBe(`An import finished at ${at(done)}, after its page was closed. Imported ${n} pages: ${n} added, 0 merged with pages already here, 0 already up to date.`), { timeout: 3_000 });
    expect(bar.hidden).toBe(true);
    await vi.waitFor(() => expect(document.getElementById('stats')?.textContent).toBe(`${n} pages recorded.`));
    await toldOnce();
  });

  it('tells an import that stopped and one still being applied, one after the other', async () => {
    const bg = background();
    const { imports } = await bg.repository;
    await imports.stage('import-left', 0, [page(100)], bg.clock.now);
    const left = bg.clock.now + 1;
    await imports.leave('import-left', left);
    const n = CHUNKS_PER_APPLY + 1;
    await appliedInPart(bg, n);
    await openOptions();
    const stopped = `An import stopped at ${at(left)}: its page was closed or reloaded before anything was added to your history. To import the file, choose it again.`;
    await vi.waitFor(() => expect(status()).toMatch(/^Finishing an import whose page was closed… \d+%$/));
    const done = bg.clock.now + 1;
    await imports.recover(done);
    await vi.waitFor(() => expect(status()).toBe(`${stopped} An import finished at ${at(done)}, after its page was closed. Imported ${n} pages: ${n} added, 0 merged with pages already here, 0 already up to date.`), { timeout: 3_000 });
  });
});
