// Link marks: links on the page that lead to pages read before are tinted, with a bar under them,
// drawn in the overlay's closed shadow root over the link itself, so the mark hides nothing of the
// page (a label after the link covered the words that followed it). The page must not learn which
// (the attack that made browsers neuter :visited; docs/privacy.md, "Link marks"), so everything the
// page could observe is the same whatever the answer: the overlay's host exists as soon as the page
// has links, every link in view gets the same boxes, clear unless read, and the date shows in a tip
// of fixed size, also placed (clear) for links not read. The links are read a slice at a time (no
// long task on a page of thousands), the background is asked once for them and once per batch
// added later, and only the links near the viewport are drawn (see NearView).
import { linkKey, pageIdentity } from '../core';
import { linkKeysForOneMessage, type LinkMark } from '../messaging/protocol';
import { deliver, type RetryOptions } from '../messaging/retry';
import { ExtensionGoneError, send } from '../messaging/send';
import { isolate } from '../ui/bidi';
import { t } from '../ui/i18n';
import { createNearView } from './near-view';
import { createOverlay, type Overlay } from './overlay';

/** Time one slice of link reading (or of measuring where their blocks are) may take before the page gets the thread back. */
const SLICE_MS = 6;
/**
 * What is looked for near the viewport is the paragraph, list item or cell that holds links, not
 * each link: an article with links every few words has far fewer of them. Not a div: one may hold
 * the whole page.
 */
const LINK_BLOCKS = 'p, li, dt, dd, td, th, h1, h2, h3, h4, h5, h6, blockquote, figcaption, caption, summary';
/** How far above and below the viewport links get their marks, so that they are there as they scroll in. */
const MARGIN_PX = 200;
/** After the page's layout changed (its body resized, the window too), blocks are measured again this much later. */
const REMEASURE_DELAY_MS = 250;
/** Links added after the first pass are read in a batch this long after the first of them. */
const ADDED_LINKS_DELAY_MS = 800;
/** Addresses whose key is kept at hand (a page repeats its links); more than a page of 2,000 links needs. */
const MAX_MEMO = 20_000;
/**
 * Keys asked about kept at most (with the answers of those read): past this, on an endless feed that
 * drops what scrolled away, only the keys of links still on the page are kept.
 */
export const MAX_ASKED = 20_000;
/** The background asked again a few times (it may be starting); then the links wait for the next scan. */
const ASK_RETRY: RetryOptions = { tries: 4, delayMs: 250, maxDelayMs: 2_000, timeoutMs: 10_000 };
/** The least time from a question to the drawing of its answer (ask). */
const ANSWER_FLOOR_MS = 100;
/** A scan whose question was not answered is tried again after this long, if nothing on the page changed before. */
const RESCAN_AFTER_FAILURE_MS = 10_000;

/**
 * A highlighter's tint over the link, which leaves its words readable, and a bar under it. One
 * colour in both schemes: the mark lies on the page's background, which follows the page, not the
 * reader's scheme (a page may be white in dark mode). The bar is 4.4:1 on white, 4.2:1 on #121212,
 * 3.8:1 on #1e1e1e (WCAG asks 3:1 of a mark that is not text).
 */
const CSS = `
.box.read-mark { background: rgba(128, 100, 216, .18); border-bottom: 2px solid #8064d8; border-radius: 2px; }
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

export function startLinkMarks(doc: Document = document, maxAsked = MAX_ASKED): LinkMarks {
  const win = doc.defaultView ?? window;
  const keyOf = new WeakMap<Element, string | null>();
  /** Keys by address: a page repeats its links (menus, "more" and "comments" links to one story). */
  const keyOfHref = new Map<string, string | null>();
  /** Link keys already asked about, and the answers for those read. */
  const asked = new Set<string>();
  const read = new Map<string, LinkMark>();
  /** Links seen with a key (the ones worth a mark). */
  const tracked = new Set<HTMLAnchorElement | HTMLAreaElement>();
  /** Blocks holding links (what is looked for near the viewport), and their links. */
  const linksOf = new Map<Element, Set<Element>>();
  const blockOf = new WeakMap<Element, Element>();
  let overlay: Overlay | undefined;
  /** Whether the background has answered once: marks are drawn from then on. */
  let answered = false;
  /** A scan again after one whose question went unanswered. */
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let frame = 0;
  /** The blocks drawn last, and whether the next drawing must set the marks even if they are the same (answers came). */
  let drawn: Element[] = [];
  let redraw = false;
  let scanning = false;
  let scanAgain = false;
  let rescan: ReturnType<typeof setTimeout> | undefined;
  const stats: LinkStats = { links: 0, keys: 0, messages: 0, answerMs: 0, scanMs: 0, longestSliceMs: 0 };
  const sliceDone = (start: number) => {
    const ms = performance.now() - start;
    stats.scanMs += ms;
    stats.longestSliceMs = Math.max(stats.longestSliceMs, ms);
  };

  const near = createNearView(doc, () => drawSoon(), { margin: MARGIN_PX, sliceMs: SLICE_MS, remeasureDelayMs: REMEASURE_DELAY_MS });

  function drawSoon(again = false): void {
    redraw ||= again;
    if (!frame && !stopped) frame = win.requestAnimationFrame(draw);
  }

  /**
   * Draws the marks of the links near the viewport, in this frame (it runs in a requestAnimationFrame
   * callback). While the same blocks stay near, scrolling only moves the marks (the overlay does).
   */
  function draw(): void {
    frame = 0;
    if (!overlay || !answered) return;
    const blocks = near.blocks();
    if (!redraw && blocks.length === drawn.length && blocks.every((b, i) => b === drawn[i])) return;
    redraw = false;
    drawn = blocks;
    // Every mark made anew and placed in this frame, whichever answers came: kept where its link's
    // answer stayed the same and made anew where it changed, the work told a page that timed its
    // frames whether the address it had just given its links was read (a privacy review).
    overlay.set(
      'links',
      blocks.flatMap((block) => [...(linksOf.get(block) ?? [])].map((anchor) => ({ anchor, boxClass: 'read-mark', shown: read.has(keyOf.get(anchor) ?? '') }))),
      { anew: true },
    );
    overlay.placeNow();
  }

  /**
   * Asks the background about `keys`, a message's worth at a time, keeping the answers; each batch
   * answered leaves `keys` (so what is left of them was not answered). Whether any was read.
   */
  async function ask(keys: string[]): Promise<boolean> {
    if (keys.length === 0) return false;
    let found = false;
    const began = performance.now();
    while (keys.length > 0 && !stopped) {
      const batch = linkKeysForOneMessage(keys);
      const asking = performance.now();
      const answer = await deliver(() => send('content:linksRead', { keys: batch }), ASK_RETRY);
      stats.messages++;
      stats.answerMs += performance.now() - asking;
      for (const mark of answer.read) read.set(mark.key, mark);
      found ||= answer.read.length > 0;
      answered = true;
      keys.splice(0, batch.length);
    }
    // The marks are drawn no sooner than ANSWER_FLOOR_MS after the question: an address read takes
    // the background a read of its page more than one not read, which a page timing the drawing
    // after it gave its links an address would see.
    const wait = began + ANSWER_FLOOR_MS - performance.now();
    if (wait > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, wait));
    return found;
  }

  /** Reads the keys of links not seen yet, a slice at a time, then asks about the new ones. */
  async function scan(): Promise<void> {
    if (scanning) {
      scanAgain = true;
      return;
    }
    scanning = true;
    clearTimeout(retry);
    const added: Array<HTMLAnchorElement | HTMLAreaElement> = [];
    /** Links whose key was read (again): the page added them or gave them another address. */
    let keyed = 0;
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
          near.untrack(block);
        }
      }
      if (asked.size > maxAsked) forgetGoneKeys();
      const own = pageIdentity(win.location.href);
      const links = doc.links;
      const fresh: string[] = [];
      let sliceStart = performance.now();
      for (let i = 0; i < links.length && !stopped; i++) {
        const a = links[i] as HTMLAnchorElement | HTMLAreaElement;
        if (!keyOf.has(a)) {
          keyed++;
          const href = a.href;
          let key = keyOfHref.get(href);
          if (key === undefined) {
            // A memo, not a record: on an endless feed it starts over rather than grow for ever.
            if (keyOfHref.size >= MAX_MEMO) keyOfHref.clear();
            keyOfHref.set(href, (key = linkKey(href)));
          }
          const kept = key === own ? null : key;
          keyOf.set(a, kept);
          if (kept) {
            if (!tracked.has(a)) {
              tracked.add(a);
              added.push(a);
            }
            if (!asked.has(kept)) {
              asked.add(kept);
              fresh.push(kept);
            }
          } else tracked.delete(a);
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
      try {
        await ask(fresh);
      } catch (e) {
        // Not answered (the background could not be reached): these links are asked about again
        // at the next scan, which comes with the next change of the page or a while later.
        for (const key of fresh) asked.delete(key);
        for (const a of added) {
          keyOf.delete(a);
          tracked.delete(a);
        }
        if (!(e instanceof ExtensionGoneError)) retry = setTimeout(scanSafely, RESCAN_AFTER_FAILURE_MS);
        throw e;
      }
      // Followed after the answer, so the first drawing has it.
      const blocks: Element[] = [];
      sliceStart = performance.now();
      for (let i = 0; i < added.length && !stopped; i++) {
        const a = added[i];
        const block = a.parentElement?.closest(LINK_BLOCKS) ?? a;
        blockOf.set(a, block);
        const links = linksOf.get(block);
        if (links) links.add(a);
        else {
          linksOf.set(block, new Set([a]));
          blocks.push(block);
        }
        if ((i & 31) === 31 && performance.now() - sliceStart > SLICE_MS) {
          await nextTask();
          sliceStart = performance.now();
        }
      }
      await near.track(blocks);
      // Drawn anew when the page's links changed (which the page knows), whatever the answers.
      if (keyed > 0) drawSoon(true);
    } finally {
      scanning = false;
      if (scanAgain && !stopped) {
        scanAgain = false;
        scanSafely();
      }
    }
  }

  /**
   * Keeps only the keys (and answers) of the links still on the page. A link added again later is
   * asked about again, which the page cannot tell from a first question.
   */
  function forgetGoneKeys(): void {
    const kept = new Set<string>();
    for (const a of tracked) {
      const key = keyOf.get(a);
      if (key) kept.add(key);
    }
    for (const key of asked) if (!kept.has(key)) asked.delete(key);
    for (const key of read.keys()) if (!kept.has(key)) read.delete(key);
  }

  const scanSafely = () =>
    void scan().catch((e: unknown) => {
      // The extension was reloaded or removed: this script can do nothing more, and lets the page go.
      if (e instanceof ExtensionGoneError) return marks.stop();
      console.info('Déjà Read: links not checked:', e instanceof Error ? e.message : e);
    });

  // Links the page adds later (infinite lists, single-page apps) are read in batches, one at most
  // every ADDED_LINKS_DELAY_MS however busy the page is.
  const mutations = new MutationObserver((records) => {
    // A link the page gives another address (a list reusing its elements, as virtualised feeds
    // do) is read again.
    for (const r of records) if (r.type === 'attributes') keyOf.delete(r.target as Element);
    rescan ??= setTimeout(() => {
      rescan = undefined;
      scanSafely();
    }, ADDED_LINKS_DELAY_MS);
  });
  mutations.observe(doc, { childList: true, subtree: true, attributes: true, attributeFilter: ['href'] });

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
    const copyOf = mark?.copyOf ? ` · ${t('linkCopyOf', isolate(mark.copyOf))}` : mark?.firstReadAt ? ` · ${t('linkFirstReadAt', isolate(mark.firstReadAt))}` : '';
    overlay.showTip(a, (mark?.today ? t('linkReadToday') : mark?.yesterday ? t('linkReadYesterday') : t('linkReadOn', mark?.date ?? '')) + copyOf, mark !== undefined);
  };
  const hideTip = (e: Event) => {
    if (linkAt(e.target)) overlay?.hideTip();
  };
  const listen = { capture: true, passive: true } as const;
  doc.addEventListener('pointerover', showTip, listen);
  doc.addEventListener('focusin', showTip, listen);
  doc.addEventListener('pointerout', hideTip, listen);
  doc.addEventListener('focusout', hideTip, listen);

  /**
   * Asks again about the links not read when last asked: a page read since, in another tab or in
   * this one before an in-page navigation (a news app's next article), is marked now rather than
   * at the next load. Done when the reader comes back to the tab and after an in-page navigation,
   * never on the page's own timing.
   */
  let rechecking = false;
  let recheckAgain = false;
  async function recheckUnread(): Promise<void> {
    if (stopped || !answered) return;
    if (rechecking) {
      recheckAgain = true;
      return;
    }
    rechecking = true;
    try {
      // Drawn again whatever the answer: only when a link was read since, it told the page, at each
      // in-page navigation it made, that the reader had read one meanwhile.
      const unread = [...asked].filter((key) => !read.has(key));
      if (unread.length === 0) return;
      await ask(unread);
      drawSoon(true);
    } finally {
      rechecking = false;
      if (recheckAgain && !stopped) {
        recheckAgain = false;
        recheckSafely();
      }
    }
  }
  const recheckSafely = () => void recheckUnread().catch((e: unknown) => (e instanceof ExtensionGoneError ? marks.stop() : undefined));
  const onVisible = () => {
    if (doc.visibilityState === 'visible') recheckSafely();
  };
  doc.addEventListener('visibilitychange', onVisible);
  const navigation = (win as { navigation?: EventTarget }).navigation;
  const onNavigated = () => recheckSafely();
  if (navigation && typeof navigation.addEventListener === 'function') navigation.addEventListener('navigatesuccess', onNavigated);
  else win.addEventListener('popstate', onNavigated);

  const marks: LinkMarks = {
    readCount() {
      // Pages, not addresses: one page linked over http and over https is one (the background
      // takes either for the page read: background/links.ts).
      const pages = new Set<string>();
      for (const a of tracked) {
        const key = keyOf.get(a);
        if (key && read.has(key) && a.isConnected) pages.add(key.replace(/^https?:/, ''));
      }
      return pages.size;
    },
    stats: () => ({ ...stats, links: tracked.size, keys: asked.size }),
    stop() {
      stopped = true;
      clearTimeout(rescan);
      clearTimeout(retry);
      if (frame) win.cancelAnimationFrame(frame);
      mutations.disconnect();
      near.stop();
      doc.removeEventListener('pointerover', showTip, listen);
      doc.removeEventListener('focusin', showTip, listen);
      doc.removeEventListener('pointerout', hideTip, listen);
      doc.removeEventListener('focusout', hideTip, listen);
      doc.removeEventListener('visibilitychange', onVisible);
      navigation?.removeEventListener?.('navigatesuccess', onNavigated);
      win.removeEventListener('popstate', onNavigated);
      overlay?.destroy();
      overlay = undefined;
    },
  };
  scanSafely();
  return marks;
}
