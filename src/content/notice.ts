// The in-page notice. It lives in a closed shadow root: the page's CSS cannot restyle it, and the
// page's scripts cannot read which other pages the reader has read. Its text is drawn as generated
// content (drawn-text.ts), so the page cannot search it either; untrusted text goes in isolated.
// It shows at a corner, shrinks to a small tab after a while so it never
// covers the page for long, is reachable by keyboard and announced to screen readers. Where the
// earlier page has a read set, it says what is new, and "Show what's new" marks the new parts
// (whats-new.ts) in a layer inside this same shadow root and steps through them.
import type { NoticeMatch } from '../messaging/protocol';
import type { NewParts, Rect } from './whats-new';
import { isolate } from '../ui/bidi';
import { t } from '../ui/i18n';
import { describeFresh, describeMatch } from '../ui/similarity';
import { isOpenableUrl, siteOf } from '../ui/site';
import { DRAWN_TEXT_CSS, drawLabel, drawText } from './drawn-text';

/**
 * The host: a built-in element (a custom element's name lets a page that defines it first run its
 * constructor on the host and read the closed root through attachInternals()), its style inline and
 * `!important`, so the page's rules cannot move it or pass anything down to it.
 */
const HOST_STYLE = ['all: initial', 'display: block', 'position: fixed', 'right: 16px', 'bottom: 16px', 'z-index: 2147483647'].map((d) => `${d} !important`).join('; ');
const COLLAPSE_AFTER_MS = 15_000;

/**
 * The notice drawn at the top right of the window, while the part it steps to is under its place
 * at the bottom: moved, not laid out again (the host keeps its place and size).
 */
const AT_TOP = `.box { transform: translateY(calc(32px + 100% - 100vh)); }`;

const STYLE = `
/* The frame around everything takes nothing from the host, whatever a page might set there (a text
   shadow drawn far out from each letter, seen by IntersectionObserver v2, would trace the title).
   No custom property and no font by name either (overlay.ts says why). Nothing in it can be
   selected or dragged: a select-all and copy, or a drag of the title's link, would hand the page
   the notice's markup or the earlier address (seen in Chromium and Firefox). */
.frame { all: initial; display: contents; direction: ltr; unicode-bidi: isolate; font-family: system-ui, sans-serif; user-select: none; -webkit-user-select: none; }
/* A fixed size whatever it says: the page can measure the host and hit-test the box, and must not
   learn the length of the title read before (design.md, "What a page may learn"). */
.box {
  box-sizing: border-box; width: min(380px, calc(100vw - 32px)); padding: 12px 14px; border-radius: 10px;
  font: 14px/1.45 system-ui, sans-serif;
  color: #1d1b26; background: #fbfaff; border: 1px solid #d9d2f2; box-shadow: 0 6px 24px rgba(30, 20, 60, .18);
}
@media (prefers-reduced-motion: no-preference) {
  .box { animation: enter .25s ease-out; }
  @keyframes enter { from { opacity: 0; transform: translateY(8px); } }
}
.head { margin: 0 0 4px; font-weight: 600; color: #4b3596; }
.what { margin: -2px -3px 0; padding: 2px 3px; overflow-wrap: anywhere; height: 4.35em; overflow: hidden; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; }
/* Two lines, always there (empty when nothing is known of what is new), so the size says nothing. */
.fresh { margin: 4px 0 0; height: 2.9em; overflow: hidden; overflow-wrap: anywhere; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; font-weight: 600; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
a { color: inherit; }
.meta { color: #5d5870; }
/* Room around the buttons for their focus rings (clipped before); two rows where one does not hold
   them all (a narrow window), the same height whichever buttons show. */
.actions { display: flex; gap: 8px; margin: 4px -4px 0; padding: 4px; height: 28px; overflow: hidden; flex-wrap: nowrap; }
@media (max-width: 460px) { .actions { flex-wrap: wrap; align-content: flex-start; align-items: flex-start; height: 64px; } }
.actions button { flex: none; }
.primary { background: #6b4fbb; border-color: #6b4fbb; color: #fff; }
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
  .primary { background: #c4b5fd; border-color: #c4b5fd; color: #1d1b26; }
}
${DRAWN_TEXT_CSS}
/* The pill's ring inside it, on its own background: outside, it would be on the page's, which may be any colour. */
.pill:focus-visible { outline-offset: -5px; }
/* The link's ring within the room its lines leave it (the text is clipped to three lines). */
.what a:focus-visible { outline-offset: 0; }
`;

export interface NoticeActions {
  /** The reader says the two pages are not the same article. */
  notSame(match: NoticeMatch): void;
  /** Finds and marks the new parts, drawing inside `within` (the notice's shadow root); absent when the page cannot. */
  showWhatsNew?(within: ParentNode): Promise<NewParts>;
}

/** The notice's host while one is shown (kept, not searched for: a search goes through the whole page). */
let shown: HTMLElement | undefined;

/** Moves focus into the notice shown, opened again if it has shrunk to its tab. */
let focusShown: (() => void) | undefined;
/** The marks of "Show what's new" while shown. */
let marks: NewParts | undefined;

export function removeNotice(): void {
  marks?.clear();
  marks = undefined;
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
  if (text !== undefined) drawText(e, text);
  return e;
}

/** Shows the closest earlier page, and how many `more` match too. */
export function showNotice(match: NoticeMatch, more: number, actions: NoticeActions, doc: Document = document): void {
  removeNotice();
  const host = doc.createElement('div');
  host.setAttribute('data-deja-read', 'notice');
  host.setAttribute('style', HOST_STYLE);
  shown = host;
  const root = host.attachShadow({ mode: 'closed' });
  const style = doc.createElement('style');
  style.textContent = STYLE;
  // Where the notice stands: bottom right, or top right while the part of the page it steps to
  // would be under it (a new part at the very end of a page that scrolls no further).
  const place = doc.createElement('style');

  const box = el(doc, 'section', 'box');
  box.setAttribute('role', 'status');
  box.setAttribute('aria-live', 'polite');
  box.setAttribute('aria-label', t('noticeHeading'));
  const head = el(doc, 'p', 'head', t('noticeHeading'));
  const what = el(doc, 'p', 'what');
  const title = isolate(match.title || match.url);
  const link = drawLabel(el(doc, 'a'), title);
  link.draggable = false;
  if (isOpenableUrl(match.url)) {
    link.href = match.url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  } else {
    // An address that cannot be opened (longer than a browser takes, kept from an import): a link
    // that says it is unavailable, still one Tab stop, so the notice's Tab order is the same
    // whatever it names (docs/privacy.md).
    link.tabIndex = 0;
    link.setAttribute('role', 'link');
    link.setAttribute('aria-disabled', 'true');
  }
  what.append(link);
  const others = more > 0 ? ` · ${t('noticeMore', more)}` : '';
  what.append(el(doc, 'span', 'meta', ` — ${t('noticeWhere', isolate(siteOf(match.url)), match.when)} · ${describeMatch(match)}${others}`));

  const freshText = match.fresh ? describeFresh(match.fresh) : '';
  const fresh = el(doc, 'p', 'fresh', freshText);
  fresh.title = freshText;
  // Its changes while stepping are announced once, by the status line below, not again by the box.
  fresh.setAttribute('aria-live', 'off');
  // Announces what "Show what's new" found, and where the reader is among the new parts.
  const status = el(doc, 'p', 'sr');
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');

  const button = (text: string, className?: string) => {
    const b = drawLabel(el(doc, 'button', className), text);
    b.type = 'button';
    return b;
  };
  const actionsRow = el(doc, 'div', 'actions');
  const dismiss = button(t('noticeDismiss'));
  const notSame = button(t('noticeNotSame'));
  notSame.title = t('noticeNotSameHint');
  const show = button(t('freshShow'), 'primary');
  show.title = t('freshKeysHint');
  show.hidden = !(match.fresh && match.fresh.parts.length > 0 && actions.showWhatsNew);
  // While the new parts are marked: previous, next, clear (the same row, the same size).
  const previous = button(t('freshPrevious'));
  const next = button(t('freshNext'));
  const clear = button(t('freshClear'));
  previous.title = next.title = clear.title = t('freshKeysHint');
  const stepping = [previous, next, clear];
  for (const b of stepping) b.hidden = true;
  // The buttons are one stop of the Tab order, a toolbar whose arrow keys move between them. A page
  // can count the reader's Tab presses while the focus is in the notice (it sees them, aimed at the
  // host) and so would count the buttons, and "Show what's new" is there only when something is new.
  // Arrow keys always wrap and are always taken, so they tell it nothing either.
  actionsRow.setAttribute('role', 'toolbar');
  actionsRow.setAttribute('aria-label', t('noticeHeading'));
  const rowButtons = [show, previous, next, clear, dismiss, notSame];
  let current: HTMLButtonElement | undefined;
  /** Makes `to` (or the current button, if still shown, or else the first shown) the toolbar's one Tab stop. */
  const rove = (to?: HTMLButtonElement) => {
    const visible = rowButtons.filter((b) => !b.hidden);
    current = to && visible.includes(to) ? to : current && visible.includes(current) ? current : visible[0];
    for (const b of rowButtons) b.tabIndex = b === current ? 0 : -1;
  };
  actionsRow.addEventListener('focusin', (e) => rove(e.target as HTMLButtonElement));
  actionsRow.addEventListener('keydown', (e) => {
    const visible = rowButtons.filter((b) => !b.hidden);
    const at = visible.indexOf(e.target as HTMLButtonElement);
    const to = e.key === 'ArrowRight' ? at + 1 : e.key === 'ArrowLeft' ? at - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? visible.length - 1 : undefined;
    if (to === undefined || at < 0) return;
    e.preventDefault();
    visible[(to + visible.length) % visible.length].focus();
  });
  // While stepping, "Not the same" makes room for the three (Clear or Esc brings it back).
  const showStepping = (on: boolean) => {
    for (const b of stepping) b.hidden = !on;
    notSame.hidden = on;
    show.hidden = on;
    rove();
  };
  actionsRow.append(show, previous, next, clear, dismiss, notSame);
  rove();
  box.append(head, what, fresh, actionsRow, status);

  const pill = el(doc, 'button', 'box pill', t('noticePill'));
  pill.type = 'button';
  pill.hidden = true;
  // On any site, "Read before" alone does not say whose button it is.
  pill.setAttribute('aria-label', t('noticePillLabel'));

  // Where the focus came into the notice from, so that closing it from the keyboard puts it back
  // there, not at the top of the page (the page sees the focus return only on the reader's action).
  let cameFrom: HTMLElement | undefined;
  root.addEventListener('focusin', (e) => {
    const from = (e as FocusEvent).relatedTarget;
    if (from instanceof HTMLElement && !root.contains(from) && from !== host) cameFrom = from;
  });
  const close = () => {
    const hadFocus = root.activeElement !== null;
    marks?.clear();
    marks = undefined;
    host.remove();
    if (hadFocus && cameFrom?.isConnected) cameFrom.focus({ preventScroll: true });
  };
  dismiss.addEventListener('click', close);
  notSame.addEventListener('click', () => {
    actions.notSame(match);
    close();
  });

  /** Shows `text` on the line of what is new, and announces it. */
  const say = (text: string) => {
    drawText(fresh, text);
    drawText(status, text);
  };
  const step = (by: number) => {
    if (!marks?.count) return;
    moveAside(marks.go(marks.current + by));
    say(t('freshPosition', marks.current + 1, marks.count));
  };
  /** Puts the notice at the top while the part `at` would be under it at the bottom (and not under it at the top). */
  const moveAside = (at: Rect | null) => {
    const win = doc.defaultView;
    const shown = box.hidden ? pill : box;
    const size = shown.getBoundingClientRect();
    if (!win || !at || size.height === 0) return;
    const margin = 16;
    const across = at.right > win.innerWidth - margin - size.width && at.left < win.innerWidth - margin;
    const under = (top: number) => across && at.bottom > top && at.top < top + size.height;
    const top = under(win.innerHeight - margin - size.height) && !under(margin);
    place.textContent = top ? AT_TOP : '';
  };
  const clearMarks = () => {
    if (!marks) return;
    marks.clear();
    marks = undefined;
    place.textContent = '';
    drawText(fresh, freshText);
    drawText(status, t('freshCleared'));
    showStepping(false);
    show.focus();
  };
  show.addEventListener('click', () => {
    if (!actions.showWhatsNew || show.disabled) return;
    show.disabled = true;
    actions.showWhatsNew(root).then(
      (found) => {
        show.disabled = false;
        // Closed (or replaced) while the page was searched: nothing is marked, and the page is not scrolled.
        if (!host.isConnected) return found.clear();
        marks?.clear();
        marks = found;
        if (!found.count) {
          found.clear();
          marks = undefined;
          say(t('freshNotFound'));
          return;
        }
        showStepping(true);
        step(1);
        drawText(status, `${found.count === 1 ? t('freshFoundOne') : t('freshFound', found.count)} ${t('freshKeysHint')}`);
        next.focus();
      },
      () => {
        show.disabled = false;
        say(t('freshNotFound'));
      },
    );
  });
  previous.addEventListener('click', () => step(-1));
  next.addEventListener('click', () => step(1));
  clear.addEventListener('click', clearMarks);
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      if (marks) clearMarks();
      else close();
    } else if (marks && (e.key === 'n' || e.key === 'j' || e.key === 'ArrowDown')) {
      e.preventDefault();
      step(1);
    } else if (marks && (e.key === 'p' || e.key === 'k' || e.key === 'ArrowUp')) {
      e.preventDefault();
      step(-1);
    }
  });
  // Esc clears the marks wherever the focus is (the listener is the extension's: the page sees
  // neither it nor any change to the event). Only the reader's own key: clearing moves the focus
  // into the notice, which a key event the page made up would let it see.
  doc.addEventListener('keydown', (e) => {
    if (e.isTrusted && e.key === 'Escape' && marks && !box.contains(root.activeElement)) clearMarks();
  });

  // Shrink to a small tab after a while, unless the reader is using the notice.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const collapseLater = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (marks || box.matches(':hover') || box.contains(root.activeElement)) return collapseLater();
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

  const frame = el(doc, 'div', 'frame');
  frame.append(box, pill);
  root.append(style, place, frame);
  doc.documentElement.append(host);
}
