import { readdirSync } from 'fs';
import * as path from 'path';
import type { TopicSpec } from '@vigil/contracts';
import { collector, makeTempDir, memoryLog, removeDir, waitUntil } from './fixtures/test-helpers';
import { LocalBus } from './local-bus';

const ALERTS: TopicSpec = { name: 'tlm.alerts.v1', partitions: 1, cleanup: 'delete', retentionHours: 1 };
const RULES: TopicSpec = { name: 'ctl.rules.v1', partitions: 1, cleanup: 'compact' };
const HOUR = 3600 * 1000;

describe('LocalBus retention', () => {
  let dir: string;
  let bus: LocalBus;
  const log = memoryLog();

  const segmentBases = (topic: string) =>
    readdirSync(path.join(dir, topic, '0'))
      .filter((name) => name.endsWith('.log'))
      .map((name) => Number(name.slice(0, -4)))
      .sort((a, b) => a - b);

  beforeEach(async () => {
    dir = makeTempDir('retention');
    log.lines.length = 0;
    bus = await LocalBus.open({
      dir,
      topics: [ALERTS, RULES],
      segmentBytes: 4096,
      maxBatchRecords: 5,
      retryBackoffMs: { initial: 5, max: 10 },
      log: log.log,
    });
    for (let n = 0; n < 30; n += 1) {
      await bus.publish(ALERTS.name, [{ key: 'ws1', value: Buffer.alloc(900, n) }]);
      await bus.publish(RULES.name, [{ key: `rule${n % 3}`, value: Buffer.alloc(900, n) }]);
    }
  });

  afterEach(async () => {
    await bus.close();
    removeDir(dir);
  });

  it('drops only expired segments that every committed group has consumed, never the active one', async () => {
    const all = segmentBases(ALERTS.name);
    expect(all.length).toBeGreaterThan(4);
    const fast = collector();
    await (await bus.subscribe({ topic: ALERTS.name, group: 'fast' }, fast.handler)).caughtUp;
    let slowStuck = true;
    const slowSeen: number[] = [];
    const slow = await bus.subscribe({ topic: ALERTS.name, group: 'slow' }, async (batch) => {
      if (slowStuck && Number(batch.records[0].offset) >= 10) throw new Error('stuck');
      slowSeen.push(...batch.records.map((r) => Number(r.offset)));
    });
    await waitUntil(() => slowSeen.length === 10, 2000, 'the slow group to handle two batches');
    await waitUntil(() => log.lines.some((l) => l.includes('stuck')), 2000, 'the slow group to get stuck');

    // Not expired yet: nothing goes, although "fast" has consumed everything.
    await bus.runRetention(Date.now());
    expect(segmentBases(ALERTS.name)).toEqual(all);

    // Expired: segments wholly below the slow group's committed offset (10) go; the rest stay.
    await bus.runRetention(Date.now() + 2 * HOUR);
    const kept = segmentBases(ALERTS.name);
    const expected = all.filter((base, i) => i === all.length - 1 || (all[i + 1] ?? Infinity) > 10);
    expect(kept).toEqual(expected);
    expect(kept[0]).toBeLessThanOrEqual(10);
    expect(kept.length).toBeLessThan(all.length);
    // Compacted topics are not expired: they only lose records superseded by a later one of the same key.
    const rules = collector();
    await (await bus.subscribe({ topic: RULES.name }, rules.handler)).caughtUp;
    const latest = new Map(rules.records.map((r) => [r.key, r.value[0]]));
    expect(latest).toEqual(new Map([['rule0', 27], ['rule1', 28], ['rule2', 29]]));

    // The slow group recovers and loses nothing it had not handled.
    slowStuck = false;
    await slow.caughtUp;
    expect(slowSeen).toEqual(Array.from({ length: 30 }, (_, i) => i));

    // Now every group is past all but the active segment.
    await bus.runRetention(Date.now() + 2 * HOUR);
    expect(segmentBases(ALERTS.name)).toEqual([all[all.length - 1]]);
    const reader = collector();
    await (await bus.subscribe({ topic: ALERTS.name }, reader.handler)).caughtUp;
    expect(reader.records[0].offset).toBe(String(all[all.length - 1]));
    expect(reader.records[reader.records.length - 1].offset).toBe('29');
  });

  it('stops honouring an abandoned group after the offsets retention, and resumes it at the log start', async () => {
    const all = segmentBases(ALERTS.name);
    const early = await bus.subscribe({ topic: ALERTS.name, group: 'abandoned' }, async (batch) => {
      if (Number(batch.records[0].offset) >= 5) throw new Error('gone');
    });
    await waitUntil(() => log.lines.some((l) => l.includes('gone')), 2000, 'the group to stall');
    await early.close();

    await bus.runRetention(Date.now() + 2 * HOUR);
    expect(segmentBases(ALERTS.name)[0]).toBeLessThanOrEqual(5);

    await bus.runRetention(Date.now() + 200 * HOUR);
    expect(segmentBases(ALERTS.name)).toEqual([all[all.length - 1]]);

    const resumed = collector();
    await (await bus.subscribe({ topic: ALERTS.name, group: 'abandoned' }, resumed.handler)).caughtUp;
    expect(resumed.records[0].offset).toBe(String(all[all.length - 1]));
    expect(log.lines.some((l) => /committed offset 5 was removed by retention/.test(l))).toBe(true);
  });
});
