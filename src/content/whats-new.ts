// "Show what's new": the new parts of the page (from the background's comparison with the earlier
// page's read set) are found in the page's DOM from their locators, only once the reader asks, and
// drawn as boxes in the overlay layer, inside the notice's closed shadow root: the page's DOM, its
// layout and CSS.highlights are left as they are. Stepping to a part scrolls the page there (the one
// thing the page can notice, and only after the reader's click: docs/privacy.md).
import type { PassageLocator } from '../core';
import { findPassageGroups } from './find-passages';
import { createOverlay, type Overlay } from './overlay';
import { pageSlicer } from './snapshot';

const CSS = `
.new { background: rgba(107, 79, 187, .14); border-radius: 3px; box-shadow: 0 0 0 2px rgba(107, 79, 187, .14); }
.current { background: transparent; outline: 2px solid #6b4fbb; outline-offset: 1px; }
@media (prefers-color-scheme: dark) {
  .new { background: rgba(196, 181, 253, .18); box-shadow: 0 0 0 2px rgba(196, 181, 253, .18); }
  .current { background: transparent; outline-color: #c4b5fd; }
}
`;

export interface Rect {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface NewParts {
  /** How many parts were found on the page. */
  count: number;
  /** The part shown now (0-based), or -1 before the first step. */
  current: number;
  /**
   * Marks part `k` as the current one and scrolls it into view; returns where in the viewport the
   * part will be once scrolled (the page may not scroll far enough to bring it up: a part at its end).
   */
  go(k: number): Rect | null;
  /** Removes the marks. */
  clear(): void;
}

/** Finds the parts (each a list of passage indices) and marks them all; the reader then steps through them. */
export async function showNewParts(doc: Document, within: ParentNode, locators: PassageLocator[], parts: number[][]): Promise<NewParts> {
  const ranges = (await findPassageGroups(doc.body ?? doc.documentElement, locators, parts, pageSlicer())).filter((r): r is Range => r !== null);
  const overlay: Overlay = createOverlay(doc, { css: CSS, within });
  const win = doc.defaultView ?? window;
  const view: NewParts = {
    count: ranges.length,
    current: -1,
    go(k) {
      if (!ranges.length) return null;
      view.current = ((k % ranges.length) + ranges.length) % ranges.length;
      overlay.set('whats-new', ranges.map((anchor, i) => ({ anchor, boxClass: i === view.current ? 'new current' : 'new' })));
      const rect = ranges[view.current].getBoundingClientRect();
      const smooth = !win.matchMedia('(prefers-reduced-motion: reduce)').matches;
      // A quarter down the window, as far as the page scrolls.
      const scroller = doc.scrollingElement ?? doc.documentElement;
      const most = Math.max(0, scroller.scrollHeight - win.innerHeight);
      const from = win.scrollY;
      const top = Math.min(most, Math.max(0, from + rect.top - win.innerHeight / 4));
      win.scrollTo({ top, behavior: smooth ? 'smooth' : 'auto' });
      const by = top - from;
      return { top: rect.top - by, bottom: rect.bottom - by, left: rect.left, right: rect.right };
    },
    clear() {
      overlay.destroy();
      ranges.length = 0;
      view.count = 0;
    },
  };
  return view;
}
