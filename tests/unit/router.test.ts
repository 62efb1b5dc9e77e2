import type { Runtime } from 'webextension-polyfill';
import { describe, expect, it } from 'vitest';
import { createRouter, senderKind } from '../../src/messaging/router';

interface TestProtocol {
  'content:ping': { req: { n: number }; res: number };
  'popup:fail': { req: Record<string, never>; res: never };
}

const ORIGIN = 'chrome-extension://ext/';
const identify = (s: Runtime.MessageSender) => senderKind(s, 'ext', ORIGIN);
const route = createRouter<TestProtocol>(
  {
    'content:ping': async ({ n }) => n + 1,
    'popup:fail': async () => {
      throw new RangeError('nothing to see');
    },
  },
  identify,
);
const tab = { id: 3, index: 0, highlighted: false, active: true, pinned: false, incognito: false };
const content: Runtime.MessageSender = { id: 'ext', tab, url: 'https://news.example/a' };
const popup: Runtime.MessageSender = { id: 'ext', url: `${ORIGIN}src/popup/index.html` };

describe('router', () => {
  it('answers known messages from the allowed sender', async () => {
    expect(await route({ type: 'content:ping', req: { n: 1 } }, content)).toEqual({ ok: 2 });
  });

  it('returns errors as data', async () => {
    expect(await route({ type: 'popup:fail', req: {} }, popup)).toEqual({ error: { name: 'RangeError', message: 'nothing to see' } });
  });

  it('refuses a message from the wrong kind of sender or another extension', async () => {
    expect(await route({ type: 'popup:fail', req: {} }, content)).toMatchObject({ error: { name: 'Forbidden' } });
    expect(await route({ type: 'content:ping', req: { n: 1 } }, { ...content, id: 'other' })).toMatchObject({ error: { name: 'Forbidden' } });
  });

  it('leaves unknown messages to other listeners', () => {
    expect(route({ type: 'toString', req: {} }, content)).toBeUndefined();
    expect(route('hello', content)).toBeUndefined();
    expect(route(null, content)).toBeUndefined();
  });
});
