// Traditional Chinese read as Simplified before anything is hashed (core/traditional.ts): a repost
// in the other script is the same text to the fingerprint, the passages, the read set and "what's new".
import { describe, expect, it } from 'vitest';
import { digestArticle, fingerprint, hamming, judgePair, normalizeText, passageOverlap, passageSignature, readSetOf, decodeReadSet, pagePassages, sketchOf, textHash, textStats, whatsNew } from '../../src/core';
import { simplified, simplifiedTable } from '../../src/core/traditional';
import { loadArticle } from '../e2e/site';
import { toTraditional } from '../fixtures/vectors';

const article = (name: string) => loadArticle(name).paragraphs.join('\n\n');
const sig = (t: string) => ({ fp: fingerprint(t), words: textStats(t).words, textHash: textHash(t), sketch: sketchOf(t), passages: passageSignature(t) });

describe('Traditional characters read as Simplified', () => {
  it('folds each character to one of the same length, once for all, and leaves Simplified, kana and Latin text as it is', () => {
    expect(simplified('這篇文章你讀過嗎？體育、後來、於是')).toBe('这篇文章你读过吗？体育、后来、于是');
    for (const name of ['zh-library', 'zh-balcony', 'en-library', 'ja-walk']) {
      const text = article(name);
      if (name !== 'ja-walk') expect(simplified(text), name).toBe(text);
      expect(simplified(text).length, name).toBe(text.length);
    }
    const table = simplifiedTable();
    let folded = 0;
    for (let c = 0; c < 0x10000; c++) {
      if (table[c] === 0) continue;
      folded++;
      expect(table[table[c]], c.toString(16)).toBe(0); // folding twice gives what folding once gives
    }
    expect(folded).toBeGreaterThan(2500);
    expect(normalizeText('Ｔｏｏｌ 圖書館')).toBe('tool 图书馆');
  });

  it.each(['zh-library', 'zh-balcony'])('finds %s reposted in Traditional characters, both ways, with nothing new', (name) => {
    const original = article(name);
    const repost = toTraditional(original);
    expect(repost).not.toBe(original);
    const [s, t] = [sig(original), sig(repost)];
    expect(hamming(s.fp, t.fp)).toBeLessThanOrEqual(3);
    expect(passageOverlap(t.passages, s.passages).aInB).toBeGreaterThan(0.9);
    for (const [a, b] of [[t, s], [s, t]]) expect(judgePair(a, b)).toMatchObject({ flagged: true });
    expect(judgePair(t, s).read).toBeGreaterThan(0.9);
    // What is new in the repost, for a reader of the original: nothing, by its text or by the read set the original's visit kept.
    expect(whatsNew(original, repost).passages.filter((p) => p.isNew)).toEqual([]);
    const readSet = decodeReadSet(readSetOf(original));
    const unread = pagePassages(repost).filter((p) => !readSet?.has(p.hash));
    expect(unread.length).toBeLessThanOrEqual(1);
    expect(digestArticle(repost).fp).toBe(t.fp);
  });

  it('still tells two different Chinese articles apart, in either script', () => {
    const [a, b] = [article('zh-library'), article('zh-balcony')];
    for (const [x, y] of [[a, toTraditional(b)], [toTraditional(a), b], [toTraditional(a), toTraditional(b)]]) expect(judgePair(sig(x), sig(y)).flagged).toBe(false);
  });
});
