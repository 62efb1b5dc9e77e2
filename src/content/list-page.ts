// Whether the text Readability pulled out of a page is a list of items rather than an article:
// search results, link lists, category and tag pages, forum indexes, galleries, docs indexes, news
// front pages. They can hold as much text as an article, in paragraphs as long, so neither the
// length nor Readability's readerable check tells them apart (docs/extraction.md, "Pages that
// are not articles"). What does is their shape: the text falls into many short items, each begun
// by a link (a headline, a thread, a photo) that leads somewhere else, or in a list's items by a
// label and then such a link (a date, a [tag], a section number). An article's links sit inside its
// sentences, or in a short list at its end ("related", references), so its text is not cut into
// short link-led items.

/** Elements that begin a line of text: a link that comes first in one of these begins an item. */
const BLOCKS = new Set(['ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DIV', 'DL', 'DT', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'SECTION', 'TABLE', 'TBODY', 'TD', 'TH', 'THEAD', 'TR', 'UL']);
/** An item (a link that begins a line, and the text up to the next one) no longer than this, in word-equivalents, is short. */
export const ITEM_MAX_WORDS = 100;
/** Words that may come before an item's link in a list's item, as labels: a date, a tag, a number ("1.2", "2026-03-10 [News]"). */
export const LEAD_WORDS = 4;
/** The blocks of lists and tables, where a label may lead an item's link. */
const ITEMS = new Set(['LI', 'DD', 'DT', 'TD', 'TH']);
/** A label: no letters at all ("1.2", "2026-03-10", "3."), or a tag in brackets ("[Campus]", "【前端】"). */
const LABEL = /^[^\p{L}]*$|^\s*[[【〔(（][^\]】〕)）]*[\]】〕)）]\s*$/u;
/** A list has at least this many short items… */
export const MIN_ITEMS = 8;
/** …and they hold at least this share of the text. */
export const ITEM_SHARE = 0.8;

export interface ListShape {
  /** Short link-led items. */
  items: number;
  /** Share of the text (in word-equivalents) that lies in them. */
  share: number;
  /** Share of the text that captions pictures (`<figcaption>`). */
  captions: number;
  /** Share of the text that is the text of links leading away… */
  linked: number;
  /** …and how many such links there are. */
  links: number;
}

/**
 * The shape of `root`'s text. `words` counts a text's word-equivalents (the core's textStats, so
 * Chinese and Japanese count as English does).
 */
export function listShape(root: Element, words: (text: string) => number): ListShape {
  const doc = root.ownerDocument;
  const started = new Set<Element>();
  const blockOf = (node: Node): Element => {
    for (let e = node.parentElement; e && e !== root; e = e.parentElement) if (BLOCKS.has(e.tagName)) return e;
    return root;
  };
  /** Marks the block and those around it as begun; answers whether the node came first in its own block. */
  const firstInBlock = (node: Node): boolean => {
    const block = blockOf(node);
    const first = !started.has(block);
    for (let e: Element | null = block; e && !started.has(e); e = e === root ? null : e.parentElement) started.add(e);
    return first;
  };
  const linkOf = (node: Node): Element | null => {
    const link = node.parentElement?.closest('a[href]');
    return link && root.contains(link) && !(link.getAttribute('href') ?? '').startsWith('#') ? link : null;
  };
  const links = new Set<Element>();
  /** Words of labels in a block before its first link (Infinity after other words); blocks with a link. */
  const lead = new Map<Element, number>();
  const withLink = new Set<Element>();

  let total = 0;
  let items = 0;
  let inItems = 0;
  /** Words of the item being read, or -1 before the first item. */
  let current = -1;
  const close = () => {
    if (current >= 0 && current <= ITEM_MAX_WORDS) {
      items++;
      inItems += current;
    }
  };
  let captions = 0;
  let linked = 0;
  const walker = doc.createTreeWalker(root, 0x4); // text
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue ?? '';
    if (!/\S/.test(text)) continue;
    const n = words(text);
    const link = linkOf(node);
    const block = blockOf(node);
    const first = firstInBlock(node);
    if (link && (first || (ITEMS.has(block.tagName) && !withLink.has(block) && (lead.get(block) ?? 0) <= LEAD_WORDS))) {
      close();
      current = 0;
    }
    if (link) withLink.add(block);
    else {
      // Only labels may lead: not prose ("March 3: the board…"), nor a heading or paragraph of the blocks around it.
      lead.set(block, LABEL.test(text) ? (lead.get(block) ?? 0) + n : Infinity);
      // (An ancestor already past leading had its own ancestors passed with it: the walk stops there.)
      for (let e = block.parentElement; e && block !== root && root.contains(e) && lead.get(e) !== Infinity; e = e === root ? null : e.parentElement) lead.set(e, Infinity);
    }
    total += n;
    if (link) {
      linked += n;
      links.add(link);
    }
    if (current >= 0) current += n;
    if (node.parentElement?.closest('figcaption')) captions += n;
  }
  close();
  return { items, share: total ? inItems / total : 0, captions: total ? captions / total : 0, linked: total ? linked / total : 0, links: links.size };
}

/**
 * A text this much of which is the text of links (at least LINKED_MIN_LINKS of them) is a list
 * of links however few: an article's links sit in its sentences (at most 35 % of the text of any
 * Readability page of ../shared/corpus; docs/extraction.md).
 */
export const LINKED_SHARE = 0.6;
export const LINKED_MIN_LINKS = 3;

/** Whether a text of this shape is a list of items, not an article. */
export const isList = (shape: ListShape): boolean =>
  (shape.items >= MIN_ITEMS && shape.share >= ITEM_SHARE) || shape.captions >= ITEM_SHARE || (shape.linked >= LINKED_SHARE && shape.links >= LINKED_MIN_LINKS);
