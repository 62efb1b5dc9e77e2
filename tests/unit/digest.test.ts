// digestArticle computes in one go what a record keeps of a text; it must give exactly what the
// separate functions give (stored histories and other code rely on each of them), on every kind of
// text: our own generated texts and, when it is there, every document of the shared corpus (read at
// run time, never copied).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ALGORITHM, digestArticle, encodePassages, encodeSketch, fingerprint, passageSignature, readSetOf, sketchOf, textHash, textStats, type ArticleDigest } from '../../src/core';
import { scanPassages } from '../../src/core/passages';
import { countScripts, type ScriptCounts } from '../../src/core/text-stats';
import { VECTORS } from '../fixtures/vectors';

/** The digest as the separate functions compute it, one at a time. */
function composed(text: string): ArticleDigest {
  const { words, lang } = textStats(text);
  return { fp: fingerprint(text), words, lang, textHash: textHash(text), sketch: encodeSketch(sketchOf(text)), passages: encodePassages(passageSignature(text)), readSet: readSetOf(text) };
}

/**
 * Names of the fields where the digest and the composition differ; also whether the script counts
 * the passage scan keeps for the digest differ from textStats's own.
 */
function differences(text: string): string[] {
  const a = digestArticle(text);
  const b = composed(text);
  const wrong: string[] = (Object.keys(b) as Array<keyof ArticleDigest>).filter((k) => a[k] !== b[k]);
  const counts = {} as ScriptCounts;
  scanPassages(text, () => undefined, counts);
  if (JSON.stringify(counts) !== JSON.stringify(countScripts(text))) wrong.push('script counts');
  return wrong;
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const article = (name: string) => (JSON.parse(readFileSync(new URL(`../fixtures/articles/${name}.json`, import.meta.url), 'utf8')) as { paragraphs: string[] }).paragraphs.join('\n\n');

/** Many distinct made-up words: more features than the scratch tables hold at first. */
function manyWords(n: number, seed: number): string {
  const next = random(seed);
  const words: string[] = [];
  for (let k = 0; k < n; k++) {
    let w = '';
    const len = 3 + Math.floor(next() * 8);
    for (let j = 0; j < len; j++) w += String.fromCharCode(97 + Math.floor(next() * 26));
    words.push(next() < 0.1 ? `${w}.` : w);
  }
  return words.join(' ');
}

/**
 * Characters chosen to reach every branch of the scans: each class of the tokenizer, sentence
 * terminals and closers of both kinds, every kind of space, characters that NFKC or lower-casing
 * change (some into several characters, some into word characters from punctuation or from outside
 * the BMP), surrogate pairs and lone surrogates.
 */
const POOL = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  ...'     \n\n\t\r\u00a0\u3000\u000b\u000c',
  ...'.!?…,;:\'"()[]{}«»-—–/',
  ...'。｡！？，、：；「」『』《》【】（）．',
  ...'的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年㐀㑖䶵䷀鿿豈',
  ...'あいうえおかきくけこアイウエオカキクケコーゝ々〆ｶﾀｶﾅﾞ',
  ...'กขคงจฉชซภาษาไทยກຂຄງកខគဃငစ',
  ...'한국어문장각',
  ...'ΣΑΣσςαβγДЖЯжяİıßẞÅåΩΩ',
  ...'éèêëñçøæœ\u0301\u0308\u0327',
  ...'ﬁﬂ①②½²ＡＢＣａｂｃ１２３ℌ℃™\ufdfa',
  '🚲', '👍🏽', '👨‍👩‍👧', '𠀀', '𠮷', '𝐀', '𝒳', '\ud800', '\udc00', '\ud83d',
];

function fuzz(seed: number, length: number): string {
  const next = random(seed);
  let s = '';
  while (s.length < length) {
    // Runs of one kind now and then, so words, runs and sentences form.
    const c = POOL[Math.floor(next() * POOL.length)];
    s += next() < 0.2 ? c.repeat(1 + Math.floor(next() * 12)) : c;
  }
  return s;
}

const en = article('en-library');
const zh = article('zh-library');
const ja = article('ja-walk');

const GENERATED: Record<string, string> = {
  ...Object.fromEntries(Object.entries(VECTORS).map(([name, v]) => [name, v.text()])),
  'empty ': '',
  'whitespace only': ' \n\t\r\u00a0\u3000 \n\n  ',
  'punctuation only': '... !!! ??? 。。。 —— ……',
  'one word': 'Library',
  'two words': 'tool library',
  'three words': 'the tool library',
  'one Han character': '书',
  'two kana': 'かな',
  'one Thai letter': 'ก',
  'one long word': 'a'.repeat(100_000),
  'one long line': en.replace(/\s+/g, ' ').repeat(20),
  'one long Chinese line': zh.replace(/\s+/g, '').repeat(20),
  'very long lines': `${en.repeat(5).replace(/\n/g, ' ')}\n${zh.repeat(5).replace(/\n/g, '')}\n${ja.repeat(5).replace(/\n/g, '')}`,
  'English shouted': en.toUpperCase(),
  'Chinese and Japanese mixed': `${zh}\n\n${ja}\n\n${zh.slice(0, 300)}${ja.slice(0, 300)}`,
  'mixed scripts': `${en.slice(0, 800)} ${zh.slice(0, 400)} 한국어 문장도 있습니다. ภาษาไทยก็มี. Русский текст здесь. ${ja.slice(0, 300)}`,
  'full-width English': en.slice(0, 1000).replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  'emoji and astral': `Ride 🚲 to the 𠮷野家 👍🏽 and 𝐁𝐨𝐥𝐝 𝐰𝐨𝐫𝐝𝐬 👨‍👩‍👧. 𠀀𠀁𠀂是汉字。 Lone \ud800 high and \udc00 low surrogates\ud83d`,
  'case and compatibility': 'İstanbul ΣΟΦΟΣ ﬁsh ① ½ café cafe\u0301 Straße ΩHM Ω ｶﾀｶﾅ 가 \ufdfa ℌello ™. AND THE END.',
  'repeated word': 'the '.repeat(2000),
  'repeated Han': '书'.repeat(2000),
  'many distinct words': manyWords(60_000, 7),
  'many distinct Han': Array.from({ length: 30_000 }, (_, k) => String.fromCharCode(0x4e00 + ((k * 7919) % 20_000))).join(''),
};
for (let k = 0; k < 150; k++) GENERATED[`fuzz ${k}`] = fuzz(k + 1, k < 100 ? 40 + k * 20 : 20_000);

describe('digestArticle', () => {
  it('pins the digests of the vector texts (stored histories keep these fields)', () => {
    const pinned = JSON.parse(readFileSync(new URL('../fixtures/digests.json', import.meta.url), 'utf8')) as { algorithm: string; digests: Record<string, ArticleDigest> };
    expect(pinned.algorithm).toBe(ALGORITHM);
    for (const [name, v] of Object.entries(VECTORS)) expect({ name, ...digestArticle(v.text()) }).toEqual({ name, ...pinned.digests[name] });
  });

  it('equals the separate functions on generated texts of every kind', () => {
    const wrong = Object.entries(GENERATED).flatMap(([name, text]) => differences(text).map((field) => `${name}: ${field}`));
    expect(wrong).toEqual([]);
  }, 30_000);

  // The shared corpus sits next to the checkout (../shared/corpus), on the team's machines only.
  const corpus = new URL('../../../shared/corpus/', import.meta.url);
  it.runIf(existsSync(new URL('docs.jsonl', corpus)))('equals the separate functions on every document of the shared corpus', () => {
    const docs = readFileSync(new URL('docs.jsonl', corpus), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as { id: string; path: string });
    const wrong: string[] = [];
    let pages = 0;
    for (const doc of docs) {
      const raw = readFileSync(new URL(doc.path, corpus), 'utf8');
      // Pages are reduced to their text roughly (tags and scripts dropped, not Readability: that
      // would take minutes); one in eight is also taken whole, markup and all, as a hard mixed text.
      const page = doc.path.endsWith('.html');
      const texts = page ? [raw.replace(/<(script|style)[^]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, '\n')] : [raw];
      if (page && pages++ % 8 === 0) texts.push(raw);
      for (const text of texts) wrong.push(...differences(text).map((field) => `${doc.id}: ${field}`));
    }
    expect(docs.length).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  }, 120_000);
});
