import { RecentlyStoredKeys } from './recently-stored-keys';

describe('RecentlyStoredKeys', () => {
  it('is exact only for records later than everything stored before it started', () => {
    const keys = new RecentlyStoredKeys(1_000, 10);
    expect(keys.covers(1_000)).toBe(false);
    expect(keys.covers(1_000.9)).toBe(false); // stored as 1,000 ms
    expect(keys.covers(1_001)).toBe(true);
    keys.add('a', 2_000);
    expect(keys.has('a')).toBe(true);
    expect(keys.has('b')).toBe(false);
  });

  it('raises the bound to the time of every key it forgets, oldest insert first', () => {
    const keys = new RecentlyStoredKeys(0, 2);
    keys.add('a', 5_000);
    keys.add('b', 3_000);
    keys.add('c', 4_000);
    expect(keys.size).toBe(2);
    expect(keys.has('a')).toBe(false);
    // 'a' (5,000) is forgotten: a record of that time or earlier may be stored without being remembered.
    expect(keys.covers(5_000)).toBe(false);
    expect(keys.covers(5_001)).toBe(true);
    expect([keys.has('b'), keys.has('c')]).toEqual([true, true]);
  });

  it('gives up the times of an insert that may have stored part of its rows', () => {
    const keys = new RecentlyStoredKeys(0, 10);
    keys.uncover(7_000.5);
    expect(keys.covers(7_000)).toBe(false);
    expect(keys.covers(7_001)).toBe(true);
    keys.uncover(100); // never lowers it
    expect(keys.covers(7_000)).toBe(false);
  });

  it('refuses a capacity below one', () => {
    expect(() => new RecentlyStoredKeys(0, 0)).toThrow(RangeError);
  });
});
