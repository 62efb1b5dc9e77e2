// The columns a lookup scans, and their indexes: a lookup finds the same pages whether it scans or
// asks the indexes, before and after pages change, are added and are forgotten.
import { describe, expect, it, vi } from 'vitest';
import { canonicalizeUrl, encodePassages, fromBase64, siteOf, toBase64 } from '../../src/core';
import { Columns } from '../../src/storage/columns';
import { hashString, SEGMENT_PAGES, siteOfIdentity, type StoredPage } from '../../src/storage/layout';

/** sfc32, so a failure can be run again. */
function random(seed: number): () => number {
  let a = 0x9e3779b9, b = 0x243f6a88, c = 0xb7e15162, d = seed >>> 0;
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = ((c << 21) | (c >>> 11)) + t;
    return t >>> 0;
  };
}

describe('a lookup in the columns', () => {
  it('finds the same pages by scanning and through the indexes, as pages change, arrive and go', () => {
    const rnd = random(7);
    const hex = () => (rnd().toString(16).padStart(8, '0') + rnd().toString(16).padStart(8, '0'));
    // Few distinct values, so that many pages share each: addresses, canonical addresses, leads.
    const pick = <T>(list: T[]) => list[rnd() % list.length];
    const urls = Array.from({ length: 40 }, (_, i) => `https://s${i % 5}.example/${i}`);
    const leads = Array.from({ length: 30 }, () => rnd());
    const fps = Array.from({ length: 20 }, hex);
    // A fingerprint `k` bits from one of those: pages and queries at every distance a lookup may ask.
    const near = (k: number) => {
      const fp = pick(fps);
      let hi = parseInt(fp.slice(0, 8), 16);
      let lo = parseInt(fp.slice(8), 16);
      for (let i = 0; i < k; i++) {
        const bit = rnd() % 64;
        if (bit < 32) hi = (hi ^ (1 << bit)) >>> 0;
        else lo = (lo ^ (1 << (bit - 32))) >>> 0;
      }
      return { hi, lo, hex: hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0') };
    };
    const page = (): StoredPage => {
      const url = pick(urls);
      const hashes = [pick(leads), pick(leads), rnd()].sort((x, y) => x - y).filter((h, i, all) => i === 0 || h !== all[i - 1]);
      const narrow = rnd() % 5 === 0;
      return {
        url,
        ...(rnd() % 3 === 0 ? { canonicalUrl: pick(urls) } : {}),
        title: 't',
        fp: rnd() % 2 ? near(rnd() % 8).hex : hex(),
        algo: rnd() % 10 ? 'dr1' : 'dr0',
        passages: encodePassages(narrow ? { count: hashes.length, hashes: Uint32Array.from(new Set(hashes.map((h) => h >>> 8))), bits: 24 } : { count: hashes.length, hashes: Uint32Array.from(hashes), bits: 32 }),
        textLength: 500,
        lang: 'en',
        firstSeen: 1,
        lastSeen: 2,
        visits: 1,
      };
    };
    const scanned = Columns.empty();
    const indexed = Columns.empty();
    const both = (f: (c: Columns) => void) => [scanned, indexed].forEach(f);
    for (let n = 0; n < 3000; n++) {
      const p = page();
      both((c) => c.set(n, p));
    }
    indexed.index();
    expect(indexed.indexed).toBe(true);
    let nearFound = 0;
    const compare = () => {
      for (let q = 0; q < 60; q++) {
        const { hi, lo } = near(rnd() % 10);
        const bits = rnd() % 4 === 0 ? 24 : 32;
        const values = [pick(leads), pick(leads), rnd()].map((h) => (bits === 24 ? h >>> 8 : h));
        const maxDistance = rnd() % 8;
        const args = [hi, lo, maxDistance, hashString(pick(urls)), hashString(pick(urls)), { values, bits: bits as 24 | 32 }] as const;
        const sorted = (r: ReturnType<Columns['lookup']>) => ({
          near: [...r.near].sort((x, y) => x - y),
          byUrl: [...r.byUrl].sort((x, y) => x - y),
          byCanon: [...r.byCanon].sort((x, y) => x - y),
          byLead: [...r.byLead].map(([k, v]) => [k, [...v].sort((x, y) => x - y)]).sort((x, y) => (x[0] as number) - (y[0] as number)),
        });
        const want = sorted(scanned.lookup(...args));
        expect(sorted(indexed.lookup(...args))).toEqual(want);
        expect(indexed.near(hi, lo, maxDistance)).toEqual(want.near);
        expect(want.byUrl.length + want.byLead.length).toBeGreaterThan(0);
        nearFound += want.near.length;
        const hashes = [hashString(pick(urls)), hashString(pick(urls)), 12345];
        const norm = (m: Map<number, number[]>) => [...m].map(([k, v]) => [k, [...v].sort((x, y) => x - y)]).sort((x, y) => (x[0] as number) - (y[0] as number));
        expect(norm(indexed.find('url', hashes))).toEqual(norm(scanned.find('url', hashes)));
        expect(norm(indexed.find('canon', hashes))).toEqual(norm(scanned.find('canon', hashes)));
      }
    };
    compare();
    // Pages replaced, forgotten, added: the indexes keep up through their list of recent changes.
    for (let k = 0; k < 500; k++) {
      const n = rnd() % 3200;
      const p = rnd() % 4 === 0 ? null : page();
      both((c) => c.set(n, p));
    }
    expect(indexed.indexed).toBe(true);
    compare();
    // So many changes that the indexes are built again.
    for (let k = 0; k < 5000; k++) {
      const p = page();
      both((c) => c.set(3200 + k, p));
    }
    expect(indexed.indexed).toBe(false);
    indexed.index();
    compare();
    // The queries were near enough to stored fingerprints for the comparison to mean something.
    expect(nearFound).toBeGreaterThan(500);
  });
});

describe('the memory the columns hold', () => {
  it('is under 64 bytes a page with every index, for pages whose canonical address is their own', () => {
    // A segment's worth of pages (the columns grow by segments): each with a fingerprint, two leads
    // and an address of its own, as nearly every page a reader records.
    const rnd = random(11);
    const passages = Array.from({ length: 64 }, () => encodePassages({ count: 3, hashes: Uint32Array.from([rnd(), rnd(), rnd()]).sort(), bits: 32 }));
    const c = Columns.empty();
    for (let n = 0; n < SEGMENT_PAGES; n++) {
      const fp = (rnd().toString(16).padStart(8, '0') + rnd().toString(16).padStart(8, '0'));
      c.set(n, { url: `https://s${n % 997}.example/${n}`, title: '', fp, algo: 'dr1', passages: passages[n % 64], textLength: 500, lang: 'en', firstSeen: 1, lastSeen: 2, visits: 1 });
    }
    c.index();
    // The store issue allows the background 64 MB at 10^6 pages. With four bytes a page number, and
    // every page in the canonical addresses' index, this was 73 bytes a page.
    expect(c.bytes / SEGMENT_PAGES).toBeLessThan(64);
    // Such a page is found by its canonical address all the same.
    expect(c.lookup(1, 2, 7, hashString('https://s5.example/5'), hashString('https://s5.example/5')).byCanon).toEqual([5]);
  });
});

describe('the site of a page identity', () => {
  it('is what core says, without parsing the address again', () => {
    for (const raw of ['https://www.news.example/a?b#c', 'http://Example.COM:8080/x', 'https://xn--bcher-kva.example/', 'https://user:pw@host.example/', 'http://127.0.0.1:5000/', 'http://[::1]:8080/p', 'https://www.example/', 'https://www/', 'https://sub.www.example/']) {
      const url = canonicalizeUrl(raw);
      if (url) expect([raw, siteOfIdentity(url)]).toEqual([raw, siteOf(url)]);
    }
  });
});

describe('base64', () => {
  it('round-trips bytes of every length and refuses what is not base64', () => {
    const rnd = random(3);
    for (let length = 0; length < 40; length++) {
      const bytes = Uint8Array.from({ length }, () => rnd() & 255);
      expect(fromBase64(toBase64(bytes))).toEqual(bytes);
    }
    expect(toBase64(Uint8Array.from([0xfb, 0xff]))).toBe('+/8=');
    for (const bad of ['A', 'AB=C', '++++=', 'ÀAAA', 'AA==AA==', ' AAA', 'AA\nA', 'A===', '-_AA']) expect(fromBase64(bad)).toBeNull();
  });

  it("uses the language's own base64 where there is one, with the same output and the same refusals", async () => {
    // Node 20 has none: the native path is stood in for by Node's Buffer, as lenient as the
    // browsers' (it skips white space), to show the wrapper keeps this module's strictness.
    const stand = Uint8Array as unknown as { fromBase64?: unknown; prototype: { toBase64?: unknown } };
    const had = { from: stand.fromBase64, to: stand.prototype.toBase64 };
    stand.fromBase64 = (s: string) => {
      if (/[^A-Za-z0-9+/=\s]/.test(s) || /=[^=]/.test(s.trim()) || s.replace(/\s/g, '').length % 4 !== 0 || /^[^=]?=/.test(s.slice(-4))) throw new SyntaxError('bad');
      return new Uint8Array(Buffer.from(s, 'base64'));
    };
    stand.prototype.toBase64 = function (this: Uint8Array) {
      return Buffer.from(this).toString('base64');
    };
    try {
      vi.resetModules();
      const { fromBase64: from, toBase64: to, fromBase64Here, toBase64Here } = await import('../../src/core/base64');
      const rnd = random(5);
      for (let length = 0; length < 40; length++) {
        const bytes = Uint8Array.from({ length }, () => rnd() & 255);
        expect(to(bytes)).toBe(toBase64Here(bytes));
        expect(from(to(bytes))).toEqual(fromBase64Here(toBase64Here(bytes)));
      }
      for (const bad of ['A', 'AB=C', ' AAA', 'AAAA    ', 'AAAA AAAA\n\n\n', 'ÀAAA']) expect([bad, from(bad)]).toEqual([bad, null]);
    } finally {
      stand.fromBase64 = had.from;
      stand.prototype.toBase64 = had.to;
    }
  });
});

describe('the columns on disk', () => {
  /** A store `columns` in a Map, as the columns use it. */
  function fakeStore() {
    const values = new Map<string, { key: [string, number]; value: unknown }>();
    const inRange = (range: IDBKeyRange) => [...values.values()].filter((e) => range.includes(e.key)).sort((a, b) => (a.key[0] < b.key[0] ? -1 : a.key[0] > b.key[0] ? 1 : a.key[1] - b.key[1]));
    const store = {
      get: async (key: [string, number]) => values.get(JSON.stringify(key))?.value,
      getAll: async (range: IDBKeyRange) => inRange(range).map((e) => structuredClone(e.value)),
      getAllKeys: async (range: IDBKeyRange) => inRange(range).map((e) => e.key),
    };
    return {
      tx: { objectStore: () => store },
      write: (changes: Array<[unknown, [string, number]]>) => changes.forEach(([value, key]) => values.set(JSON.stringify(key), { key, value: structuredClone(value) })),
      keys: () => [...values.values()].map((e) => e.key.join(':')).sort(),
    };
  }
  const stored = (i: number): StoredPage => ({ url: `https://a.example/${i}`, title: 't', fp: (i + 1).toString(16).padStart(16, '0'), algo: 'dr1', textLength: 1, lang: 'en', firstSeen: 1, lastSeen: 100 + i, visits: 1 });

  it('reads back what was written, through the delta and through segments on both sides of a boundary', async () => {
    const disk = fakeStore();
    const c = Columns.empty();
    const S = SEGMENT_PAGES;
    const numbers = [0, 1, 2, S - 2, S - 1, S, S + 1];
    for (const n of numbers) c.set(n, stored(n));
    disk.write(c.changes());
    // Few changes: only the delta is written.
    expect(disk.keys()).toEqual(['delta:0']);
    const check = async () => {
      const read = await Columns.read(disk.tx, c.size, ['fp', 'keys', 'leads', 'extra']);
      for (const n of numbers) {
        const fp = stored(n).fp;
        expect(read.near(parseInt(fp.slice(0, 8), 16), parseInt(fp.slice(8), 16), 0)).toEqual([n]);
        expect(read.find('url', [hashString(stored(n).url)]).get(hashString(stored(n).url))).toEqual([n]);
        expect(read.lastSeen(n)).toBe(100 + n);
      }
      expect(read.flag(3)).toBe(0);
    };
    await check();
    // Past DELTA_PAGES changes, the segments they touch are written and the delta emptied.
    for (let n = 3; n < 3 + 2100; n++) c.set(n, stored(n));
    c.set(3, null);
    disk.write(c.changes());
    expect(disk.keys()).toEqual(['delta:0', ...['extra', 'fp', 'keys', 'leads'].flatMap((g) => [`${g}:0`, `${g}:1`])]);
    await check();
    // A later change goes to the delta again, over the segments.
    c.set(S, { ...stored(S), lastSeen: 5 });
    disk.write(c.changes());
    const read = await Columns.read(disk.tx, c.size, ['extra', 'fp']);
    expect(read.lastSeen(S)).toBe(5);
    expect(read.lastSeen(S + 1)).toBe(100 + S + 1);
  });

  it('holds as many pages as the store has, and grows by a little', async () => {
    // Seven columns of 4 bytes a page, the flags of 1 and the last visits of 8.
    const bytesAPage = 37;
    const S = SEGMENT_PAGES;
    const grown = Columns.empty();
    grown.set(2 * S, stored(2 * S));
    // Until 29 November 2026: room for four segments (2,097,152 pages).
    expect(grown.bytes / bytesAPage).toBeLessThan(2 * S + 20_000);
    // Read from the store, a history of a segment and a page holds that many (it held two segments).
    const disk = fakeStore();
    const c = Columns.empty();
    for (const n of [0, S - 1, S]) c.set(n, stored(n));
    disk.write(c.changes());
    const read = await Columns.read(disk.tx, c.size, ['fp', 'keys', 'leads', 'extra']);
    expect(read.bytes).toBe((S + 1) * bytesAPage);
    expect(read.near(0, S + 1, 0)).toEqual([S]);
    // The next page recorded fits.
    read.set(S + 1, stored(S + 1));
    expect(read.near(0, S + 2, 0)).toEqual([S + 1]);
    expect(read.lastSeen(S)).toBe(100 + S);
  });
});
