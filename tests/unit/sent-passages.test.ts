// The page's passages as they travel to the background, packed: the background reads back exactly
// what was cut where the page was read, and nothing a page could make up beyond the limits.
import { describe, expect, it } from 'vitest';
import { decodeSentPassages, encodeSentPassages, pagePassages, type PagePassage } from '../../src/core';
import { loadArticle } from '../e2e/site';

const LIMITS = { passages: 5000, runs: 256, length: 2_000_000 };
const sent = (text: string): PagePassage[] => pagePassages(text).map(({ hash, chars, runs, tokens, para, words }) => ({ hash, chars, runs, tokens, para, words }));

describe('passages sent packed', () => {
  it.each(['en-library', 'zh-library', 'ja-walk', 'zh-balcony@tw'])('%s: the background reads what was cut, passage by passage, in a quarter of the JSON', (name) => {
    const text = loadArticle(name).paragraphs.join('\n\n');
    const passages = sent(text);
    expect(passages.length).toBeGreaterThanOrEqual(10);
    // Han and kana count 1.5 to a word: whole thirds that the packing keeps exactly.
    expect(passages.some((p) => !Number.isInteger(p.words))).toBe(name !== 'en-library');
    const packed = encodeSentPassages(passages);
    expect(decodeSentPassages(packed, LIMITS)).toEqual(passages);
    expect(packed.length).toBeLessThan(JSON.stringify(passages).length / 3);
  });

  it('keeps the edges: no passages, no runs, the largest hash and run, a paragraph flag on each', () => {
    const edge: PagePassage[] = [
      { hash: 0xffffff, chars: 0, runs: [], tokens: 0, para: false, words: 0 },
      { hash: 0, chars: 2_000_000, runs: [0xffffffff, 0, 0x80000000], tokens: 2_000_000, para: true, words: 1_333_333 + 1 / 3 },
    ];
    expect(decodeSentPassages(encodeSentPassages(edge), LIMITS)).toEqual(edge);
    expect(decodeSentPassages(encodeSentPassages([]), LIMITS)).toEqual([]);
  });

  it('refuses what is not a packing within the limits', () => {
    const packed = encodeSentPassages(sent(loadArticle('en-library').paragraphs.join('\n\n')));
    const bytes = Buffer.from(packed, 'base64');
    const many = Array.from({ length: 3 }, (): PagePassage => ({ hash: 1, chars: 10, runs: [1, 2, 3], tokens: 10, para: false, words: 10 }));
    for (const bad of [
      '',
      'not base64!',
      packed.slice(0, -4),
      Buffer.concat([bytes, Buffer.from([0])]).toString('base64'),
      Buffer.from([0, ...bytes.subarray(1)]).toString('base64'),
      Buffer.from([1, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]).toString('base64'), // a count of more than five bytes
    ]) {
      expect(decodeSentPassages(bad, LIMITS), bad.slice(0, 20)).toBeNull();
    }
    expect(decodeSentPassages(encodeSentPassages(many), { ...LIMITS, passages: 2 })).toBeNull();
    expect(decodeSentPassages(encodeSentPassages(many), { ...LIMITS, runs: 2 })).toBeNull();
    expect(decodeSentPassages(encodeSentPassages(many), { ...LIMITS, length: 9 })).toBeNull();
    expect(decodeSentPassages(encodeSentPassages(many), { passages: 3, runs: 3, length: 10 })).toEqual(many);
  });
});
