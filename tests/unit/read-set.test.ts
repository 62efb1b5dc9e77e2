// The hash-only "what's new" (core/read-set.ts) against the reference, whatsNew on the two texts:
// what the reader would check is which paragraphs come out new, how many, and the share read.
import { describe, expect, it } from 'vitest';
import { cutPassages, decodeReadSet, decodeReadSetBytes, fromBase64, isReadSetBytes, newParts, pagePassages, READ_SET_OPTIONS, readSetOf, titleRead, whatsNew, whatsNewByHashes, type HashedWhatsNew, type ReadSet } from '../../src/core';
import { MAX_READ_SET_LENGTH, READ_RUN, READ_SET_CAP, readSetOfPassages } from '../../src/core/read-set';
import { normalizeText } from '../../src/core/normalize';
import { runHash, tokenize } from '../../src/core/tokens';
import { loadArticle } from '../e2e/site';

const paragraphs = (name: string) => loadArticle(name).paragraphs;

/** What the extension computes: the old text's stored read set against the new text's passages. */
function byHashes(oldText: string, newText: string, elsewhere = true): HashedWhatsNew & { parts: number[][]; texts: string[] } {
  const set = decodeReadSet(readSetOf(oldText));
  if (!set) throw new Error('read set does not decode');
  const passages = pagePassages(newText);
  const r = whatsNewByHashes(set, passages);
  // As for a page read on another site: a repost's own lines around what was read are nothing new there.
  const parts = newParts(passages, r.passages, { elsewhere });
  return { ...r, parts, texts: parts.map((part) => newText.slice(passages[part[0]].start, passages[part[part.length - 1]].end)) };
}

/** The reference: passages of the new text whatsNew marks new. */
/** Each passage's words of prose, to two places. */
const words = (text: string) => pagePassages(text).map((p) => Math.round(p.words * 100) / 100);
const referenceNew = (oldText: string, newText: string) => whatsNew(oldText, newText).passages.filter((p) => p.isNew).map((p) => newText.slice(p.start, p.end));

describe('hash-only what is new', () => {
  for (const [lang, base, extra] of [
    ['English', 'en-library', 'en-ferry'],
    ['Chinese', 'zh-library', 'zh-balcony'],
  ] as const) {
    it(`finds the three paragraphs added to a revision, as whatsNew does (${lang})`, () => {
      const old = paragraphs(base);
      const added = paragraphs(extra).slice(1, 4);
      const revised = [old[0], added[0], old[1], old[2], added[1], ...old.slice(3), added[2]];
      const oldText = old.join('\n\n');
      const newText = revised.join('\n\n');
      const r = byHashes(oldText, newText);
      expect(r.texts).toEqual(added);
      expect(r.parts).toHaveLength(3);
      // Every passage the reference marks new is in one of the parts, and nothing else is.
      expect(r.texts.join('\n\n').replace(/\s+/g, '')).toBe(referenceNew(oldText, newText).join('').replace(/\s+/g, ''));
      expect(Math.abs(r.read - whatsNew(oldText, newText).read)).toBeLessThan(0.05);
      expect(r.readUpTo).toBeUndefined();
    });
  }

  it('takes a sentence with one word changed as read, like whatsNew', () => {
    const old = paragraphs('en-bridges');
    const oldText = old.join('\n\n');
    const edited = old.map((p, k) => (k === 2 ? p.replace(/\b(the)\b/, 'a') : p));
    expect(edited[2]).not.toBe(old[2]);
    const newText = edited.join('\n\n');
    expect(referenceNew(oldText, newText)).toEqual([]);
    const r = byHashes(oldText, newText);
    expect(r.parts).toEqual([]);
    expect(r.read).toBeGreaterThan(0.95);
  });

  it('says how far a preview reached when the full article follows it, and nothing is new the other way round', () => {
    const full = [...paragraphs('en-ferry')];
    const fullText = full.join('\n\n');
    const preview = full.slice(0, 3).join('\n\n');
    const r = byHashes(preview, fullText);
    const share = cutPassages(preview).reduce((n, p) => n + p.chars, 0) / cutPassages(fullText).reduce((n, p) => n + p.chars, 0);
    expect(r.readUpTo).toBeDefined();
    expect(Math.abs((r.readUpTo ?? 0) - share)).toBeLessThan(0.02);
    expect(r.parts.length).toBeGreaterThan(0);
    expect(r.texts[0].startsWith(full[3].slice(0, 20))).toBe(true);
    // Full article first, then its preview: nothing new.
    const back = byHashes(fullText, preview);
    expect(back.parts).toEqual([]);
    expect(back.read).toBe(1);
    expect(back.readUpTo).toBeUndefined();
  });

  for (const name of ['en-ferry', 'zh-balcony']) {
    it(`takes the earlier page's title for read: a preview that keeps the headline its article's extraction took out has nothing new (${name})`, () => {
      const { title } = loadArticle(name);
      const full = paragraphs(name).join('\n\n');
      const preview = [title, ...paragraphs(name).slice(0, 3)].join('\n\n');
      const set = decodeReadSet(readSetOf(full)) as ReadSet;
      const passages = pagePassages(preview);
      // Without the title, its headline is the preview's one new paragraph (as readers saw it).
      const without = whatsNewByHashes(set, passages);
      expect(newParts(passages, without.passages).map((part) => preview.slice(passages[part[0]].start, passages[part.at(-1) as number].end))).toEqual([title]);
      const read = titleRead(title);
      const withTitle = whatsNewByHashes({ ...set, has: (key) => set.has(key) || read.has(key) }, passages);
      expect(newParts(passages, withTitle.passages)).toEqual([]);
      expect(withTitle.read).toBe(1);
      // The text method (the command line's whatsnew) alike.
      expect(whatsNew(full, preview).passages.filter((p) => p.isNew).map((p) => preview.slice(p.start, p.end))).toEqual([title]);
      expect(whatsNew(full, preview, title)).toMatchObject({ read: 1 });
      // Another article's title reads nothing of it.
      expect(newParts(passages, whatsNewByHashes({ ...set, has: (key) => set.has(key) || titleRead(loadArticle('en-library').title).has(key) }, passages).passages)).toHaveLength(1);
    });
  }

  it('says how far a short preview reached when the full article begins with a line the preview had not (a byline), in Chinese too', () => {
    for (const [name, byline] of [['zh-balcony', '本报记者 林晓 · 2026年5月12日'], ['en-ferry', 'By Staff · 12 May 2026']] as const) {
      const full = paragraphs(name);
      const preview = full.slice(0, 2).join('\n\n');
      const r = byHashes(preview, [byline, ...full].join('\n\n'));
      expect(r.readUpTo, name).toBeDefined();
      // What is new is the byline, if it is long enough to count, and what follows the preview.
      expect(r.texts.filter((t) => t !== byline)[0].startsWith(full[2].slice(0, 10)), name).toBe(true);
    }
  });

  it('says how far a preview reached though it also held a sentence from further down the article (a pull quote)', () => {
    for (const name of ['en-library', 'zh-library']) {
      const full = paragraphs(name);
      const quote = cutPassages(full[full.length - 2]).map((p) => full[full.length - 2].slice(p.start, p.end))[0];
      const preview = [...full.slice(0, 3), quote].join('\n\n');
      const r = byHashes(preview, full.join('\n\n'));
      const share = cutPassages(full.slice(0, 3).join('\n\n')).reduce((n, p) => n + p.chars, 0) / cutPassages(full.join('\n\n')).reduce((n, p) => n + p.chars, 0);
      expect(Math.abs((r.readUpTo ?? 0) - share), name).toBeLessThan(0.03);
    }
  });

  it('does not take a new sentence for read on one of its runs passing by chance, amid new ones; an edited one amid read ones stays read', () => {
    const full = paragraphs('en-library');
    const preview = full.slice(0, 2).join('\n\n');
    const page = pagePassages(full.join('\n\n'));
    const set = decodeReadSet(readSetOf(preview))!;
    // A passage deep in the unread part with sampled runs, and one of them passing for read, as a run
    // not in the set does one time in 64.
    const k = page.findIndex((p, i) => i > page.length / 2 && p.runs.length >= 2 && !page[i - 1].para && i + 1 < page.length && !page[i + 1].para);
    const lucky: ReadSet = { ...set, hasRun: (key) => set.hasRun(key) || key === page[k].runs[0] >>> 8 };
    expect(whatsNewByHashes(lucky, page).passages[k].isNew).toBe(true);
    // Read, that one hit would have made it (the neighbours read): a sentence edited in a paragraph read.
    const all = decodeReadSet(readSetOf(full.join('\n\n')))!;
    const edited: ReadSet = { ...all, has: (h) => h !== page[k].hash && all.has(h), hasRun: (key) => page[k].runs.every((r) => r >>> 8 !== key || r === page[k].runs[0]) && all.hasRun(key) };
    expect(whatsNewByHashes(edited, page).passages[k].isNew).toBe(false);
  });

  it('says nothing is new for the same text, and all is new for another article', () => {
    const text = paragraphs('zh-library').join('\n');
    expect(byHashes(text, text)).toMatchObject({ read: 1, parts: [] });
    const other = byHashes(text, paragraphs('en-balcony').join('\n'));
    expect(other.read).toBeLessThan(0.05);
    expect(other.parts.length).toBeGreaterThan(0);
  });
});

describe('the read set as stored', () => {
  it('holds every passage of the text, and lets few others pass (about 1 in 256)', () => {
    const text = ['en-library', 'en-ferry', 'en-bridges', 'zh-library'].flatMap(paragraphs).join('\n\n');
    const set = decodeReadSet(readSetOf(text));
    expect(set).not.toBeNull();
    for (const p of cutPassages(text)) expect(set?.has(p.hash)).toBe(true);
    let passed = 0;
    for (let k = 0; k < 20_000; k++) if (set?.has((Math.imul(k, 2654435761) >>> 8) & 0xffffff)) passed++;
    expect(passed / 20_000).toBeLessThan(0.01);
  });

  it('stays within its cap on a very long page, keeping the first passages', () => {
    const text = Array.from({ length: 3000 }, (_, k) => `Sentence number ${k} tells of harbour ${k * 7} and the ferry ${k % 13} that left late.`).join(' ');
    const encoded = readSetOf(text);
    expect(encoded.length).toBeLessThanOrEqual(MAX_READ_SET_LENGTH);
    const set = decodeReadSet(encoded);
    const passages = cutPassages(text);
    expect(passages.length).toBeGreaterThan(READ_SET_CAP);
    expect(passages.slice(0, READ_SET_CAP).every((p) => set?.has(p.hash))).toBe(true);
  });

  it('thins the run sample of a long page rather than dropping passages', () => {
    const text = ['en-library', 'en-ferry', 'en-bridges', 'en-balcony'].flatMap(paragraphs).join('\n\n').repeat(1);
    const small = decodeReadSet(readSetOf(text, { ...READ_SET_OPTIONS, cap: cutPassages(text).length + 10 }));
    expect(small?.runSample).toBeGreaterThan(READ_SET_OPTIONS.runSample);
    for (const p of cutPassages(text)) expect(small?.has(p.hash)).toBe(true);
  });

  it('refuses what is not a read set', () => {
    expect(decodeReadSet('')).toBeNull();
    expect(decodeReadSet('not base64!')).toBeNull();
    expect(decodeReadSet('AAAA')).toBeNull();
  });

  it('reads a read set stored by an earlier version (1 to 5) as it was made, and refuses a later one', () => {
    const text = loadArticle('zh-library').paragraphs.join('\n\n');
    const bytes = fromBase64(readSetOf(text))!;
    expect(bytes[0]).toBe(6);
    expect(decodeReadSetBytes(bytes)).toMatchObject({ paragraphs: true });
    bytes[0] = 7;
    expect(decodeReadSetBytes(bytes)).toBeNull();
    // Made by version 5 (one set of passages and runs together, the build of d5debbc) for this text:
    const old = 'The ferry left the harbour at dawn, an hour late. Gulls followed it past the breakwater.\n\nOn the far shore the market was already open, and fishmongers called out the morning prices. 渡轮在黎明时分离开港口，比平时晚了一个小时。';
    const v5 = fromBase64('BYMAD4bB1vkBEODOUXIA45ZBwgeTfA==')!;
    const set = decodeReadSetBytes(v5)!;
    expect(set).toMatchObject({ paragraphs: true, runSample: 4 });
    expect(whatsNewByHashes(set, pagePassages(old))).toMatchObject({ read: 1 });
    expect(whatsNewByHashes(set, pagePassages(text)).read).toBeLessThan(0.05);
    const keys = Array.from({ length: 1 << 12 }, (_, k) => k * 4099).filter((k) => set.has(k));
    for (const version of [1, 2, 3]) {
      v5[0] = version;
      const earlier = decodeReadSetBytes(v5)!;
      expect(Array.from({ length: 1 << 12 }, (_, k) => k * 4099).filter((k) => earlier.has(k))).toEqual(keys);
      // Cut without paragraph ends: a short line of its own is judged by its neighbours there.
      expect(earlier.paragraphs).toBe(false);
    }
  });

  it('reads each passage normalised alone, whatever in the text normalises to more or fewer characters', () => {
    const texts = [
      paragraphs('en-library').join('\n\n'),
      paragraphs('zh-library').join('\n\n'),
      // Latin-1 whose forms are longer (½ → 1⁄2, ¨ → space and a combining mark), a combining accent, full-width letters, half-width kana, Traditional characters, an emoji.
      'Half ½ a cup of flour, then stir ¨ twice. The café\u0301 opened late that morning again.\n\nＦＵＬＬ ｗｉｄｔｈ words and ｶﾀｶﾅ words came next in the long line. 這裡的溫度很低，大家都穿著外套。🙂 The end of it all came soon enough for the readers.',
      'Only Latin-1: naïve façade, Ærøskøbing, señor, «quoted» words in a sentence long enough to count. And a second sentence of plain words here.',
    ];
    for (const text of texts) {
      const reference = cutPassages(text).map((p) => {
        const { hashes } = tokenize(normalizeText(text.slice(p.start, p.end)));
        const runs = Array.from({ length: Math.max(0, hashes.length - READ_RUN + 1) }, (_, i) => runHash(hashes, i, READ_RUN));
        return { tokens: hashes.length, runs: runs.length };
      });
      const got = pagePassages(text, 1);
      expect(got.map((p) => ({ tokens: p.tokens, runs: p.runs.length }))).toEqual(reference);
      // Each passage's runs are in the read set of the text.
      const set = decodeReadSet(readSetOf(text))!;
      for (const p of pagePassages(text)) for (const run of p.runs) expect(set.hasRun(run >>> 8)).toBe(true);
    }
  });

  it('is the same made from the passages the page has at hand as from its text', () => {
    const long = Array.from({ length: 3000 }, (_, k) => `Sentence number ${k} tells of harbour ${k * 7} and the ferry ${k % 13} that left late.`).join(' ');
    for (const text of [paragraphs('en-library').join('\n\n'), paragraphs('zh-library').join('\n\n'), ['en-library', 'en-ferry', 'en-bridges', 'en-balcony'].flatMap(paragraphs).join('\n\n'), long]) {
      expect(readSetOfPassages(pagePassages(text))).toBe(readSetOf(text));
    }
  });

  it('keeps passages and runs apart: every one of the text is found, and a key of the other kind only by chance', () => {
    const text = ['en-library', 'en-ferry', 'en-bridges', 'en-balcony', 'zh-library'].flatMap(paragraphs).join('\n\n');
    const set = decodeReadSet(readSetOf(text))!;
    for (const p of pagePassages(text)) {
      expect(set.has(p.hash)).toBe(true);
      for (const run of p.runs) expect(set.hasRun(run >>> 8)).toBe(true);
    }
    expect(set.runFalse).toBe(2 ** -READ_SET_OPTIONS.runBits);
    // A key of the other kind is not in either set, but by chance.
    let passed = 0;
    for (const p of pagePassages(text)) if (set.hasRun(p.hash)) passed++;
    expect(passed / pagePassages(text).length).toBeLessThan(0.1);
  });

  it('takes a line put between paragraphs (a caption, "Related:") for not read, and what was read for read', () => {
    const old = loadArticle('en-library').paragraphs;
    const line = (k: number) => `Related reading: our guide to tools, part ${k}`;
    const revised = old.flatMap((p, k) => [p, line(k)]).join('\n\n');
    const r = byHashes(old.join('\n\n'), revised);
    expect(r.texts).toEqual(old.map((_, k) => line(k)));
    // Lines of a few words are not read either, but make no new part ("3 new paragraphs").
    const short = old.flatMap((p, k) => [p, `Related: part ${k}`]).join('\n\n');
    const s = byHashes(old.join('\n\n'), short);
    expect(s.texts).toEqual([]);
    expect(s.read).toBeLessThan(1);
    const inserted = old.reduce((n, _, k) => n + line(k).replace(/[^\p{L}\p{N}]/gu, '').length, 0);
    const total = revised.replace(/[^\p{L}\p{N}]/gu, '').length;
    expect(r.read).toBeCloseTo(1 - inserted / total, 2);
  });

  it('is told a read set without decoding it, exactly as the decoder tells one', () => {
    const text = loadArticle('en-library').paragraphs.join('\n\n');
    const real = fromBase64(readSetOf(text))!;
    expect(isReadSetBytes(real)).toBe(true);
    // Every cut of a real set, and random bytes after every kind of header, good and bad.
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 24;
    const cases: Uint8Array[] = Array.from({ length: real.length + 1 }, (_, i) => real.slice(0, i));
    for (let i = 0; i < 4000; i++) {
      const bytes = Uint8Array.from({ length: next() % 16 }, next);
      if (bytes.length > 1 && i % 2) bytes[0] = 1 + (i % 12 >> 1);
      if (bytes.length > 3 && i % 8 === 1) bytes.fill(0xff, 4);
      cases.push(bytes);
    }
    let accepted = 0;
    for (const bytes of cases) {
      expect(isReadSetBytes(bytes)).toBe(decodeReadSetBytes(bytes) !== null);
      if (isReadSetBytes(bytes)) accepted++;
    }
    // Both kinds are among the cases.
    expect(accepted).toBeGreaterThan(100);
    expect(cases.length - accepted).toBeGreaterThan(100);
  });
});

describe('new parts', () => {
  it('counts a run of new passages in one paragraph once, and new paragraphs one by one', () => {
    const v = (isNew: boolean) => ({ isNew, readChars: 0 });
    const passages = [true, false, false, true, false, true, false].map((para) => ({ para, tokens: 12, words: 12, chars: 60 }));
    expect(newParts(passages, [v(false), v(true), v(true), v(true), v(true), v(false), v(true)])).toEqual([[1, 2], [3, 4], [6]]);
  });

  it('does not count a line of a few words as a new part ("Printed from example.com"), a short sentence of a new paragraph being part of it', () => {
    const v = (isNew: boolean) => ({ isNew, readChars: 0 });
    const passages = [
      { para: true, tokens: 4, words: 4, chars: 20 }, // a new line of its own
      { para: true, tokens: 30, words: 30, chars: 150 },
      { para: true, tokens: 3, words: 3, chars: 15 }, // a new paragraph's first, short sentence…
      { para: false, tokens: 20, words: 20, chars: 100 }, // …and the rest of it
    ];
    expect(newParts(passages, [v(true), v(false), v(true), v(true)])).toEqual([[2, 3]]);
  });
});

describe('a dateline added to a revision', () => {
  // The revision: one paragraph added in the middle, and a line saying when it was updated at the end.
  const cases = [
    ['en', 'en-library', 'en-ferry', 'Updated March 10, 2017, at 10:15 a.m.'],
    ['zh', 'zh-library', 'zh-balcony', '更新于2017年3月10日 10:15'],
    ['ja', 'ja-walk', '', '（2017年3月10日 10時15分 追記）'],
  ] as const;
  const japanese = '駅前の古い書店は今月末で閉店することになり、最後の週末には多くの常連客が別れを惜しみに訪れた。店主は三十年の営業を振り返り、地域の人々への感謝を語った。';
  for (const [lang, base, extra, dateline] of cases) {
    it(`is no new part (${lang}): "${dateline}"; the paragraph added is one`, () => {
      const old = loadArticle(base).paragraphs;
      const added = extra ? loadArticle(extra).paragraphs[1] : japanese;
      const revision = [...old.slice(0, 3), added, ...old.slice(3), dateline].join('\n\n');
      const passages = pagePassages(revision);
      const r = whatsNewByHashes(decodeReadSet(readSetOf(old.join('\n\n')))!, passages);
      const parts = newParts(passages, r.passages);
      expect(parts).toHaveLength(1);
      expect(revision.slice(passages[parts[0][0]].start, passages[parts[0].at(-1)!].end)).toBe(added);
      // The dateline was read as not read all the same: it is new text, only not a part to show.
      expect(r.passages.at(-1)!.isNew).toBe(true);
    });
  }

  it('leaves a short new sentence of prose with a number in it a part', () => {
    const passages = pagePassages('A first paragraph that the reader has read before today.\n\nThe ferry now runs every 20 minutes from the pier.');
    expect(passages.map((p) => p.words)).toEqual([10, 9]);
    const v = (isNew: boolean) => ({ isNew, readChars: 0 });
    expect(newParts(passages, [v(false), v(true)])).toEqual([[1]]);
  });

  it('counts no word of a web address, and none in a line that is mostly an address (a source or "printed from" line)', () => {
    expect(words('Printed from https://news.example/2024/05/14/harbour-bridge-vote')).toEqual([0]);
    expect(words('打印自 http://news.example/zh/print/2024/05/14/harbour-bridge-vote')).toEqual([0]);
    expect(words('转载自：海港日报\u3000原文链接：http://news.example/zh/2024/05/14/harbour-bridge-vote')).toEqual([0]);
    expect(words('Source: www.gazette.example/harbour')).toEqual([0]);
    // A sentence that gives an address among its words keeps its words, less the address's.
    expect(words('The council has now published the full minutes of the meeting at https://council.example/minutes today.')).toEqual([13]);
    // No address: as before.
    expect(words('The ferry now runs every 20 minutes from the pier.')).toEqual([9]);
  });

  it('marks no source line added to a Chinese reprint above the article, nor a "打印自" line under a print version, as new', () => {
    const old = loadArticle('zh-library').paragraphs;
    const set = decodeReadSet(readSetOf(old.join('\n\n')))!;
    for (const added of [
      ['转载自：海港日报\u3000原文链接：http://news.example/zh/2024/05/14/harbour-bridge-vote', ...old],
      [...old, '打印自 http://news.example/zh/print/2024/05/14/harbour-bridge-vote'],
      ['Reposted from The Harbour Gazette. Original: https://news.example/2024/05/14/harbour-bridge-vote', ...old],
    ]) {
      const page = added.join('\n\n');
      const passages = pagePassages(page);
      expect(newParts(passages, whatsNewByHashes(set, passages).passages), added[0].slice(0, 20)).toEqual([]);
    }
  });

  it('still takes a reprint elsewhere whose source line above is mostly an address, with lines of its site below, for the article wrapped', () => {
    const old = loadArticle('zh-library').paragraphs;
    const page = ['转载自：海港日报\u3000原文链接：http://news.example/zh/2024/05/14/harbour-bridge-vote', ...old, '喜欢这篇文章的读者请关注我们的公众号，每天推送更多精彩的海港新闻和评论。'].join('\n\n');
    const passages = pagePassages(page);
    const verdicts = whatsNewByHashes(decodeReadSet(readSetOf(old.join('\n\n')))!, passages).passages;
    expect(newParts(passages, verdicts, { elsewhere: true })).toEqual([]);
    // At the page's own site the line below is the article's own, and new.
    expect(newParts(passages, verdicts)).toHaveLength(1);
  });

  it('counts the words of a passage without its numbers, and Han and kana at 1.5 to a word', () => {
    expect(words('Updated March 10, 2017, at 10:15 a.m.')).toEqual([5]);
    expect(words('Score: 3-1 (2-0 at half time), 45,000 watching.')).toEqual([5]);
    expect(words('（２０１７年３月１０日 １０時１５分 追記）')).toEqual([4.67]);
    expect(words('R2-D2 and 3rd place')).toEqual([5]);
  });
});

describe('a repost that wraps what was read', () => {
  const wrappers = {
    en: {
      above: ['Originally published at The Harbour Ledger on 3 May 2026.', 'This story is republished here with permission.'],
      below: ['Share this: Mail Forum Feed Print', 'Sign up for our weekly letter. The best stories of the week, every Friday, in your inbox.', 'Related: How the old tram depot became a school · Ten walks along the river · Night buses return', 'Comments are closed for this story.'],
    },
    zh: {
      above: ['2026-05-03 08:15　来源：港湾日报　作者：佚名　阅读：2,481', '【转载声明】本文转自港湾日报，版权归原作者所有，如有侵权请联系删除。', '点击上方蓝字关注我们，每天一篇好文章！'],
      below: ['责任编辑：周小河 审核：林一', '声明：本文仅代表作者观点，不代表本站立场。', '喜欢这篇文章吗？欢迎点赞、转发给更多朋友，长按下方二维码关注我们。'],
    },
  } as const;

  for (const [lang, base, extra] of [
    ['en', 'en-library', 'en-ferry'],
    ['zh', 'zh-library', 'zh-balcony'],
  ] as const) {
    const old = paragraphs(base);
    const { above, below } = wrappers[lang];

    it(`has nothing new when another site only adds its own lines above and below the article (${lang})`, () => {
      const r = byHashes(old.join('\n\n'), [...above, ...old, ...below].join('\n\n'));
      expect(r.parts).toEqual([]);
      // Its lines are still not read: the share read says so.
      expect(r.read).toBeLessThan(0.97);
    });

    it(`still shows what is new where a page adds text inside the article, only at one end, or far more than the article (${lang})`, () => {
      const added = paragraphs(extra).slice(1, 4);
      // An update inside, with the wrapper around it.
      expect(byHashes(old.join('\n\n'), [...above, old[0], added[0], ...old.slice(1), ...below].join('\n\n')).texts).toContain(added[0]);
      // Paragraphs added at the end only (an update), or at the start only.
      expect(byHashes(old.join('\n\n'), [...old, ...added].join('\n\n')).parts.length).toBeGreaterThan(0);
      expect(byHashes(old.join('\n\n'), [...added, ...old].join('\n\n')).parts.length).toBeGreaterThan(0);
      // Lines above and below the article at its own address (a revisit): an editor's note and a correction.
      expect(byHashes(old.join('\n\n'), [...above, ...old, ...below].join('\n\n'), false).parts.length).toBeGreaterThan(0);
      // A thread or digest holding the article among as much again of other text.
      const other = paragraphs(extra);
      expect(byHashes(old.join('\n\n'), [...other.slice(0, 4), ...old, ...other.slice(4)].join('\n\n')).parts.length).toBeGreaterThan(0);
    });
  }
});

describe("an excerpt's own line", () => {
  for (const [lang, base, extra, line] of [
    ['en', 'en-library', 'en-ferry', 'Subscribe to continue reading the rest of this story and every story in our archive.'],
    ['zh', 'zh-library', 'zh-balcony', '打开港湾日报APP，阅读全文，还有更多精彩内容等你发现。'],
  ] as const) {
    const old = paragraphs(base);
    const preview = old.slice(0, Math.ceil(old.length * 0.4));
    const set = decodeReadSet(readSetOf(old.join('\n\n')));
    const parts = (text: string, partOf: boolean) => {
      const passages = pagePassages(text);
      return newParts(passages, whatsNewByHashes(set!, passages).passages, { partOf });
    };

    it(`is nothing new on a preview of an article read in full, at its end or its start (${lang})`, () => {
      expect(parts([...preview, line].join('\n\n'), true)).toEqual([]);
      expect(parts([line, ...preview].join('\n\n'), true)).toEqual([]);
      // Not taken for a part of what was read, the line is one new paragraph, as before.
      expect(parts([...preview, line].join('\n\n'), false)).toHaveLength(1);
    });

    it(`leaves a paragraph of several sentences, and anything inside the part read, new (${lang})`, () => {
      const added = paragraphs(extra).slice(1, 3);
      expect(parts([...preview, added.join(' ')].join('\n\n'), true).length).toBeGreaterThan(0);
      expect(parts([preview[0], line, ...preview.slice(1)].join('\n\n'), true)).toHaveLength(1);
    });
  }
});

describe('a preview is told from a revision', () => {
  it('does not take a revision with new paragraphs inside the part read before for a preview', () => {
    const old = paragraphs('en-balcony');
    const added = paragraphs('en-ferry').slice(1, 4);
    expect(byHashes(old.join('\n\n'), [old[0], added[0], ...old.slice(1, 3), added[1], added[2]].join('\n\n')).readUpTo).toBeUndefined();
  });
});
