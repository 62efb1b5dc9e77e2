// A serialised copy of the page, made in slices so the page's main thread is never held for long:
// the article is parsed and extracted away from the page (see docs/extraction.md). Only reads the
// DOM; the page's own DOM is never changed.
import { wordCount } from '../core';

/** Elements copied at most: of a page with more, its first part (Readability's work away from the page grows with them). */
export const MAX_ELEMENTS = 60_000;
/** A serialised page longer than this (UTF-16 units) is skipped: it would not fit in one message. */
export const MAX_HTML_CHARS = 16 * 1024 * 1024;

/** Hands the thread back to the page between slices; `timeUp` says when the current slice is spent. */
export interface Slicer {
  timeUp(): boolean;
  pause(): Promise<void>;
}

/** The copy in pieces, in order, each small enough to send in one short task (see `pieces`). */
export type Snapshot = { ok: true; chunks: string[] } | { ok: false; reason: string };
/** About this many UTF-16 units per piece: Chrome serialises a message of 256 Ki characters in a few milliseconds. */
export const PIECE_CHARS = 256 * 1024;

/** Elements whose text the HTML parser takes literally: their text is written as it is. */
const RAW_TEXT = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const VOID = new Set(['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** The parser drops a newline right after these start tags: one is written back when the text starts with one. */
const LEADING_NEWLINE = new Set(['pre', 'textarea', 'listing']);
/** Checks of the clock: one per this many nodes. */
const NODES_PER_CHECK = 16;
/** An element with at most this many elements inside is written by the browser in one call. */
const NATIVE_MAX_ELEMENTS = 300;
/**
 * What a subtree written by the browser must not hold: what the walk leaves out (JSON-LD is kept
 * either way), and the elements whose leading newline the walk writes back.
 */
const NOT_NATIVE = 'script,style,noscript,template,[data-deja-read],pre,textarea,listing';

/**
 * The element as the browser writes it (`outerHTML`), when its subtree is small and holds nothing
 * the walk would treat differently; else null. One call instead of a walk through every node: far
 * fewer wrappers and strings for the garbage collector, which otherwise runs inside our slices.
 * Comments inside come along (the walk drops them); the parser that reads the copy ignores them.
 */
function nativeCopy(el: Element): string | null {
  if (el.getElementsByTagName('*').length > NATIVE_MAX_ELEMENTS || el.matches(NOT_NATIVE) || el.querySelector(NOT_NATIVE)) return null;
  // Reading the page's own markup, never writing any: the copy is parsed inert, away from the page.
  // eslint-disable-next-line no-restricted-properties
  return el.outerHTML;
}

/**
 * Left out of the copy: what Readability throws away before reading (scripts, except the JSON-LD
 * it reads titles from; styles; noscript fallbacks), inert template contents, and the notice's host.
 */
function leftOut(el: Element): boolean {
  if (el.hasAttribute('data-deja-read')) return true;
  switch (el.localName) {
    case 'script':
      return (el.getAttribute('type') ?? '').trim().toLowerCase() !== 'application/ld+json';
    case 'style':
    case 'noscript':
    case 'template':
      return true;
    default:
      return false;
  }
}

const escapeText = (s: string) => (/[&<>]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;') : s);
const escapeAttr = (s: string) => (/[&"]/.test(s) ? s.replace(/&/g, '&amp;').replace(/"/g, '&quot;') : s);

function startTag(el: Element): string {
  let tag = `<${el.localName}`;
  // Names and values as strings: no Attr objects for the garbage collector to trace.
  for (const name of el.getAttributeNames()) tag += ` ${name}="${escapeAttr(el.getAttribute(name) ?? '')}"`;
  return `${tag}>`;
}

/**
 * Whether the text of `root` (its text nodes in document order, as `textContent` joins them) holds
 * at least `minWords` words. Reads only as far as it needs: an article answers within its first
 * paragraphs. `nodes` gives the nodes to read another way (composedNodes: as the page is drawn);
 * only its text nodes count.
 */
export async function hasEnoughProse(root: Node, minWords: number, slicer: Slicer, nodes?: { nextNode(): Node | null }): Promise<boolean> {
  const doc = root.ownerDocument ?? (root as Document);
  const walker = nodes ?? doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  let text = '';
  let nextCheck = 1024;
  let n = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === 3) {
      text += (node as Text).data;
      if (text.length >= nextCheck) {
        if (wordCount(text) >= minWords) return true;
        nextCheck = text.length * 2;
      }
    }
    if (++n % NODES_PER_CHECK === 0 && slicer.timeUp()) await slicer.pause();
  }
  return wordCount(text) >= minWords;
}

/**
 * The document as HTML, in chunks of about PIECE_CHARS, written node by node (a slice at a time)
 * rather than by one call that would hold the thread for the whole page. Null when it grows past
 * `maxChars`. Of a page with more than `maxElements` elements, the part before the one past them,
 * its open elements closed. If the page changes the DOM between slices the copy may mix the two
 * states; the HTML parser copes.
 */
export async function serialise(doc: Document, slicer: Slicer, maxChars = MAX_HTML_CHARS, maxElements = MAX_ELEMENTS): Promise<string[] | null> {
  const root = doc.documentElement;
  if (!root) return null;
  const out = new Pieces();
  const put = (s: string) => out.put(s);
  const dt = doc.doctype;
  if (dt) put(doctype(dt));
  // A page that rearranges its DOM while we pause cannot keep us walking for ever.
  let steps = 0;
  /** Nodes written since the clock was last checked. */
  let unchecked = 0;
  const maxSteps = 8 * MAX_ELEMENTS + maxChars / 8;
  let elements = 0;
  let node: Node | null = root;
  let entering = true;
  while (node) {
    if (entering) {
      entering = false;
      if (node.nodeType === 1) {
        const el = node as Element;
        const whole = el === root || leftOut(el) ? null : nativeCopy(el);
        const size = whole === null ? 1 : 1 + el.getElementsByTagName('*').length;
        if (elements + size > maxElements && el !== root) {
          // The page's first part: what is open is closed, and the rest is left out.
          for (let up = node.parentNode; up && up.nodeType === 1; up = up === root ? null : up.parentNode) put(`</${(up as Element).localName}>`);
          return out.end();
        }
        if (whole !== null) {
          elements += size;
          put(whole);
          // A subtree is worth many nodes: the clock is checked right after it.
          unchecked = NODES_PER_CHECK;
        }
        else if (!leftOut(el)) {
          elements++;
          put(startTag(el));
          const first = el.firstChild;
          if (!VOID.has(el.localName)) {
            if (first) {
              if (LEADING_NEWLINE.has(el.localName) && first.nodeType === 3 && (first as Text).data.startsWith('\n')) put('\n');
              node = first;
              entering = true;
              continue;
            }
            put(`</${el.localName}>`);
          }
        }
      } else if (node.nodeType === 3) {
        const parent = node.parentNode as Element | null;
        const data = (node as Text).data;
        put(parent && RAW_TEXT.has(parent.localName) ? data : escapeText(data));
      }
      // Comments and processing instructions are left out.
    }
    if (out.chars > maxChars || ++steps > maxSteps) return null;
    if (++unchecked >= NODES_PER_CHECK) {
      unchecked = 0;
      if (slicer.timeUp()) await slicer.pause();
    }
    if (node === root) break;
    if (node.nextSibling) {
      node = node.nextSibling;
      entering = true;
    } else {
      node = node.parentNode;
      if (node?.nodeType === 1) put(`</${(node as Element).localName}>`);
    }
  }
  return out.end();
}

/** Text written in chunks of about PIECE_CHARS. */
class Pieces {
  /** Characters written so far. */
  chars = 0;
  private readonly chunks: string[] = [];
  private parts: string[] = [];
  private buffered = 0;

  put(s: string): void {
    this.parts.push(s);
    this.chars += s.length;
    this.buffered += s.length;
    if (this.buffered >= PIECE_CHARS) {
      this.chunks.push(this.parts.join(''));
      this.parts = [];
      this.buffered = 0;
    }
  }

  /** The chunks, the last one ended. */
  end(): string[] {
    this.chunks.push(this.parts.join(''));
    return this.chunks;
  }
}

/** The document type as written before the document. */
function doctype(dt: DocumentType): string {
  return `<!DOCTYPE ${dt.name}${dt.publicId ? ` PUBLIC "${dt.publicId}"${dt.systemId ? ` "${dt.systemId}"` : ''}` : dt.systemId ? ` SYSTEM "${dt.systemId}"` : ''}>`;
}

// --- Pages built of web components: text in open shadow roots ---
//
// Some sites render their articles inside custom elements' shadow roots, which neither a tree walker
// nor `outerHTML` enters. A page with any open shadow root is copied as it is drawn (its composed
// tree): a host's shadow content in place of its children, and each <slot> replaced by the
// children assigned to it (or its own content, when none is). Closed shadow roots stay closed.

/** The nodes drawn under `node` in the composed tree, in order. */
export function composedChildren(node: Node): ArrayLike<Node> {
  if (node.nodeType !== 1) return node.childNodes;
  const el = node as Element;
  if (el.shadowRoot) return el.shadowRoot.childNodes;
  if (el.localName === 'slot' && isInShadowTree(el)) {
    const assigned = (el as HTMLSlotElement).assignedNodes();
    if (assigned.length > 0) return assigned;
  }
  return el.childNodes;
}

/** Whether `el` is inside a shadow root (a <slot> elsewhere is an unknown element like any other). */
function isInShadowTree(el: Element): boolean {
  const root = el.getRootNode();
  return root.nodeType === 11 && 'host' in root;
}

/**
 * Whether any element of the page's light tree has an open shadow root, checked a slice at a time.
 * Every element is looked at (any of a dozen built-in elements may host a root, not only custom
 * ones); on the 59,000-element bench page this made the extension's longest task (median of 5
 * loads) 13 → 16–17 ms.
 * An XPath for custom elements alone was dearer still: one unsliced call of 22 ms.
 */
export async function hasShadowRoots(doc: Document, slicer: Slicer): Promise<boolean> {
  const all = doc.getElementsByTagName('*');
  for (let i = 0; i < all.length; i++) {
    if (all[i].shadowRoot) return true;
    if ((i & 1023) === 1023 && slicer.timeUp()) await slicer.pause();
  }
  return false;
}

/** Whether the browser may write `el` whole in the composed copy: nothing under it is drawn other than as its markup says. */
function plainSubtree(el: Element): boolean {
  if (el.shadowRoot || el.localName === 'slot') return false;
  const all = el.getElementsByTagName('*');
  // Larger subtrees are walked anyway (nativeCopy refuses them): not looked through here.
  if (all.length > NATIVE_MAX_ELEMENTS) return false;
  for (let i = 0; i < all.length; i++) if (all[i].shadowRoot || all[i].localName === 'slot') return false;
  return true;
}

interface Frame {
  nodes: ArrayLike<Node>;
  i: number;
  /** The element whose end tag comes after its nodes (none for a slot, whose tags are left out). */
  close: string | null;
}

/**
 * The elements and text nodes under `root` in the composed tree, in order (a walker's `nextNode`);
 * the content of an element `skip` takes is left out, and so is the element.
 */
export function composedNodes(root: Node, skip: (el: Element) => boolean): { nextNode(): Node | null } {
  const stack: Array<{ nodes: ArrayLike<Node>; i: number }> = [{ nodes: composedChildren(root), i: 0 }];
  return {
    nextNode() {
      while (stack.length > 0) {
        const top = stack[stack.length - 1];
        if (top.i >= top.nodes.length) {
          stack.pop();
          continue;
        }
        const n = top.nodes[top.i++];
        if (n.nodeType === 3) return n;
        if (n.nodeType === 1 && !skip(n as Element)) {
          stack.push({ nodes: composedChildren(n), i: 0 });
          return n;
        }
      }
      return null;
    },
  };
}

/** serialise, for a page with shadow roots: its composed tree (see above), written a slice at a time. */
async function serialiseComposed(doc: Document, slicer: Slicer, maxChars: number): Promise<string[] | null> {
  const root = doc.documentElement;
  const out = new Pieces();
  const put = (s: string) => out.put(s);
  const dt = doc.doctype;
  if (dt) put(doctype(dt));
  put(startTag(root));
  const stack: Frame[] = [{ nodes: composedChildren(root), i: 0, close: root.localName }];
  let steps = 0;
  const maxSteps = 8 * MAX_ELEMENTS + maxChars / 8;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i >= top.nodes.length) {
      stack.pop();
      if (top.close) put(`</${top.close}>`);
      continue;
    }
    const first = top.i === 0;
    const node = top.nodes[top.i++];
    if (node.nodeType === 3) {
      const data = (node as Text).data;
      const parent = composedParent(top, stack);
      if (first && parent && LEADING_NEWLINE.has(parent) && data.startsWith('\n')) put('\n');
      put(parent && RAW_TEXT.has(parent) ? data : escapeText(data));
    } else if (node.nodeType === 1) {
      const el = node as Element;
      if (!leftOut(el)) {
        const whole = plainSubtree(el) ? nativeCopy(el) : null;
        if (whole !== null) put(whole);
        else if (el.localName === 'slot' && isInShadowTree(el)) stack.push({ nodes: composedChildren(el), i: 0, close: null });
        else {
          put(startTag(el));
          if (!VOID.has(el.localName)) stack.push({ nodes: composedChildren(el), i: 0, close: el.localName });
        }
      }
    }
    if (out.chars > maxChars || ++steps > maxSteps) return null;
    if (steps % NODES_PER_CHECK === 0 && slicer.timeUp()) await slicer.pause();
  }
  return out.end();
}

/** The element whose content `top` is being written: the nearest frame below that writes tags. */
function composedParent(top: Frame, stack: Frame[]): string | null {
  if (top.close) return top.close;
  for (let i = stack.length - 2; i >= 0; i--) if (stack[i].close) return stack[i].close;
  return null;
}

/**
 * `chunks` cut into pieces of at most about PIECE_CHARS (a huge text node makes a huge chunk),
 * never between the two halves of a surrogate pair.
 */
export function* pieces(chunks: string[], size = PIECE_CHARS): Generator<string> {
  for (const chunk of chunks) {
    let i = 0;
    while (i < chunk.length) {
      let end = Math.min(chunk.length, i + size);
      const c = chunk.charCodeAt(end - 1);
      if (end < chunk.length && c >= 0xd800 && c <= 0xdbff && end - 1 > i) end--;
      yield chunk.slice(i, end);
      i = end;
    }
  }
}

/**
 * The page as HTML for extraction elsewhere, or why it is not worth it: no body, too many
 * elements, too little prose (the cheap checks come first, so pages that are not articles cost
 * almost nothing), or too large.
 */
export async function snapshotDocument(doc: Document, minWords: number, slicer: Slicer): Promise<Snapshot> {
  const body = doc.body;
  if (!body) return { ok: false, reason: 'no body' };
  // A page of more elements than are copied is read in its first part (its shadow roots, if any, not entered).
  const whole = body.getElementsByTagName('*').length <= MAX_ELEMENTS;
  const composed = whole && (await hasShadowRoots(doc, slicer));
  if (!(await hasEnoughProse(body, minWords, slicer, composed ? composedNodes(body, leftOut) : undefined))) return { ok: false, reason: 'too little text' };
  const chunks = composed ? await serialiseComposed(doc, slicer, MAX_HTML_CHARS) : await serialise(doc, slicer);
  if (chunks === null) return { ok: false, reason: 'too large to copy' };
  return { ok: true, chunks };
}

/** A slicer for the page's thread: slices of `sliceMs`, then a pause that lets the page's own tasks run. */
export function pageSlicer(sliceMs = 8): Slicer {
  let start = performance.now();
  return {
    timeUp: () => performance.now() - start > sliceMs,
    async pause() {
      // A zero-delay timer: queued behind the page's own timers and events, so the page keeps
      // running its code between slices. (scheduler.yield() would resume us first, ahead of them.)
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      start = performance.now();
    },
  };
}
