// Pages for the link marks: an article A, its exact copy B at another address, an unread C, a list
// linking to them; a hostile list of 200 links that records everything its scripts can observe;
// and a list of 2,000 links. Used by the Chromium and Firefox suites and by `bench:links`.
import { articlePage, loadArticle } from './site';

export const LINKS = {
  a: '/links/courier/lantern-keepers.html',
  b: '/links/reposts/2026/lantern-keepers.html',
  c: '/links/courier/unread.html',
  list: '/links/list.html',
  /** 200 links, to /links/h/0 … 199 (the test makes the even ones read). */
  hostileHalf: '/links/hostile/half.html',
  /** The same page, linking to /links/n/0 … 199 (none read). */
  hostileNone: '/links/hostile/none.html',
  many: '/links/many.html',
  /** A box that scrolls (its last link to A), then 400 links (the last to B): marks for what scrolls into view. */
  long: '/links/long.html',
  /** A page with no link when it loads, which draws its list (to A and C) by script a moment later. */
  late: '/links/late.html',
  /** An article whose title has characters a system font may lack (an emoji, Han), read first… */
  fontsRead: '/links/fonts/read.html',
  /**
   * …and its copy, whose page defines faces for the font names a notice might use, to see which load,
   * and reads whatever of the notice Firefox's event and selection properties hand it.
   */
  fontsCopy: '/links/fonts/copy.html',
} as const;

/**
 * The article of the font probe: a text no other test reads or resembles (an article's letters
 * shifted: words of their own, sentences as long), so the notice on its copy names it and nothing else.
 */
const fireworks = () => {
  const bridges = loadArticle('en-bridges');
  const shifted = (text: string) => text.replace(/[a-z]/g, (c) => String.fromCharCode(((c.charCodeAt(0) - 97 + 7) % 26) + 97));
  return { ...bridges, title: '🔥 年度 Fireworks over the old bridges', paragraphs: bridges.paragraphs.map(shifted) };
};
/** Font names a notice could ask for after its first choice, and the probe's characters (🔥 年 度). */
const PROBED_FAMILIES = ['Segoe UI', '-apple-system', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Noto Sans', 'Arial', 'Helvetica', 'Roboto'];
const PROBED_RANGES = ['U+1F525', 'U+5E74', 'U+5EA6'];
/**
 * A page's own faces under those names, one per character: the page sees in `document.fonts` (and
 * its server in its log) every one the browser loads for text drawn over it, its own or not.
 * `window.__fonts()` lists those loaded or tried.
 */
const FONT_PROBE = `<style>${PROBED_FAMILIES.flatMap((family, f) => PROBED_RANGES.map((range, r) => `@font-face{font-family:"${family}";src:url(/fonts/probe-${f}-${r}.woff2);unicode-range:${range}}`)).join('')}
body{font:15px/1.5 serif}</style>`;
const FONT_SCRIPT = `window.__fonts = () => [...document.fonts].filter((f) => f.status !== 'unloaded').map((f) => f.family + ' ' + f.unicodeRange + ' ' + f.status);`;
/**
 * What a page reaches of the notice through the nodes Firefox hands it (a closed shadow root did not
 * keep them from it): every mouse and pointer event's `explicitOriginalTarget` and `rangeParent`,
 * and the selection's nodes after each key and focus change. From each, through `getRootNode()`, it
 * reads what it can: the text, every attribute, and the document of a frame found there (null for
 * one of another origin). `window.__reached()` lists what it read.
 */
const REACH_SCRIPT = `(() => {
  const read = new Set();
  const take = (node) => {
    if (!node || typeof node.getRootNode !== 'function') return;
    const root = node.getRootNode();
    if (root === document || !root.querySelectorAll) return;
    read.add('text:' + root.textContent);
    for (const e of root.querySelectorAll('*')) {
      for (const a of e.attributes) read.add(e.localName + '@' + a.name + '=' + a.value);
      if (e.localName === 'iframe') {
        let inner = null;
        try { inner = e.contentDocument && e.contentDocument.documentElement.outerHTML; } catch (err) { inner = 'refused'; }
        read.add('frame:' + inner);
      }
    }
  };
  for (const type of ['mouseover', 'mousemove', 'mouseout', 'pointerover', 'pointermove', 'pointerout', 'click']) {
    window.addEventListener(type, (e) => { take(e.explicitOriginalTarget); take(e.rangeParent); take(e.target); }, true);
  }
  const selection = () => {
    const s = getSelection();
    if (!s) return;
    take(s.anchorNode); take(s.focusNode);
    for (let i = 0; i < s.rangeCount; i++) { const r = s.getRangeAt(i); take(r.startContainer); take(r.endContainer); }
  };
  for (const type of ['keydown', 'keyup', 'focusin', 'focusout', 'blur', 'selectionchange']) window.addEventListener(type, selection, true);
  document.addEventListener('selectionchange', selection, true);
  window.__reached = () => { selection(); return [...read]; };
})();`;

/** The article read at A and (same text) at B: its own text, so no other test has read it. */
const lanternKeepers = () => {
  const ferry = loadArticle('en-ferry');
  return { ...ferry, title: 'The last lantern keepers of the river', paragraphs: ferry.paragraphs.map((p, i) => (i === 0 ? `Lantern keepers, a note: ${p}` : p)) };
};

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** A list page: a heading and one paragraph per link, as a feed or a forum lists them. */
function listPage(title: string, links: Array<[string, string]>, script = ''): string {
  const items = links.map(([href, text]) => `<li><a href="${esc(href)}">${esc(text)}</a> <span class="meta">12 comments</span></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:15px/1.5 sans-serif;margin:2em}li{margin:.2em 0}</style></head>
<body><h1>${esc(title)}</h1><ol id="list">${items}</ol>${script ? `<script>${script}</script>` : ''}</body></html>`;
}

/**
 * What a hostile page can observe of itself, recorded by its own script: every mutation of its DOM,
 * every element's box and full computed style (hashed), what is hit at the centre of each link,
 * the occlusion of each link (IntersectionObserver v2 where the browser has it), the document's
 * size, the focus moves and the events it sees. `window.__observe()` returns it all; `window.__before`
 * holds what it returned once the page was parsed, before any content script ran.
 */
const OBSERVER_SCRIPT = `
const mutations = [];
const events = [];
const visibility = {};
// Every change IntersectionObserver v2 reported, in order: a mark or tip drawn over a link for a moment shows here even once it is gone.
const visibilityChanges = [];
const nameOf = (n) => n && n.nodeType === 1 ? n.localName + (n.id ? '#' + n.id : '') : String(n && n.nodeName);
new MutationObserver((records) => {
  for (const r of records) mutations.push([r.type, nameOf(r.target), r.attributeName, [...r.addedNodes].map(nameOf).join(), [...r.removedNodes].map(nameOf).join()].join('|'));
}).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
for (const type of ['focusin', 'focusout', 'pointerover', 'mouseover', 'scroll', 'resize', 'click', 'keydown']) {
  window.addEventListener(type, (e) => events.push(type + ':' + nameOf(e.target) + ':' + [...document.links].indexOf(e.target)), true);
}
// Elements defined under the names the extension's hosts once had: a page that defines them first
// has its constructor run on such a host, and reads its closed root through attachInternals().
const captured = [];
for (const name of ['deja-read-overlay', 'deja-read-notice']) {
  customElements.define(name, class extends HTMLElement { constructor() { super(); captured.push(this.attachInternals()); } });
}
const links = [...document.links];
try {
  const io = new IntersectionObserver((entries) => { for (const e of entries) { const i = links.indexOf(e.target); if (i in visibility && visibility[i] !== e.isVisible) visibilityChanges.push(i + ':' + e.isVisible); visibility[i] = e.isVisible; } }, { trackVisibility: true, delay: 100 });
  links.forEach((a) => io.observe(a));
} catch (e) { visibility.unsupported = String(e); }
const hash = (s) => { let h = 2166136261; for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); } return (h >>> 0).toString(16); };
window.__observe = () => {
  const all = [...document.querySelectorAll('*')];
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].join(','); };
  return {
    elements: all.map((e) => nameOf(e) + ' ' + box(e) + ' ' + e.getClientRects().length + ' ' + [e.offsetWidth, e.offsetHeight, e.scrollWidth, e.scrollHeight].join(',')),
    styles: all.map((e) => { const cs = getComputedStyle(e); let s = ''; for (let i = 0; i < cs.length; i++) s += cs[i] + ':' + cs.getPropertyValue(cs[i]) + ';'; return hash(s); }),
    shadowRoots: all.filter((e) => e.shadowRoot).length,
    hits: links.map((a) => { const r = a.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2; return [nameOf(document.elementFromPoint(x, y)), document.elementsFromPoint(x, y).map(nameOf).join('>')].join(' '); }),
    document: [document.documentElement.scrollWidth, document.documentElement.scrollHeight, document.body.scrollWidth, document.body.scrollHeight, innerWidth, innerHeight, scrollX, scrollY].join(','),
    active: nameOf(document.activeElement) + ':' + links.indexOf(document.activeElement),
    visibility: JSON.stringify(visibility),
    captured: captured.map((internals) => (internals.shadowRoot ? hash(internals.shadowRoot.innerHTML) : 'none')),
    visibilityChanges: visibilityChanges.slice(),
    mutations: mutations.slice(),
    events: events.slice(),
  };
};
window.__before = window.__observe();`;

const HOSTILE_COUNT = 200;

/**
 * The hostile lists' own CSS, aimed at what crosses into the extension's closed shadow roots:
 * custom properties (inherited through the hosts; a shadow widened to cover the whole window, in a
 * colour no one sees, would show IntersectionObserver v2 which links' tips draw it), and properties
 * inherited from the hosts where their style lets the page's through (a text shadow far out from
 * every letter).
 */
const HOSTILE_CSS = `<style>
:root, html > div, deja-read-overlay, deja-read-notice { --dr-shadow: transparent, 0 0 0 3000px transparent; --dr-soft: transparent; --dr-accent: transparent; --dr-paper: transparent; --dr-ink: transparent; --dr-line: transparent; }
html > div, deja-read-overlay, deja-read-notice { text-shadow: 2000px 2000px 0 transparent, -2000px 0 0 transparent !important; user-select: text !important; }
</style>`;

/** The hrefs of the hostile pages' links (`prefix` h or n). */
export const hostileLinkPath = (prefix: 'h' | 'n', i: number) => `/links/${prefix}/${i}.html`;

/** Every page, by path. */
export function linkPages(): Record<string, string> {
  const read = lanternKeepers();
  const hostile = (prefix: 'h' | 'n') =>
    listPage(
      'Stories people are reading',
      Array.from({ length: HOSTILE_COUNT }, (_, i) => [hostileLinkPath(prefix, i), `Story number ${i}: a headline of a usual length`]),
      OBSERVER_SCRIPT,
    ).replace('</head>', `${HOSTILE_CSS}</head>`);
  return {
    [LINKS.a]: articlePage(read),
    [LINKS.b]: articlePage(read),
    [LINKS.c]: articlePage(loadArticle('ja-walk')),
    [LINKS.list]: listPage('Today’s links', [
      [`${LINKS.a}?utm_source=newsletter&utm_medium=email&fbclid=IwAR3x#comments`, 'The last lantern keepers (the original)'],
      [LINKS.b, 'The last lantern keepers (a repost)'],
      [LINKS.c, 'A walk we never took'],
    ]),
    [LINKS.hostileHalf]: hostile('h'),
    [LINKS.hostileNone]: hostile('n'),
    [LINKS.long]: listPage(
      'A long list',
      Array.from({ length: 400 }, (_, i) => [i === 399 ? LINKS.b : `/links/l/${i}.html`, `Entry ${i} of the long list`]),
    ).replace(
      '<ol id="list">',
      `<div id="box" style="height:150px;overflow:auto;border:1px solid"><ol>${Array.from({ length: 50 }, (_, i) => `<li><a href="${i === 49 ? LINKS.a : `/links/box/${i}.html`}">Boxed entry ${i}</a></li>`).join('')}</ol></div><ol id="list">`,
    ),
    [LINKS.late]: listPage('Loading the links…', []).replace(
      '</body>',
      `<script>setTimeout(() => { document.getElementById('list').innerHTML = '<li><a href="${LINKS.a}">The last lantern keepers</a></li><li><a href="${LINKS.c}">A walk we never took</a></li>'; }, 1500);</script></body>`,
    ),
    [LINKS.fontsRead]: articlePage(fireworks()),
    [LINKS.fontsCopy]: articlePage({ ...fireworks(), title: 'Fireworks over the old bridges (a repost)' }, FONT_SCRIPT + REACH_SCRIPT).replace('</head>', `${FONT_PROBE}</head>`),
    [LINKS.many]: listPage('Two thousand links', Array.from({ length: 2000 }, (_, i) => [`/links/m/${i}.html?utm_source=list`, `Entry ${i} of the long list`])),
  };
}
