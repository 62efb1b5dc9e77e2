// The in-page notice. It lives in a shadow root so the page's CSS cannot restyle it and its CSS
// cannot leak into the page; all page-derived text goes in through textContent.
import type { MatchSummary } from '../messaging/protocol';
import { relativeTime } from '../ui/relative-time';
import { isOpenableUrl, siteOf } from '../ui/site';
import { describeMatch } from '../ui/similarity';

const HOST_ID = 'deja-read-notice';

const STYLE = `
:host { all: initial; }
.box {
  position: fixed; right: 16px; bottom: 16px; z-index: 2147483647; box-sizing: border-box;
  max-width: min(380px, calc(100vw - 32px)); padding: 12px 14px; border-radius: 10px;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", sans-serif;
  color: #1d1b26; background: #fbfaff; border: 1px solid #d9d2f2; box-shadow: 0 6px 24px rgba(30, 20, 60, .18);
}
.head { margin: 0 0 4px; font-weight: 600; color: #4b3596; }
.what { margin: 0; overflow-wrap: anywhere; }
a { color: inherit; }
.meta { color: #5d5870; }
button {
  margin-top: 8px; font: inherit; padding: 3px 10px; border-radius: 6px; cursor: pointer;
  border: 1px solid #c9c1e6; background: #fff; color: inherit;
}
button:focus-visible, a:focus-visible { outline: 2px solid #6b4fbb; outline-offset: 2px; }
@media (prefers-color-scheme: dark) {
  .box { color: #ece9f6; background: #25212f; border-color: #4a4063; }
  .head { color: #c4b5fd; }
  .meta { color: #b3adc4; }
  button { background: #332d40; border-color: #5b5075; }
}
`;

export function removeNotice(doc: Document = document): void {
  doc.getElementById(HOST_ID)?.remove();
}

export function showNotice(match: MatchSummary, total: number, now: number, doc: Document = document): void {
  removeNotice(doc);
  const host = doc.createElement('div');
  host.id = HOST_ID;
  const root = host.attachShadow({ mode: 'open' });

  const style = doc.createElement('style');
  style.textContent = STYLE;
  const box = doc.createElement('aside');
  box.className = 'box';
  box.setAttribute('role', 'status');
  box.setAttribute('aria-live', 'polite');

  const head = doc.createElement('p');
  head.className = 'head';
  head.textContent = "You've read this before";

  const what = doc.createElement('p');
  what.className = 'what';
  const title = match.title || match.url;
  if (isOpenableUrl(match.url)) {
    const link = doc.createElement('a');
    link.href = match.url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = title;
    what.append(link);
  } else {
    what.append(title);
  }
  const meta = doc.createElement('span');
  meta.className = 'meta';
  const more = total > 1 ? ` · ${total - 1} more` : '';
  meta.textContent = ` — ${siteOf(match.url)}, ${relativeTime(match.lastSeen, now)} · ${describeMatch(match)}${more}`;
  what.append(meta);

  const dismiss = doc.createElement('button');
  dismiss.type = 'button';
  dismiss.textContent = 'Dismiss';
  dismiss.addEventListener('click', () => host.remove());
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') host.remove();
  });

  box.append(head, what, dismiss);
  root.append(style, box);
  doc.documentElement.append(host);
}
