import { FirstSightings } from './first-sightings';

describe('FirstSightings', () => {
  it('gives back a key\'s first sighting once, and only for that key', () => {
    const table = new FirstSightings(1024, 3);
    const key = FirstSightings.hashOf('ws\u000010.0.0.5\u000045.77.6.6');
    const other = FirstSightings.hashOf('ws\u000010.0.0.5\u000045.77.6.7');
    table.remember(key, [1_700_000_000_000, 600, 4_000]);
    const into: number[] = [];
    expect(table.take(other, into)).toBe(false);
    expect(table.take(key, into)).toBe(true);
    expect(into).toEqual([1_700_000_000_000, 600, 4_000]);
    expect(table.take(key, into)).toBe(false);
  });

  it('forgets a sighting when another key takes its slot, and on clear', () => {
    const table = new FirstSightings(4, 1);
    const a = 0x10;
    const b = 0x20; // the same slot as a in a table of 4
    table.remember(a, [1]);
    table.remember(b, [2]);
    const into: number[] = [];
    expect(table.take(a, into)).toBe(false);
    expect(table.take(b, into)).toBe(true);
    expect(into).toEqual([2]);
    table.remember(a, [3]);
    table.clear();
    expect(table.take(a, into)).toBe(false);
  });

  it('holds a sighting per slot: of 1,000 keys in 16,384 slots, most come back', () => {
    const table = new FirstSightings(16_384, 1);
    const hashes = Array.from({ length: 1_000 }, (_, i) => FirstSightings.hashOf(`ws\u000010.0.${i >> 8}.${i & 255}\u000052.1.2.3`));
    hashes.forEach((hash, i) => table.remember(hash, [i]));
    const into: number[] = [];
    const back = hashes.filter((hash, i) => table.take(hash, into) && into[0] === i).length;
    expect(back).toBeGreaterThan(950);
  });

  it('rejects sizes it cannot index', () => {
    expect(() => new FirstSightings(1000, 1)).toThrow(RangeError);
    expect(() => new FirstSightings(1024, 0)).toThrow(RangeError);
  });
});
