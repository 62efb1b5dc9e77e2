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
 * `order` (over again from its second, with `cycle`, until the page is closed); records in
 * `window.__seen` every element added to the page that the page did not add.
 */
function hostileScript(swapEveryMs: number, order: number[], cycle = false): string {
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
  if (i >= order.length && ${cycle}) i = 1;
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

/** A Japanese article of our own that no other test page holds (a copy elsewhere would be named instead). */
const HARBOUR_MARKET: Article = {
  lang: 'ja',
  title: '港の朝市が百年目を迎える',
  paragraphs: [
    '海沿いの小さな町で、毎週土曜日に開かれてきた朝市が今年で百年目を迎えた。夜明け前から漁師や農家が集まり、とれたての魚や野菜を並べる光景は、町の人々にとって季節の移り変わりを知らせる合図でもある。',
    '朝市を取りまとめる組合によると、最盛期には二百を超える店が出ていたが、担い手の高齢化で一時は五十店ほどにまで減った。ここ数年は町の外から移り住んだ若い世代が加わり、パンや焼き菓子、手作りの器を売る店も増えている。',
    '組合の代表は、百年続いた理由について「売る人と買う人が顔を合わせ、互いの暮らしを気にかけてきたからだ」と話す。常連客の中には、祖母に手を引かれて通った市に、今は自分の孫を連れて来る人もいるという。',
    '記念の週末には、昔の写真を集めた展示や、漁師による魚のさばき方の実演、子ども向けの市場体験が予定されている。町は来年度、雨の日でも市を開けるよう、港の倉庫を改修して屋根付きの広場を設ける計画だ。',
  ],
};

/** Where updatedInPlacePages() serves HARBOUR_MARKET, updated in place after its first load. */
export const UPDATED_IN_PLACE = '/ja/harbour/market.html';
/** The page of UPDATED_IN_PLACE: its addition (our own words) is one new paragraph. */
export function updatedInPlacePages(): Record<string, string> {
  return { [UPDATED_IN_PLACE]: updatedInPlace(HARBOUR_MARKET, '【追記】記念の週末は天候に恵まれ、二日間でおよそ一万二千人が訪れたと組合が発表した。用意した記念の手ぬぐいは初日の昼前に配り終え、追加の分を来月の市で配るという。') };
}

/** Paths of these pages. The candidates: 0 en-bridges, 1 en-library, 2 en-balcony, 3 zh-library. */
export const SCRIPTED = {
  spa: '/spa/article.html',
  /** A single-page app: zh-library, then after 3 s a new address (?candidate=2) showing en-balcony (not en-bridges: the hostile pages start on it, unread). */
  spaNext: '/spa/next.html',
  /**
   * Swaps every 1.2 s, faster than a 3 s dwell time, until it is closed. (Until 28 November 2026 it
   * stopped on its last candidate after 9.6 s, and a check of the history made more than 3.6 s
   * after that, on a loaded machine, found that candidate read, as it had been.)
   */
  hostileFast: '/hostile/fast.html',
  /** Stays 4.5 s on en-bridges, then swaps to en-library for good. */
  hostileSlow: '/hostile/slow.html',
  /** en-library, plainly. */
  plain: '/hostile/control.html',
  /** en-ferry, written in by the page's script 800 ms after it loaded ("Loading…" before). */
  writtenLater: '/built/ferry.html',
  /** en-library (the control page's article), replaced by en-balcony 2.5 s after it loaded, at the same address. */
  swappedLater: '/built/swapped.html',
  /** en-balcony with a paragraph of its own added at its end, and no link (nothing for the link marks to ask first). */
  balconyAdded: '/plain/balcony-added.html',
} as const;

/** en-balcony with a paragraph added at its end, of our own: no other page holds it. */
function balconyAdded(): Article {
  const a = loadArticle('en-balcony');
  const added = 'A last word from the second winter: the pots wrapped in old blankets came through the hard frost in January, while the two left bare by the railing split down the side and had to be replaced.';
  return { ...a, paragraphs: [...a.paragraphs, added] };
}

export function scriptedPages(): Record<string, string> {
  const bridges = loadArticle('en-bridges');
  return {
    [SCRIPTED.spa]: articlePage(loadArticle('en-balcony'), SPA_SCRIPT),
    [SCRIPTED.spaNext]: articlePage(loadArticle('zh-library'), hostileScript(3000, [3, 2])),
    [SCRIPTED.hostileFast]: articlePage(bridges, hostileScript(1200, [0, 1, 2, 3, 1, 2, 3, 1, 2], true)),
    [SCRIPTED.hostileSlow]: articlePage(bridges, hostileScript(4500, [0, 1])),
    [SCRIPTED.plain]: articlePage(loadArticle('en-library')),
    [SCRIPTED.writtenLater]: writtenLater(loadArticle('en-ferry'), 800),
    [SCRIPTED.swappedLater]: swappedLater(loadArticle('en-library'), loadArticle('en-balcony'), 2500),
    [SCRIPTED.balconyAdded]: articlePage(balconyAdded()),
  };
}
