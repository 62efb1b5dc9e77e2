// A small web server on 127.0.0.1 serving our own fixture articles in two different site
// templates: the same article on two sites must be recognised; the page chrome must not matter.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { variedFiller } from '../fixtures/filler';
import { toTraditional, VECTORS } from '../fixtures/vectors';

export interface Article {
  lang: string;
  title: string;
  paragraphs: string[];
}

const articlesDir = new URL('../fixtures/articles/', import.meta.url);

export function loadArticle(name: string): Article {
  if (name === LONG_READ) return longRead();
  // "zh-balcony@tw": the article as a site in Taiwan reposts it, in Traditional characters (OpenCC).
  if (name.endsWith(TRADITIONAL)) {
    const a = loadArticle(name.slice(0, -TRADITIONAL.length));
    return { lang: 'zh-TW', title: toTraditional(a.title), paragraphs: a.paragraphs.map(toTraditional) };
  }
  return JSON.parse(readFileSync(new URL(`${name}.json`, articlesDir), 'utf8')) as Article;
}

const TRADITIONAL = '@tw';

/** A generated article of about a megabyte: copied, sent and extracted in many pieces. */
const LONG_READ = 'long-read';
function longRead(): Article {
  const words = 'ferry harbour lantern keeper river bridge morning tide rope winter market boat island fog bell gull oar quay timber storm'.split(' ');
  const glue = 'the a of and to in on with across under before after'.split(' ');
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0);
  const paragraphs: string[] = [];
  for (let size = 0; size < 1_000_000; ) {
    const sentences: string[] = [];
    for (let k = 0; k < 6; k++) {
      const n = 10 + (next() % 12);
      const s = Array.from({ length: n }, (_, i) => (i % 3 === 1 ? glue[next() % glue.length] : words[next() % words.length])).join(' ');
      sentences.push(`${s.charAt(0).toUpperCase()}${s.slice(1)}.`);
    }
    const p = sentences.join(' ');
    paragraphs.push(p);
    size += p.length;
  }
  return { lang: 'en', title: 'A year of crossings on the river ferry', paragraphs };
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const paras = (a: Article) => a.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n');

/** "The Daily Courier": a plain news site. */
function courier(a: Article): string {
  const zh = a.lang.startsWith('zh');
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)} | ${zh ? '每日信使' : 'The Daily Courier'}</title>
<style>body{font-family:Georgia,serif;max-width:720px;margin:auto}nav a{margin-right:1em}</style></head>
<body><header><h2>${zh ? '每日信使' : 'The Daily Courier'}</h2>
<nav><a href="/">${zh ? '首页' : 'Home'}</a><a href="/city">${zh ? '城市' : 'City'}</a><a href="/life">${zh ? '生活' : 'Life'}</a><a href="/opinion">${zh ? '评论' : 'Opinion'}</a></nav></header>
<main><article><h1>${esc(a.title)}</h1><p class="byline">${zh ? '本报记者' : 'By our city desk'}</p>
${paras(a)}
</article></main>
<footer><p>© ${zh ? '每日信使' : 'The Daily Courier'}</p></footer></body></html>`;
}

/** "Weekend Digest": another site reposting articles, with a sidebar, comments and a big footer. */
function digest(a: Article): string {
  const zh = a.lang.startsWith('zh');
  const sidebar = zh
    ? ['热门：十个省钱小窍门', '本周最受欢迎的食谱', '如何挑选一辆二手自行车', '读者来信：关于噪音的烦恼']
    : ['Popular: ten ways to save on heating', 'This week’s most cooked recipes', 'How to choose a second-hand bicycle', 'Letters: the noise next door'];
  const comments = zh
    ? ['我们小区也该有一个这样的地方。', '借过一次梯子，很方便。']
    : ['We need one of these in our town.', 'Borrowed a ladder once, very handy.'];
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)} — ${zh ? '周末文摘' : 'Weekend Digest'}</title>
<style>.wrap{display:flex;gap:2em}.side{width:240px;font-size:13px}</style></head>
<body><div class="top-bar"><span>${zh ? '周末文摘 · 好文章值得再读' : 'Weekend Digest · good reads, collected'}</span>
<a href="/login">${zh ? '登录' : 'Sign in'}</a> <a href="/subscribe">${zh ? '订阅' : 'Subscribe'}</a></div>
<ul class="menu"><li><a href="/news">${zh ? '新闻' : 'News'}</a></li><li><a href="/ideas">${zh ? '观点' : 'Ideas'}</a></li><li><a href="/home">${zh ? '家居' : 'Home &amp; garden'}</a></li></ul>
<div class="wrap"><div class="content"><div class="post"><h1 class="post-title">${esc(a.title)}</h1>
<div class="post-body">${paras(a)}</div></div>
<section class="comments"><h3>${zh ? '评论' : 'Comments'}</h3>${comments.map((c) => `<div class="comment">${esc(c)}</div>`).join('')}</section></div>
<aside class="side"><h4>${zh ? '相关阅读' : 'Read next'}</h4><ul>${sidebar.map((s) => `<li><a href="/r">${esc(s)}</a></li>`).join('')}</ul></aside></div>
<footer><p>${zh ? '关于我们 · 联系方式 · 隐私政策' : 'About · Contact · Privacy'}</p><p>© Weekend Digest</p></footer></body></html>`;
}

/** A repost on a content farm: the article wrapped in 转载 / "originally published" boilerplate. */
function repostFarm(a: Article): string {
  const zh = a.lang.startsWith('zh');
  const head = zh
    ? ['本文转载自每日信使，原文链接见文末。', '版权归原作者所有，如有侵权请联系删除。']
    : ['This article was originally published on The Daily Courier and is republished here with permission.'];
  const tail = zh
    ? ['【转载声明】本文系转载，仅代表作者观点，不代表本站立场。', '点赞、在看、分享，三连支持一下吧！', '相关阅读：阳台种菜指南；二手自行车怎么挑；本周最受欢迎的食谱']
    : ['Enjoyed this? Subscribe to our newsletter for the best reads of the week.', 'Related: ten ways to save on heating; how to choose a second-hand bicycle'];
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)} - ${zh ? '好文转载网' : 'ReadMore Reposts'}</title></head>
<body><nav><a href="/">${zh ? '首页' : 'Home'}</a> <a href="/hot">${zh ? '热门' : 'Popular'}</a></nav>
<div class="article"><h1>${esc(a.title)}</h1>${head.map((p) => `<p class="note">${esc(p)}</p>`).join('')}
${paras(a)}
${tail.map((p) => `<p class="note">${esc(p)}</p>`).join('')}</div>
<footer>${zh ? '好文转载网 © 2026' : 'ReadMore © 2026'}</footer></body></html>`;
}

/** A preview: the first paragraphs only, then a paywall. */
function preview(a: Article): string {
  const cut = { ...a, paragraphs: a.paragraphs.slice(0, Math.round(a.paragraphs.length * 0.7)) };
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)} | Preview</title></head>
<body><header><h2>The Weekly Ledger</h2></header><main><article><h1>${esc(a.title)}</h1>${paras(cut)}</article>
<aside class="paywall"><p>Subscribe to keep reading.</p></aside></main></body></html>`;
}

/** A short preview (a teaser): the first quarter of the paragraphs (at least two), on a site of its own. */
function teaser(a: Article): string {
  const cut = { ...a, paragraphs: a.paragraphs.slice(0, Math.max(2, Math.round(a.paragraphs.length / 4))) };
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)} · Morning Briefing</title></head>
<body><header><h2>Morning Briefing</h2></header><main><article><h1>${esc(a.title)}</h1>${paras(cut)}
<p class="more"><a href="/full">Continue reading on the publisher's site</a></p></article></main></body></html>`;
}

/**
 * A long forum thread that quotes the article whole in one of its posts: about thirty times as many
 * passages around it (posts of our own varied prose), so the thread's own signature keeps only one or
 * two of the article's passages.
 */
function thread(a: Article): string {
  const lang = a.lang.startsWith('zh') ? 'zh' : 'en';
  const posts = (seed: number) => Array.from({ length: 30 }, (_, k) => `<div class="post"><p>${esc(variedFiller(10, seed + k, lang))}</p></div>`).join('\n');
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>Long thread: everything about ${esc(a.title)} — Commons Forum</title></head>
<body><main><article><h1>Long thread: everything about ${esc(a.title)}</h1>
${posts(5)}
<div class="post"><blockquote>${paras(a)}</blockquote></div>
${posts(105)}
</article></main></body></html>`;
}

/**
 * Three paragraphs of our own, added to a revision of the balcony article ("what's new"): none is
 * in any other fixture, so they are new whatever the tests read before.
 */
export const ADDED_PARAGRAPHS = [
  'Update, two weeks later: the frost came early, and the kale we had written off as too tender survived three cold nights under an old bedsheet pegged to the railing.',
  'Several readers wrote in to ask about watering in winter. Once a week is plenty for most pots, less when the soil stays cold, and never in the evening before a freezing night.',
  'One correction: the neighbour who lent us the worm bin lives on the fourth floor, not the third, and she would like everyone to know that it does not smell at all.',
];
/** The same for a Chinese article: three paragraphs of our own. */
export const ADDED_PARAGRAPHS_ZH = [
  '两周后补记：霜来得比预想的早，本以为撑不过去的羽衣甘蓝，盖着一条夹在栏杆上的旧床单，熬过了三个寒夜。',
  '不少读者来信问冬天怎么浇水。大多数花盆一周浇一次就够了，土一直发凉的时候还要更少，冰冻的前一晚千万别浇。',
  '更正一处：借给我们蚯蚓箱的邻居住在五楼，不是四楼。她还特意嘱咐，要让大家知道那个箱子一点也不臭。',
];

/**
 * A revision of an article: `added` paragraphs at its second place, its fourth, and its end, with
 * a script of the page's own that records what the page could observe (DOM mutations, the
 * CSS.highlights registry, layout, scrolling) into window.observed.
 */
function revision(a: Article): string {
  const p = a.paragraphs;
  const added = a.lang.startsWith('zh') ? ADDED_PARAGRAPHS_ZH : ADDED_PARAGRAPHS;
  const body = [p[0], added[0], p[1], p[2], added[1], ...p.slice(3), added[2]];
  const isAdded = (text: string) => added.includes(text);
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)} (updated) — Weekend Digest</title>
<style>body{font-family:Georgia,serif;max-width:640px;margin:auto;line-height:1.6}p{margin:0 0 1.2em}</style></head>
<body><main><article><h1>${esc(a.title)}</h1>
${body.map((t) => `<p${isAdded(t) ? ' class="added"' : ''}>${esc(t)}</p>`).join('\n')}
<div style="height:150vh"></div>
</article></main>
<script>${OBSERVER}</script></body></html>`;
}

/**
 * What a page's own script can observe, kept in window.observed: every DOM mutation (but the
 * notice's host, the one element the notice may add), CSS.highlights, the layout of its paragraphs
 * (in document coordinates), and scroll events.
 */
const OBSERVER = `
window.observed = { mutations: [], scrolls: 0 };
new MutationObserver((list) => {
  for (const m of list) {
    const nodes = [...m.addedNodes, ...m.removedNodes].filter((n) => !(n.nodeType === 1 && n.hasAttribute('data-deja-read')));
    if (m.type !== 'childList' || nodes.length) window.observed.mutations.push(m.type + ' ' + (m.target.nodeName || '') + ' ' + nodes.map((n) => n.nodeName).join(','));
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
addEventListener('scroll', () => window.observed.scrolls++);
window.pageState = () => ({
  highlights: typeof CSS !== 'undefined' && CSS.highlights ? CSS.highlights.size : -1,
  height: document.documentElement.scrollHeight,
  width: document.documentElement.scrollWidth,
  paragraphs: [...document.querySelectorAll('p')].map((p) => { const r = p.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top + scrollY), Math.round(r.width), Math.round(r.height)].join(','); }).join(' '),
  elements: document.getElementsByTagName('*').length,
  mutations: window.observed.mutations.slice(),
});
`;

/** A (original), B (the same article on another site), C (an unrelated article) per language. */
export const PAGES = {
  enA: { path: '/courier/en/tool-libraries.html', article: 'en-library', template: courier },
  enB: { path: '/digest/2026/11/the-library-that-lends-drills.html', article: 'en-library', template: digest },
  enC: { path: '/courier/en/winter-balcony.html', article: 'en-balcony', template: courier },
  zhA: { path: '/courier/zh/tool-libraries.html', article: 'zh-library', template: courier },
  zhB: { path: '/digest/2026/11/zh-tool-library.html', article: 'zh-library', template: digest },
  zhC: { path: '/courier/zh/winter-balcony.html', article: 'zh-balcony', template: courier },
  // Matching layers
  zhRepost: { path: '/reposts/zh/1024.html', article: 'zh-library', template: repostFarm },
  zhTraditionalRepost: { path: '/digest/tw/2026/11/zh-balcony.html', article: `zh-balcony${TRADITIONAL}`, template: digest },
  enPreviewOfRead: { path: '/ledger/preview/tool-libraries.html', article: 'en-library', template: preview },
  enPreviewFirst: { path: '/ledger/preview/stone-bridges.html', article: 'en-bridges', template: preview },
  enFullAfterPreview: { path: '/courier/en/stone-bridges.html', article: 'en-bridges', template: courier },
  // Short previews, too short for the fingerprint to find: the passage index does.
  enTeaserOfRead: { path: '/briefing/2026/11/stone-bridges.html', article: 'en-bridges', template: teaser },
  enTeaserFirst: { path: '/briefing/2026/11/chain-ferry.html', article: 'en-ferry', template: teaser },
  enFullAfterTeaser: { path: '/digest/2026/11/the-last-chain-ferry.html', article: 'en-ferry', template: digest },
  // An article read first, then a long thread that quotes it whole: found through all the thread's passages.
  enThreadQuoting: { path: '/forum/t/31/everything-about-stone-bridges.html', article: 'en-bridges', template: thread },
  // A long read and a repost of it: about a megabyte each
  longRead: { path: '/courier/en/a-year-of-crossings.html', article: LONG_READ, template: courier },
  longReadRepost: { path: '/digest/2026/11/a-year-of-crossings.html', article: LONG_READ, template: digest },
  // What's new: an article, then its revision with three paragraphs added, at another address
  enBalconyRead: { path: '/courier/en/balcony-in-winter.html', article: 'en-balcony', template: courier },
  enBalconyRevised: { path: '/digest/2026/12/balcony-in-winter-updated.html', article: 'en-balcony', template: revision },
  zhBalconyRevised: { path: '/digest/2026/12/zh-balcony-updated.html', article: 'zh-balcony', template: revision },
  // Read only by the dwell-time test
  dwell: { path: '/digest/2026/11/stone-bridges.html', article: 'en-bridges', template: digest },
} as const;

export type PageName = keyof typeof PAGES;

/** A page holding only a vector text, one paragraph per blank-line-separated block. */
function vectorPage(name: string, text: string): string {
  const body = text.split(/\n\n/).map((p) => `<p>${esc(p)}</p>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Vector ${esc(name)}</title></head><body><article>${body}</article></body></html>`;
}

export const vectorPath = (name: string) => `/vectors/${name}.html`;

export interface Site {
  url(page: PageName): string;
  /** The address of a path on the site (for `extra` pages). */
  at(path: string): string;
  /** The page at `path` served at another address, with a content security policy that lets it load nothing and run no script. */
  strictAt(path: string): string;
  /** URL of the page of a test vector (see tests/fixtures/vectors.ts). */
  vectorUrl(name: string): string;
  title(page: PageName): string;
  close(): Promise<void>;
}

/** The HTML of a fixture page. */
export function renderPage(name: PageName): string {
  const page = PAGES[name];
  return page.template(loadArticle(page.article));
}

/** A plain article page, optionally with a script of the page's own (a test's hostile or single-page-app page). */
export function articlePage(a: Article, script = ''): string {
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)}</title></head>
<body><main><article><h1>${esc(a.title)}</h1><div id="body">${paras(a)}</div></article></main>${script ? `<script>${script}</script>` : ''}</body></html>`;
}

/**
 * A page built of web components, as some sites are: its script draws the article inside a custom
 * element's open shadow root, the title slotted in from the page's own tree. The text is in an inert
 * <template> until then, so it is read from the shadow root or not at all.
 */
export function componentPage(a: Article, paragraphs = a.paragraphs): string {
  const script = `customElements.define('x-story', class extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return;
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = '<header><slot name="title"></slot></header><x-story-body></x-story-body>';
    const body = root.querySelector('x-story-body').attachShadow({ mode: 'open' });
    body.append(document.getElementById('story').content.cloneNode(true));
  }
});`;
  return `<!doctype html><html lang="${a.lang}"><head><meta charset="utf-8"><title>${esc(a.title)} · Components Weekly</title></head>
<body><nav><a href="/">Components Weekly</a></nav><main><x-story><h1 slot="title">${esc(a.title)}</h1></x-story></main>
<template id="story">${paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}</template><script>${script}</script></body></html>`;
}

/** Where componentPages() serves the web-component page of each language's article A. */
export const componentPath = (lang: 'en' | 'zh') => `/components/${lang}.html`;

/** Where componentPages() serves a revision of the balcony article (three paragraphs added) built of web components. */
export const componentRevisionPath = '/components/balcony-updated.html';

/** The English and Chinese article A as pages built of web components (see componentPage), and the English balcony article's revision. */
export function componentPages(): Record<string, string> {
  const balcony = loadArticle(PAGES.enBalconyRevised.article);
  const p = balcony.paragraphs;
  // Paragraphs of its own (not those of the other revision, which the suites read before).
  const added = [
    'A note from the spring: the broad beans sown in October came through the winter on the shady side, and the first pods were ready a week before those at the allotment.',
    'The cheapest fleece from the hardware shop tore in the first gale. A second layer of the thicker kind, tied at the corners with string, has lasted two seasons so far.',
    'We now keep a notebook by the door and write down the lowest temperature each morning, which has told us more about the balcony than any chart from the weather service.',
  ];
  const revised = [p[0], added[0], p[1], p[2], added[1], ...p.slice(3), added[2]];
  return {
    [componentPath('en')]: componentPage(loadArticle(PAGES.enA.article)),
    [componentPath('zh')]: componentPage(loadArticle(PAGES.zhA.article)),
    [componentRevisionPath]: componentPage(balcony, revised),
  };
}

/** The prefix of a page's path under which it is served with the strictest content security policy. */
const STRICT = '/strict/';

/** Serves the fixture pages, and `extra` pages by path. */
export async function startSite(extra: Record<string, string> = {}): Promise<Site> {
  const byPath = new Map<string, string>(Object.entries(extra));
  const titles = new Map<PageName, string>();
  for (const name of Object.keys(PAGES) as PageName[]) {
    byPath.set(PAGES[name].path, renderPage(name));
    titles.set(name, loadArticle(PAGES[name].article).title);
  }
  for (const [name, v] of Object.entries(VECTORS)) if (v.browser) byPath.set(vectorPath(name), vectorPage(name, v.text()));
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // Any page under /strict/ is served with a policy that lets the page load nothing and run no script.
    const strict = path.startsWith(STRICT);
    const html = byPath.get(strict ? path.slice(STRICT.length - 1) : path);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', ...(strict ? { 'content-security-policy': "default-src 'none'" } : {}) });
    res.end(html ?? '<!doctype html><title>Not found</title><p>Not found</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (page) => `http://127.0.0.1:${port}${PAGES[page].path}`,
    at: (path) => `http://127.0.0.1:${port}${path}`,
    strictAt: (path) => `http://127.0.0.1:${port}${STRICT.slice(0, -1)}${path}`,
    vectorUrl: (name) => `http://127.0.0.1:${port}${vectorPath(name)}`,
    title: (page) => titles.get(page) ?? '',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
