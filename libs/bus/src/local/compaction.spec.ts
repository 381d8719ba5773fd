import { readdirSync, statSync } from 'fs';
import * as path from 'path';
import type { TopicSpec } from '@vigil/contracts';
import { collector, makeTempDir, memoryLog, removeDir } from './fixtures/test-helpers';
import { LocalBus } from './local-bus';

const STATE: TopicSpec = { name: 'scoring.state.v1', partitions: 1, cleanup: 'compact' };

describe('LocalBus compaction of compact topics', () => {
  let dir: string;
  const log = memoryLog();
  const open = (extra: Partial<Parameters<typeof LocalBus.open>[0]> = {}) =>
    LocalBus.open({ dir, topics: [STATE], segmentBytes: 8192, log: log.log, retentionCheckIntervalMs: 3_600_000, ...extra });
  const topicBytes = () =>
    readdirSync(path.join(dir, STATE.name, '0'))
      .filter((name) => name.endsWith('.log'))
      .reduce((sum, name) => sum + statSync(path.join(dir, STATE.name, '0', name)).size, 0);

  beforeEach(() => {
    dir = makeTempDir('compaction');
    log.lines.length = 0;
  });
  afterEach(() => removeDir(dir));

  it('keeps the latest record of every key with its offset, and stays bounded however often keys are rewritten', async () => {
    let bus = await open();
    const written: { key: string; n: number }[] = [];
    for (let n = 0; n < 300; n += 1) {
      const key = n === 5 ? 'once' : `p${n % 4}`;
      written.push({ key, n });
      await bus.publish(STATE.name, [{ key, value: Buffer.alloc(1000, n % 256), headers: { n: String(n) } }]);
    }
    const before = topicBytes();
    await bus.runRetention();
    const after = topicBytes();
    expect(after).toBeLessThan(before / 4);
    expect(log.lines.some((l) => l.includes('compaction freed'))).toBe(true);

    const expected = new Map<string, number>();
    for (const { key, n } of written) expected.set(key, n);
    const check = async (b: LocalBus) => {
      const reader = collector();
      await (await b.subscribe({ topic: STATE.name }, reader.handler)).caughtUp;
      const offsets = reader.records.map((r) => Number(r.offset));
      expect(offsets).toEqual([...offsets].sort((a, c) => a - c));
      const latest = new Map<string, number>();
      for (const r of reader.records) latest.set(r.key, Number(r.headers?.n));
      expect(latest).toEqual(expected);
      // Every survivor sits at the offset it was written at.
      for (const r of reader.records) expect(Number(r.offset)).toBe(Number(r.headers?.n));
    };
    await check(bus);

    // A restart reads the compacted files; appends continue after the old end.
    await bus.close();
    bus = await open();
    await check(bus);
    await bus.publish(STATE.name, [{ key: 'p0', value: Buffer.from('new'), headers: { n: '300' } }]);
    expected.set('p0', 300);
    await check(bus);
    await bus.close();
  });

  it('lets a reader that is positioned in a segment being compacted carry on without losing survivors', async () => {
    const bus = await open({ maxBatchRecords: 1 });
    for (let n = 0; n < 60; n += 1) await bus.publish(STATE.name, [{ key: `k${n % 3}`, value: Buffer.alloc(1000, n), headers: { n: String(n) } }]);
    const seen: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const sub = await bus.subscribe({ topic: STATE.name }, async (batch) => {
      if (seen.length === 2) await gate;
      seen.push(...batch.records.map((r) => Number(r.offset)));
    });
    while (seen.length < 2) await new Promise((r) => setTimeout(r, 5));
    await bus.runRetention();
    release();
    await sub.caughtUp;
    expect(seen.slice(-3)).toEqual([57, 58, 59]);
    expect(seen).toEqual([...new Set(seen)].sort((a, b) => a - b));
    await bus.close();
  });
});
