// What the notice's frame and the content script say to each other. The notice is an extension page
// (src/notice) in an <iframe> on the page: the page can neither read nor reach into it (it is of
// another origin), where a closed shadow root in the page's own document was still open to
// Firefox's event and selection properties (docs/privacy.md). The two talk over a MessageChannel:
// the content script hands the frame one end, in a message to the frame's window alone (the
// extension's origin as the target) carrying a name made for this one notice and written in the
// frame's address; the frame takes the first end that comes with its name. The page sees neither.
// (An extension's frame on a web page gets no `tabs` API in Firefox and hears no runtime port or
// message, so the extension's own messaging cannot reach it.)
import type { NoticeMatch } from './protocol';

/** The content script's first message to the frame, with the channel's end. */
export interface FrameHandshake {
  /** The one-time name written in the frame's address. */
  notice: string;
}
/** The frame's page, as built. */
export const NOTICE_PAGE = 'src/notice/index.html';

/** What the notice shows. */
export interface NoticeData {
  match: NoticeMatch;
  /** How many other earlier pages match too. */
  more: number;
  /** Whether the page named is on the site of the page shown: the notice then names its path too. */
  sameSite?: boolean;
  /** Whether "Show what's new" can find the new parts on this page. */
  canShowNew: boolean;
  /** The page's window width, CSS pixels: the notice's width follows it. */
  room: number;
}

export type ToFrame =
  | { type: 'show'; data: NoticeData }
  | { type: 'room'; room: number }
  /** "Show what's new" done: how many parts were found (0: none), the first of them shown. */
  | { type: 'found'; count: number }
  /** The part shown now (0-based) of `count`. */
  | { type: 'at'; at: number; count: number }
  /** The marks are gone (the reader's Esc on the page, or the frame's own "Clear"). */
  | { type: 'cleared' }
  /** The reader's shortcut: focus to the notice's title (the link to the page read before). */
  | { type: 'focus' };

export type FromFrame =
  /** The size the frame needs, CSS pixels (the notice or its small tab, with room for its shadow). */
  | { type: 'size'; width: number; height: number }
  /** Close the notice; `hadFocus`: the focus was in it (it goes back to where it came from). */
  | { type: 'close'; hadFocus: boolean }
  | { type: 'notSame'; hadFocus: boolean }
  /** Show every earlier page that matches (the popup's list). */
  | { type: 'showMatches' }
  | { type: 'showNew' }
  | { type: 'step'; by: number }
  | { type: 'clear' };

/** Room left around the notice inside its frame, for its shadow (CSS pixels, each side). */
export const FRAME_MARGIN = 8;
