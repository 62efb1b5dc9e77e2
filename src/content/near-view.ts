// Which of a page's blocks (the paragraphs, list items and cells holding links) are near the
// viewport, for drawing their marks as they scroll in, at a cost to the page's scrolling that does
// not grow with the number of blocks.
//
// An IntersectionObserver watching every block costs the page at each frame it scrolls: Chromium
// computes every target again, and on a long wiki page of 7,000 paragraphs with links that was
// 5–10 ms a frame of scrolling, and up to 100 ms in one frame. Measuring every block instead is
// worse on a page whose sections are laid out only when near (`content-visibility: auto`): each
// measure makes the browser lay out what it had skipped. So:
// - blocks that scroll with the document are grouped by their parent; the observer watches the
//   parents (a few hundred at most on such a page), and the blocks of a parent near the viewport are
//   measured once, where they are in the document, then looked up at each scroll by comparing
//   numbers; they are measured again when the layout may have changed (the body or the window
//   resized, blocks added);
// - a block that can move apart from the document or be clipped (inside a fixed or sticky element,
//   or one that scrolls or hides what overflows it) is watched by the observer itself, which follows
//   it exactly: pages have few of those.
// Everything here only reads the page's layout, in passive listeners: the page sees nothing.
//
//   const near = createNearView(document, () => redraw());  // called when the blocks near may have changed
//   await near.track(blocks);                               // follows these too
//   near.blocks();                                          // those at most `margin` px from the viewport

import { watchPageMotion } from './page-motion';

export interface NearView {
  /** Follows these blocks too (sorted a slice of time at a time). */
  track(blocks: readonly Element[]): Promise<void>;
  /** Stops following a block (its links are gone). */
  untrack(block: Element): void;
  /** The blocks followed that are at most `margin` pixels above or below the viewport (or in it). */
  blocks(): Element[];
  stop(): void;
}

export interface NearViewOptions {
  /** How far above and below the viewport a block counts as near (default 200 px). */
  margin?: number;
  /** Time one slice of work may take before the page gets the thread back (default 6 ms). */
  sliceMs?: number;
  /** How long after the page's layout changed the blocks near are measured again (default 250 ms). */
  remeasureDelayMs?: number;
}

/** Blocks of one parent that scroll with the document. */
interface Group {
  /** The blocks (a list replaced, never changed in place: a measure may be reading it). */
  blocks: Element[];
  /** The blocks as last measured, and where they were then (document coordinates). */
  measured: Element[];
  tops: Float64Array;
  bottoms: Float64Array;
  /** The parent is near the viewport (the observer says). */
  near: boolean;
  /** Counts what may have moved the blocks since they were measured (0: nothing). */
  stale: number;
}

/** Lets the page run before the next slice. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createNearView(doc: Document, changed: () => void, options: NearViewOptions = {}): NearView {
  const win = doc.defaultView ?? window;
  const margin = options.margin ?? 200;
  const sliceMs = options.sliceMs ?? 6;
  const remeasureDelayMs = options.remeasureDelayMs ?? 250;

  /** Whether an element, with all its ancestors, scrolls with the document unclipped (memo: ancestors are shared). */
  const flows = new WeakMap<Element, boolean>();
  /** Groups by parent, and each block's parent; blocks watched one by one, and those of them near. */
  const groups = new Map<Element, Group>();
  const parentOf = new Map<Element, Element>();
  const alone = new Set<Element>();
  const aloneNear = new Set<Element>();
  let measuring = false;
  let measureAgain = false;
  let remeasure: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const observer = new IntersectionObserver(
    (entries) => {
      let measure = false;
      for (const e of entries) {
        const group = groups.get(e.target);
        if (group) {
          group.near = e.isIntersecting;
          if (group.near && group.stale) measure = true;
        } else if (e.isIntersecting) aloneNear.add(e.target);
        else aloneNear.delete(e.target);
      }
      if (measure) void measureNear();
      changed();
    },
    { rootMargin: `${margin}px 0px` },
  );

  /** Whether this element could move on the screen other than by the document's scrolling, or clip what it holds. */
  function movesApart(e: Element): boolean {
    const s = win.getComputedStyle(e);
    if (s.position === 'fixed' || s.position === 'sticky') return true;
    // One that scrolls, or clips what overflows it (what it hides is not in view, and script may scroll it).
    return (s.overflowY !== 'visible' && e.scrollHeight > e.clientHeight) || (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth);
  }

  function flowsWithDocument(element: Element): boolean {
    const unknown: Element[] = [];
    let known: boolean | undefined;
    for (let e: Element | null = element; e && e !== doc.documentElement && e !== doc.body; e = e.parentElement) {
      known = flows.get(e);
      if (known !== undefined) break;
      unknown.push(e);
    }
    // From the outermost element not known yet down: inside one that moves apart, all do.
    let result = known ?? true;
    for (let i = unknown.length - 1; i >= 0; i--) {
      if (result && movesApart(unknown[i])) result = false;
      flows.set(unknown[i], result);
    }
    return result;
  }

  function watchAlone(block: Element): void {
    alone.add(block);
    observer.observe(block);
  }

  /**
   * Measures the blocks of the groups near the viewport that may have moved, a slice at a time; the
   * lookups use the last measures meanwhile (a block that moved is found a moment later).
   */
  async function measureNear(): Promise<void> {
    if (measuring) {
      measureAgain = true;
      return;
    }
    measuring = true;
    try {
      do {
        measureAgain = false;
        let start = performance.now();
        for (const group of groups.values()) {
          if (stopped) return;
          if (!group.near || !group.stale) continue;
          const { blocks, stale } = group;
          const tops = new Float64Array(blocks.length);
          const bottoms = new Float64Array(blocks.length);
          let i = 0;
          for (; i < blocks.length; i++) {
            const r = blocks[i].getBoundingClientRect();
            const y = win.scrollY;
            const empty = r.width === 0 && r.height === 0;
            tops[i] = empty ? Infinity : r.top + y;
            bottoms[i] = empty ? -Infinity : r.bottom + y;
            if ((i & 63) === 63 && performance.now() - start > sliceMs) {
              await nextTask();
              start = performance.now();
              if (stopped) return;
            }
          }
          group.measured = blocks;
          group.tops = tops;
          group.bottoms = bottoms;
          // Changed meanwhile (blocks added or gone, the layout changed): measured again.
          if (group.stale === stale) group.stale = 0;
          else measureAgain = true;
        }
        changed();
      } while (measureAgain && !stopped);
    } finally {
      measuring = false;
    }
  }

  /** The layout may have changed: every measure is stale, and those near are taken again a moment later. */
  const measureSoon = () => {
    if (stopped) return;
    for (const group of groups.values()) group.stale++;
    clearTimeout(remeasure);
    remeasure = setTimeout(() => void measureNear(), remeasureDelayMs);
  };

  // The document scrolling only moves the viewport over blocks already measured. An element that
  // scrolls carries its blocks apart from the document: from its first scroll on, the blocks in it
  // are watched one by one (an element may scroll without looking as if it could).
  const scrolled = new WeakSet<Element>();
  const onScroll = (e: Event) => {
    const target = e.target;
    if (target instanceof Element && target !== doc.documentElement && target !== doc.body && target !== doc.scrollingElement && !scrolled.has(target)) {
      scrolled.add(target);
      flows.set(target, false);
      for (const [parent, group] of groups) {
        if (!target.contains(parent)) continue;
        groups.delete(parent);
        observer.unobserve(parent);
        for (const block of group.blocks) {
          parentOf.delete(block);
          flows.set(block, false);
          watchAlone(block);
        }
      }
    }
    changed();
  };
  const unwatch = watchPageMotion(doc, win, onScroll, measureSoon);

  return {
    async track(blocks) {
      let start = performance.now();
      const adding = new Map<Element, Element[]>();
      for (let i = 0; i < blocks.length && !stopped; i++) {
        const block = blocks[i];
        const parent = block.parentElement;
        if (alone.has(block) || parentOf.has(block)) continue;
        if (parent && flowsWithDocument(parent) && flowsWithDocument(block)) {
          parentOf.set(block, parent);
          const list = adding.get(parent);
          if (list) list.push(block);
          else adding.set(parent, [block]);
        } else watchAlone(block);
        if ((i & 31) === 31 && performance.now() - start > sliceMs) {
          await nextTask();
          start = performance.now();
        }
      }
      for (const [parent, added] of adding) {
        if (stopped) return;
        const group = groups.get(parent);
        if (group) group.blocks = [...group.blocks, ...added];
        else {
          groups.set(parent, { blocks: added, measured: [], tops: new Float64Array(0), bottoms: new Float64Array(0), near: false, stale: 1 });
          observer.observe(parent);
        }
      }
      // Blocks added may have moved those around them.
      measureSoon();
    },
    untrack(block) {
      if (alone.delete(block)) {
        aloneNear.delete(block);
        observer.unobserve(block);
        return;
      }
      const parent = parentOf.get(block);
      const group = parent && groups.get(parent);
      parentOf.delete(block);
      if (!parent || !group) return;
      const blocks = group.blocks.filter((b) => b !== block);
      if (blocks.length === 0) {
        groups.delete(parent);
        observer.unobserve(parent);
      } else {
        group.blocks = blocks;
        group.stale++;
      }
    },
    blocks() {
      const y = win.scrollY;
      const low = y - margin;
      const high = y + win.innerHeight + margin;
      const near: Element[] = [...aloneNear];
      for (const group of groups.values()) {
        if (!group.near) continue;
        const { measured, tops, bottoms } = group;
        for (let i = 0; i < measured.length; i++) if (tops[i] <= high && bottoms[i] >= low && parentOf.has(measured[i])) near.push(measured[i]);
      }
      return near;
    },
    stop() {
      stopped = true;
      clearTimeout(remeasure);
      observer.disconnect();
      unwatch();
    },
  };
}
