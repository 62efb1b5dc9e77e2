// The pages the page benchmarks load (bench-page.ts in Chromium, bench-page-firefox.ts in
// Firefox): generated from our own word list with a seeded generator, served from 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// --- The pages: seeded pseudo-random prose from our own word list ---

function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const WORDS = (
  'the a of and to in is that it was for on with as by at from this his her they be are have had not but which one all were when ' +
  'river bridge market garden harbour village winter summer morning evening lantern orchard kettle ladder window library ' +
  'neighbour bicycle stone timber meadow ferry school kitchen letter museum station pharmacy baker council storm quiet old ' +
  'new long short bright narrow walked carried mended counted borrowed painted opened listened remembered waited watched ' +
  'slowly together again nearly always under over between behind across beside without before after during'
).split(' ');

class Prose {
  private readonly rnd: () => number;
  constructor(seed: number) {
    this.rnd = generator(seed);
  }
  word(): string {
    return WORDS[Math.floor(this.rnd() * WORDS.length)];
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }
  sentence(): string {
    const words = Array.from({ length: this.int(8, 22) }, () => this.word());
    const s = words.join(' ');
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
  }
  /** A few words of a sentence. */
  phrase(): string {
    return Array.from({ length: this.int(3, 9) }, () => this.word()).join(' ');
  }
  paragraph(): string {
    return Array.from({ length: this.int(3, 7) }, () => this.sentence()).join(' ');
  }
  /** Paragraphs until they hold at least `words` words. */
  paragraphs(words: number): string[] {
    const out: string[] = [];
    for (let n = 0; n < words; ) {
      const p = this.paragraph();
      out.push(p);
      n += p.split(' ').length;
    }
    return out;
  }
}

/**
 * The article's paragraphs come in sections with `content-visibility: auto`, as long pages do to
 * stay fast: the browser lays out only what is on screen, so the page's own rendering costs little
 * and the figures show what the extension adds.
 */
const frame = (title: string, paragraphs: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} | The Bench Courier</title>
<style>body{font-family:Georgia,serif;max-width:760px;margin:auto}section{content-visibility:auto;contain-intrinsic-size:auto 3000px}</style></head>
<body><header><h2>The Bench Courier</h2><nav><a href="/">Home</a> <a href="/city">City</a> <a href="/life">Life</a></nav></header>
<main><article><h1>${title}</h1>
${sections(paragraphs)}
</article></main><footer><p>© The Bench Courier</p></footer></body></html>`;

function sections(paragraphs: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < paragraphs.length; i += 40) out.push(`<section>\n${paragraphs.slice(i, i + 40).join('')}</section>\n`);
  return out.join('');
}

/** An article of about `bytes` bytes of plain paragraphs. */
export function bigArticle(bytes: number): string {
  const prose = new Prose(1013);
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const p = `<p>${prose.paragraph()}</p>\n`;
    parts.push(p);
    size += p.length;
  }
  return frame('The long history of the river ferry', parts);
}

/**
 * An article of `elements` elements in the body: paragraphs dense with inline markup (links,
 * emphasis, footnote marks), the shape of a long wiki page or forum thread.
 */
export function manyNodes(elements: number): string {
  const prose = new Prose(2027);
  const frameElements = 11; // header, h2, nav, 3 a, main, article, h1, footer, p
  const parts: string[] = [];
  let count = frameElements;
  let paragraphs = 0;
  let note = 0;
  while (count < elements) {
    const inline: string[] = [];
    if (paragraphs++ % 40 === 0) count++; // a <section>
    count++; // the <p>
    const spans = Math.min(prose.int(4, 10), Math.max(0, elements - count));
    for (let i = 0; i < spans; i++) {
      const kind = prose.int(0, 2);
      const words = `${prose.word()} ${prose.word()}`;
      inline.push(prose.phrase(), kind === 0 ? `<a href="/wiki/${words.replace(' ', '_')}">${words}</a>` : kind === 1 ? `<em>${words}</em>` : `<sup>${++note}</sup>`);
      count++;
    }
    parts.push(`<p>${inline.join(' ')}.</p>\n`);
  }
  return frame('Notes on the lanterns of the old harbour', parts);
}

/** A page that is not an article: a menu, a sign-in form and a few lines, as most pages a reader opens are to the extension. */
export function notAnArticle(linkCount = 12): string {
  const prose = new Prose(3041);
  const links = Array.from({ length: linkCount }, (_, i) => `<a href="/section/${i}">${prose.word()}</a>`).join(' ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in | The Bench Courier</title></head>
<body><header><nav>${links}</nav></header><main><h1>Sign in</h1><p>${prose.sentence()}</p>
<form><label>Email <input type="email"></label> <label>Password <input type="password"></label> <button>Sign in</button></form>
<p>${prose.sentence()}</p></main><footer><p>© The Bench Courier</p></footer></body></html>`;
}

/** An article of `words` words in paragraphs. */
export function articleOfWords(words: number): string {
  return frame('A winter of mending bicycles', new Prose(4057).paragraphs(words).map((p) => `<p>${p}</p>\n`));
}

/** A single-page app's shell before its script draws anything: a title and "Loading…", no links. */
export function appShell(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The Bench Courier</title></head>
<body><div id="app"><p>Loading…</p></div></body></html>`;
}

/** The pages --cost measures: what the extension costs a page it does not record, and one it does. */
export const COST_PAGES = [
  { name: 'not an article', path: 'plain', html: () => notAnArticle(), article: false },
  { name: 'not an article, no links', path: 'bare', html: () => notAnArticle(0), article: false },
  { name: 'an app shell (a few words, no links)', path: 'shell', html: appShell, article: false },
  { name: '10,000-word article', path: 'words', html: () => articleOfWords(10_000), article: true },
] as const;

/** An article of `words` words (seeded), and its revision with a new paragraph after every eighth. */
export function articleAndRevision(seed: number, words: number): { old: string; revised: string; added: number } {
  const prose = new Prose(seed);
  const fresh = new Prose(seed + 7919);
  const paragraphs = prose.paragraphs(words);
  const revised: string[] = [];
  paragraphs.forEach((p, k) => {
    revised.push(p);
    if (k % 8 === 7) revised.push(fresh.paragraph());
  });
  const html = (ps: string[]) => frame('The lanterns of the old harbour', ps.map((p) => `<p>${p}</p>\n`));
  return { old: html(paragraphs), revised: html(revised), added: revised.length - paragraphs.length };
}

/**
 * A page with a chat button drawn in a custom element's open shadow root, as many sites have: the
 * extension then copies the page as drawn (its composed tree), a walk of its own rather than the
 * browser's, so this is that path's worst case.
 */
export function withWidget(html: string): string {
  // Defined in the head, so the element is drawn as it is parsed and no script stops the parser
  // near the end (a trace would then count the page's last parsing task as the extension's, which
  // starts in it).
  const script = `<script>customElements.define('x-chat', class extends HTMLElement {
  connectedCallback() { if (!this.shadowRoot) this.attachShadow({ mode: 'open' }).innerHTML = '<button><slot></slot></button>'; }
});</script>`;
  return html.replace('</head>', `${script}</head>`).replace('<body>', '<body><x-chat>Talk to us</x-chat>');
}

export const PAGES = [
  { name: '10 MB article', path: 'big', html: () => bigArticle(10 * 1024 * 1024) },
  { name: '59,000-element article', path: 'nodes', html: () => manyNodes(59_000) },
  { name: 'the same with a shadow-root widget', path: 'widget', html: () => withWidget(manyNodes(59_000)) },
] as const;

export async function serve(pages: Map<string, string>): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    // /<page>/<run>.html: a new URL per load, so each load is a page the extension has not recorded.
    const key = new URL(req.url ?? '/', 'http://x').pathname.split('/')[1] ?? '';
    const html = pages.get(key);
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
