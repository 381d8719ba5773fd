import { RecentRecords } from './recent-records';
import type { StoredRecord } from './record-frame';

function stored(offset: number, frameBytes = 1000): StoredRecord {
  return { offset, timestamp: 1, key: `k${offset}`, value: Buffer.alloc(10), frameBytes };
}

describe('RecentRecords (in-memory tail)', () => {
  it('keeps only the newest records within its byte budget', () => {
    const tail = new RecentRecords(10_000);
    for (let offset = 0; offset < 5000; offset += 1) tail.append(stored(offset));
    expect(tail.heldBytes).toBeLessThanOrEqual(10_000);
    expect(tail.firstOffset).toBe(4990);
    expect(tail.read(4989, { maxRecords: 100, maxBytes: 1e9 })).toBeUndefined();
    expect(tail.read(4995, { maxRecords: 100, maxBytes: 1e9 })?.map((r) => r.offset)).toEqual([4995, 4996, 4997, 4998, 4999]);
    expect(tail.read(5000, { maxRecords: 100, maxBytes: 1e9 })).toBeUndefined();
  });

  it('always keeps the latest record even when it alone exceeds the budget', () => {
    const tail = new RecentRecords(500);
    tail.append(stored(0));
    tail.append(stored(1));
    expect(tail.firstOffset).toBe(1);
    expect(tail.read(1, { maxRecords: 10, maxBytes: 10 })?.map((r) => r.offset)).toEqual([1]);
  });

  it('honours batch limits, returning at least one record', () => {
    const tail = new RecentRecords(1e9);
    for (let offset = 0; offset < 20; offset += 1) tail.append(stored(offset));
    expect(tail.read(0, { maxRecords: 3, maxBytes: 1e9 })).toHaveLength(3);
    expect(tail.read(0, { maxRecords: 100, maxBytes: 2500 })).toHaveLength(2);
    expect(tail.read(0, { maxRecords: 100, maxBytes: 1 })).toHaveLength(1);
  });

  it('starts over when offsets stop being contiguous', () => {
    const tail = new RecentRecords(1e9);
    tail.append(stored(0));
    tail.append(stored(1));
    tail.append(stored(7));
    expect(tail.firstOffset).toBe(7);
    expect(tail.read(1, { maxRecords: 10, maxBytes: 1e9 })).toBeUndefined();
  });
});
