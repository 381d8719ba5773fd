import { existsSync, promises as fs, readdirSync } from 'fs';
import * as path from 'path';
import type { TopicSpec } from '@vigil/contracts';
import { BusBackpressureError, type BusBatch, type ConsumedRecord } from '../bus';
import { collector, makeTempDir, memoryLog, removeDir, sleep, waitUntil } from './fixtures/test-helpers';
import { LocalBus, type LocalBusOptions } from './local-bus';
import { murmur2Partition } from './murmur2';

const EVENTS: TopicSpec = { name: 'tlm.events.v1', partitions: 4, cleanup: 'delete', retentionHours: 72 };
const CONTROL: TopicSpec = { name: 'ctl.api-keys.v1', partitions: 1, cleanup: 'compact' };

describe('LocalBus', () => {
  let dir: string;
  const open: LocalBus[] = [];

  async function openBus(extra: Partial<LocalBusOptions> = {}): Promise<LocalBus> {
    const bus = await LocalBus.open({ dir, topics: [EVENTS, CONTROL], log: memoryLog().log, ...extra });
    open.push(bus);
    return bus;
  }

  function record(key: string, n: number, headers?: Record<string, string>) {
    return { key, value: Buffer.from(`${key}#${n}`), headers };
  }

  beforeEach(() => {
    dir = makeTempDir('core');
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
    removeDir(dir);
  });

  it('delivers each key in publish order, on the murmur2 partition, with contiguous offsets', async () => {
    const bus = await openBus();
    const keys = ['ws1|10.0.0.1', 'ws1|10.0.0.2', 'ws2|10.0.0.1', 'ws2|', 'ws3|172.16.0.9', 'ws4|::1'];
    const published: { key: string; n: number }[] = [];
    const requests: Promise<void>[] = [];
    for (let n = 0; n < 60; n += 1) {
      const batch = keys.map((key) => record(key, n, { n: String(n) }));
      published.push(...keys.map((key) => ({ key, n })));
      requests.push(bus.publish(EVENTS.name, batch));
    }
    await Promise.all(requests);
    const seen = collector();
    const subscription = await bus.subscribe({ topic: EVENTS.name, group: 'scoring' }, seen.handler);
    await subscription.caughtUp;
    expect(seen.records).toHaveLength(published.length);
    for (const key of keys) {
      const mine = seen.records.filter((r) => r.key === key);
      expect(mine.map((r) => r.value.toString())).toEqual(Array.from({ length: 60 }, (_, n) => `${key}#${n}`));
      expect(mine.map((r) => r.headers)).toEqual(Array.from({ length: 60 }, (_, n) => ({ n: String(n) })));
      expect(new Set(mine.map((r) => r.partition))).toEqual(new Set([murmur2Partition(key, EVENTS.partitions)]));
    }
    for (const batch of seen.batches) {
      expect(batch.topic).toBe(EVENTS.name);
      expect(batch.records.every((r) => r.partition === batch.partition)).toBe(true);
    }
    for (let partition = 0; partition < EVENTS.partitions; partition += 1) {
      const offsets = seen.records.filter((r) => r.partition === partition).map((r) => Number(r.offset));
      expect(offsets).toEqual(offsets.map((_, i) => i));
    }
    const now = Date.now();
    expect(seen.records.every((r) => r.timestamp <= now && r.timestamp > now - 60_000)).toBe(true);
  });

  it('rejects an unknown topic by name, bad records clearly, and accepts an empty batch', async () => {
    const bus = await openBus();
    await expect(bus.publish('tlm.nope.v1', [record('k', 1)])).rejects.toThrow(/unknown topic "tlm.nope.v1"/);
    await expect(bus.subscribe({ topic: 'tlm.nope.v1', group: 'g' }, async () => undefined)).rejects.toThrow(
      /unknown topic "tlm.nope.v1"/,
    );
    await expect(bus.publish(EVENTS.name, [])).resolves.toBeUndefined();
    await expect(bus.publish(EVENTS.name, [{ key: 'k', value: 'text' } as never])).rejects.toThrow(/must be a Buffer/);
    await expect(bus.publish(EVENTS.name, 'nope' as never)).rejects.toThrow(/must be an array/);
    await expect(bus.subscribe({ topic: EVENTS.name, group: '' }, async () => undefined)).rejects.toThrow(/non-empty/);
    await expect(bus.subscribe({ topic: EVENTS.name, group: 'g'.repeat(300) }, async () => undefined)).rejects.toThrow(
      /too long/,
    );
    await expect(bus.subscribe({ topic: EVENTS.name }, 'nope' as never)).rejects.toThrow(/handler must be a function/);
    // The rejected publishes wrote nothing.
    const seen = collector();
    await (await bus.subscribe({ topic: EVENTS.name }, seen.handler)).caughtUp;
    expect(seen.records).toHaveLength(0);
  });

  it('validates its options', () => {
    expect(() => new LocalBus({ dir: '', topics: [] })).toThrow(/dir/);
    expect(() => new LocalBus({ dir, topics: [{ ...EVENTS, partitions: 0 }] })).toThrow(/partition count/);
    expect(() => new LocalBus({ dir, topics: [{ ...EVENTS, name: '../x' }] })).toThrow(/invalid topic name/);
    expect(() => new LocalBus({ dir, topics: [EVENTS, EVENTS] })).toThrow(/listed twice/);
    expect(() => new LocalBus({ dir, topics: [EVENTS], segmentBytes: -1 })).toThrow(/segmentBytes/);
  });

  it('group-commits concurrent publishes into far fewer fsyncs than requests', async () => {
    const bus = await openBus();
    const handle = await fs.open(path.join(dir, 'probe'), 'w');
    const fileHandleProto = Object.getPrototypeOf(handle) as { datasync: () => Promise<void> };
    await handle.close();
    const datasync = jest.spyOn(fileHandleProto, 'datasync');
    try {
      const value = Buffer.alloc(50_000, 7);
      await Promise.all(Array.from({ length: 200 }, (_, i) => bus.publish(EVENTS.name, [{ key: 'one-host', value, headers: { i: String(i) } }])));
      expect(datasync.mock.calls.length).toBeGreaterThan(0);
      expect(datasync.mock.calls.length).toBeLessThan(100);
    } finally {
      datasync.mockRestore();
    }
    const seen = collector();
    await (await bus.subscribe({ topic: EVENTS.name }, seen.handler)).caughtUp;
    expect(seen.records.map((r) => r.headers?.i)).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
  });

  it('wakes a waiting consumer promptly when a record is published', async () => {
    const bus = await openBus();
    const arrivals: number[] = [];
    await bus.subscribe({ topic: EVENTS.name, group: 'hot' }, async (batch) => {
      for (let i = 0; i < batch.records.length; i += 1) arrivals.push(Date.now());
    });
    await sleep(50);
    const latencies: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const before = arrivals.length;
      await bus.publish(EVENTS.name, [record('k', i)]);
      const published = Date.now();
      await waitUntil(() => arrivals.length > before, 2000, 'delivery');
      latencies.push(arrivals[before] - published);
    }
    latencies.sort((a, b) => a - b);
    // Median well under a polling interval; generous bound for a loaded 2-core CI box.
    expect(latencies[5]).toBeLessThan(50);
  });

  it('retries a failing handler with the same batch and never skips it', async () => {
    const log = memoryLog();
    const bus = await openBus({ log: log.log, retryBackoffMs: { initial: 10, max: 40 } });
    await bus.publish(CONTROL.name, [record('a', 1), record('b', 2), record('c', 3)]);
    const attempts: string[][] = [];
    let failuresLeft = 3;
    const subscription = await bus.subscribe({ topic: CONTROL.name, group: 'fragile' }, async (batch) => {
      attempts.push(batch.records.map((r) => r.offset));
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('database is down');
      }
    });
    await subscription.caughtUp;
    expect(attempts).toEqual([
      ['0', '1', '2'],
      ['0', '1', '2'],
      ['0', '1', '2'],
      ['0', '1', '2'],
    ]);
    expect(log.lines.filter((l) => /handler failed .*database is down/.test(l))).toHaveLength(3);
    await bus.publish(CONTROL.name, [record('d', 4)]);
    await waitUntil(() => attempts.length === 5, 2000, 'the next batch');
    expect(attempts[4]).toEqual(['3']);
  });

  it('gives a broadcast reader the whole topic from offset 0, and caughtUp waits for it', async () => {
    const bus = await openBus({ maxBatchRecords: 7 });
    for (let i = 0; i < 40; i += 1) await bus.publish(EVENTS.name, [record(`host${i % 9}`, i)]);
    // A group has already consumed everything: broadcast readers ignore group offsets.
    const group = collector();
    await (await bus.subscribe({ topic: EVENTS.name, group: 'g' }, group.handler)).caughtUp;
    const slowSeen: ConsumedRecord[] = [];
    const reader = await bus.subscribe({ topic: EVENTS.name }, async (batch) => {
      await sleep(2);
      slowSeen.push(...batch.records);
    });
    await reader.caughtUp;
    expect(slowSeen).toHaveLength(40);
    expect(new Set(slowSeen.map((r) => r.value.toString())).size).toBe(40);
    // A second broadcast reader (e.g. another service's cache) gets the same records.
    const other = collector();
    await (await bus.subscribe({ topic: EVENTS.name }, other.handler)).caughtUp;
    expect(other.records.map((r) => `${r.partition}/${r.offset}`).sort()).toEqual(
      slowSeen.map((r) => `${r.partition}/${r.offset}`).sort(),
    );
    // Later records keep coming.
    await bus.publish(EVENTS.name, [record('late', 1)]);
    await waitUntil(() => other.records.length === 41, 2000, 'the late record');
  });

  it('resolves caughtUp at once on an empty topic and starts a fromBeginning:false group at the end', async () => {
    const bus = await openBus();
    const empty = await bus.subscribe({ topic: CONTROL.name }, async () => undefined);
    await expect(empty.caughtUp).resolves.toBeUndefined();
    await bus.publish(CONTROL.name, [record('old', 1)]);
    const seen = collector();
    const latest = await bus.subscribe({ topic: CONTROL.name, group: 'tail', fromBeginning: false }, seen.handler);
    await latest.caughtUp;
    await bus.publish(CONTROL.name, [record('new', 2)]);
    await waitUntil(() => seen.records.length === 1, 2000, 'the new record');
    expect(seen.records[0].key).toBe('new');
  });

  it('splits partitions between members of a group and reassigns them when one leaves', async () => {
    const bus = await openBus();
    const first = collector();
    const second = collector();
    const a = await bus.subscribe({ topic: EVENTS.name, group: 'scoring' }, first.handler);
    const b = await bus.subscribe({ topic: EVENTS.name, group: 'scoring' }, second.handler);
    const keys = Array.from({ length: 40 }, (_, i) => `ws|10.0.0.${i}`);
    await bus.publish(EVENTS.name, keys.map((key, i) => record(key, i)));
    await waitUntil(() => first.records.length + second.records.length === keys.length, 3000, 'all records');
    const partitionsOf = (records: ConsumedRecord[]) => new Set(records.map((r) => r.partition));
    const ofFirst = partitionsOf(first.records);
    const ofSecond = partitionsOf(second.records);
    expect(ofFirst.size).toBeGreaterThan(0);
    expect(ofSecond.size).toBeGreaterThan(0);
    expect([...ofFirst].filter((p) => ofSecond.has(p))).toEqual([]);
    expect(new Set([...ofFirst, ...ofSecond])).toEqual(new Set(keys.map((k) => murmur2Partition(k, EVENTS.partitions))));
    await a.close();
    const before = second.records.length;
    await bus.publish(EVENTS.name, keys.map((key, i) => record(key, 100 + i)));
    await waitUntil(() => second.records.length === before + keys.length, 3000, 'the remaining member to get everything');
    expect(first.records).toHaveLength(keys.length - second.records.length + keys.length);
    await b.close();
  });

  it('close() waits for the in-flight handler, then nothing more is delivered and publish rejects', async () => {
    const bus = await openBus();
    await bus.publish(CONTROL.name, [record('a', 1)]);
    let finished = false;
    let calls = 0;
    const started = new Promise<void>((resolve) => {
      void bus.subscribe({ topic: CONTROL.name, group: 'slow' }, async () => {
        calls += 1;
        resolve();
        await sleep(150);
        finished = true;
      });
    });
    await started;
    await bus.close();
    expect(finished).toBe(true);
    expect(existsSync(path.join(dir, 'LOCK'))).toBe(false);
    await expect(bus.publish(CONTROL.name, [record('b', 2)])).rejects.toThrow(/closed/);
    await expect(bus.subscribe({ topic: CONTROL.name }, async () => undefined)).rejects.toThrow(/closed/);
    await sleep(50);
    expect(calls).toBe(1);
    await expect(bus.close()).resolves.toBeUndefined();
  });

  it('refuses a second bus on the same directory while the first is open', async () => {
    await openBus();
    await expect(LocalBus.open({ dir, topics: [EVENTS] })).rejects.toThrow(/already open in this process/);
  });

  it('refuses to drop partitions that exist on disk', async () => {
    const bus = await openBus();
    await bus.close();
    await expect(LocalBus.open({ dir, topics: [{ ...EVENTS, partitions: 2 }] })).rejects.toThrow(
      /configured with 2 partition\(s\) but .* holds partition\(s\) 2, 3/,
    );
    // The failed open released the directory.
    const grown = await openBus({ topics: [{ ...EVENTS, partitions: 6 }] });
    await grown.publish(EVENTS.name, [record('k', 1)]);
  });

  it('rolls segments and serves a lagging consumer from the files, in order', async () => {
    const bus = await openBus({ segmentBytes: 64 * 1024, tailBytesPerTopic: 1, maxBatchBytes: 100_000 });
    const value = Buffer.alloc(9_000, 3);
    for (let i = 0; i < 60; i += 1) {
      await bus.publish(CONTROL.name, [{ key: `k${i}`, value: Buffer.concat([Buffer.from(`${i};`), value]) }]);
    }
    const segments = readdirSync(path.join(dir, CONTROL.name, '0')).filter((n) => n.endsWith('.log'));
    expect(segments.length).toBeGreaterThanOrEqual(8);
    const seen = collector();
    await (await bus.subscribe({ topic: CONTROL.name, group: 'late' }, seen.handler)).caughtUp;
    expect(seen.records.map((r) => r.key)).toEqual(Array.from({ length: 60 }, (_, i) => `k${i}`));
    expect(seen.records.every((r, i) => r.value.subarray(0, 3).toString().startsWith(`${i};`))).toBe(true);
    expect(Math.max(...seen.batches.map((b: BusBatch) => b.records.length))).toBeLessThanOrEqual(11);
  });

  it('answers BusBackpressureError when too much is waiting to be written', async () => {
    const bus = await openBus({ maxBufferedPublishBytes: 1024 * 1024 });
    const value = Buffer.alloc(300_000, 1);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => bus.publish(EVENTS.name, [{ key: `k${i}`, value }])),
    );
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected.length).toBeGreaterThan(0);
    expect(rejected.every((r) => r.reason instanceof BusBackpressureError && r.reason.retryAfterSeconds > 0)).toBe(true);
    const accepted = results.length - rejected.length;
    expect(accepted).toBeGreaterThan(0);
    const seen = collector();
    await (await bus.subscribe({ topic: EVENTS.name }, seen.handler)).caughtUp;
    expect(seen.records).toHaveLength(accepted);
    await expect(bus.publish(EVENTS.name, [{ key: 'after', value }])).resolves.toBeUndefined();
  });
});
