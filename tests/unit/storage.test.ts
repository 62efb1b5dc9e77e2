import { describe, expect, it } from 'vitest';
import { buildExport, openDejaReadDB, PageRepository, type Visit } from '../../src/storage';

const visit = (url: string, fp: string, title = url): Visit => ({ url, title, fp, algo: 'dr1', textLength: 500, lang: 'en' });

async function repo(): Promise<PageRepository> {
  return new PageRepository(await openDejaReadDB());
}

describe('PageRepository', () => {
  it('records a visit with its fingerprint blocks', async () => {
    const r = await repo();
    const rec = await r.recordVisit(visit('https://a.example/1', '0123456789abcdef', 'A'), 1000);
    expect(rec).toMatchObject({ b0: 0x0123, b1: 0x4567, b2: 0x89ab, b3: 0xcdef, visits: 1, firstSeen: 1000, lastSeen: 1000 });
    expect(await r.get('https://a.example/1')).toEqual(rec);
    expect(await r.count()).toBe(1);
  });

  it('counts a revisit of the same URL on the same record, keeping firstSeen', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 1000);
    const again = await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 5000);
    expect(again).toMatchObject({ visits: 2, firstSeen: 1000, lastSeen: 5000 });
    expect(await r.count()).toBe(1);
  });

  it('keeps one record when many tabs report the same URL at once', async () => {
    const r = await repo();
    await Promise.all(Array.from({ length: 10 }, (_, i) => r.recordVisit(visit('https://a.example/x', '0123456789abcdef'), 1000 + i)));
    expect(await r.count()).toBe(1);
    expect((await r.get('https://a.example/x'))?.visits).toBe(10);
  });

  it('finds pages within distance 3 through any one equal block, closest first', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/same', '0123456789abcdef'), 1);
    await r.recordVisit(visit('https://a.example/2bits', '0123456789abcdec'), 2); // differs in block 3 only
    await r.recordVisit(visit('https://a.example/3bits', '8123c56689abcdef'), 3); // 1 bit in b0, 2 bits in b1
    await r.recordVisit(visit('https://a.example/4bits', '0123456789abcde0'), 4); // 4 bits: too far
    await r.recordVisit(visit('https://a.example/far', 'fedcba9876543210'), 5);
    const found = await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 3, excludeUrl: 'https://a.example/same' });
    expect(found.map((p) => [p.url, p.distance])).toEqual([
      ['https://a.example/2bits', 2],
      ['https://a.example/3bits', 3],
    ]);
  });

  it('never compares fingerprints of another algorithm version', async () => {
    const r = await repo();
    await r.recordVisit({ ...visit('https://a.example/old', '0123456789abcdef'), algo: 'dr0' }, 1);
    expect(await r.findSimilar('0123456789abcdef', { algo: 'dr1', maxDistance: 3 })).toEqual([]);
  });

  it('lists every record for export in a well-formed document', async () => {
    const r = await repo();
    await r.recordVisit(visit('https://a.example/1', '0123456789abcdef'), 2);
    await r.recordVisit(visit('https://a.example/2', 'fedcba9876543210'), 1);
    const doc = buildExport(await r.all(), new Date(0));
    expect(doc).toMatchObject({ format: 'deja-read-history', version: 1, algorithm: { name: 'dr1' }, exportedAt: '1970-01-01T00:00:00.000Z' });
    expect(doc.pages.map((p) => p.url)).toEqual(['https://a.example/2', 'https://a.example/1']);
  });
});
