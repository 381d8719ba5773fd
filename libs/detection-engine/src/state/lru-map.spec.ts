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

  it('keeps exact recency order through reused slots, deletes, evictions and clears (against a list model)', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const evicted: string[] = [];
    const map = new LruMap<string, number>(20, (key) => evicted.push(key));
    let model: [string, number][] = []; // least recently used first
    const expectedEvictions: string[] = [];
    for (let step = 0; step < 5_000; step++) {
      const key = `k${random(40)}`;
      const at = model.findIndex(([k]) => k === key);
      const op = random(10);
      if (op < 4) {
        const got = map.get(key);
        expect(got).toBe(at >= 0 ? model[at][1] : undefined);
        if (at >= 0) model.push(...model.splice(at, 1));
      } else if (op < 8) {
        map.set(key, step);
        if (at >= 0) model.splice(at, 1);
        model.push([key, step]);
        while (model.length > 20) expectedEvictions.push(model.shift()![0]);
      } else if (op < 9) {
        expect(map.delete(key)).toBe(at >= 0);
        if (at >= 0) model.splice(at, 1);
      } else if (step % 500 === 9) {
        map.clear();
        model = [];
      } else {
        expect(map.evictOldest(2)).toBe(Math.min(2, model.length));
        expectedEvictions.push(...model.splice(0, 2).map(([k]) => k));
      }
      expect(map.size).toBe(model.length);
    }
    expect([...map.items()]).toEqual(model);
    expect(evicted).toEqual(expectedEvictions);
  });

  it('an iterator skips entries removed while it walks, including the one it stands on', () => {
    const map = new LruMap<string, number>(10);
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, i);
    const walk = map.items();
    expect(walk.next().value).toEqual(['a', 0]);
    map.delete('a');
    map.delete('b');
    map.delete('c');
    expect([...walk]).toEqual([['d', 3], ['e', 4]]);
  });

  it('rejects a non-positive bound', () => {
    expect(() => new LruMap(0)).toThrow(RangeError);
    expect(() => new LruMap(1.5)).toThrow(RangeError);
  });
});
