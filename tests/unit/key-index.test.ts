// The index over a column of keys finds every page under its key, whatever the page's number: the
// numbers are held in three bytes up to 2^24 pages, in four past that.
import { describe, expect, it } from 'vitest';
import { KeyIndex } from '../../src/storage/key-index';

/** A column of `size` keys, all 0 but those given, and the index over the pages given. */
function indexOver(size: number, keyed: Record<number, number>): KeyIndex {
  const keys = new Uint32Array(size);
  for (const [n, key] of Object.entries(keyed)) keys[Number(n)] = key;
  const index = new KeyIndex(() => keys, (n) => keys[n] !== 0);
  index.build(size);
  return index;
}

describe('an index over a column of keys', () => {
  it('finds pages numbered past 2^16 under their key, and only those', () => {
    const index = indexOver(300_000, { 3: 0xabcd0001, 65_535: 0xabcd0001, 65_536: 0xabcd0001, 70_001: 0xabcd0002, 299_999: 0x12345678 });
    expect(index.find(0xabcd0001).sort((a, b) => a - b)).toEqual([3, 65_535, 65_536]);
    expect(index.find(0xabcd0002)).toEqual([70_001]);
    expect(index.findTop24(0x123456)).toEqual([299_999]);
    expect(index.find(0xabcd0003)).toEqual([]);
    const under: number[] = [];
    index.under(0xabcd, (n) => under.push(n));
    expect(under.sort((a, b) => a - b)).toEqual([3, 65_535, 65_536, 70_001]);
  });

  it('finds pages numbered past 2^24', () => {
    const last = (1 << 24) + 5;
    const index = indexOver(last + 1, { 7: 0x00ff0001, [(1 << 24) - 1]: 0x00ff0001, [1 << 24]: 0x00ff0001, [last]: 0x00ff0002 });
    expect(index.find(0x00ff0001).sort((a, b) => a - b)).toEqual([7, (1 << 24) - 1, 1 << 24]);
    expect(index.find(0x00ff0002)).toEqual([last]);
  });

  it('holds a page number in three bytes up to 2^24 pages', () => {
    const size = 100_000;
    const keyed = Object.fromEntries(Array.from({ length: size }, (_, n) => [n, n + 1]));
    // 3 bytes a page, and the directory of 2^16 + 1 places.
    expect(indexOver(size, keyed).bytes).toBe(3 * size + 4 * (65_536 + 1));
  });
});
