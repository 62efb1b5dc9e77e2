// The notice as the reader sees it, drawn in its own frame (src/messaging/notice-frame.ts says why):
// the earlier page, what is new, and its buttons. It shrinks to a small tab after a while so it never
// covers the page for long, is reachable by keyboard and announced to screen readers. What it does
// to the page ("Show what's new" marks the new parts and scrolls to them, closing it) it asks of the
// content script, which owns the page.
import type { FrameHandshake, FromFrame, NoticeData, ToFrame } from '../messaging/notice-frame';
import { drawLabel, drawText } from '../content/drawn-text';
import { isolate } from '../ui/bidi';
import { t } from '../ui/i18n';
import { describeFresh, describeMatch } from '../ui/similarity';
import { isOpenableUrl, placeOf, siteName } from '../ui/site';

const COLLAPSE_AFTER_MS = 15_000;
/** Below this width of the page's window, the buttons take two rows. */
const NARROW = 460;

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = doc.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) drawText(e, text);
  return e;
}

/**
 * Draws the notice into `doc`'s body; `send` tells the content script what the reader asked for.
 * Returns what takes the content script's answers.
 */
export function renderNotice(doc: Document, data: NoticeData, send: (message: FromFrame) => void): (message: ToFrame) => void {
  const { match, more } = data;
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
    // whatever it names.
    link.tabIndex = 0;
    link.setAttribute('role', 'link');
    link.setAttribute('aria-disabled', 'true');
  }
  what.append(link);
  // Its site, or where the page shown is on that site too, its path as well: the site alone would not say which page it was.
  const place = data.sameSite ? placeOf(match.url) : siteName(match.url);
  what.append(el(doc, 'span', 'meta', ` — ${t('noticeWhere', isolate(place), match.when)} · ${describeMatch(match)}`));

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
  // This very page, as read on an earlier visit: it is the same page, whatever its text now.
  const ownPage = match.kind === 'earlier-visit';
  notSame.hidden = ownPage;
  const show = button(t('freshShow'), 'primary');
  show.title = t('freshKeysHint');
  show.hidden = !(match.fresh && match.fresh.parts.length > 0 && data.canShowNew);
  // While the new parts are marked: previous, next, clear (the same row, the same size).
  const previous = button(t('freshPrevious'));
  const next = button(t('freshNext'));
  const clear = button(t('freshClear'));
  previous.title = next.title = clear.title = t('freshKeysHint');
  const stepping = [previous, next, clear];
  for (const b of stepping) b.hidden = true;
  // The buttons are one stop of the Tab order, a toolbar whose arrow keys move between them: the
  // same number of stops whatever the notice says ("Show what's new" is there only when something is new).
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
  /** Whether the new parts are marked on the page now. */
  let marked = false;
  // While stepping, "Not the same" makes room for the three (Clear or Esc brings it back).
  const showStepping = (on: boolean) => {
    marked = on;
    for (const b of stepping) b.hidden = !on;
    notSame.hidden = on || ownPage;
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

  const hadFocus = () => doc.hasFocus() && doc.activeElement !== null && doc.activeElement !== doc.body;
  dismiss.addEventListener('click', () => send({ type: 'close', hadFocus: hadFocus() }));
  notSame.addEventListener('click', () => send({ type: 'notSame', hadFocus: hadFocus() }));
  // Where more earlier pages match than the one named, the heading's line offers the list of them all
  // (the popup's). It fits in that line, so the notice keeps its size (what the page can see of it).
  if (more > 0) {
    // As many as the list holds: every page elsewhere that matches, the one named among them (this
    // page's earlier version, when it is the one named, is not in that list).
    const seeAll = button(t('noticeSeeAll', match.kind === 'earlier-visit' ? more : more + 1), 'see-all');
    seeAll.title = t('noticeSeeAllHint');
    seeAll.addEventListener('click', () => send({ type: 'showMatches' }));
    head.append(seeAll);
  }

  /** Shows `text` on the line of what is new, and announces it. */
  const say = (text: string) => {
    drawText(fresh, text);
    drawText(status, text);
  };
  const step = (by: number) => {
    if (marked) send({ type: 'step', by });
  };
  show.addEventListener('click', () => {
    if (show.disabled) return;
    show.disabled = true;
    send({ type: 'showNew' });
  });
  previous.addEventListener('click', () => step(-1));
  next.addEventListener('click', () => step(1));
  clear.addEventListener('click', () => send({ type: 'clear' }));
  // Esc closes the notice once the key is up: closed on its way down, the frame would be gone before
  // the key came up, and the page, where the focus goes back, would get a key up of the reader's.
  let closing = false;
  box.addEventListener('keyup', (e) => {
    if (e.key === 'Escape' && closing) send({ type: 'close', hadFocus: hadFocus() });
    closing = false;
  });
  box.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      if (marked) send({ type: 'clear' });
      else closing = true;
    } else if (marked && (e.key === 'n' || e.key === 'j' || e.key === 'ArrowDown')) {
      e.preventDefault();
      step(1);
    } else if (marked && (e.key === 'p' || e.key === 'k' || e.key === 'ArrowUp')) {
      e.preventDefault();
      step(-1);
    }
  });

  // Shrink to a small tab after a while, unless the reader is using the notice.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const collapseLater = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (marked || box.matches(':hover') || box.contains(doc.activeElement)) return collapseLater();
      box.hidden = true;
      pill.hidden = false;
      tellSize();
    }, COLLAPSE_AFTER_MS);
  };
  const open = () => {
    pill.hidden = true;
    box.hidden = false;
    tellSize();
    collapseLater();
  };
  pill.addEventListener('click', () => {
    open();
    dismiss.focus();
  });

  const frame = el(doc, 'div', 'frame');
  frame.append(box, pill);
  /** Lays the notice out for a page window `room` pixels wide. */
  const fit = (room: number) => {
    doc.documentElement.style.setProperty('--room', `${room}px`);
    doc.documentElement.classList.toggle('narrow', room <= NARROW);
  };
  /** Tells the content script the size the frame needs now (the notice's, or its small tab's). */
  const tellSize = () => {
    const size = frame.getBoundingClientRect();
    send({ type: 'size', width: Math.ceil(size.width), height: Math.ceil(size.height) });
  };
  fit(data.room);
  doc.body.append(frame);
  tellSize();
  collapseLater();

  return (message) => {
    switch (message.type) {
      case 'room':
        fit(message.room);
        tellSize();
        break;
      case 'found':
        show.disabled = false;
        if (!message.count) {
          say(t('freshNotFound'));
          break;
        }
        showStepping(true);
        drawText(status, `${message.count === 1 ? t('freshFoundOne') : t('freshFound', message.count)} ${t('freshKeysHint')}`);
        next.focus();
        break;
      case 'at':
        say(t('freshPosition', message.at + 1, message.count));
        break;
      case 'cleared': {
        const focusedHere = doc.hasFocus() && box.contains(doc.activeElement);
        drawText(fresh, freshText);
        drawText(status, t('freshCleared'));
        showStepping(false);
        // Back to where it was, only where the focus was in the notice already (an Esc on the page
        // clears the marks and leaves the focus where the reader has it).
        if (focusedHere) show.focus();
        break;
      }
      case 'focus':
        if (box.hidden) open();
        (what.querySelector('a') ?? dismiss).focus();
        break;
      case 'show':
        break;
    }
  };
}

/**
 * Hands `take` the first channel's end that comes to `win` with the frame's one-time `name` (the
 * content script's, in src/content/notice.ts); anything else posted to the frame is ignored.
 */
export function awaitChannel(win: Window, name: string, take: (port: MessagePort) => void): void {
  const first = (event: MessageEvent) => {
    const hello = event.data as Partial<FrameHandshake> | null;
    if (!name || typeof hello !== 'object' || hello === null || hello.notice !== name || event.ports.length !== 1) return;
    win.removeEventListener('message', first);
    take(event.ports[0]);
  };
  win.addEventListener('message', first);
}
