// Finds passages of the article in the page's DOM from their locators (core's locator.ts: first and
// last characters, spaces left out), only after the reader asked for them. The page's text is read
// a slice at a time (a TreeWalker over text nodes, a few milliseconds per slice), never changed.
// On a page with open shadow roots the text is read as it is drawn (the composed tree, as the
// extraction read it: snapshot.ts), so passages inside web components are found too.
import { SKIPPED_CHAR, withoutSpaces, type PassageLocator } from '../core';
import { composedNodes, hasShadowRoots, type Slicer } from './snapshot';

/** Elements whose text is not shown as text. */
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TEXTAREA', 'SELECT', 'OPTION', 'svg', 'math']);
/** Characters of the page's text read at most (about 500,000 words). */
const MAX_CHARS = 3_000_000;
/** Nodes handled between two checks of the clock. */
const BATCH = 64;

/** The page's text without spaces, and where each character is in the DOM. */
interface FlatText {
  text: string;
  /** Text node of each character, as an index into `nodes`, and its offset there. */
  node: Uint32Array;
  offset: Uint32Array;
  nodes: Text[];
}

/** The text nodes and elements under `root` in tree order, SKIPPED elements and their content left out. */
function lightNodes(root: Node): { nextNode(): Node | null } {
  const doc = root.ownerDocument ?? (root as Document);
  return doc.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.nodeType === Node.ELEMENT_NODE && SKIPPED.has((n as Element).tagName) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
}

async function flatten(root: Node, slicer: Slicer): Promise<FlatText> {
  const doc = root.ownerDocument ?? (root as Document);
  // On a page with shadow roots, as it is drawn: roots entered, slots replaced by what they are given.
  const walker = (await hasShadowRoots(doc, slicer)) ? composedNodes(root, (el) => SKIPPED.has(el.tagName)) : lightNodes(root);
  const parts: string[] = [];
  let node = new Uint32Array(4096);
  let offset = new Uint32Array(4096);
  const nodes: Text[] = [];
  let length = 0;
  for (let n = walker.nextNode(), k = 0; n && length < MAX_CHARS; n = walker.nextNode(), k++) {
    if (k % BATCH === 0 && slicer.timeUp()) await slicer.pause();
    if (n.nodeType !== Node.TEXT_NODE) continue;
    const data = (n as Text).data;
    const index = nodes.length;
    nodes.push(n as Text);
    if (length + data.length > node.length) {
      const size = Math.max(2 * node.length, length + data.length);
      const grownNode = new Uint32Array(size);
      grownNode.set(node);
      node = grownNode;
      const grownOffset = new Uint32Array(size);
      grownOffset.set(offset);
      offset = grownOffset;
    }
    for (let i = 0; i < data.length; i++) {
      // Skipped as withoutSpaces skips it, so that positions in the flat text map back to the page's.
      if (SKIPPED_CHAR.test(data[i])) continue;
      node[length] = index;
      offset[length++] = i;
    }
    parts.push(withoutSpaces(data));
  }
  return { text: parts.join(''), node, offset, nodes };
}

/**
 * Ranges of the page covering each group of passages (a new part: consecutive passages), in order;
 * null for a group not found. Passages are looked for in order, each after the one before.
 */
export async function findPassageGroups(root: Node, locators: PassageLocator[], groups: number[][], slicer: Slicer): Promise<Array<Range | null>> {
  const flat = await flatten(root, slicer);
  const doc = root.ownerDocument ?? (root as Document);
  let from = 0;
  const ranges: Array<Range | null> = [];
  for (const group of groups) {
    if (slicer.timeUp()) await slicer.pause();
    const first = locate(flat.text, locators[group[0]], from);
    const last = first && group.length > 1 ? locate(flat.text, locators[group[group.length - 1]], first.end) : first;
    if (!first || !last) {
      ranges.push(null);
      continue;
    }
    from = last.end;
    const start = flat.nodes[flat.node[first.start]];
    const end = flat.nodes[flat.node[last.end - 1]];
    // A range lies in one tree: a part that starts in a shadow root and ends outside it is not drawn.
    if (start.getRootNode() !== end.getRootNode()) {
      ranges.push(null);
      continue;
    }
    const range = doc.createRange();
    range.setStart(start, flat.offset[first.start]);
    range.setEnd(end, flat.offset[last.end - 1] + 1);
    ranges.push(range);
  }
  return ranges;
}

/** Where a passage is in the flat text, searched from `from` (then from the start), as [start, end). */
function locate(text: string, loc: PassageLocator | undefined, from: number): { start: number; end: number } | null {
  if (!loc || !loc.head) return null;
  for (const at of from > 0 ? [from, 0] : [0]) {
    const start = text.indexOf(loc.head, at);
    if (start < 0) continue;
    if (!loc.tail) return { start, end: start + loc.head.length };
    const tail = text.indexOf(loc.tail, start + loc.head.length);
    // The tail belongs to this passage only if it comes within its length (give or take a little:
    // the page may hold text the extraction left out, such as an inline note).
    if (tail >= 0 && tail + loc.tail.length <= start + 2 * loc.length + 64) return { start, end: tail + loc.tail.length };
  }
  return null;
}
