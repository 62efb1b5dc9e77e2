// npm run bench:articles -- [--corpus DIR] [--json]
// Which pages the extension would record as articles: the extraction the extension runs (jsdom in
// place of the offscreen document, the same Readability and the same checks) on every .html page of
// a corpus (design.md's format: all of them are meant to be articles), on our own pages that are
// not articles (search results, link lists, category and tag pages, forum and docs indexes, a
// gallery, a news front page; English and Chinese) and on our own articles that carry links.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSDOM, VirtualConsole } from 'jsdom';
import { DEFAULT_MATCH_SETTINGS, wordCount } from '../src/core';
import { extractArticle } from '../src/content/extract';
import { listShape } from '../src/content/list-page';
import { Readability } from '@mozilla/readability';
import { articlesWithLinks, notArticles } from '../tests/fixtures/pages-not-articles';

interface Row {
  name: string;
  recorded: boolean;
  reason?: string;
  /** The shape the list check saw (short link-led items, their share of the text). */
  items?: number;
  share?: number;
}

function judge(name: string, html: string): Row {
  const dom = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  try {
    const result = extractArticle(dom.window.document, DEFAULT_MATCH_SETTINGS.minWords);
    const parsed = new Readability(dom.window.document, { serializer: (node) => node as Element }).parse();
    const shape = parsed?.content ? listShape(parsed.content, wordCount) : undefined;
    return { name, recorded: result.ok, reason: result.ok ? undefined : result.reason, items: shape?.items, share: shape && Math.round(shape.share * 100) / 100 };
  } finally {
    dom.window.close();
  }
}

function main(): void {
  const argv = process.argv.slice(2);
  let corpus = '../shared/corpus';
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--corpus') corpus = argv[++i];
    else if (argv[i] === '--json') json = true;
    else throw new Error(`unknown argument ${argv[i]}; usage: npm run bench:articles -- [--corpus DIR] [--json]`);
  }
  const dir = join(corpus, 'docs');
  const pages = readdirSync(dir).filter((f) => f.endsWith('.html')).sort();
  const groups = {
    'corpus pages (articles)': pages.map((f) => judge(f, readFileSync(join(dir, f), 'utf8'))),
    'our pages that are not articles': notArticles().map((p) => judge(p.name, p.html)),
    'our articles with links': articlesWithLinks().map((p) => judge(p.name, p.html)),
  };
  if (json) {
    console.log(JSON.stringify(groups, null, 2));
    return;
  }
  for (const [group, rows] of Object.entries(groups)) {
    const recorded = rows.filter((r) => r.recorded).length;
    console.log(`${group}: ${recorded} of ${rows.length} recorded`);
    // Articles not recorded, and non-articles recorded, are named.
    const odd = rows.filter((r) => r.recorded === group.startsWith('our pages that are not'));
    for (const r of odd) console.log(`  ${r.recorded ? 'recorded' : 'not recorded'}: ${r.name}${r.reason ? ` (${r.reason})` : ''}; ${r.items ?? 0} link-led items, ${Math.round((r.share ?? 0) * 100)} % of the text`);
  }
}

main();
