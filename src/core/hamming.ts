// Hamming distance between fingerprints: the number of bits in which they differ.

/** Number of one bits in a 32-bit integer (SWAR popcount). */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Hamming distance of two fingerprints given as 32-bit halves. */
export function hammingHalves(hiA: number, loA: number, hiB: number, loB: number): number {
  return popcount32((hiA ^ hiB) >>> 0) + popcount32((loA ^ loB) >>> 0);
}
