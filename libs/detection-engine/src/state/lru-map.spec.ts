import { LruMap } from './lru-map';

describe('LruMap', () => {
  it('never holds more than maxSize entries and evicts the least recently used', () => {
    const evicted: string[] = [];
    const lru = new LruMap<string, number>(3, (key) => evicted.push(key));
    lru.set('a', 1).set('b', 2).set('c', 3);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('d', 4);
    expect(lru.size).toBe(3);
    expect(evicted).toEqual(['b']);
    expect(lru.has('b')).toBe(false);
    expect([...lru.values()]).toEqual([3, 1, 4]);
  });
  it('peek does not refresh recency', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1).set('b', 2);
    expect(lru.peek('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.has('a')).toBe(false);
  });
  it('rejects a non-positive bound', () => {
    expect(() => new LruMap(0)).toThrow(RangeError);
    expect(() => new LruMap(1.5)).toThrow(RangeError);
  });
});
