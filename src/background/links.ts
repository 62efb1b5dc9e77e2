// Which links on a page lead to pages read: the answer to a content script's link keys, from the
// store's indexes. Checked like a page report: a top frame's content script, on the page the
// browser says it is on, where marks are allowed (settings, exclusions, pause, private windows).
import { bothSchemes, MAX_URL_LENGTH, pageIdentity } from '../core';
import { MAX_LINK_KEY_CHARS, MAX_LINK_KEYS, type LinkMark, type Protocol } from '../messaging/protocol';
import { linkMarksAllowed } from '../settings/settings';
import type { Runtime } from 'webextension-polyfill';
import { fromTopFrame } from '../messaging/router';
import { calendarDays } from '../ui/relative-time';
import { placeOf, siteName, siteOf } from '../ui/site';
import type { BackgroundDeps } from './handlers';

type LinksAnswer = Protocol['content:linksRead']['res'];

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** The keys of a request, checked: an array of at most MAX_LINK_KEYS addresses, of MAX_LINK_KEY_CHARS characters in all. */
function keysOf(req: unknown): string[] {
  const keys = (req as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length > MAX_LINK_KEYS) throw new TypeError(`keys must be an array of at most ${MAX_LINK_KEYS} addresses`);
  let chars = 0;
  for (const k of keys) {
    if (typeof k !== 'string' || k.length === 0 || k.length > MAX_URL_LENGTH) throw new TypeError('each key must be an address');
    chars += k.length;
  }
  // One key of any length is taken (a message always carries one), more only within the budget.
  if (keys.length > 1 && chars > MAX_LINK_KEY_CHARS) throw new TypeError(`keys must hold at most ${MAX_LINK_KEY_CHARS} characters in all`);
  return keys as string[];
}

export async function readLinksFor(req: unknown, sender: Runtime.MessageSender, deps: Pick<BackgroundDeps, 'repository' | 'settings' | 'locale' | 'now'>): Promise<LinksAnswer> {
  const keys = keysOf(req);
  fromTopFrame(sender, 'links asked');
  const page = sender.url;
  if (!page) throw new TypeError('message from no page');
  if (sender.tab?.url !== undefined && originOf(sender.tab.url) !== originOf(page)) throw new TypeError("links asked for another site than the tab's");
  const settings = await deps.settings();
  if (!linkMarksAllowed(page, settings, sender.tab?.incognito === true)) return { read: [], off: true };
  // The store is asked by identity whatever the content script sent; the answer names the keys it sent.
  // A link is asked about at its address and at the same address over the other scheme: an old
  // article links http:// to a page the reader read over https://, and the other way round.
  const byIdentity = new Map<string, string[]>();
  for (const key of new Set(keys)) {
    const id = pageIdentity(key);
    for (const asked of bothSchemes(id)) byIdentity.set(asked, [...(byIdentity.get(asked) ?? []), key]);
  }
  const found = await (await deps.repository()).readLinks([...byIdentity.keys()]);
  const day = new Intl.DateTimeFormat(deps.locale(), { dateStyle: 'medium' });
  const today = deps.now();
  // One mark a key: the page itself read (over either scheme) before a copy of it, then the visit read last.
  const latest = new Map<string, (typeof found)[number]>();
  const rank = (f: (typeof found)[number]) => (f.copyOf === undefined ? 1 : 0);
  for (const f of found) {
    for (const key of byIdentity.get(f.key) ?? []) {
      const other = latest.get(key);
      if (!other || rank(other) < rank(f) || (rank(other) === rank(f) && other.lastSeen < f.lastSeen)) latest.set(key, f);
    }
  }
  return {
    read: [...latest].map(([key, f]) => ({ key, date: day.format(f.lastSeen), ...readDay(f.lastSeen, today), ...(f.copyOf !== undefined ? { copyOf: f.copyOf } : {}), ...(f.firstReadUrl ? { firstReadAt: whereBeside(f.firstReadUrl, f.key) } : {}) })),
  };
}

/** A read today or yesterday, as the reader's calendar counts days: the tip says so rather than the date. */
function readDay(then: number, now: number): Pick<LinkMark, 'today' | 'yesterday'> {
  const days = calendarDays(then, now);
  return days === 0 ? { today: true } : days === -1 ? { yesterday: true } : {};
}

/** Where a page is, said beside another: its site, or its place (site and path) where the other is on the same site. */
function whereBeside(url: string, other: string): string {
  return siteOf(url) === siteOf(other) ? placeOf(url) : siteName(url);
}
