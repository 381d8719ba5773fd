import { brotliCompressSync } from 'node:zlib';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registeredDomain } from '../domain';
import { benignNames } from '../testing/fixtures';
import { defaultPopularity, popularity, PopularitySet } from './popularity';

describe('popularity', () => {
  it('ranks the biggest sites top1k, the rest of the top-10k lists top10k, everything else listed top100k', () => {
    for (const d of ['google.com', 'facebook.com', 'microsoft.com', 'wikipedia.org', 'amazon.com']) expect(popularity(d)).toBe('top1k');
    expect(popularity('GOOGLE.COM.')).toBe('top1k');
    const set = defaultPopularity();
    expect(set.count('top1k')).toBe(1000);
    expect(set.count('top10k')).toBeGreaterThan(9000);
    // About 17,000 deep-tail domains are held out of the shipped data for the DGA evaluation (tools/dga/dataset.ts).
    expect(set.size).toBeGreaterThan(85_000);
  });

  it('holds every registered domain of the benign rankings and nothing random', () => {
    const missing = benignNames('tranco10k.txt')
      .map((n) => registeredDomain(n))
      .filter((d): d is string => d !== undefined && popularity(d) === undefined);
    expect(missing).toEqual([]);
    expect(popularity('tufomgucxbxqvut.com')).toBeUndefined();
    expect(popularity('')).toBeUndefined();
    expect(popularity(42 as unknown as string)).toBeUndefined();
  });

  it('serialises, compresses and reads back its own format', () => {
    const text = PopularitySet.serialise([
      ['b.com', 'top10k'],
      ['a.com', 'top1k'],
      ['c.org', 'top100k'],
    ]);
    expect(text).toBe('# vigil popularity v1\n[top1k]\na.com\n[top10k]\nb.com\n[top100k]\nc.org\n');
    const dir = mkdtempSync(join(tmpdir(), 'vigil-pop-'));
    writeFileSync(join(dir, 'p.txt.br'), brotliCompressSync(Buffer.from(text)));
    const set = PopularitySet.load(join(dir, 'p.txt.br'));
    expect([set.tier('a.com'), set.tier('b.com'), set.tier('c.org'), set.tier('d.net')]).toEqual(['top1k', 'top10k', 'top100k', undefined]);
  });

  it('rejects malformed files with a clear error', () => {
    expect(() => PopularitySet.fromText('a.com\n')).toThrow(/header/);
    expect(() => PopularitySet.fromText('# vigil popularity v1\na.com\n')).toThrow(/before any \[tier\]/);
    expect(() => PopularitySet.fromText('# vigil popularity v1\n[top5]\na.com\n')).toThrow(/unknown tier top5/);
    expect(() => PopularitySet.load('/nonexistent/p.txt.br')).toThrow(/cannot read/);
  });
});
