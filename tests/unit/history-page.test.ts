// @vitest-environment jsdom
// The history page as a reader uses it, against the real background on fake-indexeddb: a search
// counts the pages that match, not the copies shown with them; forgetting a group's page leaves
// its copies on screen, regrouped, and the count follows; two pages of one site show their paths;
// each date says the date itself on hover and to assistive technology.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { digestArticle, encodeSentPassages, pagePassages } from '../../src/core';
import { fromTab, makeBackground } from './helpers';
import { toStored } from '../../src/storage/layout';
import { message } from './messages';

const fake = vi.hoisted(() => ({ call: null as null | ((type: string, req: unknown) => Promise<unknown>) }));

vi.mock('../../src/ext', () => ({
  default: {
    i18n: { getMessage: (key: string, subs: string[] = []) => message(key, subs), getUILanguage: () => 'en' },
    runtime: { id: 'ext', sendMessage: async (m: { type: string; req: unknown }) => ({ ok: await fake.call?.(m.type, m.req) }) },
  },
}));

// Read from the file: under jsdom, the e2e helper's file URLs do not resolve.
const loadArticle = (name: string) => JSON.parse(readFileSync(join(process.cwd(), 'tests/fixtures/articles', `${name}.json`), 'utf8')) as { title: string; paragraphs: string[] };
const library = loadArticle('en-library');
const balcony = loadArticle('en-balcony');
const ferry = loadArticle('en-ferry');
const text = (a: { paragraphs: string[] }) => a.paragraphs.join('\n\n');

/** A background whose history holds one article at four addresses (read last at the original) and another article. */
async function historyWithCopies() {
  const bg = makeBackground();
  const read = (url: string, title: string, a = library) => bg.read({ url, title, digest: digestArticle(text(a)), lang: 'en' });
  await read('https://mirror.example/copy', 'Mirror');
  await read('https://reposts.example/2024/reposted', 'Reposted');
  await read('https://reposts.example/print/reposted', 'Reposted');
  await read('https://balcony.example/', balcony.title, balcony);
  await read('https://library.example/tools', 'Shelves of Hammers and Saws');
  fake.call = (type, req) => bg.call(type as never, req as never);
  return bg;
}

/** A background whose history holds `n` different articles, "Page 0" read first. */
async function historyOfMany(n: number) {
  const bg = makeBackground();
  const words = (i: number) => Array.from({ length: 120 }, (_, k) => `w${i}x${k} word${(i * 7 + k) % 97}`).join(' ');
  for (let i = 0; i < n; i++) await bg.read({ url: `https://many.example/${i}`, title: `Page ${i}`, digest: digestArticle(words(i)), lang: 'en' });
  fake.call = (type, req) => bg.call(type as never, req as never);
  return bg;
}

async function openHistory() {
  const html = readFileSync(join(process.cwd(), 'src/history/index.html'), 'utf8');
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
  await import('../../src/history/main');
  await vi.waitFor(() => expect(summary()).not.toBe('Loading…'));
}

const summary = () => document.getElementById('summary')?.textContent ?? '';
const groups = () => [...document.querySelectorAll<HTMLLIElement>('#list > li.page')];
/** Each group as the reader reads it: the page's title, then its copies' titles. */
const titles = () => groups().map((g) => [...g.querySelectorAll(':scope > a, .copies a')].map((a) => a.textContent));

/** "Forget" on the first group's page, and its confirmation. */
function forgetFirstGroupsPage(): void {
  groups()[0].querySelector<HTMLButtonElement>('button.forget')?.click();
  groups()[0].querySelector<HTMLButtonElement>('.confirm button.destructive')?.click();
}

async function search(words: string) {
  const box = document.getElementById('search') as HTMLInputElement;
  box.value = words;
  box.dispatchEvent(new Event('input'));
  await new Promise((r) => setTimeout(r, 300)); // the page waits for the reader to stop typing
  await vi.waitFor(() => expect(summary()).toMatch(/matching/), { timeout: 3000 });
}

beforeEach(() => {
  vi.resetModules();
});
afterEach(() => {
  document.documentElement.replaceChildren();
  fake.call = null;
});

describe('the history page', () => {
  it('groups copies under the page read last, and counts every page on screen', async () => {
    await historyWithCopies();
    await openHistory();
    expect(titles()).toEqual([['Shelves of Hammers and Saws', 'Reposted', 'Reposted', 'Mirror'], [balcony.title]]);
    expect(summary()).toBe('Showing 5 of 5 pages.');
  });

  it('draws the list anew when the reader comes back to it and the history changed behind it, and not otherwise', async () => {
    const bg = await historyWithCopies();
    await openHistory();
    const drawn = groups()[0];
    // Back to the tab with nothing changed: the list stays as it was drawn.
    document.dispatchEvent(new Event('visibilitychange'));
    await new Promise((r) => setTimeout(r, 200));
    expect(groups()[0]).toBe(drawn);
    // A page read in another tab meanwhile (until 28 November 2026 not shown until the page was reloaded).
    await bg.read({ url: 'https://ferry.example/night', title: ferry.title, digest: digestArticle(text(ferry)), lang: 'en' });
    // The reader had left the focus on a row: it is not lost with the rows drawn anew.
    groups()[1].querySelector('a')?.focus();
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(summary()).toBe('Showing 6 of 6 pages.'));
    expect(titles()[0]).toEqual([ferry.title]);
    await vi.waitFor(() => expect(document.activeElement?.id).toBe('summary'));
  });

  it("counts, for a search, the pages that match it, not the copies shown with them", async () => {
    await historyWithCopies();
    await openHistory();
    await search('hammers');
    expect(titles()).toEqual([['Shelves of Hammers and Saws', 'Reposted', 'Reposted', 'Mirror']]);
    expect(summary()).toBe('1 matching page (of 5).');
    // A copy that matches too counts, shown under its page or not.
    await search('repost');
    expect(summary()).toBe('2 matching pages (of 5).');
  });

  it('says a search found so many so far while "Show more" can find more, and the whole count once it has looked through everything', async () => {
    const bg = makeBackground();
    const repo = await bg.repository;
    // Pages of fingerprints far apart, none a copy of another.
    const fp = (i: number) => (Math.imul(i + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0') + (Math.imul(i + 7, 0x85ebca6b) >>> 0).toString(16).padStart(8, '0');
    // 70 pages about zeppelins among 2,100 pages: the first screen shows 50, found in the most recently seen 2,000 or so.
    for (let i = 0; i < 2100; i++) await repo.recordVisit({ url: `https://site${i}.example/story`, title: i % 30 === 0 ? `Zeppelin ${i}` : `Other ${i}`, fp: fp(i), algo: 'dr2', textLength: 500, lang: 'en' }, 1_700_000_000_000 + i);
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openHistory();
    await search('zeppelin');
    expect(summary()).toBe('50 matching pages so far (of 2,100): “Show more” looks further.');
    (document.getElementById('more') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(summary()).toBe('70 matching pages (of 2,100).'), { timeout: 5000 });
  }, 30_000);

  it("keeps a forgotten page's copies on screen, grouped again, and the count follows", async () => {
    const bg = await historyWithCopies();
    await openHistory();
    const forget = groups()[0].querySelector<HTMLButtonElement>('button.forget');
    expect(forget?.getAttribute('aria-label')).toBe('Forget \u2068Shelves of Hammers and Saws\u2069 (\u2068library.example/tools\u2069)');
    forget?.click();
    // It asks first: Cancel (focused) and Escape keep the page, and give the focus back to Forget.
    const confirm = () => groups()[0].querySelector<HTMLElement>('.confirm');
    expect(confirm()?.textContent).toContain('Forget “\u2068Shelves of Hammers and Saws\u2069” (\u2068library.example/tools\u2069)? Its visits leave the history for good.');
    expect(document.activeElement?.textContent).toBe('Cancel');
    (document.activeElement as HTMLButtonElement).click();
    expect(confirm()).toBeNull();
    expect(document.activeElement).toBe(forget);
    // Clicked twice (a double click): one question.
    forget?.click();
    forget?.click();
    expect(groups()[0].querySelectorAll('.confirm')).toHaveLength(1);
    confirm()?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(confirm()).toBeNull();
    expect(await (await bg.repository).get('https://library.example/tools')).toBeDefined();
    forget?.click();
    confirm()?.querySelector<HTMLButtonElement>('button.destructive')?.click();
    await vi.waitFor(() => expect(summary()).toBe('Showing 4 of 4 pages.'));
    // The copies, newest first: the first is now the page the others are grouped under.
    expect(titles()).toEqual([['Reposted', 'Reposted', 'Mirror'], [balcony.title]]);
    expect(await (await bg.repository).get('https://library.example/tools')).toBeUndefined();
    // Focus is not lost with the removed button: it goes to the group in its place.
    expect(document.activeElement).toBe(groups()[0].querySelector('a'));
  });

  it('offers Undo after a forget, which brings the page back, grouped with its copies again', async () => {
    const bg = await historyWithCopies();
    await openHistory();
    const bar = document.getElementById('undo-bar') as HTMLElement;
    const undo = document.getElementById('undo') as HTMLButtonElement;
    expect(bar.hidden).toBe(true);
    forgetFirstGroupsPage();
    await vi.waitFor(() => expect(summary()).toBe('Showing 4 of 4 pages.'));
    expect(bar.hidden).toBe(false);
    expect(bar.textContent).toBe('“\u2068Shelves of Hammers and Saws\u2069” (\u2068library.example/tools\u2069) was forgotten. Undo');
    undo.click();
    await vi.waitFor(() => expect(summary()).toBe('Showing 5 of 5 pages.'));
    expect(titles()).toEqual([['Shelves of Hammers and Saws', 'Reposted', 'Reposted', 'Mirror'], [balcony.title]]);
    expect(document.getElementById('undo-text')?.textContent).toBe('Undone: it is back in the history.');
    expect(undo.hidden).toBe(true);
    expect(document.activeElement?.id).toBe('undo-text');
    expect((await (await bg.repository).get('https://library.example/tools'))?.title).toBe('Shelves of Hammers and Saws');
  });

  it('offers the Undo of a forget made before it opened (a reload, or a popup), for the time left', async () => {
    const bg = await historyWithCopies();
    await openHistory();
    forgetFirstGroupsPage();
    await vi.waitFor(() => expect(summary()).toBe('Showing 4 of 4 pages.'));
    // The page reloaded.
    vi.resetModules();
    await openHistory();
    const bar = document.getElementById('undo-bar') as HTMLElement;
    await vi.waitFor(() => expect(bar.hidden).toBe(false));
    expect(bar.textContent).toBe('“\u2068Shelves of Hammers and Saws\u2069” (\u2068library.example/tools\u2069) was forgotten. Undo');
    (document.getElementById('undo') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(summary()).toBe('Showing 5 of 5 pages.'));
    // A site forgotten in a popup, then the History page opened.
    await bg.call('popup:forgetSite', { site: 'reposts.example' });
    vi.resetModules();
    await openHistory();
    await vi.waitFor(() => expect(document.getElementById('undo-text')?.textContent).toBe('2 pages of \u2068reposts.example\u2069 were forgotten.'));
    expect(summary()).toBe('Showing 3 of 3 pages.');
    (document.getElementById('undo') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(summary()).toBe('Showing 5 of 5 pages.'));
    expect(document.getElementById('undo-text')?.textContent).toBe('Undone: 2 pages are back in the history.');
  });

  it('lists nothing once the history is cleared in another tab, and offers no Undo for what went with it', async () => {
    const bg = await historyWithCopies();
    await openHistory();
    forgetFirstGroupsPage();
    await vi.waitFor(() => expect(summary()).toBe('Showing 4 of 4 pages.'));
    const bar = document.getElementById('undo-bar') as HTMLElement;
    expect(bar.hidden).toBe(false);
    // "Clear history" in an options tab: the background tells the extension's pages.
    await bg.call('options:clear', {});
    await vi.waitFor(() => expect(groups()).toHaveLength(0));
    expect(document.body.textContent).not.toContain('Reposted');
    expect(bar.hidden).toBe(true);
  });

  it("shows a page's long address cut short, the link keeping all of it, and an untitled page's too", async () => {
    const bg = makeBackground();
    const long = `https://long.example/odd/long?${'q'.repeat(7_000)}`;
    const untitled = `https://long.example/other?${'r'.repeat(7_000)}`;
    await bg.read({ url: long, title: 'A long address', digest: digestArticle(text(library)), lang: 'en' });
    await bg.read({ url: untitled, title: '', digest: digestArticle(text(balcony)), lang: 'en' });
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openHistory();
    const [first, second] = groups();
    const place = second.querySelector('.meta bdi')?.textContent ?? '';
    expect(place).toBe(`long.example/odd/long?${'q'.repeat(160 - 'long.example/odd/long?'.length)}…`);
    expect(second.querySelector('a')?.getAttribute('href')).toBe(long);
    expect(first.querySelector('a')?.textContent).toBe(`${untitled.slice(0, 160)}…`);
    expect(first.querySelector('a')?.getAttribute('href')).toBe(untitled);
  });

  it('shows the pages of an import that ends while it is open, without being looked at again', async () => {
    const bg = await historyOfMany(3);
    await openHistory();
    expect(summary()).toBe('Showing 3 of 3 pages.');
    // An options tab imports a file of two pages (read later than any page here).
    const imported = [5, 6].map((i) => toStored({ url: `https://imported.example/${i}`, canonicalUrl: `https://imported.example/${i}`, site: 'imported.example', title: `Imported ${i}`, fp: '0123456789abcdef', b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, algo: 'dr1', textLength: 300, lang: 'en', firstSeen: 1, lastSeen: 2_000_000_000_000 + i, visits: 1 }));
    await bg.call('options:importOpen', { importId: 'import-while-open' });
    await bg.call('options:importChunk', { importId: 'import-while-open', seq: 0, pages: imported });
    expect(await bg.call('options:importCommit', { importId: 'import-while-open', digest: 'a'.repeat(64), chunks: 1, pages: 2 })).toMatchObject({ done: true });
    await vi.waitFor(() => expect(summary()).toBe('Showing 5 of 5 pages.'));
    // The same fingerprint: one page and its copy, read latest.
    expect(titles()[0]).toEqual(['Imported 6', 'Imported 5']);
  });

  it('forgets a copy listed under another page by itself, after asking, and leaves the page', async () => {
    const bg = await historyWithCopies();
    await openHistory();
    const mirror = () => [...groups()[0].querySelectorAll<HTMLLIElement>('.copies li')].find((li) => li.querySelector('a')?.textContent === 'Mirror');
    const forget = mirror()?.querySelector<HTMLButtonElement>('button.forget');
    expect(forget?.getAttribute('aria-label')).toBe('Forget \u2068Mirror\u2069 (\u2068mirror.example/copy\u2069)');
    // Copies that share a title have Forget buttons of different names.
    const names = [...groups()[0].querySelectorAll<HTMLButtonElement>('button.forget')].map((b) => b.getAttribute('aria-label'));
    expect(new Set(names).size).toBe(names.length);
    forget?.click();
    mirror()?.querySelector<HTMLButtonElement>('.confirm button.destructive')?.click();
    await vi.waitFor(() => expect(summary()).toBe('Showing 4 of 4 pages.'));
    expect(titles()).toEqual([['Shelves of Hammers and Saws', 'Reposted', 'Reposted'], [balcony.title]]);
    const repo = await bg.repository;
    expect(await repo.get('https://mirror.example/copy')).toBeUndefined();
    expect(await repo.get('https://library.example/tools')).toBeDefined();
  });

  it('says how each copy stands to the page it is listed under, of the copy: a full article under its preview holds it', async () => {
    const bg = makeBackground();
    const read = (url: string, title: string, body: string) => bg.read({ url, title, digest: digestArticle(body), lang: 'en' });
    await read('https://full.example/story', 'The whole story', text(library));
    // The preview, read last, heads the group; the full article is listed under it.
    await read('https://preview.example/story', 'A preview', library.paragraphs.slice(0, 3).join('\n\n'));
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openHistory();
    expect(titles()[0]).toEqual(['A preview', 'The whole story']);
    expect(groups()[0].querySelector('.copies .label')?.textContent).toMatch(/^ — full\.example\/story · holds the page above · /);
  });

  it('says a page was met again when it came back with more, and that a copy elsewhere had more when only a copy was read', async () => {
    const bg = makeBackground();
    const repo = await bg.repository;
    const visit = (url: string, a: { paragraphs: string[] }) => ({ url, title: url, fp: digestArticle(text(a)).fp, algo: 'dr2', textLength: 500, lang: 'en' });
    const now = Date.now();
    await repo.recordVisit(visit('https://own.example/story', library), now, [{ url: 'https://own.example/story', changed: { at: now, parts: 2, read: 0.8 } }]);
    await repo.recordVisit(visit('https://original.example/story', balcony), now, [{ url: 'https://original.example/story', changed: { at: now, parts: 1, read: 0.9, where: 'xn--fsqu00a.example' } }]);
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openHistory();
    const marks = Object.fromEntries(groups().map((g) => [g.querySelector(':scope > a')?.textContent, g.querySelector(':scope > .changed')?.textContent]));
    expect(marks['https://own.example/story']).toMatch(/^met again .+, with 2 parts you had not read$/);
    // The copy's site as the reader knows it, isolated from the sentence around it.
    expect(marks['https://original.example/story']).toMatch(/^a copy on 例子\.example had 1 part you had not read, /);
    expect(document.querySelector('.changed bdi')?.textContent).toBe('例子.example');
  });

  it("says no more that a copy had parts not read once that copy, read then, heads the same group", async () => {
    const bg = makeBackground();
    const body = text(library);
    const fuller = `${body}\n\n${text(ferry)}`;
    const read = (url: string, t: string) => bg.read({ url, title: url, digest: digestArticle(t), lang: 'en', passages: encodeSentPassages(pagePassages(t)) }, fromTab(3, url));
    await read('https://news.example/tides', body);
    // The same article with more, on another site: read in full, at the moment the mark is written.
    await read('https://science.example/tides-updated', fuller);
    const stored = (await bg.call('history:list', { limit: 10 })).items.find((i) => i.url === 'https://news.example/tides');
    expect(stored?.changed).toMatchObject({ where: 'science.example' });
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openHistory();
    expect(titles()).toEqual([['https://science.example/tides-updated', 'https://news.example/tides']]);
    expect(document.querySelectorAll('.changed')).toHaveLength(0);
    // The fuller copy forgotten: the mark says again where the parts were.
    await bg.call('popup:forgetPage', { url: 'https://science.example/tides-updated' });
    vi.resetModules();
    await openHistory();
    expect(document.querySelector('.changed')?.textContent).toMatch(/^a copy on science\.example had \d+ parts you had not read, /);
  });

  it('tells two pages of one site apart by their paths', async () => {
    await historyWithCopies();
    await openHistory();
    const places = [...groups()[0].querySelectorAll('.copies .label bdi')].map((b) => b.textContent);
    expect(places).toEqual(['reposts.example/print/reposted', 'reposts.example/2024/reposted', 'mirror.example/copy']);
    expect(groups()[1].querySelector('.meta bdi')?.textContent).toBe('balcony.example');
  });

  it('names a site in another script as the reader knows it, in the place and on hover', async () => {
    const bg = makeBackground();
    await bg.read({ url: 'https://xn--fsqu00a.example/story', title: 'Story', digest: digestArticle(text(balcony)), lang: 'en' });
    fake.call = (type, req) => bg.call(type as never, req as never);
    await openHistory();
    const a = groups()[0].querySelector<HTMLAnchorElement>(':scope > a');
    expect(groups()[0].querySelector('.meta bdi')?.textContent).toBe('例子.example/story');
    expect(a?.title).toBe('https://例子.example/story');
    expect(a?.href).toBe('https://xn--fsqu00a.example/story');
  });

  it('gives every date as the date itself on hover and in <time datetime>', async () => {
    const bg = await historyWithCopies();
    await openHistory();
    const record = await (await bg.repository).get('https://library.example/tools');
    const time = groups()[0].querySelector<HTMLTimeElement>('.meta time');
    expect(time?.dateTime).toBe(new Date(record!.lastSeen).toISOString());
    // The fake clock reads November 2023.
    expect(time?.title).toMatch(/^Nov 1[45], 2023, \d{1,2}:\d\d/);
    expect(time?.textContent).toMatch(/ago$/);
    expect(document.querySelectorAll('.copies time[datetime][title]')).toHaveLength(3);
  });

  it('hands the keyboard focus from "Show more" to the first page it brings', async () => {
    // 51 different articles: one more than a screenful.
    await historyOfMany(51);
    await openHistory();
    const more = document.getElementById('more') as HTMLButtonElement;
    expect(more.hidden).toBe(false);
    more.focus();
    more.click();
    await vi.waitFor(() => expect(groups()).toHaveLength(51));
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Page 0'));
    expect(more.hidden).toBe(true);
  });

  it('keeps a screenful after a forget: the next page takes the place of the one forgotten', async () => {
    // 52 different articles: two more than a screenful.
    await historyOfMany(52);
    await openHistory();
    expect(summary()).toBe('Showing 50 of 52 pages.');
    forgetFirstGroupsPage();
    await vi.waitFor(() => expect(summary()).toBe('Showing 50 of 51 pages.'));
    const shown = titles().map(([t]) => t);
    expect(shown).toHaveLength(50);
    expect(shown[0]).toBe('Page 50');
    expect(shown.at(-1)).toBe('Page 1');
    // The focus went to the page after the one forgotten, and stays there.
    expect(document.activeElement).toBe(groups()[0].querySelector('a'));
    const more = document.getElementById('more') as HTMLButtonElement;
    expect(more.hidden).toBe(false);
    more.click();
    await vi.waitFor(() => expect(summary()).toBe('Showing 51 of 51 pages.'));
    expect(titles().map(([t]) => t).at(-1)).toBe('Page 0');
    expect(more.hidden).toBe(true);
  });

  it('says why when the history cannot be read, and offers to try again', async () => {
    const bg = await historyWithCopies();
    let failing = true;
    fake.call = async (type, req) => {
      if (failing && type === 'history:list') throw new Error('Could not establish connection. Receiving end does not exist.');
      return bg.call(type as never, req as never);
    };
    const html = readFileSync(join(process.cwd(), 'src/history/index.html'), 'utf8');
    const parsed = new DOMParser().parseFromString(html, 'text/html');
    document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
    await import('../../src/history/main');
    await vi.waitFor(() => expect(summary()).not.toBe('Loading…'));
    expect(summary()).not.toMatch(/Showing/);
    const more = document.getElementById('more') as HTMLButtonElement;
    expect(more.hidden).toBe(false);
    failing = false;
    more.click();
    await vi.waitFor(() => expect(summary()).toBe('Showing 5 of 5 pages.'));
  });
});

describe('the history page, when the reader searches while it loads', () => {
  it('lets a load that a search replaced go: neither its "Show more" nor its error is shown over the search', async () => {
    const bg = await historyWithCopies();
    // The first listing's count comes late, then fails; the search is answered at once.
    let first = true;
    fake.call = async (type, req) => {
      if (type === 'options:stats' && first) {
        first = false;
        await new Promise((r) => setTimeout(r, 600));
        throw Object.assign(new Error('the database could not be opened'), { name: 'UnknownError' });
      }
      return bg.call(type as never, req as never);
    };
    const html = readFileSync(join(process.cwd(), 'src/history/index.html'), 'utf8');
    const parsed = new DOMParser().parseFromString(html, 'text/html');
    document.documentElement.replaceChildren(...[...parsed.documentElement.childNodes].map((n) => document.importNode(n, true)));
    await import('../../src/history/main');
    await search('Hammers');
    await new Promise((r) => setTimeout(r, 800));
    expect(summary()).toMatch(/^1 matching page/);
    expect((document.getElementById('more') as HTMLButtonElement).hidden).toBe(true);
  });
});

describe('the history page, when a search takes several steps', () => {
  it('says how far it has looked while it looks, then how many it found', async () => {
    // A rare word in a large history: the background answers in steps of 20,000 pages (seconds at
    // 100,000; until 28 November 2026 the page said only "Loading…" until it was done).
    const bg = await historyWithCopies();
    const steps: Array<(answer: unknown) => void> = [];
    fake.call = async (type, req) => {
      if (type === 'options:stats') return { ...((await bg.call('options:stats', {})) as object), pages: 100_000 };
      const { query } = req as { query?: string };
      if (type !== 'history:list' || !query) return bg.call(type as never, req as never);
      return new Promise((resolve) => steps.push(resolve));
    };
    await openHistory();
    const box = document.getElementById('search') as HTMLInputElement;
    box.value = 'zeppelin';
    box.dispatchEvent(new Event('input'));
    await vi.waitFor(() => expect(steps).toHaveLength(1));
    steps[0]({ items: [], next: [1, 80_000], done: false, scanned: 20_000 });
    await vi.waitFor(() => expect(summary()).toBe('Searching: 0 found so far, 20,000 of 100,000 pages looked through…'));
    await vi.waitFor(() => expect(steps).toHaveLength(2));
    steps[1]({ items: [], next: [1, 60_000], done: false, scanned: 20_000 });
    await vi.waitFor(() => expect(summary()).toBe('Searching: 0 found so far, 40,000 of 100,000 pages looked through…'));
    await vi.waitFor(() => expect(steps).toHaveLength(3));
    steps[2]({ items: [], done: true, scanned: 60_000 });
    await vi.waitFor(() => expect(summary()).toBe('0 matching pages (of 100,000).'));
  });
});
