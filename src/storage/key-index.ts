// An index over one column of 32-bit keys (a page's address hash, canonical address hash, a lead,
// a half of its fingerprint): the page numbers sorted by 16 of the key's bits (its top 16 unless
// told otherwise), with a directory of where each value of those bits starts. Finding a key reads
// a directory entry and a few numbers, where a scan of the column would read every page (about
// 1 ms per column at 10^6 pages). It keeps no key of its own: an entry is a
// page number, checked against the column, so an entry left behind by a page that changed or was
// forgotten is simply skipped. Pages changed since the index was built are kept in a short list,
// looked at on every find, and the index is built anew once that list grows long.
//
// A page number is held in three bytes (its low 16 bits in one array, the rest in another of one
// byte each) while the numbers fit in 24 bits, as they do up to 16,777,216 pages: the background
// holds eight such indexes, 32 MB at 10^6 pages in four bytes a number, 24 MB in three.
const DIRECTORY = 1 << 16;

export class KeyIndex {
  /** The page numbers in the index's order: the i-th is low[i] + high[i] × 2^16. */
  private low = new Uint16Array(0);
  private high: Uint8Array | Uint16Array = new Uint8Array(0);
  private readonly directory = new Uint32Array(DIRECTORY + 1);
  /** Pages changed (or added) since the build, in no order. */
  private recent: number[] = [];
  private built = false;

  /**
   * `keys()` gives the column (it is replaced when it grows); `has(n)` whether page n counts;
   * `shift`, where in the key the 16 bits sorted by start.
   */
  constructor(
    private readonly keys: () => Uint32Array,
    private readonly has: (n: number) => boolean,
    private readonly shift = 16,
  ) {}

  get ready(): boolean {
    return this.built;
  }

  /** Builds the index over pages [0, size) by a counting sort on the top 16 bits. */
  build(size: number): void {
    const keys = this.keys();
    const counts = this.directory;
    counts.fill(0);
    let n = 0;
    const shift = this.shift;
    for (let i = 0; i < size; i++) {
      if (!this.has(i)) continue;
      counts[((keys[i] >>> shift) & 0xffff) + 1]++;
      n++;
    }
    for (let d = 1; d <= DIRECTORY; d++) counts[d] += counts[d - 1];
    const low = new Uint16Array(n);
    const high = size <= 1 << 24 ? new Uint8Array(n) : new Uint16Array(n);
    const next = counts.slice(0, DIRECTORY);
    for (let i = 0; i < size; i++) {
      if (!this.has(i)) continue;
      const at = next[(keys[i] >>> shift) & 0xffff]++;
      low[at] = i & 0xffff;
      high[at] = i >>> 16;
    }
    this.low = low;
    this.high = high;
    this.recent = [];
    this.built = true;
  }

  /** Page n changed: found through the list of recent changes until the next build. */
  touch(n: number): void {
    if (!this.built) return;
    this.recent.push(n);
    // Past a sixteenth of the pages (and a few thousand), a rebuild costs less than the list does.
    if (this.recent.length > Math.max(4096, this.low.length / 16)) this.built = false;
  }

  /**
   * The pages sorted under this value of the 16 bits, for a caller that checks them itself: some may
   * have changed since the build, and pages changed since are not among them (`changed` lists those).
   */
  under(bits: number, visit: (n: number) => void): void {
    for (let i = this.directory[bits], end = this.directory[bits + 1]; i < end; i++) visit(this.at(i));
  }

  /** The page number at place i of the index's order. */
  private at(i: number): number {
    return this.low[i] + this.high[i] * 0x10000;
  }

  /** Pages changed (or added) since the build. */
  get changed(): readonly number[] {
    return this.recent;
  }

  /** The pages whose key is `key` (the index must be built, over the top 16 bits). */
  find(key: number): number[] {
    return this.pages(key >>> 16, (k) => k === key);
  }

  /** The pages whose key's top 24 bits are `top` (the index must be built). */
  findTop24(top: number): number[] {
    return this.pages(top >>> 8, (k) => k >>> 8 === top);
  }

  /** The pages under one directory entry, and the recent ones, whose key passes `matches`. */
  private pages(dir: number, matches: (key: number) => boolean): number[] {
    const keys = this.keys();
    const out: number[] = [];
    for (let i = this.directory[dir], end = this.directory[dir + 1]; i < end; i++) {
      const n = this.at(i);
      if (matches(keys[n]) && this.has(n)) out.push(n);
    }
    for (const n of this.recent) if (matches(keys[n]) && this.has(n) && !out.includes(n)) out.push(n);
    return out;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.low.byteLength + this.high.byteLength + this.directory.byteLength + this.recent.length * 8;
  }
}
