// The background's side of extraction: pieces in, one digested article out, and only for content scripts.
import type { Runtime } from 'webextension-polyfill';
import { describe, expect, it, vi } from 'vitest';
import { digestArticle } from '../../src/core';
import type { DigestedExtraction } from '../../src/content/extract';
import { MAX_HTML_CHARS } from '../../src/content/snapshot';
import { COPIES_PER_TAB, COPY_DEADLINE_MS, extractAnywhere, serveExtractPort } from '../../src/background/extract-port';
import { EXTRACT_PORT, type ExtractRequest } from '../../src/messaging/protocol';

const ID = 'deja-read-test';
const ORIGIN = 'chrome-extension://deja-read-test/';
const fromPage: Runtime.MessageSender = { id: ID, url: 'https://example.org/a', tab: { id: 7 } as Runtime.MessageSender['tab'] };

function fakePort(sender: Runtime.MessageSender | undefined, name = EXTRACT_PORT) {
  const onMessage: ((m: unknown) => void)[] = [];
  const onDisconnect: (() => void)[] = [];
  const port = {
    name,
    sender,
    sent: [] as unknown[],
    disconnected: false,
    postMessage(m: unknown) {
      port.sent.push(m);
    },
    disconnect() {
      port.disconnected = true;
    },
    onMessage: { addListener: (f: (m: unknown) => void) => void onMessage.push(f) },
    onDisconnect: { addListener: (f: () => void) => void onDisconnect.push(f) },
    /** The content script sends a message. */
    send: (m: unknown) => onMessage.forEach((f) => f(m)),
  };
  return port;
}

const article = (text: string): DigestedExtraction => ({ ok: true, article: { title: 'T', lang: 'en', digest: digestArticle(text), passages: '', locators: [] } });
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the extraction port', () => {
  it('joins the pieces and answers with the digested article, once', async () => {
    const port = fakePort(fromPage);
    const seen: ExtractRequest[] = [];
    serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN, (req) => {
      seen.push(req);
      return Promise.resolve(article('one two three'));
    });
    port.send({ piece: '<p>one two' });
    port.send({ piece: ' three</p>' });
    port.send({ end: true, minWords: 30 });
    await settle();
    expect(seen).toEqual([{ html: '<p>one two three</p>', minWords: 30 }]);
    expect(port.sent).toEqual([{ ok: article('one two three') }]);
  });

  it('is not served to the extension pages or other extensions', () => {
    for (const sender of [{ id: ID, url: `${ORIGIN}src/popup/index.html` }, { ...fromPage, id: 'someone-else' }, undefined]) {
      const port = fakePort(sender);
      serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN, () => Promise.reject(new Error('must not extract')));
      expect(port.disconnected).toBe(true);
    }
  });

  it('is not served to a frame: the content script runs in top frames only', () => {
    const port = fakePort({ ...fromPage, frameId: 2 });
    serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN, () => Promise.reject(new Error('must not extract')));
    expect(port.disconnected).toBe(true);
  });

  it('takes a few copies from one tab at once, and closes a port beyond them until one ends', async () => {
    const seen: string[] = [];
    const extract = (req: ExtractRequest) => (seen.push(req.html), Promise.resolve(article('one two three')));
    const open = (tab: number) => {
      const port = fakePort({ ...fromPage, tab: { id: tab } as Runtime.MessageSender['tab'] });
      serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN, extract);
      return port;
    };
    const first = Array.from({ length: COPIES_PER_TAB }, () => open(41));
    expect(first.map((p) => p.disconnected)).toEqual(first.map(() => false));
    expect(open(41).disconnected).toBe(true);
    // Another tab is not held up.
    expect(open(42).disconnected).toBe(false);
    first[0].send({ piece: '<p>one</p>' });
    first[0].send({ end: true, minWords: 3 });
    await settle();
    expect(seen).toEqual(['<p>one</p>']);
    const next = open(41);
    expect(next.disconnected).toBe(false);
    next.send({ piece: '<p>next</p>' });
    next.send({ end: true, minWords: 3 });
    await settle();
    expect(seen).toEqual(['<p>one</p>', '<p>next</p>']);
  });

  it('lets a copy go that has not ended within its deadline', () => {
    vi.useFakeTimers();
    try {
      const port = fakePort({ ...fromPage, tab: { id: 43 } as Runtime.MessageSender['tab'] });
      serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN, () => Promise.reject(new Error('must not extract')));
      port.send({ piece: '<p>a page that never ends' });
      vi.advanceTimersByTime(COPY_DEADLINE_MS - 1);
      expect(port.disconnected).toBe(false);
      vi.advanceTimersByTime(1);
      expect(port.disconnected).toBe(true);
      expect(port.sent).toEqual([{ error: { name: 'TypeError', message: expect.stringMatching(/did not end in time/) } }]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores ports of other names', () => {
    const port = fakePort(fromPage, 'something-else');
    serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN);
    expect(port.disconnected).toBe(false);
    expect(port.sent).toEqual([]);
  });

  it('refuses a copy over the size limit, and malformed messages', async () => {
    const big = fakePort(fromPage);
    serveExtractPort(big as unknown as Runtime.Port, ID, ORIGIN, () => Promise.reject(new Error('must not extract')));
    big.send({ piece: 'x'.repeat(MAX_HTML_CHARS) });
    big.send({ piece: 'x' });
    expect(big.sent).toEqual([{ error: { name: 'TypeError', message: 'page copy too large' } }]);
    expect(big.disconnected).toBe(true);

    const odd = fakePort(fromPage);
    serveExtractPort(odd as unknown as Runtime.Port, ID, ORIGIN, () => Promise.reject(new Error('must not extract')));
    odd.send({ end: true, minWords: -1 });
    expect(odd.sent).toEqual([{ error: { name: 'TypeError', message: 'malformed extraction message' } }]);
  });

  it('says why when extraction fails', async () => {
    const port = fakePort(fromPage);
    serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN, () => Promise.reject(new RangeError('parser gone')));
    port.send({ end: true, minWords: 30 });
    await settle();
    expect(port.sent).toEqual([{ error: { name: 'RangeError', message: 'parser gone' } }]);
  });

  it('answers with an error, not silence, when parsing the copy throws (Firefox parses in the background page)', async () => {
    vi.stubGlobal(
      'DOMParser',
      class {
        parseFromString(): Document {
          throw new RangeError('allocation size overflow');
        }
      },
    );
    const port = fakePort(fromPage);
    serveExtractPort(port as unknown as Runtime.Port, ID, ORIGIN, extractAnywhere);
    port.send({ piece: '<p>text</p>' });
    expect(() => port.send({ end: true, minWords: 10 })).not.toThrow();
    await settle();
    expect(port.sent).toEqual([{ error: { name: 'RangeError', message: 'allocation size overflow' } }]);
    vi.unstubAllGlobals();
  });
});
