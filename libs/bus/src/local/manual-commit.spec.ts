import type { TopicSpec } from '@vigil/contracts';
import type { BusBatch } from '../bus';
import { makeTempDir, memoryLog, removeDir, waitUntil } from './fixtures/test-helpers';
import { LocalBus } from './local-bus';

const EVENTS: TopicSpec = { name: 'tlm.events.v1', partitions: 2, cleanup: 'delete', retentionHours: 1 };
const record = (key: string, n: number) => ({ key, value: Buffer.from(String(n)) });

describe('LocalBus manual commits', () => {
  let dir: string;
  const log = memoryLog();
  const open = () => LocalBus.open({ dir, topics: [EVENTS], log: log.log, offsetFlushDelayMs: 5 });

  beforeEach(() => {
    dir = makeTempDir('manual');
  });
  afterEach(() => removeDir(dir));

  it('commits only what the subscriber commits: a restart resumes there, not after the last handled batch', async () => {
    let bus = await open();
    for (let n = 0; n < 10; n += 1) await bus.publish(EVENTS.name, [record('k', n)]);
    const seen: string[] = [];
    let partition = -1;
    const sub = await bus.subscribe({ topic: EVENTS.name, group: 'g', commit: 'manual' }, async (batch: BusBatch) => {
      partition = batch.partition;
      seen.push(...batch.records.map((r) => r.value.toString()));
    });
    await sub.caughtUp;
    expect(seen).toHaveLength(10);
    expect(await sub.commit(partition, '4')).toBe(true);
    await bus.close();

    bus = await open();
    const again: string[] = [];
    const second = await bus.subscribe({ topic: EVENTS.name, group: 'g', commit: 'manual' }, async (batch) => {
      again.push(...batch.records.map((r) => r.value.toString()));
    });
    await waitUntil(() => again.length === 6, 2000, 'redelivery from the committed offset');
    expect(again).toEqual(['4', '5', '6', '7', '8', '9']);
    await second.close();
    await bus.close();
  });

  it('refuses commits for partitions the member does not own, and hands them over at the committed offset', async () => {
    const bus = await open();
    const keys = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (let n = 0; n < 3; n += 1) await bus.publish(EVENTS.name, keys.map((k) => record(k, n)));
    const firstSeen = new Map<number, number>();
    const first = await bus.subscribe({ topic: EVENTS.name, group: 'h', commit: 'manual' }, async (batch) => {
      firstSeen.set(batch.partition, (firstSeen.get(batch.partition) ?? 0) + batch.records.length);
    });
    await first.caughtUp;
    expect(await first.commit(0, '2')).toBe(true);
    expect(await first.commit(1, '1')).toBe(true);
    const secondStarts = new Map<number, string>();
    const second = await bus.subscribe({ topic: EVENTS.name, group: 'h', commit: 'manual' }, async (batch) => {
      if (!secondStarts.has(batch.partition)) secondStarts.set(batch.partition, batch.records[0].offset);
    });
    // Round-robin by join order: partition 1 moves to the second member, and resumes at its committed offset.
    await waitUntil(() => secondStarts.size === 1, 2000, 'the hand-over');
    expect(secondStarts.get(1)).toBe('1');
    expect(await first.commit(1, '3')).toBe(false);
    expect(await second.commit(1, '3')).toBe(true);
    await expect(second.commit(1, 'x')).rejects.toThrow(/decimal/);
    await expect(second.commit(1, '9999')).rejects.toThrow(/cannot commit/);
    await second.close();
    await first.close();
    await bus.close();
  });

  it('rejects commit() on auto-commit and broadcast subscriptions, and manual mode without a group', async () => {
    const bus = await open();
    const auto = await bus.subscribe({ topic: EVENTS.name, group: 'auto' }, async () => undefined);
    await expect(auto.commit(0, '0')).rejects.toThrow(/manual/);
    const broadcast = await bus.subscribe({ topic: EVENTS.name }, async () => undefined);
    await expect(broadcast.commit(0, '0')).rejects.toThrow(/manual/);
    await expect(bus.subscribe({ topic: EVENTS.name, commit: 'manual' }, async () => undefined)).rejects.toThrow(/needs a group/);
    await bus.close();
  });
});
