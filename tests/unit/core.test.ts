import { describe, expect, it } from 'vitest';
import { ALGORITHM, blocksOf, digestArticle, encodePassages, fingerprint, passageSignature, fromHex, hamming, judgePair, normalizeText, probeKeys, sketchOf, textHash, textStats, toHex, type PageSignature } from '../../src/core';
import { cutPassages } from '../../src/core/passages';
import { popcount32 } from '../../src/core/hamming';
import { loadArticle } from '../e2e/site';
import { pinnedVectors, VECTORS } from '../fixtures/vectors';

const en = loadArticle('en-library').paragraphs.join('\n\n');
const en2 = loadArticle('en-balcony').paragraphs.join('\n\n');
const zh = loadArticle('zh-library').paragraphs.join('\n\n');
const zh2 = loadArticle('zh-balcony').paragraphs.join('\n\n');

describe('fingerprint', () => {
  it('is 16 lowercase hex digits and the same for the same text', () => {
    expect(fingerprint(en)).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint(en)).toBe(fingerprint(String(en)));
  });

  it('ignores case, full-width forms and how whitespace is laid out', () => {
    const text = 'Tool libraries lend drills, ladders and pasta machines to their members.';
    expect(fingerprint(text.toUpperCase())).toBe(fingerprint(text));
    expect(fingerprint(text.replace(/ /g, ' \n\t '))).toBe(fingerprint(text));
    const fullWidth = text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    expect(fingerprint(fullWidth)).toBe(fingerprint(text));
    expect(fingerprint('中文，文本')).toBe(fingerprint('中文,文本'));
  });

  it('keeps a copy with one changed sentence within distance 3 and unrelated texts far apart', () => {
    const edited = en.replace('Nobody here is waiting for bread.', 'None of them came for bread.');
    expect(hamming(fingerprint(en), fingerprint(edited))).toBeLessThanOrEqual(3);
    expect(hamming(fingerprint(en), fingerprint(en2))).toBeGreaterThan(12);
  });

  it('fingerprints Chinese text by its characters: near copies close, different articles far', () => {
    const edited = zh.replace('排队的人并不是来买面包的', '排队的人不是来买面包');
    expect(hamming(fingerprint(zh), fingerprint(edited))).toBeLessThanOrEqual(3);
    expect(hamming(fingerprint(zh), fingerprint(zh2))).toBeGreaterThan(12);
    // Public simhash libraries that drop non-ASCII give every Chinese text the same value.
    expect(new Set([zh, zh2, '日本語の文章です。', '한국어 문장입니다'].map(fingerprint)).size).toBe(4);
  });

  it('gives empty and whitespace-only text the zero fingerprint', () => {
    expect(fingerprint('')).toBe('0000000000000000');
    expect(fingerprint(' \n\t ')).toBe('0000000000000000');
  });
});

describe('hex, Hamming distance and blocks', () => {
  it('round-trips halves through hex', () => {
    expect(toHex(0xdeadbeef, 0x00000001)).toBe('deadbeef00000001');
    expect(fromHex('deadbeef00000001')).toEqual({ hi: 0xdeadbeef, lo: 1 });
    expect(() => fromHex('DEADBEEF00000001')).toThrow(/16 lowercase hex/);
    expect(() => fromHex('abc')).toThrow();
  });

  it('counts differing bits', () => {
    expect(popcount32(0xffffffff)).toBe(32);
    expect(hamming('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hamming('8000000000000001', '0000000000000000')).toBe(2);
    expect(hamming('0123456789abcdef', '0123456789abcdef')).toBe(0);
  });

  it('splits into four 16-bit blocks, most significant first', () => {
    expect(blocksOf('0123456789abcdef')).toEqual([0x0123, 0x4567, 0x89ab, 0xcdef]);
  });

  it('probes a block and its sixteen one-bit neighbours', () => {
    expect(probeKeys(0x00f0, false)).toEqual([0x00f0]);
    const keys = probeKeys(0x00f0, true);
    expect(new Set(keys).size).toBe(17);
    for (const k of keys.slice(1)) expect(popcount32(k ^ 0x00f0)).toBe(1);
  });
});

describe('text statistics', () => {
  it('counts English words and Chinese characters on one reading-length scale', () => {
    expect(textStats('one two three four').words).toBe(4);
    expect(textStats('一二三四五六').words).toBe(4);
    expect(textStats(en).lang).toBe('en');
    expect(textStats(zh).lang).toBe('zh');
    expect(textStats('これは日本語の文章です。ひらがなとカタカナ。').lang).toBe('ja');
  });

  it('counts the scripts written without spaces like Thai: Lao, Myanmar and Khmer pages are long enough to record', () => {
    // 400 letters of each script (consonants of its block, in turn): about 100 words, as 400 Thai letters are.
    const letters = (first: number, count: number) => Array.from({ length: 400 }, (_, i) => String.fromCharCode(first + (i % count))).join('');
    const thai = textStats(letters(0xe01, 40));
    expect(thai).toEqual({ words: 100, lang: 'th' });
    for (const [script, first, count] of [
      ['Lao', 0xe81, 4],
      ['Myanmar', 0x1000, 30],
      ['Khmer', 0x1780, 30],
    ] as const) {
      expect(textStats(letters(first, count)), script).toEqual({ words: 100, lang: 'und' });
      // And the same count comes out of the digest, which counts while it cuts the passages.
      expect(digestArticle(letters(first, count)).words, script).toBe(100);
    }
  });

  describe('the scripts of other living languages', () => {
    /** A made-up article in a script: words of 2–6 letters of its block, sentences of 8–14 words. */
    function article(seed: number, [first, last]: readonly [number, number], space: string, stop: string, words = 150): string {
      let x = seed;
      const next = (n: number) => {
        x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) | 0;
        return ((x >>> 0) % n + n) % n;
      };
      const sentences: string[] = [];
      for (let w = 0; w < words; ) {
        const length = 8 + next(7);
        const sentence = Array.from({ length }, () => Array.from({ length: 2 + next(5) }, () => String.fromCharCode(first + next(last - first + 1))).join(''));
        sentences.push(sentence.join(space) + stop);
        w += length;
      }
      return sentences.join(' ');
    }
    const sig = (t: string): PageSignature => ({ fp: fingerprint(t), words: textStats(t).words, textHash: textHash(t), sketch: sketchOf(t), passages: passageSignature(t) });

    it.each([
      ['Amharic (Ethiopic)', [0x1200, 0x1248], ' ', '።'],
      ['Tibetan', [0xf40, 0xf69], '\u0f0b', '\u0f0d'],
      ['Syriac', [0x710, 0x72c], ' ', '.'],
      ['Dhivehi (Thaana)', [0x780, 0x7a5], ' ', '.'],
      ["N'Ko", [0x7ca, 0x7ea], ' ', '.'],
      ['Cherokee', [0x13a0, 0x13f4], ' ', '.'],
      ['Inuktitut (syllabics)', [0x1401, 0x166c], ' ', '.'],
      ['Mongolian', [0x1820, 0x1842], ' ', '\u1803'],
      ['Tamazight (Tifinagh)', [0x2d30, 0x2d65], ' ', '.'],
      ['Shan', [0x1075, 0x1081], ' ', '\u104b'],
      ['Javanese', [0xa984, 0xa9b2], '', '\ua9c9'],
      ['Northern Thai (Tai Tham)', [0x1a20, 0x1a54], '', ' '],
    ] as const)('%s: an article is long enough to record, its repost is flagged, another article is not', (script, letters, space, stop) => {
      const text = article(1, letters, space, stop);
      const stats = textStats(text);
      // Read as about as many words as were written (letters of unspaced scripts count four to a word).
      expect(stats.words, script).toBeGreaterThanOrEqual(100);
      expect(digestArticle(text).words, script).toBe(stats.words);
      // A repost: the article with a line of the site's before it and a line after.
      const repost = `${article(2, letters, space, stop, 10)} ${text} ${article(3, letters, space, stop, 10)}`;
      expect(judgePair(sig(repost), sig(text)).flagged, script).toBe(true);
      expect(judgePair(sig(article(4, letters, space, stop)), sig(text)).flagged, script).toBe(false);
    });

    it('ends passages at the Ethiopic full stop and the Tibetan shad', () => {
      const am = article(5, [0x1200, 0x1248], ' ', '።', 40);
      expect(cutPassages(am).length).toBe(am.split('።').length - 1);
      const bo = article(6, [0xf40, 0xf69], '\u0f0b', '\u0f0d', 40);
      expect(cutPassages(bo).length).toBe(bo.split('\u0f0d').length - 1);
    });
  });

  it('normalises compatibility forms and case', () => {
    expect(normalizeText('ＡＢＣ１２３')).toBe('abc123');
  });
});

describe('decision', () => {
  it('flags close fingerprints of long enough pages only', () => {
    expect(judgePair({ fp: '0000000000000000', words: 500 }, { fp: '0000000000000007', words: 500 }).flagged).toBe(true);
    expect(judgePair({ fp: '0000000000000000', words: 500 }, { fp: '000000000000000f', words: 500 }).flagged).toBe(false);
    expect(judgePair({ fp: '0000000000000000', words: 10 }, { fp: '0000000000000000', words: 500 }).flagged).toBe(false);
  });
});

describe('test vectors', () => {
  const pinned = pinnedVectors();

  it('are pinned for the current algorithm version (re-pin only with a new version)', () => {
    expect(pinned.algorithm).toBe(ALGORITHM);
    expect(Object.keys(pinned.fingerprints).sort()).toEqual(Object.keys(VECTORS).sort());
    expect(Object.keys(pinned.passages).sort()).toEqual(Object.keys(VECTORS).sort());
  });

  it.each(Object.keys(VECTORS))('%s gives its pinned fingerprint in Node', (name) => {
    expect(fingerprint(VECTORS[name].text())).toBe(pinned.fingerprints[name]);
  });

  it.each(Object.keys(VECTORS))('%s gives its pinned passage signature in Node', (name) => {
    expect(encodePassages(passageSignature(VECTORS[name].text()))).toBe(pinned.passages[name]);
  });

  it('the megabyte vector is about 1 MB', () => {
    expect(Buffer.byteLength(VECTORS.megabyte.text())).toBeGreaterThan(1_000_000);
  });
});
