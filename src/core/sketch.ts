// The verification sketch: a b-bit one-permutation MinHash of the text's shingles (word triples,
// character triples over Han/kana runs). It is independent of the simhash (shingles, not single
// words; a set, not weights) and estimates how much two texts share: resemblance |A∩B|/|A∪B| and
// containment |A∩B|/min(|A|,|B|), the figure that recognises a preview or an excerpt.
import { normalizeText } from './normalize';
import { scanFeatures } from './features';
import { fromBase64, toBase64 } from './base64';

/** Buckets of the one-permutation MinHash; each keeps the low 8 bits of its minimum. */
export const SKETCH_BUCKETS = 128;
const SKETCH_VERSION = 1;
/** The shingles sketched (digest-scan.ts computes the same ones in its own pass: change both). */
export const SKETCH_SHINGLES = /* @__PURE__ */ Object.freeze({ wordShingle: 3, gram: 3 });

export interface Sketch {
  /** Number of distinct shingles of the text. */
  size: number;
  /** Low 8 bits of each bucket's minimum hash (densified: empty buckets borrow from the next full one). */
  mins: Uint8Array;
}

/**
 * Collects a text's shingle hashes into a sketch: bucket minima, and the number of distinct low
 * halves (the shingle count the sketch reports) in an open-addressing set of 32-bit keys. A typed
 * table rather than a Set: most keys are above 2^31, which a Set keeps as boxed doubles. One
 * builder serves call after call; only the slots in use are cleared.
 */
export class SketchBuilder {
  private readonly full = new Uint32Array(SKETCH_BUCKETS);
  private readonly filled = new Uint8Array(SKETCH_BUCKETS);
  // Key 0 marks an empty slot; the shingle whose low half is 0 is remembered apart.
  private keys = new Uint32Array(1 << 12);
  private used = new Int32Array(1 << 11);
  private distinct = 0;
  private zero = 0;

  reset(): void {
    this.full.fill(0);
    this.filled.fill(0);
    for (let k = 0; k < this.distinct; k++) this.keys[this.used[k]] = 0;
    this.distinct = 0;
    this.zero = 0;
  }

  add(hi: number, lo: number): void {
    const bucket = hi >>> 25; // top 7 bits: 128 buckets
    if (!this.filled[bucket] || lo < this.full[bucket]) {
      this.full[bucket] = lo;
      this.filled[bucket] = 1;
    }
    if (lo === 0) {
      this.zero = 1;
      return;
    }
    const keys = this.keys;
    const mask = keys.length - 1;
    let slot = lo & mask;
    for (;;) {
      const k = keys[slot];
      if (k === lo) return;
      if (k === 0) break;
      slot = (slot + 1) & mask;
    }
    keys[slot] = lo;
    this.used[this.distinct++] = slot;
    if (this.distinct * 2 >= keys.length) this.grow();
  }

  private grow(): void {
    const old = this.keys;
    const oldUsed = this.used;
    this.keys = new Uint32Array(old.length * 2);
    this.used = new Int32Array(old.length);
    const mask = this.keys.length - 1;
    for (let k = 0; k < this.distinct; k++) {
      const lo = old[oldUsed[k]];
      let slot = lo & mask;
      while (this.keys[slot] !== 0) slot = (slot + 1) & mask;
      this.keys[slot] = lo;
      this.used[k] = slot;
    }
  }

  /** The sketch of what was added since the last reset. */
  sketch(): Sketch {
    const size = this.distinct + this.zero;
    const { full, filled } = this;
    const mins = new Uint8Array(SKETCH_BUCKETS);
    if (size > 0) {
      for (let i = 0; i < SKETCH_BUCKETS; i++) {
        // Rotation densification: an empty bucket takes the next filled one's value, mixed with the
        // distance walked, so two texts with the same shingles still agree bucket by bucket.
        let j = i;
        let steps = 0;
        while (!filled[j]) {
          j = (j + 1) % SKETCH_BUCKETS;
          steps++;
        }
        const v = steps === 0 ? full[j] : Math.imul(full[j] ^ steps, 0x9e3779b1) >>> 0;
        mins[i] = v & 0xff;
      }
    }
    return { size, mins };
  }
}

const builder = /* @__PURE__ */ new SketchBuilder();

/** The sketch of a text (normalised here). */
export function sketchOf(text: string): Sketch {
  builder.reset();
  scanFeatures(normalizeText(text), SKETCH_SHINGLES, (hi, lo) => builder.add(hi, lo));
  return builder.sketch();
}

export interface Overlap {
  /** Estimated |A∩B| / |A∪B|. */
  resemblance: number;
  /** Estimated |A∩B| / min(|A|, |B|): near 1 when one text holds (almost) all of the other. */
  containment: number;
}

/**
 * Below this ratio of set sizes, containment is not estimated: the error of a 128-bucket
 * resemblance (about ±0.05) times the size ratio would swamp it (a 50-shingle text against a
 * 5,000-shingle one could look fully contained by chance).
 */
export const MIN_SIZE_RATIO = 0.2;

/** Estimates the overlap of the shingle sets of two sketched texts. */
export function overlap(a: Sketch, b: Sketch): Overlap {
  if (a.size === 0 || b.size === 0) return { resemblance: 0, containment: 0 };
  let equal = 0;
  for (let i = 0; i < SKETCH_BUCKETS; i++) if (a.mins[i] === b.mins[i]) equal++;
  // Two unrelated 8-bit values are equal 1 time in 256: correct for that.
  const chance = 1 / 256;
  const resemblance = Math.max(0, Math.min(1, (equal / SKETCH_BUCKETS - chance) / (1 - chance)));
  const small = Math.min(a.size, b.size);
  const large = Math.max(a.size, b.size);
  if (small / large < MIN_SIZE_RATIO) return { resemblance, containment: resemblance };
  const shared = (resemblance * (a.size + b.size)) / (1 + resemblance);
  return { resemblance, containment: Math.min(1, shared / small) };
}

// Boundary form: base64 of [version, size as 4 bytes little-endian, 128 bucket bytes] (~180 characters).
export function encodeSketch(s: Sketch): string {
  const bytes = new Uint8Array(5 + SKETCH_BUCKETS);
  bytes[0] = SKETCH_VERSION;
  new DataView(bytes.buffer).setUint32(1, s.size, true);
  bytes.set(s.mins, 5);
  return toBase64(bytes);
}

/** The sketch in a stored string, or null if it is not one (another version, damaged). */
export function decodeSketch(encoded: string): Sketch | null {
  const bytes = fromBase64(encoded);
  return bytes && decodeSketchBytes(bytes);
}

/** The sketch in its stored bytes (the encoded string without its base64), or null. */
export function decodeSketchBytes(bytes: Uint8Array): Sketch | null {
  if (bytes.length !== 5 + SKETCH_BUCKETS || bytes[0] !== SKETCH_VERSION) return null;
  return { size: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1, true), mins: bytes.slice(5) };
}
