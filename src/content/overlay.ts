// The overlay: one layer over the page, in a closed shadow root, where features of the content
// script draw boxes and labels over parts of the page (links read before, passages that are new)
// without touching the page. The page's scripts cannot read what it shows: the host is fixed over
// the viewport whatever is drawn (its existence, size and position say nothing of the history), it
// takes no pointer events (hit testing, elementFromPoint and hover see through it), holds nothing
// focusable (the page's focus order is unchanged), and it only reads the page's layout, never
// writes it. Boxes follow scrolling and resizing, re-placed at most once a frame.
//
//   const overlay = createOverlay(document, { css: '.read { outline: 2px solid #6b4fbb; }' });
//   overlay.set('links', [{ anchor: a, boxClass: 'read', label: 'read', shown: true }]);
//   overlay.showTip(a, text);     // a small tip by the anchor, announced to screen readers
//   overlay.set('links', []);     // removes the group's marks; overlay.destroy() removes the layer
//
// Marks with `shown: false` are laid out exactly like shown ones but clear (transparent colours at
// full opacity, so they cover what a shown one covers, for the browser's occlusion checks too:
// IntersectionObserver v2 ignores elements of opacity 0), so a feature can make the
// layer's work and geometry the same whichever of its anchors it really marks; a tip can be
// transparent too, and has a fixed size whatever it says. Labels and tips are drawn as generated
// content (drawn-text.ts): the page cannot search for the text in the layer either.

import { DRAWN_TEXT_CSS, drawText } from './drawn-text';
import { watchPageMotion } from './page-motion';

/** What a mark is anchored to: an element (each of its client rects) or a range of text. */
export type OverlayAnchor = Element | Range;

export interface OverlayMark {
  anchor: OverlayAnchor;
  /** Class of the box drawn over each of the anchor's client rects; none when omitted. */
  boxClass?: string;
  /** A short label drawn just after the anchor's last rect (at its end, on its line). */
  label?: string;
  /** Class of the label (default `label`). */
  labelClass?: string;
  /** Visible, or laid out the same but invisible (default true). */
  shown?: boolean;
}

export interface Overlay {
  /**
   * Replaces the marks of `group` (each feature keeps its own group); an empty list removes them.
   * A mark asked for again unchanged keeps its elements; with `anew`, every mark's elements are made
   * anew, so that the work done (which the page can time) is the same whichever marks changed.
   */
  set(group: string, marks: readonly OverlayMark[], options?: { anew?: boolean }): void;
  /**
   * Shows a tip by `anchor` (untrusted text in it isolated, ui/bidi.ts `isolate`), of a fixed
   * size (three lines); it is announced politely. `shown: false` places it the same, transparent and silent.
   */
  showTip(anchor: OverlayAnchor, text: string, shown?: boolean): void;
  hideTip(): void;
  /** Places every mark again at the next frame (after the feature knows the page's layout changed). */
  refresh(): void;
  /**
   * Places every mark now: for a feature that sets its marks from a requestAnimationFrame callback,
   * so that they are drawn in that frame (the page is laid out once for it) rather than the next.
   */
  placeNow(): void;
  /** Removes the layer and its listeners. */
  destroy(): void;
}

export interface OverlayOptions {
  /** The feature's own CSS, added to the layer's (classes used in `boxClass` / `labelClass`). */
  css?: string;
  /** What the host says it is, in its `data-deja-read` attribute (default `overlay`). */
  name?: string;
  /**
   * Where the host goes (default: the end of the document). Inside another closed shadow root of
   * the extension (the notice's), the page's DOM gains no element at all.
   */
  within?: ParentNode;
}

// An empty box fixed at the viewport's top left corner, inline and !important so that the page's
// CSS cannot move it or make it take room. What it shows is in a layer fixed there too, whose
// containing block is the viewport, not the host (nothing here makes the host one: no transform,
// filter or containment), so it adds nothing to the host's scroll size, nor to the document's,
// which the page could read. Not a layer over the whole
// viewport: the browser's occlusion checks (IntersectionObserver v2, which an embedded sign-in or
// payment frame may use) would then see every element of the page covered.
const HOST_STYLE = [
  'all: initial', 'display: block', 'position: fixed', 'top: 0', 'left: 0', 'width: 0', 'height: 0',
  'margin: 0', 'padding: 0', 'border: 0', 'overflow: visible', 'contain: none', 'pointer-events: none',
  'z-index: 2147483646', 'transform: none', 'filter: none', 'opacity: 1', 'visibility: visible',
].map((d) => `${d} !important`).join('; ');

/*
 * What the page can reach inside a closed shadow root, and so what this CSS (and the notice's) never
 * uses: custom properties, which inherit from the page through the host whatever `all: initial` says,
 * and which a page can also register (`@property`) with a value of its own, so a `var()` here would
 * take the page's value (a page once widened a read link's tip shadow through one, and saw it with
 * IntersectionObserver v2); and fonts by name, which the page's own `@font-face` rules define for
 * shadow roots too, so a character our font lacks would load the page's face for it and tell the
 * page what we wrote. Colours are written out; fonts are generic families only, which no
 * `@font-face` can take over (the browser falls back to the system's fonts).
 */
const BASE_CSS = `
* { pointer-events: none; font-family: system-ui, sans-serif; user-select: none; -webkit-user-select: none; }
.layer { position: fixed; top: 0; left: 0; width: 0; height: 0; overflow: visible; }
.box, .label, .tip { position: absolute; top: 0; left: 0; box-sizing: border-box; }
.label {
  font: 600 10px/14px system-ui, sans-serif;
  padding: 0 4px; border-radius: 7px; white-space: nowrap; color: #fbfaff; background: #6b4fbb;
}
.tip {
  width: min(320px, calc(100vw - 16px)); height: calc(3 * 1.4em + 14px); overflow: hidden; padding: 6px 10px; border-radius: 8px; overflow-wrap: anywhere;
  font: 13px/1.4 system-ui, sans-serif;
  color: #1d1b26; background: #fbfaff; border: 1px solid #d9d2f2; box-shadow: 0 4px 16px rgba(30, 20, 60, .18);
}
@media (prefers-color-scheme: dark) {
  .label { color: #25212f; background: #c4b5fd; }
  .tip { color: #ece9f6; background: #25212f; border-color: #4a4063; }
}
/* Unshown marks are drawn with nothing to see, not at opacity 0: IntersectionObserver v2 leaves
   elements of opacity 0 out of its occlusion check, so a page could tell a shown mark (or tip) over
   its elements from an unshown one. Drawn clear, both cover the page alike. */
/* Only colours change, never geometry: a shadow or an outline widens what the browser counts as
   painted (its visual overflow), so they stay, in a colour that cannot be seen. */
.unshown, .unshown * { color: transparent !important; background-color: transparent !important; border-color: transparent !important; outline-color: transparent !important; text-decoration-color: transparent !important; }
.tip.unshown { box-shadow: 0 4px 16px transparent; }
[hidden] { display: none !important; }
${DRAWN_TEXT_CSS}
`;

interface Placed {
  mark: OverlayMark;
  boxes: HTMLElement[];
  label: HTMLElement | null;
}

/** Creates the layer and puts its host at the end of the document. */
export function createOverlay(doc: Document = document, options: OverlayOptions = {}): Overlay {
  const win = doc.defaultView ?? window;
  // A built-in element, never one of a custom element's name: a page that defines that name first
  // gets its own constructor run on the host, and with attachInternals() the closed root (a review
  // read every link's mark so, in both browsers, before 26 November 2026).
  const host = doc.createElement('div');
  host.setAttribute('data-deja-read', options.name ?? 'overlay');
  host.setAttribute('style', HOST_STYLE);
  const root = host.attachShadow({ mode: 'closed' });
  const style = doc.createElement('style');
  style.textContent = BASE_CSS + (options.css ?? '');
  // Marks are seen, not read out (a list of "read" at the end of the document would mean nothing);
  // a screen reader hears the tip, shown when a marked link has the focus.
  const layer = doc.createElement('div');
  layer.className = 'layer';
  layer.setAttribute('aria-hidden', 'true');
  const tipLayer = doc.createElement('div');
  tipLayer.className = 'layer';
  const tip = doc.createElement('div');
  tip.className = 'tip';
  tip.hidden = true;
  tip.setAttribute('role', 'status');
  tip.setAttribute('aria-live', 'polite');
  tipLayer.append(tip);
  root.append(style, layer, tipLayer);
  (options.within ?? doc.documentElement).append(host);

  const groups = new Map<string, Placed[]>();
  let tipAnchor: OverlayAnchor | null = null;
  let frame = 0;

  const el = (className: string) => {
    const e = doc.createElement('div');
    e.className = className;
    return e;
  };
  const move = (e: HTMLElement, x: number, y: number) => {
    e.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  };

  // A label goes just after its anchor, kept inside the viewport by the browser (100 % in a
  // translation is the label's own width), so nothing is measured: a measure after the writes of a
  // frame would make the browser lay the page out again, in the page's frame.
  const moveLabel = (e: HTMLElement, x: number, y: number) => {
    e.style.transform = `translate(min(${Math.round(x)}px, calc(100vw - 100% - 2px)), ${Math.round(y)}px)`;
  };

  // Writes after all the reads: a read after a write would make the browser lay out again.
  function place(p: Placed, rects: DOMRect[]): void {
    if (p.mark.boxClass) {
      while (p.boxes.length < rects.length) {
        const box = el(`box ${p.mark.boxClass}${p.mark.shown === false ? ' unshown' : ''}`);
        layer.append(box);
        p.boxes.push(box);
      }
      p.boxes.forEach((box, i) => {
        const r = rects[i];
        box.hidden = !r;
        if (!r) return;
        box.style.width = `${Math.round(r.width)}px`;
        box.style.height = `${Math.round(r.height)}px`;
        move(box, r.left, r.top);
      });
    }
    if (p.label) {
      const last = rects[rects.length - 1];
      p.label.hidden = !last;
      if (last) moveLabel(p.label, last.right + 3, last.top + Math.max(0, (last.height - 14) / 2));
    }
  }

  function placeTip(): void {
    if (!tipAnchor) return;
    const first = visibleRects(tipAnchor, win)[0];
    if (!first) {
      tip.hidden = true;
      return;
    }
    tip.hidden = false;
    const below = first.bottom + 6;
    const y = below + tip.offsetHeight > win.innerHeight ? first.top - tip.offsetHeight - 6 : below;
    move(tip, Math.max(4, Math.min(first.left, win.innerWidth - tip.offsetWidth - 4)), Math.max(4, y));
  }

  function placeAll(): void {
    frame = 0;
    const all = [...groups.values()].flat();
    const rects = all.map((p) => visibleRects(p.mark.anchor, win));
    all.forEach((p, i) => place(p, rects[i]));
    placeTip();
  }

  const refresh = () => {
    if (!frame) frame = win.requestAnimationFrame(placeAll);
  };

  function removeElements(placed: Iterable<Placed>): void {
    for (const p of placed) {
      for (const b of p.boxes) b.remove();
      p.label?.remove();
    }
  }

  // Scrolling and resizing move the page under the layer.
  const unwatch = watchPageMotion(doc, win, refresh, refresh);

  return {
    set(group, marks, { anew = false } = {}) {
      // Marks drawn already and asked for again keep their elements, where they are until the next
      // frame places them: made anew, they would be hidden for a frame (a flicker at every change),
      // unless placed at once (placeNow).
      const previous = new Map<OverlayAnchor, Placed>();
      if (anew) removeElements(groups.get(group) ?? []);
      else for (const p of groups.get(group) ?? []) previous.set(p.mark.anchor, p);
      const same = (a: OverlayMark, b: OverlayMark) =>
        a.boxClass === b.boxClass && a.label === b.label && a.labelClass === b.labelClass && (a.shown ?? true) === (b.shown ?? true);
      const placed = marks.map((mark): Placed => {
        const old = previous.get(mark.anchor);
        if (old && same(old.mark, mark)) {
          previous.delete(mark.anchor);
          return { ...old, mark };
        }
        let label: HTMLElement | null = null;
        if (mark.label !== undefined) {
          label = el(`${mark.labelClass ?? 'label'}${mark.shown === false ? ' unshown' : ''}`);
          drawText(label, mark.label);
          label.hidden = true;
          layer.append(label);
        }
        return { mark, boxes: [], label };
      });
      removeElements(previous.values());
      if (placed.length > 0) groups.set(group, placed);
      else groups.delete(group);
      refresh();
    },
    showTip(anchor, text, shown = true) {
      tipAnchor = anchor;
      tip.classList.toggle('unshown', !shown);
      if (shown) tip.removeAttribute('aria-hidden');
      else tip.setAttribute('aria-hidden', 'true');
      drawText(tip, text);
      tip.hidden = true;
      refresh();
    },
    hideTip() {
      tipAnchor = null;
      tip.hidden = true;
      drawText(tip, '');
    },
    refresh,
    placeNow() {
      if (frame) win.cancelAnimationFrame(frame);
      placeAll();
    },
    destroy() {
      if (frame) win.cancelAnimationFrame(frame);
      unwatch();
      groups.clear();
      host.remove();
    },
  };
}

/** The anchor's client rects that are at least partly in the viewport (none once it is detached or hidden). */
function visibleRects(anchor: OverlayAnchor, win: Window): DOMRect[] {
  const out: DOMRect[] = [];
  const w = win.innerWidth;
  const h = win.innerHeight;
  for (const r of Array.from(anchor.getClientRects())) {
    if (r.width === 0 && r.height === 0) continue;
    if (r.bottom < 0 || r.top > h || r.right < 0 || r.left > w) continue;
    out.push(r);
  }
  return out;
}
