import { BoundedMemo } from './bounded-memo';
import { perEvent } from './observed-event';
import type { ObservedEvent } from './detections/detection';

describe('BoundedMemo', () => {
  it('computes a key once while it is held, undefined results included', () => {
    const calls: string[] = [];
    const memo = new BoundedMemo<number | undefined>(8, (key) => {
      calls.push(key);
      return key === 'none' ? undefined : key.length;
    });
    expect(memo.get('abc')).toBe(3);
    expect(memo.get('abc')).toBe(3);
    expect(memo.get('none')).toBeUndefined();
    expect(memo.get('none')).toBeUndefined();
    expect(calls).toEqual(['abc', 'none']);
  });

  it('holds at most maxSize entries and keeps recently used ones', () => {
    const calls: string[] = [];
    const memo = new BoundedMemo<string>(4, (key) => {
      calls.push(key);
      return key.toUpperCase();
    });
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
      memo.get(key);
      memo.get('a'); // kept in use
      expect(memo.size).toBeLessThanOrEqual(4);
    }
    expect(calls.filter((k) => k === 'a')).toHaveLength(1);
    memo.get('b'); // long retired
    expect(calls.filter((k) => k === 'b')).toHaveLength(2);
  });

  it('does not hold keys longer than maxKeyLength', () => {
    let calls = 0;
    const memo = new BoundedMemo<number>(8, (key) => ++calls + key.length, 4);
    memo.get('12345');
    memo.get('12345');
    expect(calls).toBe(2);
    expect(memo.size).toBe(0);
  });

  it('with admitOnRepeat, holds a key only from its second request on', () => {
    const calls: string[] = [];
    const memo = new BoundedMemo<number>(8, (key) => (calls.push(key), key.length), 1024, true);
    expect(memo.get('once')).toBe(4);
    expect(memo.size).toBe(0);
    expect(memo.get('twice')).toBe(5);
    expect(memo.get('twice')).toBe(5);
    expect(memo.size).toBe(1);
    expect(memo.get('twice')).toBe(5);
    expect(calls).toEqual(['once', 'twice', 'twice']);
  });

  it('with admitOnRepeat, forgets one-off keys after about maxSize of them, and stays bounded', () => {
    let computed = 0;
    const memo = new BoundedMemo<string>(16, (key) => (computed++, key.toUpperCase()), 1024, true);
    memo.get('early');
    for (let i = 0; i < 100; i++) expect(memo.get(`one-off-${i}`)).toBe(`ONE-OFF-${i}`);
    expect(memo.size).toBeLessThan(16);
    // The first request of 'early' has been forgotten: its second is again a first.
    computed = 0;
    memo.get('early');
    memo.get('early');
    memo.get('early');
    expect(computed).toBe(2);
    for (let i = 0; i < 1000; i++) {
      memo.get(`k${i}`);
      memo.get(`k${i}`);
    }
    expect(memo.size).toBeLessThanOrEqual(16);
  });

  it('rejects a size below 2', () => {
    expect(() => new BoundedMemo(1, (k) => k)).toThrow(RangeError);
  });
});

describe('perEvent', () => {
  it('computes once per event object', () => {
    let calls = 0;
    const read = perEvent((observed) => {
      calls++;
      return observed.index === 0 ? undefined : observed.index * 2;
    });
    const a = { index: 0 } as ObservedEvent;
    const b = { index: 3 } as ObservedEvent;
    expect(read(a)).toBeUndefined();
    expect(read(a)).toBeUndefined();
    expect(read(b)).toBe(6);
    expect(read(b)).toBe(6);
    expect(calls).toBe(2);
  });
});
