// @vitest-environment jsdom
// What a page can time of the link marks: the work done in the overlay after the page gives its links
// an address, or after an in-page navigation, is the same whether the answer says "read" or not (a
// privacy review timed its frames and told read addresses from unread ones, in both browsers).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { message } from './messages';

const fake = vi.hoisted(() => ({ readSince: [] as string[] }));
vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    runtime: {
      id: 'ext',
      sendMessage: async (m: { req: { keys: string[] } }) => ({ ok: { read: m.req.keys.filter((k) => k.includes('read') || fake.readSince.some((h) => k.includes(h))).map((key) => ({ key, date: 'Nov 1' })) } }),
    },
  },
}));

// Every block followed is near the viewport (jsdom lays nothing out).
vi.mock('../../src/content/near-view', () => ({
  createNearView: (_doc: Document, changed: () => void) => {
    const near = new Set<Element>();
    return {
      track: async (blocks: readonly Element[]) => {
        for (const b of blocks) near.add(b);
        setTimeout(changed, 0);
      },
      untrack: (block: Element) => near.delete(block),
      blocks: () => [...near],
      stop: () => near.clear(),
    };
  },
}));

// The overlay's closed root, kept for the test (the page cannot do this: the content script runs first).
let root: ShadowRoot | undefined;
const attach = Element.prototype.attachShadow;
Element.prototype.attachShadow = function (init) {
  return (root = attach.call(this, init));
};

const { startLinkMarks } = await import('../../src/content/link-marks');

const LINKS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Elements added to and removed from the overlay's root while `act` runs and its answer is drawn. */
async function churn(act: () => void): Promise<number> {
  let nodes = 0;
  const watch = new MutationObserver((records) => {
    for (const r of records) nodes += r.addedNodes.length + r.removedNodes.length;
  });
  watch.observe(root as ShadowRoot, { childList: true, subtree: true });
  act();
  await sleep(1600);
  watch.disconnect();
  return nodes;
}

async function listPage(): Promise<ReturnType<typeof startLinkMarks>> {
  document.body.replaceChildren(
    ...Array.from({ length: LINKS }, (_, i) => {
      const p = document.createElement('p');
      const a = document.createElement('a');
      a.href = `https://list.example/story-${i}`;
      a.textContent = `story ${i}`;
      // jsdom lays nothing out: each link gets a box in view.
      a.getClientRects = () => [new DOMRect(10, 10 + 20 * i, 60, 16)] as unknown as DOMRectList;
      p.append(a);
      return p;
    }),
  );
  const marks = startLinkMarks(document);
  await sleep(1000);
  return marks;
}

const giveLinks = (href: string) => () => {
  for (const a of document.querySelectorAll('a')) a.setAttribute('href', href);
};

afterEach(() => {
  fake.readSince = [];
  document.body.replaceChildren();
  for (const host of document.querySelectorAll('[data-deja-read=overlay]')) host.remove();
});

describe('link marks, timed by the page', () => {
  it('do the same work in the overlay whether the address the page gives its links was read or not', async () => {
    const marks = await listPage();
    expect(root?.querySelectorAll(".box").length).toBe(LINKS);
    const read = [await churn(giveLinks('https://probe.example/read-1')), await churn(giveLinks('https://probe.example/fresh-1'))];
    expect(marks.readCount()).toBe(0);
    const unread = [await churn(giveLinks('https://probe.example/other-2')), await churn(giveLinks('https://probe.example/fresh-2'))];
    expect(read[0]).toBeGreaterThan(0);
    expect(read).toEqual(unread);
    marks.stop();
  }, 20_000);

  it('do the same work after an in-page navigation whether a linked page was read since or not', async () => {
    const marks = await listPage();
    const nothingSince = await churn(() => window.dispatchEvent(new PopStateEvent('popstate')));
    fake.readSince.push('list.example/story-3');
    const oneSince = await churn(() => window.dispatchEvent(new PopStateEvent('popstate')));
    expect(marks.readCount()).toBe(1);
    expect(nothingSince).toBeGreaterThan(0);
    expect(oneSince).toBe(nothingSince);
    marks.stop();
  }, 20_000);
});
