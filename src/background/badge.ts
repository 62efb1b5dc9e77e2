// The toolbar button of a tab: how many earlier pages match, and the closest one in the tooltip.
import browser from 'webextension-polyfill';
import type { PageVerdict } from '../messaging/protocol';
import { isolate } from '../ui/bidi';

const NAME = 'Déjà Read';

/** What the toolbar button says about a page: read elsewhere (a count), visited before (✓), or nothing. */
export function badgeFor(verdict: PageVerdict): { text: string; color: string; title: string } {
  const n = verdict.matches.length;
  const closest = verdict.matches[0];
  if (closest) return { text: String(n), color: '#6b4fbb', title: `${NAME}: you've read this before — ${isolate(closest.title || closest.url)}` };
  if (verdict.visitedBefore) {
    const when = verdict.lastVisit ? ` (${new Date(verdict.lastVisit).toLocaleDateString()})` : '';
    return { text: '✓', color: '#6e6a7c', title: `${NAME}: you visited this page before${when}` };
  }
  return { text: '', color: '#6b4fbb', title: NAME };
}

export async function showVerdictOnTab(tabId: number, verdict: PageVerdict): Promise<void> {
  const badge = badgeFor(verdict);
  await Promise.all([
    browser.action.setBadgeText({ tabId, text: badge.text }),
    browser.action.setBadgeBackgroundColor({ tabId, color: badge.color }),
    browser.action.setTitle({ tabId, title: badge.title }),
  ]);
}

export async function clearTab(tabId: number): Promise<void> {
  await Promise.all([browser.action.setBadgeText({ tabId, text: '' }), browser.action.setTitle({ tabId, title: NAME })]).catch(() => undefined); // the tab may be gone
}
