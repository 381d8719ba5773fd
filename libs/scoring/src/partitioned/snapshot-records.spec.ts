import type { BusRecord, ConsumedRecord } from '@vigil/bus';
import { SnapshotDirectory } from './snapshot-directory';
import { compressSnapshot, decompressSnapshot, SnapshotAssembler, SnapshotRecordError, snapshotRecords, type StoredSnapshot } from './snapshot-records';

let offset = 0;
const consumed = (record: BusRecord): ConsumedRecord => ({ ...record, partition: 0, offset: String(offset++), timestamp: 0 });

describe('state records', () => {
  it('round-trips a large snapshot through gzip and chunks', async () => {
    const engine = { v: 1, parts: { hosts: Array.from({ length: 20_000 }, (_, i) => [`10.0.${i >> 8}.${i & 255}`, i, Math.sin(i)]) } };
    const data = await compressSnapshot(engine);
    const stored: StoredSnapshot = { partition: 4, offset: 1234, slot: 1, id: 'abc', data };
    const records = snapshotRecords(stored, 16 * 1024);
    expect(records.length).toBe(Math.ceil(data.length / (16 * 1024)));
    expect(records.every((r) => r.value.length <= 16 * 1024)).toBe(true);
    expect(records.map((r) => r.key).slice(0, 2)).toEqual(['4/1/0', '4/1/1']);
    const assembler = new SnapshotAssembler();
    const results = records.map((r) => assembler.offer(consumed(r)));
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    const complete = results[results.length - 1] as StoredSnapshot;
    expect(complete).toMatchObject({ partition: 4, offset: 1234, slot: 1, id: 'abc' });
    expect(await decompressSnapshot(complete.data)).toEqual(engine);
  });

  it('ignores a leftover chunk of an older snapshot and an incomplete one', async () => {
    const older = snapshotRecords({ partition: 0, offset: 10, slot: 0, id: 'old', data: Buffer.alloc(30, 1) }, 10);
    const newer = snapshotRecords({ partition: 0, offset: 20, slot: 0, id: 'new', data: Buffer.alloc(20, 2) }, 10);
    const torn = snapshotRecords({ partition: 0, offset: 30, slot: 1, id: 'torn', data: Buffer.alloc(20, 3) }, 10).slice(0, 1);
    const directory = new SnapshotDirectory();
    // What compaction leaves: the old snapshot's third chunk, then the newer two-chunk one, then a torn write.
    directory.apply({ topic: 's', partition: 0, records: [older[2], ...newer, ...torn].map(consumed) });
    expect(directory.latestOf(0)).toMatchObject({ offset: 20, id: 'new' });
    expect(directory.latestOf(0)?.data).toEqual(Buffer.alloc(20, 2));
  });

  it('keeps the snapshot with the highest offset, whatever order they arrive in', () => {
    const directory = new SnapshotDirectory();
    directory.offer({ partition: 2, offset: 50, slot: 0, id: 'a', data: Buffer.from('a') });
    directory.offer({ partition: 2, offset: 40, slot: 1, id: 'b', data: Buffer.from('b') });
    expect(directory.latestOf(2)?.id).toBe('a');
    expect(directory.heldBytes).toBe(1);
  });

  it('reports malformed state records and carries on', () => {
    const warnings: string[] = [];
    const directory = new SnapshotDirectory((m) => warnings.push(m));
    const good = snapshotRecords({ partition: 1, offset: 5, slot: 0, id: 'g', data: Buffer.from('x') }, 10)[0];
    directory.apply({
      topic: 's',
      partition: 0,
      records: [consumed({ key: '1/0/0', value: Buffer.from('x'), headers: { v: '9' } }), consumed({ key: '1/0/0', value: Buffer.from('x'), headers: { ...good.headers, chunk: '-1' } }), consumed(good)],
    });
    expect(warnings).toHaveLength(2);
    expect(directory.latestOf(1)?.offset).toBe(5);
    expect(() => new SnapshotAssembler().offer(consumed({ key: 'x', value: Buffer.alloc(0) }))).toThrow(SnapshotRecordError);
  });
});
