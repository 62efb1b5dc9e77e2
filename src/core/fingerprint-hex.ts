// A fingerprint at every boundary (messages, storage, export, CLI) is 16 lowercase hex digits;
// inside hot code it is two unsigned 32-bit halves.
import { hammingHalves } from './hamming';

export interface Halves {
  hi: number;
  lo: number;
}

const HEX16 = /^[0-9a-f]{16}$/;

export function isFingerprintHex(value: unknown): value is string {
  return typeof value === 'string' && HEX16.test(value);
}

export function toHex(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

export function fromHex(hex: string): Halves {
  if (!isFingerprintHex(hex)) throw new TypeError(`not a fingerprint (16 lowercase hex digits): ${JSON.stringify(hex).slice(0, 40)}`);
  return { hi: parseInt(hex.slice(0, 8), 16) >>> 0, lo: parseInt(hex.slice(8), 16) >>> 0 };
}

/** Hamming distance between two fingerprints in hex form. */
export function hamming(a: string, b: string): number {
  const x = fromHex(a);
  const y = fromHex(b);
  return hammingHalves(x.hi, x.lo, y.hi, y.lo);
}
