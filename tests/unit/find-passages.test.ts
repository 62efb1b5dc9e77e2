// @vitest-environment jsdom
// "Show what's new" finds the new parts in the page from their locators: in the page's own tree,
// and in the shadow roots of a page built of web components, where the extraction read them.
import { describe, expect, it } from 'vitest';
import { cutPassages, passageLocator, spacedPattern, withoutSpaces } from '../../src/core';
import { findPassageGroups } from '../../src/content/find-passages';
import type { Slicer } from '../../src/content/snapshot';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An article of tests/fixtures (read by path: under jsdom, URL is jsdom's, which node:fs does not take). */
const loadArticle = (name: string) => JSON.parse(readFileSync(join(process.cwd(), 'tests/fixtures/articles', `${name}.json`), 'utf8')) as { paragraphs: string[] };

const straight: Slicer = { timeUp: () => false, pause: () => Promise.resolve() };

/** The article's paragraphs as <p>s, in the body itself or in an open shadow root of a custom element. */
function page(paragraphs: string[], where: 'light' | 'shadow'): Document {
  const doc = document.implementation.createHTMLDocument('story');
  const ps = paragraphs.map((text) => {
    const p = doc.createElement('p');
    p.textContent = text;
    return p;
  });
  const nav = doc.createElement('nav');
  nav.textContent = 'Home · City · Life';
  doc.body.append(nav);
  if (where === 'light') doc.body.append(...ps);
  else {
    const host = doc.createElement('x-story');
    host.attachShadow({ mode: 'open' }).append(...ps);
    doc.body.append(host);
  }
  return doc;
}

describe('finding the new parts on the page', () => {
  it.each(['light', 'shadow'] as const)('finds each part, in the order of the text, where the article is drawn (%s tree)', async (where) => {
    for (const name of ['en-library', 'zh-library']) {
      const paragraphs = loadArticle(name).paragraphs;
      const text = paragraphs.join('\n\n');
      const passages = cutPassages(text);
      const locators = passages.map((p) => passageLocator(text, p.start, p.end));
      const groups = [[0], [2, 3], [passages.length - 1]];
      const doc = page(paragraphs, where);
      const ranges = await findPassageGroups(doc.body, locators, groups, straight);
      expect(ranges.map((r) => r && withoutSpaces(r.toString()))).toEqual(groups.map((g) => withoutSpaces(text.slice(passages[g[0]].start, passages[g[g.length - 1]].end))));
    }
  });

  it('finds the parts in a page whose words hold soft hyphens, which the extraction left out', async () => {
    const paragraphs = loadArticle('en-library').paragraphs;
    const text = paragraphs.join('\n\n');
    const passages = cutPassages(text);
    const locators = passages.map((p) => passageLocator(text, p.start, p.end));
    const groups = [[0], [2, 3], [passages.length - 1]];
    const doc = page(paragraphs.map((p) => p.replace(/(\w{3})(\w{4,})/g, '$1\u00ad$2')), 'light');
    const ranges = await findPassageGroups(doc.body, locators, groups, straight);
    expect(ranges.map((r) => r && withoutSpaces(r.toString()))).toEqual(groups.map((g) => withoutSpaces(text.slice(passages[g[0]].start, passages[g[g.length - 1]].end))));
  });

  it('draws no part that would cross into a shadow root from outside it', async () => {
    const paragraphs = loadArticle('en-library').paragraphs;
    const text = paragraphs.join('\n\n');
    const passages = cutPassages(text);
    const locators = passages.map((p) => passageLocator(text, p.start, p.end));
    // The first paragraph in the page's tree, the rest in a shadow root.
    const doc = page(paragraphs.slice(1), 'shadow');
    const first = doc.createElement('p');
    first.textContent = paragraphs[0];
    doc.body.insertBefore(first, doc.querySelector('x-story'));
    const firstCount = cutPassages(paragraphs[0]).length;
    const ranges = await findPassageGroups(doc.body, locators, [[0], [firstCount - 1, firstCount], [firstCount]], straight);
    expect(ranges[0]?.toString()).toBe(text.slice(passages[0].start, passages[0].end));
    expect(ranges[1]).toBeNull();
    expect(ranges[2] && withoutSpaces(ranges[2].toString())).toBe(withoutSpaces(text.slice(passages[firstCount].start, passages[firstCount].end)));
  });
});

describe('spacedPattern: a locator head found in the text as the page writes it', () => {
  it('finds a head across the page\'s spaces, line breaks and soft hyphens, in English, Chinese and Japanese, and nothing else', () => {
    const english = 'The council voted (7–2) on\n      Tuesday to re\u00adopen [the] bridge… $4.5m?';
    const head = passageLocator(english, 0, english.length).head;
    expect(spacedPattern(head).test(`<nav>Home</nav>${english}`)).toBe(true);
    expect(spacedPattern(head).test(english.replace('Tuesday', 'Monday'))).toBe(false);
    const chinese = '市议会周二以七票对两票\n  通过，重新开放大桥。';
    expect(spacedPattern(passageLocator(chinese, 0, chinese.length).head).test(`导航 ${chinese}`)).toBe(true);
    expect(spacedPattern(passageLocator(chinese, 0, chinese.length).head).test('市议会周二以七票对两票否决')).toBe(false);
    const japanese = '市議会は火曜日、\u200b橋の再開を可決した。😀';
    expect(spacedPattern(passageLocator(japanese, 0, japanese.length).head).test(japanese)).toBe(true);
  });
});
