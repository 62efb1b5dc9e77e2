// Link marks: links on the page that lead to pages read before get a small "read" label, drawn in
// the overlay's closed shadow root. The page must not learn which (the attack that made browsers
// neuter :visited; docs/privacy.md, "Link marks"), so everything the page could observe is the same
// whatever the answer: the overlay's host exists as soon as the page has links, every link in view
// gets the same label, transparent unless read, and the date shows in a tip of fixed size, also
// placed (transparent) for links not read. The links are read a slice at a time (no long task on a
// page of thousands), the background is asked once for them and once per batch added later, and
// only the links in view are drawn.
import { linkKey, pageIdentity } from '../core';
import { MAX_LINK_KEYS, type LinkMark } from '../messaging/protocol';
import { send } from '../messaging/send';
import { isolated } from '../ui/bidi';
import { t } from '../ui/i18n';
import { createOverlay, type Overlay } from './overlay';

/** Time one slice of link reading may take before the page gets the thread back. */
const SLICE_MS = 6;
/**
 * What is watched for coming into view is the paragraph, list item or cell that holds links, not
 * each link: an article with links every few words has far fewer of them, and the browser computes
 * the intersections of every target at each frame in which one changes. Not a div: one may hold
 * the whole page.
 */
const LINK_BLOCKS = 'p, li, dt, dd, td, th, h1, h2, h3, h4, h5, h6, blockquote, figcaption, caption, summary';
/** Links newly watched for coming into view, per frame. */
const OBSERVED_PER_FRAME = 250;
/** Links added after the first pass are read in a batch this long after the first of them. */
const ADDED_LINKS_DELAY_MS = 800;

const CSS = `
.label.read-mark { font-size: 10px; }
`;

/** What the marks cost so far (for the popup's figure and `npm run bench:links`; never given to the page). */
export interface LinkStats {
  /** Links with a key, and the different keys asked about. */
  links: number;
  keys: number;
  /** Messages to the background, and the time spent waiting for their answers. */
  messages: number;
  answerMs: number;
  /** Time spent reading links (their keys), in slices, and the longest slice. */
  scanMs: number;
  longestSliceMs: number;
}

export interface LinkMarks {
  /** How many different pages the links on this page lead to that were read. */
  readCount(): number;
  stats(): LinkStats;
  stop(): void;
}

/** Lets the page run before the next slice. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Waits for the next frame (or a moment, in a tab in the background, which draws none). */
const nextFrame = () => new Promise<void>((resolve) => {
  const done = () => {
    clearTimeout(fallback);
    resolve();
  };
  const fallback = setTimeout(done, 100);
  requestAnimationFrame(done);
});

export function startLinkMarks(doc: Document = document): LinkMarks {
  const win = doc.defaultView ?? window;
  const keyOf = new WeakMap<Element, string | null>();
  /** Keys by address: a page repeats its links (menus, "more" and "comments" links to one story). */
  const keyOfHref = new Map<string, string | null>();
  /** Link keys already asked about, and the answers for those read. */
  const asked = new Set<string>();
  const read = new Map<string, LinkMark>();
  /** Links seen with a key (the ones worth a mark). */
  const tracked = new Set<HTMLAnchorElement | HTMLAreaElement>();
  /** Blocks holding links (what is watched for coming into view), their links, and those in view. */
  const linksOf = new Map<Element, Set<Element>>();
  const blockOf = new WeakMap<Element, Element>();
  const inView = new Set<Element>();
  let overlay: Overlay | undefined;
  /** The marks' text, from the background's answer. */
  let label = '';
  let stopped = false;
  let frame = 0;
  let scanning = false;
  let scanAgain = false;
  let rescan: ReturnType<typeof setTimeout> | undefined;
  const stats: LinkStats = { links: 0, keys: 0, messages: 0, answerMs: 0, scanMs: 0, longestSliceMs: 0 };
  const sliceDone = (start: number) => {
    const ms = performance.now() - start;
    stats.scanMs += ms;
    stats.longestSliceMs = Math.max(stats.longestSliceMs, ms);
  };

  const intersection = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting) inView.add(e.target);
        else inView.delete(e.target);
      }
      drawSoon();
    },
    { rootMargin: '200px 0px' },
  );

  function drawSoon(): void {
    if (!frame && !stopped) frame = win.requestAnimationFrame(draw);
  }

  /** Draws the marks of the links in view, in this frame (it runs in a requestAnimationFrame callback). */
  function draw(): void {
    frame = 0;
    if (!overlay || !label) return;
    overlay.set(
      'links',
      [...inView].flatMap((block) => [...(linksOf.get(block) ?? [])].map((anchor) => ({ anchor, label, labelClass: 'label read-mark', shown: read.has(keyOf.get(anchor) ?? '') }))),
    );
    overlay.placeNow();
  }

  /** Reads the keys of links not seen yet, a slice at a time, then asks about the new ones. */
  async function scan(): Promise<void> {
    if (scanning) {
      scanAgain = true;
      return;
    }
    scanning = true;
    const added: Array<HTMLAnchorElement | HTMLAreaElement> = [];
    try {
      // Links the page has removed since (an infinite list dropping what scrolled away) are let go.
      for (const a of tracked) {
        if (a.isConnected) continue;
        tracked.delete(a);
        const block = blockOf.get(a) ?? a;
        const links = linksOf.get(block);
        links?.delete(a);
        if (links?.size === 0) {
          linksOf.delete(block);
          inView.delete(block);
          intersection.unobserve(block);
        }
      }
      const own = pageIdentity(win.location.href);
      const links = doc.links;
      const fresh: string[] = [];
      let sliceStart = performance.now();
      for (let i = 0; i < links.length && !stopped; i++) {
        const a = links[i] as HTMLAnchorElement | HTMLAreaElement;
        if (!keyOf.has(a)) {
          const href = a.href;
          let key = keyOfHref.get(href);
          if (key === undefined) keyOfHref.set(href, (key = linkKey(href)));
          const kept = key === own ? null : key;
          keyOf.set(a, kept);
          if (kept) {
            tracked.add(a);
            added.push(a);
            if (!asked.has(kept)) {
              asked.add(kept);
              fresh.push(kept);
            }
          }
        }
        // Links seen before cost little, but a page of tens of thousands of them still gets slices.
        if ((i & 31) === 31 && performance.now() - sliceStart > SLICE_MS) {
          sliceDone(sliceStart);
          await nextTask();
          sliceStart = performance.now();
        }
      }
      sliceDone(sliceStart);
      if (stopped || tracked.size === 0) return;
      // The layer exists as soon as the page has links, before any answer: its existence says nothing.
      overlay ??= createOverlay(doc, { css: CSS });
      for (let i = 0; i < fresh.length && !stopped; i += MAX_LINK_KEYS) {
        const asking = performance.now();
        const answer = await send('content:linksRead', { keys: fresh.slice(i, i + MAX_LINK_KEYS) });
        stats.messages++;
        stats.answerMs += performance.now() - asking;
        for (const mark of answer.read) read.set(mark.key, mark);
        if (answer.label) label = answer.label;
      }
      // Observed after the answer, so the first drawing has it. A few hundred a frame: the browser
      // computes the intersections of newly observed links at the next frame, all in one task.
      for (let i = 0; i < added.length && !stopped; i += OBSERVED_PER_FRAME) {
        if (i > 0) await nextFrame();
        for (const a of added.slice(i, i + OBSERVED_PER_FRAME)) {
          const block = a.parentElement?.closest(LINK_BLOCKS) ?? a;
          blockOf.set(a, block);
          const links = linksOf.get(block);
          if (links) links.add(a);
          else {
            linksOf.set(block, new Set([a]));
            intersection.observe(block);
          }
        }
      }
      drawSoon();
    } finally {
      scanning = false;
      if (scanAgain && !stopped) {
        scanAgain = false;
        scanSafely();
      }
    }
  }

  const scanSafely = () => void scan().catch((e: unknown) => console.info('Déjà Read: links not checked:', e instanceof Error ? e.message : e));

  // Links the page adds later (infinite lists, single-page apps) are read in batches, one at most
  // every ADDED_LINKS_DELAY_MS however busy the page is.
  const mutations = new MutationObserver(() => {
    rescan ??= setTimeout(() => {
      rescan = undefined;
      scanSafely();
    }, ADDED_LINKS_DELAY_MS);
  });
  mutations.observe(doc, { childList: true, subtree: true });

  // The date, and the page a copy was read as, on hover and focus: listened to in the capture
  // phase, passively, changing nothing of the event. Links not read get the same tip, transparent.
  const linkAt = (target: EventTarget | null) => {
    const closest = (target as Element | null)?.closest;
    const a = typeof closest === 'function' ? (target as Element).closest('a[href], area[href]') : null;
    return a && tracked.has(a as HTMLAnchorElement) ? a : null;
  };
  const showTip = (e: Event) => {
    const a = linkAt(e.target);
    if (!a || !overlay) return;
    const mark = read.get(keyOf.get(a) ?? '');
    const content: Array<Node | string> = [t('linkReadOn', mark?.date ?? '')];
    if (mark?.copyOf) content.push(' · ', t('linkCopyOf'), ' ', isolated(mark.copyOf, doc));
    overlay.showTip(a, content, mark !== undefined);
  };
  const hideTip = (e: Event) => {
    if (linkAt(e.target)) overlay?.hideTip();
  };
  const listen = { capture: true, passive: true } as const;
  doc.addEventListener('pointerover', showTip, listen);
  doc.addEventListener('focusin', showTip, listen);
  doc.addEventListener('pointerout', hideTip, listen);
  doc.addEventListener('focusout', hideTip, listen);

  scanSafely();

  return {
    readCount() {
      const keys = new Set<string>();
      for (const a of tracked) {
        const key = keyOf.get(a);
        if (key && read.has(key) && a.isConnected) keys.add(key);
      }
      return keys.size;
    },
    stats: () => ({ ...stats, links: tracked.size, keys: asked.size }),
    stop() {
      stopped = true;
      clearTimeout(rescan);
      if (frame) win.cancelAnimationFrame(frame);
      mutations.disconnect();
      intersection.disconnect();
      doc.removeEventListener('pointerover', showTip, listen);
      doc.removeEventListener('focusin', showTip, listen);
      doc.removeEventListener('pointerout', hideTip, listen);
      doc.removeEventListener('focusout', hideTip, listen);
      overlay?.destroy();
      overlay = undefined;
    },
  };
}
