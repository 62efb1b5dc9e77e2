// The pigeonhole split: four 16-bit blocks of a fingerprint. Two fingerprints within Hamming
// distance 3 share at least one block exactly; within 7, some block differs in at most one bit.
import { fromHex } from './fingerprint-hex';

export const BLOCK_COUNT = 4;
export type Blocks = [number, number, number, number];

/** The four 16-bit blocks, most significant first (b0 = hex digits 0-3). */
export function blocksOf(hex: string): Blocks {
  const { hi, lo } = fromHex(hex);
  return [hi >>> 16, hi & 0xffff, lo >>> 16, lo & 0xffff];
}

/**
 * Keys to probe for one block: the block itself and, when `oneBitNeighbours` is set, the 16
 * values that differ from it in exactly one bit (multi-probe retrieval up to distance 7).
 */
export function probeKeys(block: number, oneBitNeighbours: boolean): number[] {
  const keys = [block];
  if (oneBitNeighbours) for (let bit = 0; bit < 16; bit++) keys.push(block ^ (1 << bit));
  return keys;
}
