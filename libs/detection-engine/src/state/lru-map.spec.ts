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
  it('lists entries least recently used first, so re-inserting them in order rebuilds the same recency', () => {
    const lru = new LruMap<string, number>(3);
    lru.set('a', 1).set('b', 2).set('c', 3);
    lru.get('a');
    expect([...lru.items()]).toEqual([['b', 2], ['c', 3], ['a', 1]]);
    const copy = new LruMap<string, number>(3);
    for (const [k, v] of lru.items()) copy.set(k, v);
    copy.set('d', 4);
    expect(copy.has('b')).toBe(false);
    lru.clear();
    expect(lru.size).toBe(0);
  });
  it('says it is evicting from an eviction until as many keys as it then held have been added', () => {
    const map = new LruMap<string, number>(3);
    for (const key of ['a', 'b', 'c']) map.set(key, 1);
    expect(map.evicting).toBe(false);
    map.set('d', 1); // evicts a, holding b, c, d after it
    expect(map.evicting).toBe(true);
    map.evictOldest(1); // b, leaving c and d
    map.get('c');
    map.set('e', 1);
    expect(map.evicting).toBe(true);
    map.delete('c');
    map.set('f', 1);
    expect(map.evicting).toBe(false);
  });

  it('addNew adds an absent key as the most recent, evicting past the bound like set', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(2, (key) => evicted.push(key));
    map.addNew('a', 1);
    map.addNew('b', 2);
    expect(map.evicting).toBe(false);
    map.get('a');
    map.addNew('c', 3);
    expect(evicted).toEqual(['b']);
    expect([...map.items()]).toEqual([['a', 1], ['c', 3]]);
    expect(map.evicting).toBe(true);
  });

  it('rejects a non-positive bound', () => {
    expect(() => new LruMap(0)).toThrow(RangeError);
    expect(() => new LruMap(1.5)).toThrow(RangeError);
  });
});
