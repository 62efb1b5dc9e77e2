import { describe, expect, it } from 'vitest';
import {
  ANCHOR_CAP,
  ANCHOR_COUNT,
  anchorsOf,
  cutPassages,
  decodePassages,
  digestArticle,
  encodePassages,
  fingerprint,
  fromBase64,
  hamming,
  heldIn,
  judgePair,
  PASSAGE_CAP,
  pagePassages,
  passageOverlap,
  passageSet,
  passageSignature,
  shareAnchor,
  sketchOf,
  textHash,
  textStats,
  toBase64,
  wellFormed,
  whatsNew,
} from '../../src/core';
import { serialize } from 'node:v8';
import { HARD_MAX_WORDS, MIN_CUT_WORDS } from '../../src/core/passages';
import { toStored } from '../../src/storage/layout';
import { loadArticle } from '../e2e/site';
import { filler, quotedInPage, QUOTED_IN_PAGE, variedFiller } from '../fixtures/filler';
import { VECTORS } from '../fixtures/vectors';

const article = (name: string) => loadArticle(name).paragraphs.join('\n\n');
const en = article('en-library');
const zh = article('zh-library');
const pieces = (text: string) => cutPassages(text).map((p) => text.slice(p.start, p.end));
const hashes = (text: string) => cutPassages(text).map((p) => p.hash);

describe('cutting text into passages', () => {
  it('cuts English at sentence ends, not at abbreviations inside numbers', () => {
    expect(pieces('The fee is 3.50 dollars. Members pay less! Do you? "Yes," she said.')).toEqual(['The fee is 3.50 dollars.', 'Members pay less!', 'Do you?', '"Yes," she said.']);
  });

  it('ignores where lines and paragraphs break, and case, spacing and full-width forms', () => {
    const rewrapped = en.replace(/\n\n/g, ' ').replace(/ (\w+) /g, (m, w: string) => (w.length % 3 === 0 ? `\n${w}\n` : m));
    expect(rewrapped).not.toBe(en);
    expect(hashes(rewrapped)).toEqual(hashes(en));
    expect(hashes(en.toUpperCase())).toEqual(hashes(en));
    const fullWidth = 'Tool libraries lend ladders. They also lend drills!'.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    expect(hashes(fullWidth)).toEqual(hashes('tool libraries lend ladders. they also lend drills!'));
    const open = 'A note that ends without a full stop';
    expect(hashes(open.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)))).toEqual(hashes(open));
    expect(hashes('Café menus, naïve ① ﬁsh.')).toEqual(hashes('CAFE\u0301 MENUS, NAI\u0308VE 1 FISH.'));
  });

  it('cuts Chinese and Japanese at their full stops, question and exclamation marks', () => {
    expect(pieces('今天下雨了。我们去图书馆借书吧！好不好？“好。”他说')).toEqual(['今天下雨了。', '我们去图书馆借书吧！', '好不好？', '“好。”', '他说']);
    expect(pieces('毎朝歩いている。川沿いの道が好きだ。')).toEqual(['毎朝歩いている。', '川沿いの道が好きだ。']);
    // In an article, every passage ends a sentence, unless it was cut for being long.
    const ps = cutPassages(zh);
    expect(ps.length).toBeGreaterThan(5);
    expect(ps.filter((p) => !/[。！？][”」]?$/.test(zh.slice(p.start, p.end))).every((p) => p.words >= MIN_CUT_WORDS)).toBe(true);
  });

  it('cuts Chinese typed with half-width punctuation, and Japanese with ．, as with full-width: the same passages', () => {
    expect(pieces('今天下雨了.我们去图书馆借书吧!好不好?「好.」他说')).toEqual(['今天下雨了.', '我们去图书馆借书吧!', '好不好?', '「好.」', '他说']);
    expect(pieces('本研究では，川沿いの道を調べた．次に，結果を示す．')).toEqual(['本研究では，川沿いの道を調べた．', '次に，結果を示す．']);
    // A sentence ending in a Latin word or a number ends there too; so does one of ?! or !!.
    expect(pieces('我们用的是Vue.它很好用?!真的吗!!是的')).toEqual(['我们用的是Vue.', '它很好用?!', '真的吗!!', '是的']);
    const half = (t: string) => t.replace(/。/g, '.').replace(/！/g, '!').replace(/？/g, '?').replace(/，/g, ',');
    expect(half(zh)).not.toBe(zh);
    expect(hashes(half(zh))).toEqual(hashes(zh));
    // Inside a sentence: an ellipsis, code (?. ... #! after punctuation), numbers and names.
    for (const inside of ['每个...的值都相同', '链判断运算符?.有三种写法', '会把#!理解成注释', '扩展运算符（...）也会调用', '版本1.2发布了', '他说…我不知道']) expect(pieces(inside)).toEqual([inside]);
  });

  it('ends a passage at a blank line (a paragraph end), and never at a single line break', () => {
    expect(pieces('Tool libraries\n\nMembers borrow a drill for a week.\n \nRelated: our guide\nto ladders\n\nThey return it')).toEqual(['Tool libraries', 'Members borrow a drill for a week.', 'Related: our guide\nto ladders', 'They return it']);
    expect(pieces('工具图书馆\r\n\r\n会员可以借\n一把电钻。')).toEqual(['工具图书馆', '会员可以借\n一把电钻。']);
    // A text wrapped at any width, paragraphs kept: the same passages.
    const wrapped = zh.replace(/[^\n]{17}(?=[^\n])/g, (m) => `${m}\n`);
    expect(wrapped).not.toBe(zh);
    expect(hashes(wrapped)).toEqual(hashes(zh));
  });

  it('cuts Hindi at the danda, Burmese at ။ and Khmer at ។', () => {
    expect(pieces('मैं सुबह बाजार गया। वहाँ बहुत भीड़ थी॥ फिर मैं घर लौटा।')).toEqual(['मैं सुबह बाजार गया।', 'वहाँ बहुत भीड़ थी॥', 'फिर मैं घर लौटा।']);
    expect(pieces('ကျွန်တော် ဈေးသွားတယ်။ လူတွေများတယ်။')).toEqual(['ကျွန်တော် ဈေးသွားတယ်။', 'လူတွေများတယ်။']);
    expect(pieces('ខ្ញុំទៅផ្សារ។ មានមនុស្សច្រើន៕')).toEqual(['ខ្ញុំទៅផ្សារ។', 'មានមនុស្សច្រើន៕']);
  });

  it('handles mixed English and Chinese text', () => {
    expect(pieces('Rust 的所有权规则很简单。Every value has an owner. 每个值都有一个所有者。')).toEqual(['Rust 的所有权规则很简单。', 'Every value has an owner.', '每个值都有一个所有者。']);
  });

  it('cuts a long list or code-like lines without full stops at points set by their content', () => {
    const list = Array.from({ length: 80 }, (_, k) => `item ${k} ${['copper', 'ribbon', 'lantern', 'pepper'][k % 4]} wire`).join('\n');
    const alone = cutPassages(list);
    expect(alone.length).toBeGreaterThan(3);
    for (const p of alone) expect(textStats(list.slice(p.start, p.end)).words).toBeLessThanOrEqual(HARD_MAX_WORDS);
    // The same list after other text is cut the same way once the first cut is passed.
    const after = hashes(`Here is what the workshop holds. ${list}`);
    expect(after.slice(-3)).toEqual(alone.slice(-3).map((p) => p.hash));
    const code = 'let x = 1;\nlet y = x + 2;\nconsole.log(x, y);\n'.repeat(50);
    expect(cutPassages(code).length).toBeGreaterThan(2);
  });

  it('cuts text without sentence ends where its own words say, so a copy inside other such text shares its passages', () => {
    // Text written without full stops (as Thai is, or a post that breaks lines instead), in English and in Chinese.
    const bare = (t: string) => t.replace(/[.!?。！？]/g, ' ');
    for (const [text, other] of [
      [bare(article('en-ferry')), bare(filler(60, 3))],
      [bare(`${zh}\n${article('zh-balcony')}`), bare(article('zh-library').split('').reverse().join(''))],
    ]) {
      const alone = new Set(hashes(text));
      expect(alone.size).toBeGreaterThan(4);
      // The copy after other text, cut off mid-phrase: every passage but the first and last is the same.
      for (const cut of [0.3, 0.55, 0.8]) {
        const inside = new Set(hashes(`${other.slice(0, Math.floor(cut * other.length))} ${text} ${other.slice(0, 40)}`));
        const kept = [...alone].filter((h) => inside.has(h)).length;
        expect(kept).toBeGreaterThanOrEqual(alone.size - 2);
      }
    }
  });

  it('covers a 1 MB text with ordered passages of bounded length', () => {
    const big = VECTORS.megabyte.text();
    const ps = cutPassages(big);
    expect(ps.length).toBeGreaterThan(5000);
    expect(ps.every((p, k) => p.end > p.start && (k === 0 || p.start >= ps[k - 1].end))).toBe(true);
    expect(Math.max(...ps.map((p) => p.words))).toBeLessThanOrEqual(HARD_MAX_WORDS + 1);
    // Every word of the text is in some passage.
    expect(ps.reduce((n, p) => n + p.chars, 0)).toBe(big.replace(/[^\p{L}\p{N}]/gu, '').length);
  }, 30_000);

  it('gives nothing for text without words', () => {
    expect(cutPassages('')).toEqual([]);
    expect(cutPassages(' \n… !! ?')).toEqual([]);
  });

  it('reads a row of terminals once: a megabyte of dots inside a word is one passage, and ends one before a space', () => {
    // Each dot of the row looked for the row's end again: 80,000 dots took 39 s to cut.
    const dots = '.'.repeat(1_000_000);
    expect(pieces(`a${dots}b`)).toEqual([`a${dots}b`]);
    expect(pieces(`a${dots} b`)).toEqual([`a${dots}`, 'b']);
    // Before a Han character too (whether such a row ends a sentence is decided once a row).
    expect(pieces(`a${dots}中文`)).toEqual([`a${dots}中文`]);
    expect(pieces(`好${'?!'.repeat(200_000)}中文`)).toEqual([`好${'?!'.repeat(200_000)}`, '中文']);
    expect(pieces(`你${'。'.repeat(100_000)}好`)).toEqual([`你${'。'.repeat(100_000)}`, '好']);
    expect(digestArticle(`Rows ${'.”'.repeat(200_000)}inside a word.`).words).toBeGreaterThan(0);
  });

  it('never cuts a character outside the BMP in half', () => {
    // 400 Han characters of Extension B, no sentence end: cut by length or content, after whole characters.
    const text = Array.from({ length: 400 }, (_, k) => String.fromCodePoint(0x20000 + k * 37)).join('');
    const ps = cutPassages(text);
    expect(ps.length).toBeGreaterThan(1);
    for (const p of ps) expect(wellFormed(text.slice(p.start, p.end))).toBe(text.slice(p.start, p.end));
    expect(ps.reduce((n, p) => n + p.chars, 0)).toBe(400);
  });

  it('keeps a sentence whose words appear only in NFKC form: mathematical bold letters, circled digits', () => {
    const bold = '𝐓𝐡𝐢𝐬 𝐢𝐬 𝐚 𝐧𝐞𝐰 𝐬𝐞𝐧𝐭𝐞𝐧𝐜𝐞 𝐢𝐧 𝐛𝐨𝐥𝐝.';
    expect(hashes(bold)).toEqual(hashes('This is a new sentence in bold.'));
    expect(hashes('①②③.')).toEqual(hashes('123.'));
    const w = whatsNew('Hello there my friend.', `Hello there my friend. ${bold}`);
    expect(w.passages.map((p) => p.isNew)).toEqual([false, true]);
  });

  it('keeps closing brackets and quotes with the sentence they close', () => {
    expect(pieces('他说〈好。〉然后走了。')).toEqual(['他说〈好。〉', '然后走了。']);
    expect(pieces('见〔注一。〕下文。')).toEqual(['见〔注一。〕', '下文。']);
    expect(pieces('《书。》〖题！〗〘问？〙〚答。〛')).toEqual(['《书。》', '〖题！〗', '〘问？〙', '〚答。〛']);
    expect(pieces('＂Ｙｅｓ.＂ ｛ｏｋ.｝ Then.')).toEqual(['＂Ｙｅｓ.＂', '｛ｏｋ.｝', 'Then.']);
  });
});

describe('the passage signature', () => {
  it('keeps the smallest hashes, at most PASSAGE_CAP, and round-trips through its stored form', () => {
    const long = filler(400, 7);
    const s = passageSignature(long);
    expect(s.count).toBeGreaterThan(PASSAGE_CAP);
    expect(s.hashes.length).toBe(PASSAGE_CAP);
    expect([...s.hashes]).toEqual([...s.hashes].sort((a, b) => a - b));
    const encoded = encodePassages(s);
    expect(encoded.length).toBeLessThanOrEqual(Math.ceil((3 + 4 * PASSAGE_CAP) / 3) * 4);
    expect(decodePassages(encoded)).toEqual({ count: s.count, hashes: s.hashes, bits: 32 });
    const short = passageSignature(en);
    expect(decodePassages(encodePassages(short))).toEqual({ count: short.count, hashes: short.hashes, bits: 32 });
    expect(anchorsOf(s).slice(0, ANCHOR_COUNT)).toEqual([...s.hashes.slice(0, ANCHOR_COUNT)]);
  });

  it('refuses a damaged or foreign stored form', () => {
    const encoded = encodePassages(passageSignature(en));
    expect(decodePassages(encoded.slice(4))).toBeNull();
    expect(decodePassages('not base64!')).toBeNull();
    expect(decodePassages('')).toBeNull();
    expect(decodePassages(`C${encoded.slice(1)}`)).toBeNull(); // another version byte (8)
  });

  it('reads a signature of version 2, 3, 4 or 5 as one of version 6 (the same hashes, the same form)', () => {
    const s = passageSignature(en);
    const bytes = fromBase64(encodePassages(s));
    expect(bytes?.[0]).toBe(6);
    if (!bytes) return;
    for (const version of [2, 3, 4, 5]) {
      bytes[0] = version;
      expect(decodePassages(toBase64(bytes))).toEqual({ count: s.count, hashes: s.hashes, bits: 32 });
    }
    bytes[0] = 7;
    expect(decodePassages(toBase64(bytes))).toBeNull();
  });

  it('reads a signature of version 1 (24-bit hashes) and compares it with one of version 2 on 24 bits', () => {
    const text = filler(400, 7);
    const s = passageSignature(text);
    // Version 1 kept the top 24 bits of the same hashes, three bytes each.
    const v1 = decodePassages(encodePassages({ count: s.count, hashes: Uint32Array.from(new Set([...s.hashes].map((h) => h >>> 8))), bits: 24 }));
    expect(v1?.bits).toBe(24);
    if (!v1) return;
    expect(passageOverlap(s, v1)).toMatchObject({ shared: v1.hashes.length, bInA: 1 });
    expect(passageOverlap(v1, s).shared).toBe(v1.hashes.length);
    expect(shareAnchor(v1, s)).toBe(true);
    const other = passageSignature(filler(400, 8));
    expect(passageOverlap(other, v1).shared).toBe(0);
  });

  it('leaves out short passages such as headings and "Share this."', () => {
    expect(passageSignature('Share this. Advertisement. Read more.').count).toBe(0);
  });
});

describe('finding a copy inside a longer page', () => {
  const sig = (t: string) => ({ fp: fingerprint(t), words: textStats(t).words, textHash: textHash(t), sketch: sketchOf(t), passages: passageSignature(t) });
  const copy = article('en-bridges');
  const before = filler(70, 11);
  const after = filler(70, 23);

  it.each([
    ['start', `${copy}\n\n${before} ${after}`],
    ['middle', `${before}\n\n${copy}\n\n${after}`],
    ['end', `${before} ${after}\n\n${copy}`],
  ])('finds the article embedded at the %s of a page three times as long, and tells which holds which', (_, page) => {
    expect(page.length).toBeGreaterThan(3 * copy.length);
    const [a, p] = [sig(copy), sig(page)];
    expect(hamming(a.fp, p.fp)).toBeGreaterThan(7); // the fingerprint path cannot find it
    expect(shareAnchor(a.passages, p.passages)).toBe(true);
    expect(judgePair(p, a)).toMatchObject({ flagged: true, kind: 'contains-earlier' });
    const v = judgePair(a, p);
    expect(v).toMatchObject({ flagged: true, kind: 'part-of-earlier' });
    expect(v.read).toBeGreaterThan(0.95);
    expect(judgePair(p, a).read).toBeLessThan(0.5);
  });

  it.each(['en-library', 'zh-library'])('%s: finds a short article inside a page with fifteen times its passages, where none of the twelve smallest is its own', (name) => {
    const short = article(name);
    const page = `${filler(150, 5)}\n\n${short}\n\n${filler(150, 105)}`;
    const [a, p] = [sig(short), sig(page)];
    expect(p.passages.count).toBeGreaterThan(15 * a.passages.count);
    // The case: comparing the page's ANCHOR_COUNT smallest passages with the article's leads misses it.
    const twelve = [...p.passages.hashes.subarray(0, ANCHOR_COUNT)];
    expect(twelve).not.toContain(a.passages.hashes[0]);
    expect(twelve.some((h) => a.passages.hashes.includes(h))).toBe(false);
    expect(shareAnchor(p.passages, a.passages)).toBe(true);
    expect(judgePair(p, a)).toMatchObject({ flagged: true, kind: 'contains-earlier' });
  });

  it.each(QUOTED_IN_PAGE)('%s: finds an article read first inside a page with eight times its passages, from the article alone, where none of the twelve smallest is its own', (_, text, seed) => {
    const { article: short, page } = quotedInPage(text, seed);
    const [a, p] = [sig(short), sig(page)];
    expect(p.passages.count).toBeGreaterThan(8 * a.passages.count);
    // Asked of the index, the article's smallest passages would not meet the page's twelve smallest
    // (nor the page's leads any of the article's hashes): found so until November 2026, it was missed.
    const twelve = [...p.passages.hashes.subarray(0, ANCHOR_COUNT)];
    expect(twelve.some((h) => a.passages.hashes.includes(h))).toBe(false);
    // Every passage hash below a quarter of the range is an anchor of each page that holds it.
    expect(a.passages.hashes[0]).toBeLessThan(2 ** 28);
    expect(anchorsOf(p.passages)).toContain(a.passages.hashes[0]);
    expect(shareAnchor(a.passages, p.passages)).toBe(true);
    // Flagged, all of it read (the kind may be near-duplicate: the filler's twenty words make the two alike).
    const v = judgePair(a, p);
    expect(v.flagged).toBe(true);
    expect(v.read).toBeGreaterThan(0.95);
  });

  it('finds a short item of 15 passages, read after a thread that held it among a hundred other passages, nearly always', () => {
    // A news item inside a まとめ page or a forum thread, read there first: found if one of its
    // hashes is among the thread's anchors. Below a sixteenth of the range, 62 % of such items were.
    let found = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const item = filler(15, seed);
      const thread = `${variedFiller(40, 1000 + seed)}\n\n${item}\n\n${variedFiller(50, 2000 + seed)}`;
      if (shareAnchor(sig(item).passages, sig(thread).passages)) found++;
    }
    expect(found).toBeGreaterThanOrEqual(190);
  });

  it('finds a revision that rewrote two sentences in three, from the third it kept, nearly always', () => {
    // A revision whose fingerprint moved past 7 bits is found only by a passage it shares with the
    // page read before among the anchors the lookup asks for (its PROBE_COUNT smallest) or that
    // page's leads. With 3 probes (until 28 November 2026), 45 of these 200 revisions were missed;
    // with 12, none.
    let found = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const original = pieces(variedFiller(60, seed));
      const others = pieces(variedFiller(60, 5000 + seed));
      const revision = original.map((sentence, k) => (k % 3 === 0 ? sentence : others[k])).join(' ');
      if (shareAnchor(sig(revision).passages, sig(original.join(' ')).passages)) found++;
    }
    expect(found).toBeGreaterThanOrEqual(196);
  });

  // The filler's seed and length: a page where the few of the article's passages that its signature
  // keeps are, by where their hashes fall, too few to tell (what this test is about). Which seed
  // gives that depends on the hashes: since Traditional characters are read as Simplified (which
  // changed the filler's), seed 5 keeps 3 of zh-library's, and ja-walk's keep 4 at any seed of a
  // page thirty times as long (found by the signature alone: fine for the reader, not this test).
  it.each([
    ['en-bridges', 'en', 5, 300],
    ['zh-library', 'zh', 2, 300],
    ['ja-walk', 'zh', 3, 600],
  ] as const)('%s: finds an article read first inside a page with thirty times its passages or more, read after it, by all the passages the page sends', (name, lang, seed, n) => {
    const short = article(name);
    const page = `${variedFiller(n, seed, lang)}\n\n${short}\n\n${variedFiller(n, seed + 100, lang)}`;
    const [a, p] = [sig(short), sig(page)];
    expect(p.passages.count).toBeGreaterThan(25 * a.passages.count);
    expect(shareAnchor(p.passages, a.passages)).toBe(true); // retrieved
    // The page's signature keeps 96 of its passages: one or two of the article's, too few to tell a
    // copy from a shared sentence; the sketch cannot see so small a part of so long a page either.
    expect(passageOverlap(p.passages, a.passages).shared).toBeLessThan(3);
    expect(judgePair(p, a).flagged).toBe(false);
    // As the content script sends them, every passage of the page: all the article's are there.
    const all = passageSet(pagePassages(page).map((x) => x.hash));
    expect(heldIn(a.passages, all)).toEqual({ found: a.passages.count, share: 1 });
    expect(judgePair({ ...p, allPassages: all }, a)).toMatchObject({ flagged: true, kind: 'contains-earlier', containment: 1 });
    // A page of the same length that repeats two of its sentences holds two of its passages, not the article.
    const sentences = pieces(short);
    const quoting = `${variedFiller(n, seed, lang)}\n\n${sentences[1]} ${sentences[5]}\n\n${variedFiller(n, seed + 100, lang)}`;
    const q = { ...sig(quoting), allPassages: passageSet(pagePassages(quoting).map((x) => x.hash)) };
    expect(heldIn(a.passages, q.allPassages).found).toBeLessThanOrEqual(2);
    expect(judgePair(q, a).flagged).toBe(false);
  });

  it('makes anchors of a page its twelve smallest hashes, and of a longer page every hash below a quarter of the range, up to 36', () => {
    const sized = (count: number, seed: number) => {
      let x = seed;
      const next = () => (x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0);
      const all = Array.from({ length: count }, next).sort((p, q) => p - q);
      return { count, hashes: Uint32Array.from(all.slice(0, PASSAGE_CAP)), bits: 32 as const };
    };
    const below = (s: { hashes: Uint32Array }) => [...s.hashes].filter((h) => h < 2 ** 30).length;
    const short = sized(30, 1);
    expect(below(short)).toBeLessThan(ANCHOR_COUNT);
    expect(anchorsOf(short)).toEqual([...short.hashes.subarray(0, ANCHOR_COUNT)]);
    const long = sized(120, 2);
    expect(below(long)).toBeGreaterThan(ANCHOR_COUNT);
    expect(below(long)).toBeLessThan(ANCHOR_CAP);
    expect(anchorsOf(long)).toEqual([...long.hashes].filter((h) => h < 2 ** 30));
    const longest = sized(5000, 3);
    expect(anchorsOf(longest)).toEqual([...longest.hashes.subarray(0, ANCHOR_CAP)]);
    const tiny = sized(5, 4);
    expect(anchorsOf(tiny)).toEqual([...tiny.hashes]);
  });

  it('does not flag two different articles that share a few boilerplate sentences', () => {
    const boiler = ' Sign up for our weekly newsletter to get stories like this one. Follow us on social media for daily updates from the team. All photographs are used with the permission of their owners.';
    const a = sig(article('en-library') + boiler);
    const b = sig(article('en-balcony') + boiler);
    expect(judgePair(a, b).flagged).toBe(false);
  });
});

describe('what is new', () => {
  const paragraphs = loadArticle('en-library').paragraphs;

  it('marks the added and rewritten sentences of a revision, in order, and measures what was read', () => {
    const added = 'Since this article first ran, the library has opened a second branch in a former bank.';
    const rewritten = 'Nobody in that line came for bread.';
    const revised = [paragraphs[0].replace('Nobody here is waiting for bread.', rewritten), added, ...paragraphs.slice(1, -1)].join('\n\n');
    const r = whatsNew(en, revised);
    expect(r.passages.filter((p) => p.isNew).map((p) => revised.slice(p.start, p.end))).toEqual([rewritten, added]);
    const total = r.passages.reduce((n, p) => n + p.chars, 0);
    const fresh = r.passages.filter((p) => p.isNew).reduce((n, p) => n + p.chars, 0);
    expect(r.read).toBeCloseTo(1 - fresh / total, 10);
    expect(r.read).toBeGreaterThan(0.8);
    expect(r.read).toBeLessThan(1);
  });

  it('finds a short sentence read when only its punctuation changed, and new when what surrounds it is new', () => {
    const en = whatsNew('We met; it rained.', 'We met. It rained.');
    expect(en.passages.map((p) => p.isNew)).toEqual([false, false]);
    expect(en.read).toBe(1);
    const zh = whatsNew('你好吗?我很好。', '你好吗？我很好。');
    expect(zh.read).toBe(1);
    // A short sentence of words the earlier text holds elsewhere, but not there: new.
    const old = 'The ferry left at dawn and the harbour was quiet. Nobody came. Gulls followed the boat out.';
    const added = whatsNew(old, 'The ferry left at dawn and the harbour was quiet. The boat came. Gulls followed the boat out.');
    expect(added.passages.filter((p) => p.isNew).map((p) => p.start)).toHaveLength(1);
    expect(added.read).toBeLessThan(1);
  });

  it('reads past a half character (a lone surrogate) in the earlier text as past any other mark', () => {
    const newText = 'The committee met on Monday to discuss the budget for next year and the new school.';
    const clean = 'The committee met on Monday to discuss the budget for next year and the new library.';
    expect(whatsNew(clean.replace('budget', '\ud800budget'), newText).read).toBe(whatsNew(clean, newText).read);
    expect(whatsNew(clean, newText).read).toBeGreaterThan(0.8);
  });

  it('compares two long unrelated texts in one pass: nothing read, every passage new', () => {
    // Each passage not found whole was compared with all of the earlier text again: 22 s for two texts of 200 KB.
    const made = (seed: number) => {
      let s = seed;
      const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
      let t = '';
      while (t.length < 200_000) t += `${Array.from({ length: 3 + Math.floor(next() * 7) }, () => String.fromCharCode(97 + Math.floor(next() * 26))).join('')}${next() < 0.08 ? '.' : ''} `;
      return t;
    };
    const r = whatsNew(made(1), made(2));
    expect(r.passages.length).toBeGreaterThan(1000);
    expect(r.passages.every((p) => p.isNew)).toBe(true);
    expect(r.read).toBe(0);
  });

  it('finds nothing new in a preview of what was read, and everything new in another article', () => {
    const previewText = paragraphs.slice(0, 2).join('\n\n');
    expect(whatsNew(en, previewText)).toMatchObject({ read: 1 });
    expect(whatsNew(en, previewText).passages.some((p) => p.isNew)).toBe(false);
    const full = whatsNew(previewText, en);
    expect(full.read).toBeGreaterThan(0.2);
    expect(full.read).toBeLessThan(0.7);
    const other = whatsNew(en, article('en-balcony'));
    expect(other.read).toBe(0);
    expect(whatsNew(zh, zh.replace('。', '。今天的天气很好，我们去公园散步吧。')).passages.filter((p) => p.isNew).length).toBe(1);
  });
});

describe('storage per page', () => {
  it("keeps a 5,000-word article's fingerprint, sketch, passage signature and index entries within 1 KiB beyond its URL and title", () => {
    const text = filler(420, 99);
    expect(textStats(text).words).toBeGreaterThan(5000);
    const digest = digestArticle(text);
    const url = 'https://news.example.com/2026/11/an-article';
    const title = 'An article';
    const record = { url, canonicalUrl: url, site: 'news.example.com', title, fp: digest.fp, b0: 0, b1: 0, b2: 0, b3: 0, algo: 'dr1', textHash: digest.textHash, sketch: digest.sketch, passages: digest.passages, textLength: digest.words, lang: 'zh-cn', firstSeen: 1_800_000_000_000, lastSeen: 1_800_000_000_000, visits: 999 };
    // As IndexedDB keeps it: V8's serialisation (what Chromium writes), of the page as its block holds it.
    const stored = serialize(toStored(record)).length - serialize({ url, title }).length;
    const indexEntries = anchorsOf(decodePassages(digest.passages) as NonNullable<ReturnType<typeof decodePassages>>).length * 8;
    const columns = 4 + 4 + 1 + 4 + 4 + 4 + 8;
    expect(decodePassages(digest.passages)?.hashes.length).toBe(PASSAGE_CAP);
    expect(stored + indexEntries + columns).toBeLessThanOrEqual(1024);
  });
});
