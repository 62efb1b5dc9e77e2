// The toolbar button as a reader sees it, tab by tab, through page loads, with the browser's own
// resets (Firefox puts a tab's button back to the default at each new page, both when a tab closes).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageVerdict } from '../../src/messaging/protocol';

interface Button { text: string; color: string; title: string }
const DEFAULT: Button = { text: '', color: 'default', title: 'Déjà Read' };

const browser = vi.hoisted(() => {
  const tabs = new Map<number, { text?: string; color?: string; title?: string }>();
  const gone = new Set<number>();
  const calls: string[] = [];
  const set = (key: 'text' | 'color' | 'title') => async (details: { tabId: number } & Record<string, string>) => {
    calls.push(key);
    if (gone.has(details.tabId)) throw new Error(`No tab with id: ${details.tabId}.`);
    tabs.set(details.tabId, { ...tabs.get(details.tabId), [key]: details[key] });
  };
  return {
    tabs,
    gone,
    calls,
    api: {
      action: { setBadgeText: set('text'), setBadgeBackgroundColor: set('color'), setTitle: set('title') },
      i18n: {
        getUILanguage: () => 'en',
        getMessage: (key: string, subs: string[] = []) => (key === 'extName' ? 'Déjà Read' : key === 'badgeReadBefore' ? `read before: ${subs[0]}` : key === 'badgeVisitedBefore' ? `visited before (${subs[0]})` : key),
      },
    },
  };
});
vi.mock('../../src/ext', () => ({ default: browser.api }));

const { clearTab, forgetTab, showVerdictOnTab } = await import('../../src/background/badge');

/** What the reader sees on the tab's button. */
const button = (tabId: number): Button => ({ ...DEFAULT, ...browser.tabs.get(tabId) });
const nothing: PageVerdict = { fp: '0123456789abcdef', algo: 'x', matches: [], visitedBefore: false };
const read = (n: number): PageVerdict => ({
  ...nothing,
  matches: Array.from({ length: n }, (_, i) => ({ url: `https://a${i}.example/story`, title: `Story ${i}`, fp: '0123456789abcdef', firstSeen: 1, lastSeen: 1, visits: 1, kind: 'same-text' as const, distance: 0 })),
});
/** A new page in the tab: Firefox resets its button itself (`reset`), and the background clears it. */
async function load(tabId: number, reset: boolean): Promise<void> {
  if (reset) browser.tabs.delete(tabId);
  await clearTab(tabId);
}

describe('the toolbar button', () => {
  let tab = 100;
  beforeEach(() => {
    tab += 1; // each test a tab of its own: the background's memory of tabs lasts across tests
    browser.calls.length = 0;
  });

  for (const reset of [false, true]) {
    it(`tells each page's verdict through page loads (${reset ? 'the browser resetting the button, as Firefox does' : 'the button kept, as Chrome does'})`, async () => {
      await showVerdictOnTab(tab, read(2));
      expect(button(tab)).toEqual({ text: '2', color: '#6b4fbb', title: 'read before: \u2068Story 0\u2069' });
      await load(tab, reset);
      expect(button(tab).text).toBe('');
      await showVerdictOnTab(tab, nothing);
      expect(button(tab)).toMatchObject({ text: '', title: 'Déjà Read' });
      await load(tab, reset);
      await showVerdictOnTab(tab, read(1));
      expect(button(tab).text).toBe('1');
      await load(tab, reset);
      await showVerdictOnTab(tab, { ...nothing, visitedBefore: true });
      expect(button(tab)).toMatchObject({ text: '✓', color: '#6e6a7c' });
      await showVerdictOnTab(tab, nothing); // the same page, forgotten from the popup
      expect(button(tab)).toMatchObject({ text: '', title: 'Déjà Read' });
    });
  }

  it('dates a visit before in its tooltip as the rest of the interface dates it (the date as words, not 11/28/2026)', async () => {
    await showVerdictOnTab(31, { ...nothing, visitedBefore: true, lastVisit: new Date(2026, 10, 28, 9).getTime() });
    expect(button(31).title).toBe(`visited before (${new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(2026, 10, 28, 9))})`);
    expect(button(31).title).toBe('visited before (Nov 28, 2026)');
  });

  it('costs no call for a page with nothing to show on a tab that shows nothing', async () => {
    await showVerdictOnTab(tab, read(1));
    await load(tab, false);
    const before = browser.calls.length;
    await showVerdictOnTab(tab, nothing);
    await load(tab, false);
    await showVerdictOnTab(tab, nothing);
    expect(browser.calls.length).toBe(before);
    expect(button(tab).text).toBe('');
  });

  it("is not set to a page's verdict once the tab has moved on to another page", async () => {
    await load(tab, false);
    let loads = 0;
    const shown = showVerdictOnTab(tab, read(3), () => loads === 0);
    loads += 1; // the tab starts loading another page before the answer's task is over
    await load(tab, false);
    await shown;
    expect(button(tab).text).toBe('');
  });

  it('is set again after a call failed, and for a tab closed and its id seen again', async () => {
    await load(tab, false);
    browser.gone.add(tab);
    await expect(showVerdictOnTab(tab, read(1))).rejects.toThrow(/No tab/);
    browser.gone.delete(tab);
    await showVerdictOnTab(tab, nothing);
    expect(button(tab).title).toBe('Déjà Read');
    expect(browser.calls.slice(-3)).toEqual(['text', 'color', 'title']);
    await showVerdictOnTab(tab, read(2));
    forgetTab(tab);
    browser.tabs.delete(tab); // closed: the browser drops its button
    browser.tabs.set(tab, { text: '7' }); // not ours: whatever the id shows next, it is not taken as nothing
    await showVerdictOnTab(tab, nothing);
    expect(button(tab).text).toBe('');
  });
});
