import { LruMap } from './lru-map';
import { SharedKeyTable } from './shared-keys';

/** A small deterministic generator, so a failing sequence can be replayed. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('SharedKeyTable', () => {
  it('keeps each member map its own keys and slots, and drops a key once no member holds it', () => {
    const table = new SharedKeyTable();
    const a = table.member();
    const b = table.member();
    a.set('h\u00001.2.3.4', 7);
    expect(a.get('h\u00001.2.3.4')).toBe(7);
    expect(b.get('h\u00001.2.3.4')).toBeUndefined();
    b.set('h\u00001.2.3.4', 0);
    expect([a.size, b.size, table.size]).toEqual([1, 1, 1]);
    expect(a.delete('h\u00001.2.3.4')).toBe(true);
    expect(a.delete('h\u00001.2.3.4')).toBe(false);
    expect(b.get('h\u00001.2.3.4')).toBe(0);
    expect(table.size).toBe(1);
    expect(b.delete('h\u00001.2.3.4')).toBe(true);
    expect(table.size).toBe(0);
    expect(b.has('h\u00001.2.3.4')).toBe(false);
  });

  it('answers the latest key from memory without being misled by a key removed in between', () => {
    const table = new SharedKeyTable();
    const a = table.member();
    const b = table.member();
    a.set('old', 1);
    b.set('old', 2);
    // A flow's key asked for by one map, which then evicts another key, before the next map asks.
    expect(a.get('new')).toBeUndefined();
    a.set('new', 3);
    expect(a.delete('old')).toBe(true);
    expect(b.get('new')).toBeUndefined();
    b.set('new', 4);
    expect([a.get('new'), b.get('new'), b.get('old'), a.get('old')]).toEqual([3, 4, 2, undefined]);
    // The remembered key leaving every member is forgotten too.
    a.delete('new');
    b.delete('new');
    expect(a.get('new')).toBeUndefined();
    a.set('new', 5);
    expect(a.get('new')).toBe(5);
  });

  it('clears one member without touching the keys of the others', () => {
    const table = new SharedKeyTable();
    const a = table.member();
    const b = table.member();
    for (let i = 0; i < 100; i++) a.set(`k${i}`, i);
    for (let i = 50; i < 150; i++) b.set(`k${i}`, i);
    expect(table.size).toBe(150);
    a.clear();
    expect(a.size).toBe(0);
    expect(a.get('k60')).toBeUndefined();
    expect(b.get('k60')).toBe(60);
    expect(table.size).toBe(100);
  });

  it('refuses a ninth member', () => {
    const table = new SharedKeyTable();
    for (let i = 0; i < 8; i++) table.member();
    expect(() => table.member()).toThrow(RangeError);
  });

  it('leaves LRU maps sharing it behaving exactly as maps with tables of their own', () => {
    const random = randomSource(20_261_203);
    const table = new SharedKeyTable();
    const evictedShared: string[][] = [[], [], []];
    const evictedOwn: string[][] = [[], [], []];
    const bounds = [50, 80, 20];
    const shared = bounds.map((bound, m) => new LruMap<string, number>(bound, (key) => evictedShared[m].push(key), table.member()));
    const own = bounds.map((bound, m) => new LruMap<string, number>(bound, (key) => evictedOwn[m].push(key)));
    for (let step = 0; step < 20_000; step++) {
      // Keys as flows bring them: a fresh string each time, mostly asked of every map in turn.
      const key = `host\u0000${Math.floor(random() * 150)}`;
      const op = random();
      for (let m = 0; m < 3; m++) {
        if (random() < 0.2) continue;
        if (op < 0.6) {
          expect(shared[m].get(key)).toBe(own[m].get(key));
          if (own[m].peek(key) === undefined) {
            shared[m].addNew(key, step);
            own[m].addNew(key, step);
          }
        } else if (op < 0.8) {
          shared[m].set(key, step);
          own[m].set(key, step);
        } else if (op < 0.9) {
          expect(shared[m].delete(key)).toBe(own[m].delete(key));
        } else if (op < 0.995) {
          expect(shared[m].peekSlot(key)).toBe(own[m].peekSlot(key));
        } else {
          expect(shared[m].evictOldest(5)).toBe(own[m].evictOldest(5));
        }
      }
      if (step % 5_000 === 4_999) {
        shared[1].clear();
        own[1].clear();
      }
    }
    for (let m = 0; m < 3; m++) {
      expect([...shared[m].items()]).toEqual([...own[m].items()]);
      expect(shared[m].size).toBe(own[m].size);
      expect(evictedShared[m]).toEqual(evictedOwn[m]);
    }
    const union = new Set(own.flatMap((map) => [...map.items()].map(([key]) => key)));
    expect(table.size).toBe(union.size);
  });
});
