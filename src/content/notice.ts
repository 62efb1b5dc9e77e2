// The in-page notice. It lives in a closed shadow root: the page's CSS cannot restyle it, and the
// page's scripts cannot read which other pages the reader has read. All page-derived text goes in
// through textContent. It shows at a corner, shrinks to a small tab after a while so it never
// covers the page for long, is reachable by keyboard and announced to screen readers.
import type { NoticeMatch } from '../messaging/protocol';
import { isolated, localizedNodes } from '../ui/bidi';
import { t } from '../ui/i18n';
import { describeMatch } from '../ui/similarity';
import { isOpenableUrl, siteOf } from '../ui/site';

const HOST_TAG = 'deja-read-notice';
const COLLAPSE_AFTER_MS = 15_000;

const STYLE = `
:host { all: initial; position: fixed; right: 16px; bottom: 16px; z-index: 2147483647; }
/* A fixed size whatever it says: the page can measure the host and hit-test the box, and must not
   learn the length of the title read before (design.md, "What a page may learn"). */
.box {
  box-sizing: border-box; width: min(380px, calc(100vw - 32px)); padding: 12px 14px; border-radius: 10px;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif;
  color: #1d1b26; background: #fbfaff; border: 1px solid #d9d2f2; box-shadow: 0 6px 24px rgba(30, 20, 60, .18);
}
@media (prefers-reduced-motion: no-preference) {
  .box { animation: enter .25s ease-out; }
  @keyframes enter { from { opacity: 0; transform: translateY(8px); } }
}
.head { margin: 0 0 4px; font-weight: 600; color: #4b3596; }
.what { margin: 0; overflow-wrap: anywhere; height: 4.35em; overflow: hidden; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; }
a { color: inherit; }
.meta { color: #5d5870; }
.actions { display: flex; gap: 8px; margin-top: 8px; }
button {
  font: inherit; font-size: 13px; padding: 3px 10px; border-radius: 6px; cursor: pointer;
  border: 1px solid #c9c1e6; background: #fff; color: inherit;
}
button:focus-visible, a:focus-visible { outline: 2px solid #6b4fbb; outline-offset: 2px; }
.pill { width: auto; padding: 6px 12px; border-radius: 999px; font-weight: 600; color: #4b3596; }
[hidden] { display: none !important; }
@media (prefers-color-scheme: dark) {
  .box { color: #ece9f6; background: #25212f; border-color: #4a4063; }
  .head, .pill { color: #c4b5fd; }
  .meta { color: #b3adc4; }
  button { background: #332d40; border-color: #5b5075; }
  button:focus-visible, a:focus-visible { outline-color: #c4b5fd; }
}
/* The pill's ring inside it, on its own background: outside, it would be on the page's, which may be any colour. */
.pill:focus-visible { outline-offset: -5px; }
`;

export interface NoticeActions {
  /** The reader says the two pages are not the same article. */
  notSame(match: NoticeMatch): void;
}

/** The notice's host while one is shown (kept, not searched for: a search goes through the whole page). */
let shown: HTMLElement | undefined;

/** Moves focus into the notice shown, opened again if it has shrunk to its tab. */
let focusShown: (() => void) | undefined;

export function removeNotice(): void {
  shown?.remove();
  shown = undefined;
  focusShown = undefined;
}

/**
 * The reader's shortcut (background/shortcut.ts): focus goes to the notice's first control. Without
 * a notice on screen nothing at all happens, so the page cannot tell that the keys were pressed.
 */
export function focusNotice(): void {
  if (shown?.isConnected) focusShown?.();
}

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Shows the closest earlier page, and how many `more` match too. */
export function showNotice(match: NoticeMatch, more: number, actions: NoticeActions, doc: Document = document): void {
  removeNotice();
  const host = doc.createElement(HOST_TAG);
  shown = host;
  const root = host.attachShadow({ mode: 'closed' });
  const style = el(doc, 'style');
  style.textContent = STYLE;

  const box = el(doc, 'section', 'box');
  box.setAttribute('role', 'status');
  box.setAttribute('aria-live', 'polite');
  box.setAttribute('aria-label', t('noticeHeading'));
  const head = el(doc, 'p', 'head', t('noticeHeading'));
  const what = el(doc, 'p', 'what');
  const title = match.title || match.url;
  if (isOpenableUrl(match.url)) {
    const link = el(doc, 'a');
    link.append(isolated(title, doc));
    link.href = match.url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    what.append(link);
  } else {
    what.append(isolated(title, doc));
  }
  const others = more > 0 ? ` · ${t('noticeMore', more)}` : '';
  const meta = el(doc, 'span', 'meta');
  meta.append(' — ', ...localizedNodes('noticeWhere', [isolated(siteOf(match.url), doc), match.when], doc), ` · ${describeMatch(match)}${others}`);
  what.append(meta);

  const actionsRow = el(doc, 'div', 'actions');
  const dismiss = el(doc, 'button', undefined, t('noticeDismiss'));
  const notSame = el(doc, 'button', undefined, t('noticeNotSame'));
  dismiss.type = notSame.type = 'button';
  notSame.title = t('noticeNotSameHint');
  actionsRow.append(dismiss, notSame);
  box.append(head, what, actionsRow);

  const pill = el(doc, 'button', 'box pill', t('noticePill'));
  pill.type = 'button';
  pill.hidden = true;
  pill.setAttribute('aria-expanded', 'false');

  const close = () => host.remove();
  dismiss.addEventListener('click', close);
  notSame.addEventListener('click', () => {
    actions.notSame(match);
    close();
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') close();
  });

  // Shrink to a small tab after a while, unless the reader is using the notice.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const collapseLater = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (box.matches(':hover') || box.contains(root.activeElement)) return collapseLater();
      box.hidden = true;
      pill.hidden = false;
    }, COLLAPSE_AFTER_MS);
  };
  const open = () => {
    pill.hidden = true;
    box.hidden = false;
    collapseLater();
  };
  pill.addEventListener('click', () => {
    open();
    dismiss.focus();
  });
  focusShown = () => {
    if (box.hidden) open();
    (what.querySelector('a') ?? dismiss).focus();
  };
  collapseLater();

  root.append(style, box, pill);
  doc.documentElement.append(host);
}
