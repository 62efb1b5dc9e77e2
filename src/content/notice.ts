// The in-page notice, as the page holds it: a host element with a closed shadow root, and in it an
// <iframe> of the extension's own page (src/notice), which draws everything the notice says. The
// page cannot read into a frame of another origin, nor see its events, its focus or its selection;
// a closed shadow root in the page's own document hid its nodes from the page's scripts, but not
// from Firefox's `explicitOriginalTarget`, `rangeParent` and `getSelection()` after the reader's
// mouse or Tab went there (docs/privacy.md). What the notice does to the page ("Show what's new"
// marks the new parts, in a layer inside this same shadow root, and steps through them) is done
// here, on the frame's word over a port (src/messaging/notice-frame.ts).
import browser from '../ext';
import type { NoticeMatch } from '../messaging/protocol';
import { FRAME_MARGIN, NOTICE_PAGE, type FrameHandshake, type FromFrame, type NoticeData, type ToFrame } from '../messaging/notice-frame';
import { randomId } from './random-id';
import { siteOf } from '../core/url';
import type { NewParts, Rect } from './whats-new';

/**
 * The host: a built-in element (a custom element's name lets a page that defines it first run its
 * constructor on the host and read the closed root through attachInternals()), its style inline and
 * `!important`, so the page's rules cannot move it or pass anything down to it. The frame's margin
 * (room for the notice's shadow) is taken off its place, so the notice stands 16 px from the corner.
 */
const HOST_STYLE = ['all: initial', 'display: block', 'position: fixed', `right: ${16 - FRAME_MARGIN}px`, `bottom: ${16 - FRAME_MARGIN}px`, 'z-index: 2147483647'].map((d) => `${d} !important`).join('; ');

/** How long the notice waits at most for its page to finish loading. */
const LOAD_WAIT_MS = 10_000;

/**
 * The frame: no border, transparent, and no size until the notice in it says its own; above the
 * marks of what is new, which are drawn in the same shadow root (at the overlay's z-index, one
 * less), so that no mark crosses the notice's text.
 */
const STYLE = `iframe { all: initial; display: block; position: relative; z-index: 2147483647; border: 0; width: 0; height: 0; color-scheme: normal; background: transparent; }`;

/**
 * The notice drawn at the top right of the window, while the part it steps to is under its place
 * at the bottom: moved, not laid out again (the host keeps its place and size).
 */
const AT_TOP = `iframe { transform: translateY(calc(${2 * (16 - FRAME_MARGIN)}px + 100% - 100vh)); }`;

export interface NoticeActions {
  /** The reader says the two pages are not the same article. */
  notSame(match: NoticeMatch): void;
  /** The reader asks to see every earlier page that matches (the popup's list). */
  showMatches?(): void;
  /** Finds and marks the new parts, drawing inside `within` (the notice's shadow root); absent when the page cannot. */
  showWhatsNew?(within: ParentNode): Promise<NewParts>;
}

interface Shown {
  host: HTMLElement;
  frame: HTMLIFrameElement;
  /** The channel to the frame, once it has loaded. */
  port?: MessagePort;
  /** Ends what was set up for this notice (listeners on the page's window and document). */
  stop: AbortController;
  /** The marks of "Show what's new" while shown. */
  marks?: NewParts;
  take(message: FromFrame): void;
}

let shown: Shown | undefined;

/**
 * A notice taken off the page as the reader leaves it, to be put back if they come back to it.
 * Chrome keeps no page holding an extension's frame in its back-forward cache ("EmbedderExtensionFrame"),
 * so Back to a page showing the notice loaded it again, its scroll and state lost; its `pagehide`
 * comes too late to change that, and `beforeunload` does not. The notice is shown again when the
 * page comes back from the cache, or when the reader acts on the page again because it was not left
 * after all (a download, a leave the page's own prompt turned back): a key, a click, a scroll.
 */
let away: AbortController | undefined;
const COME_BACK = ['pageshow', 'pointerdown', 'keydown', 'wheel', 'scroll'] as const;

function stepAway(win: Window, again: () => void): void {
  removeNotice();
  const back = new AbortController();
  away = back;
  const comeBack = (e: Event) => {
    if (!e.isTrusted) return;
    removeNotice();
    again();
  };
  for (const type of COME_BACK) win.addEventListener(type, comeBack, { capture: true, passive: true, signal: back.signal });
}

export function removeNotice(): void {
  away?.abort();
  away = undefined;
  if (!shown) return;
  const { host, marks, port, stop } = shown;
  shown = undefined;
  marks?.clear();
  stop.abort();
  port?.close();
  host.remove();
}

/**
 * The reader's shortcut (background/shortcut.ts): focus goes to the notice's title (the link to the
 * page read before). Without a notice on screen nothing at all happens, so the page cannot tell that
 * the keys were pressed.
 */
export function focusNotice(): void {
  if (!shown?.host.isConnected || !shown.port) return;
  shown.frame.focus();
  post({ type: 'focus' });
}

function post(message: ToFrame): void {
  shown?.port?.postMessage(message);
}

/** Whether two addresses are of one site (an address that does not parse is of none). */
const sameSite = (a: string, b: string) => siteOf(a) !== '' && siteOf(a) === siteOf(b);

/** Shows the closest earlier page, and how many `more` match too. */
export function showNotice(match: NoticeMatch, more: number, actions: NoticeActions, doc: Document = document): void {
  removeNotice();
  const win = doc.defaultView ?? window;
  // A sandboxed page (its origin opaque) sandboxes the frames in it too: the notice's page would get
  // no script and no extension API there. The badge tells the reader instead.
  if (win.origin === 'null') return;
  const host = doc.createElement('div');
  host.setAttribute('data-deja-read', 'notice');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'closed' });
  const style = doc.createElement('style');
  style.textContent = STYLE;
  // Where the notice stands: bottom right, or top right while the part of the page it steps to
  // would be under it (a new part at the very end of a page that scrolls no further).
  const place = doc.createElement('style');
  const frame = doc.createElement('iframe');
  const nonce = randomId();
  frame.title = browser.i18n.getMessage('noticeHeading');
  const stop = new AbortController();

  // Where the focus was before it went into the notice (the page's element it last left), so that
  // closing it from the keyboard puts it back there, not at the top of the page (the page sees the
  // focus return only on the reader's action).
  let cameFrom: HTMLElement | undefined;
  doc.addEventListener(
    'focusout',
    (e) => {
      if (e.isTrusted && e.target instanceof HTMLElement && e.target !== host) cameFrom = e.target;
    },
    { capture: true, passive: true, signal: stop.signal },
  );
  win.addEventListener('resize', () => post({ type: 'room', room: win.innerWidth }), { passive: true, signal: stop.signal });

  /** Puts the notice at the top while the part `at` would be under it at the bottom (and not under it at the top). */
  const moveAside = (at: Rect | null) => {
    const box = frame.getBoundingClientRect();
    const width = box.width - 2 * FRAME_MARGIN;
    const height = box.height - 2 * FRAME_MARGIN;
    if (!at || height <= 0) return;
    const margin = 16;
    const across = at.right > win.innerWidth - margin - width && at.left < win.innerWidth - margin;
    const under = (top: number) => across && at.bottom > top && at.top < top + height;
    const top = under(win.innerHeight - margin - height) && !under(margin);
    place.textContent = top ? AT_TOP : '';
  };
  const close = (hadFocus: boolean) => {
    const back = cameFrom;
    removeNotice();
    if (hadFocus && back?.isConnected) back.focus({ preventScroll: true });
  };
  const clearMarks = () => {
    if (!now.marks) return;
    now.marks.clear();
    now.marks = undefined;
    place.textContent = '';
    post({ type: 'cleared' });
  };
  const step = (by: number) => {
    const marks = now.marks;
    if (!marks?.count) return;
    moveAside(marks.go(marks.current + by));
    post({ type: 'at', at: marks.current, count: marks.count });
  };
  const showNew = () => {
    if (!actions.showWhatsNew || now.marks) return;
    actions.showWhatsNew(root).then(
      (found) => {
        // Closed (or replaced) while the page was searched: nothing is marked, and the page is not scrolled.
        if (shown !== now) return found.clear();
        if (!found.count) {
          found.clear();
          return post({ type: 'found', count: 0 });
        }
        now.marks = found;
        step(1);
        post({ type: 'found', count: found.count });
      },
      () => post({ type: 'found', count: 0 }),
    );
  };

  const now: Shown = {
    host,
    frame,
    stop,
    take(message) {
      switch (message.type) {
        case 'size':
          frame.style.width = `${Math.max(0, Math.min(message.width, 2000))}px`;
          frame.style.height = `${Math.max(0, Math.min(message.height, 2000))}px`;
          break;
        case 'close':
          close(message.hadFocus);
          break;
        case 'notSame':
          actions.notSame(match);
          close(message.hadFocus);
          break;
        case 'showNew':
          showNew();
          break;
        case 'showMatches':
          actions.showMatches?.();
          break;
        case 'step':
          step(message.by < 0 ? -1 : 1);
          break;
        case 'clear':
          clearMarks();
          break;
      }
    },
  };
  shown = now;
  // Esc clears the marks wherever the focus is on the page (the listener is the extension's: the page
  // sees neither it nor any change to the event). Only the reader's own key: a key event the page
  // made up must not change what the notice shows.
  doc.addEventListener(
    'keydown',
    (e) => {
      if (e.isTrusted && e.key === 'Escape' && now.marks && doc.activeElement !== host) clearMarks();
    },
    { signal: stop.signal },
  );
  // The channel to the frame, once the notice's page has loaded in it (and so listens): one end
  // handed to the frame's window alone, with the name in its address. The frame's first document
  // (about:blank) is not it; the notice's page is of another origin (unreadable here in Chrome; in
  // Firefox a content script may read the add-on's own pages).
  const handOver = () => {
    const target = frame.contentWindow;
    if (shown !== now || !target || frame.contentDocument?.URL.startsWith('about:')) return;
    frame.removeEventListener('load', handOver);
    const channel = new MessageChannel();
    now.port = channel.port1;
    channel.port1.onmessage = (event) => {
      if (shown === now) now.take(event.data as FromFrame);
    };
    target.postMessage({ notice: nonce } satisfies FrameHandshake, browser.runtime.getURL('').replace(/\/$/, ''), [channel.port2]);
    const data: NoticeData = { match, more, canShowNew: actions.showWhatsNew !== undefined, room: win.innerWidth, sameSite: sameSite(match.url, doc.location?.href ?? '') };
    post({ type: 'show', data });
  };
  frame.addEventListener('load', handOver, { signal: stop.signal });
  win.addEventListener(
    'beforeunload',
    (e) => {
      if (e.isTrusted) stepAway(win, () => showNotice(match, more, actions, doc));
    },
    { signal: stop.signal },
  );

  root.append(style, place, frame);
  // Not before the page has loaded: a frame holds up its page's load event until it has loaded
  // itself, and the notice's page loads in the extension's process, which may be busy (Firefox's
  // background reads pages there). At most LOAD_WAIT_MS, for a page with a resource that never comes.
  const putOnPage = () => {
    if (shown !== now) return;
    doc.documentElement.append(host);
    // The frame is given no `src`: it is sent to the notice's page from here. Firefox hands a page
    // the frame element itself when the reader's mouse crosses it (`explicitOriginalTarget`), and an
    // address there would give the page the add-on's per-install UUID (the same on every site, so an
    // identifier of the reader) and the frame's one-time name. A frame's location is not readable
    // across origins.
    frame.contentWindow?.location.replace(`${browser.runtime.getURL(NOTICE_PAGE)}#${nonce}`);
  };
  if (doc.readyState === 'complete') putOnPage();
  else {
    const timer = setTimeout(putOnPage, LOAD_WAIT_MS);
    win.addEventListener(
      'load',
      () => {
        clearTimeout(timer);
        putOnPage();
      },
      { once: true, signal: stop.signal },
    );
    stop.signal.addEventListener('abort', () => clearTimeout(timer));
  }
}
