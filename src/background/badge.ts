// The toolbar button of a tab: how many earlier pages match, and the closest one in the tooltip.
import browser from '../ext';
import type { PageVerdict } from '../messaging/protocol';
import { isolate } from '../ui/bidi';
import { locale, message } from './messages';

/** What the toolbar button says about a page: read elsewhere (a count), visited before (✓), or nothing. */
export function badgeFor(verdict: PageVerdict): { text: string; color: string; title: string } {
  const n = verdict.matches.length;
  const closest = verdict.matches[0];
  if (closest) return { text: String(n), color: '#6b4fbb', title: message('badgeReadBefore', isolate(closest.title || closest.url)) };
  if (verdict.visitedBefore) {
    const title = verdict.lastVisit ? message('badgeVisitedBefore', new Date(verdict.lastVisit).toLocaleDateString(locale())) : message('badgeVisitedBeforeUndated');
    return { text: '✓', color: '#6e6a7c', title };
  }
  return { text: '', color: '#6b4fbb', title: message('extName') };
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
  await Promise.all([browser.action.setBadgeText({ tabId, text: '' }), browser.action.setTitle({ tabId, title: message('extName') })]).catch(() => undefined); // the tab may be gone
}
