// The toolbar button of a tab: how many earlier pages match, and the closest one in the tooltip.
import browser from 'webextension-polyfill';
import type { PageVerdict } from '../messaging/protocol';

const NAME = 'Déjà Read';

export async function showVerdictOnTab(tabId: number, verdict: PageVerdict): Promise<void> {
  const n = verdict.matches.length;
  const closest = verdict.matches[0];
  const title = closest ? `${NAME}: you've read this before — ${closest.title || closest.url}` : NAME;
  await Promise.all([
    browser.action.setBadgeText({ tabId, text: n > 0 ? String(n) : '' }),
    browser.action.setBadgeBackgroundColor({ tabId, color: '#6b4fbb' }),
    browser.action.setTitle({ tabId, title }),
  ]);
}
