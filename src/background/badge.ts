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
    const title = verdict.lastVisit ? message('badgeVisitedBefore', new Date(verdict.lastVisit).toLocaleDateString(locale(), { dateStyle: 'medium' })) : message('badgeVisitedBeforeUndated');
    return { text: '✓', color: '#6e6a7c', title };
  }
  return { text: '', color: '#6b4fbb', title: message('extName') };
}

/**
 * What this background last asked each tab's button to show: its text, `''` for nothing (and the
 * extension's name as the tooltip, the manifest's default). A tab not here is not known (a
 * background started anew, a tab not set yet), and its button is set. The browser itself only puts
 * a tab's button back to the default (Firefox at each new page, both when a tab closes), which is
 * nothing shown, so a tab known to show nothing that is to show nothing again needs no call: the
 * three calls cost the worker about 0.8 ms of CPU a page (bench:store --profile), for most pages a
 * reader opens, whose check finds nothing.
 */
const shown = new Map<number, string>();

/**
 * Sets the tab's button once the answer that brought the verdict is on its way (a task after it),
 * unless `current` then says the tab has moved on to another page.
 */
export function showVerdictOnTab(tabId: number, verdict: PageVerdict, current: () => boolean = () => true): Promise<void> {
  return new Promise<void>((resolve) => setTimeout(resolve, 0)).then(async () => {
    if (!current()) return;
    const badge = badgeFor(verdict);
    if (!badge.text && shown.get(tabId) === '') return;
    shown.set(tabId, badge.text);
    try {
      await Promise.all([
        browser.action.setBadgeText({ tabId, text: badge.text }),
        browser.action.setBadgeBackgroundColor({ tabId, color: badge.color }),
        browser.action.setTitle({ tabId, title: badge.title }),
      ]);
    } catch (e) {
      shown.delete(tabId); // not known what it shows now (the tab may be gone)
      throw e;
    }
  });
}

/** A tab that starts loading another page shows nothing until that page is checked. */
export async function clearTab(tabId: number): Promise<void> {
  if (shown.get(tabId) === '') return;
  shown.set(tabId, '');
  await Promise.all([browser.action.setBadgeText({ tabId, text: '' }), browser.action.setTitle({ tabId, title: message('extName') })]).catch(() => void shown.delete(tabId)); // the tab may be gone
}

/** A closed tab: its button state goes with it. */
export function forgetTab(tabId: number): void {
  shown.delete(tabId);
}
