// Pages with scripts of their own, served by the test site: a single-page app that navigates in
// place, and hostile pages that swap their text to learn which article the reader read.
import { articlePage, loadArticle, type Article } from './site';

// 50 in-place navigations to ?view=N, then 10 fragment changes; the article stays the same.
const SPA_SCRIPT = `
let n = 0;
const timer = setInterval(() => {
  n++;
  if (n <= 50) history.pushState({}, '', '?view=' + n);
  else if (n <= 60) location.hash = 'section-' + n;
  else clearInterval(timer);
}, 40);`;

/**
 * Shows the first candidate, then every `swapEveryMs` pushes a new address and shows the next one in
 * `order`; records in `window.__seen` every element added to the page that the page did not add.
 */
function hostileScript(swapEveryMs: number, order: number[]): string {
  const candidates = ['en-bridges', 'en-library', 'en-balcony', 'zh-library'].map(loadArticle).map((a) => ({ title: a.title, paragraphs: a.paragraphs }));
  return `
window.__seen = [];
new MutationObserver((records) => {
  for (const r of records) for (const node of r.addedNodes) if (node.nodeType === 1 && !node.dataset.page) window.__seen.push({ tag: node.localName, at: performance.now() });
}).observe(document.documentElement, { childList: true, subtree: true });
const candidates = ${JSON.stringify(candidates)};
const order = ${JSON.stringify(order)};
let i = 0;
const show = (c) => {
  document.getElementById('body').replaceChildren(...c.paragraphs.map((t) => { const p = document.createElement('p'); p.dataset.page = '1'; p.textContent = t; return p; }));
  document.querySelector('h1').textContent = c.title;
};
const timer = setInterval(() => {
  i++;
  if (i >= order.length) return clearInterval(timer);
  history.pushState({}, '', '?candidate=' + order[i]);
  show(candidates[order[i]]);
}, ${swapEveryMs});`;
}

/**
 * A page built by its script, as many news and blog pages are: "Loading…" when it loads, and `ms`
 * later the article, written in at the same address.
 */
function writtenLater(a: Article, ms: number): string {
  const data = JSON.stringify({ title: a.title, paragraphs: a.paragraphs }).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>Loading…</title></head>
<body><main id="app"><p>Loading…</p></main><script>
const a = ${data};
setTimeout(() => {
  const article = document.createElement('article');
  const h1 = document.createElement('h1');
  h1.textContent = a.title;
  article.append(h1, ...a.paragraphs.map((t) => { const p = document.createElement('p'); p.textContent = t; return p; }));
  document.getElementById('app').replaceChildren(article);
  document.title = a.title;
}, ${ms});
</script></body></html>`;
}

/** An article page whose script shows article `b` in place of `a`, `ms` after it loaded, at the same address. */
function swappedLater(a: Article, b: Article, ms: number): string {
  const data = JSON.stringify({ title: b.title, paragraphs: b.paragraphs }).replace(/</g, '\\u003c');
  return articlePage(
    a,
    `const b = ${data};
setTimeout(() => {
  document.getElementById('body').replaceChildren(...b.paragraphs.map((t) => { const p = document.createElement('p'); p.textContent = t; return p; }));
  document.querySelector('h1').textContent = b.title;
  document.title = b.title;
}, ${ms});`,
  );
}

/**
 * An article its site updates in place: the first load shows `a`; every later load in the same
 * browser (the page counts its loads in localStorage) shows it with a dated addition after its
 * second paragraph, at the same address.
 */
function updatedInPlace(a: Article, added: string): string {
  return articlePage(
    a,
    `const loads = Number(localStorage.getItem('loads') || '0');
localStorage.setItem('loads', String(loads + 1));
if (loads > 0) {
  const p = document.createElement('p');
  p.className = 'added';
  p.textContent = ${JSON.stringify(added)};
  document.getElementById('body').children[1].after(p);
}`,
  );
}

/** Where updatedInPlacePages() serves ja-walk, updated in place after its first load. */
export const UPDATED_IN_PLACE = '/ja/walk/updated.html';
/** The page of UPDATED_IN_PLACE: its Japanese addition (our own words) is one new paragraph. */
export function updatedInPlacePages(): Record<string, string> {
  return { [UPDATED_IN_PLACE]: updatedInPlace(loadArticle('ja-walk'), '【追記】公開後に市から連絡があり、川沿いの遊歩道は来年の春までに全区間が整備され、週末には地元の案内人による散策ツアーも始まる予定だということです。') };
}

/** Paths of these pages. The candidates: 0 en-bridges, 1 en-library, 2 en-balcony, 3 zh-library. */
export const SCRIPTED = {
  spa: '/spa/article.html',
  /** A single-page app: zh-library, then after 3 s a new address (?candidate=2) showing en-balcony (not en-bridges: the hostile pages start on it, unread). */
  spaNext: '/spa/next.html',
  /** Swaps every 1.2 s, faster than a 3 s dwell time, for about 10 s. */
  hostileFast: '/hostile/fast.html',
  /** Stays 4.5 s on en-bridges, then swaps to en-library for good. */
  hostileSlow: '/hostile/slow.html',
  /** en-library, plainly. */
  plain: '/hostile/control.html',
  /** en-ferry, written in by the page's script 800 ms after it loaded ("Loading…" before). */
  writtenLater: '/built/ferry.html',
  /** en-library (the control page's article), replaced by en-balcony 2.5 s after it loaded, at the same address. */
  swappedLater: '/built/swapped.html',
} as const;

export function scriptedPages(): Record<string, string> {
  const bridges = loadArticle('en-bridges');
  return {
    [SCRIPTED.spa]: articlePage(loadArticle('en-balcony'), SPA_SCRIPT),
    [SCRIPTED.spaNext]: articlePage(loadArticle('zh-library'), hostileScript(3000, [3, 2])),
    [SCRIPTED.hostileFast]: articlePage(bridges, hostileScript(1200, [0, 1, 2, 3, 1, 2, 3, 1, 2])),
    [SCRIPTED.hostileSlow]: articlePage(bridges, hostileScript(4500, [0, 1])),
    [SCRIPTED.plain]: articlePage(loadArticle('en-library')),
    [SCRIPTED.writtenLater]: writtenLater(loadArticle('en-ferry'), 800),
    [SCRIPTED.swappedLater]: swappedLater(loadArticle('en-library'), loadArticle('en-balcony'), 2500),
  };
}
