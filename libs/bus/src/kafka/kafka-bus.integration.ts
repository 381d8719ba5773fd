import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { TopicSpec } from '@vigil/contracts';
import { kafkaBrokers } from '../../../../tools/integration/servers';
import { BusBackpressureError, type BusBatch, type ConsumedRecord } from '../bus';
import { murmur2Partition } from '../local/murmur2';
import { KafkaBus, type KafkaBusOptions } from './kafka-bus';
import { waitUntil } from '@vigil/testing';

/** Fresh topic names per test, so tests never see each other's records. */
function topic(partitions: number, cleanup: TopicSpec['cleanup'] = 'delete'): TopicSpec {
  return { name: `it.${randomUUID().slice(0, 8)}`, partitions, cleanup, ...(cleanup === 'delete' ? { retentionHours: 1 } : {}) };
}

const open: KafkaBus[] = [];
async function openBus(topics: TopicSpec[], extra: Partial<KafkaBusOptions> = {}): Promise<KafkaBus> {
  const bus = await KafkaBus.open({
    brokers: kafkaBrokers(),
    topics,
    heartbeatIntervalMs: 500,
    sessionTimeoutMs: 10_000,
    retryBackoffMs: { initial: 50, max: 200 },
    log: () => undefined,
    ...extra,
  });
  open.push(bus);
  return bus;
}

afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((bus) => bus.close()));
});


const record = (key: string, value: string, headers?: Record<string, string>) => ({ key, value: Buffer.from(value), headers });

describe('KafkaBus against a real broker', () => {
  it('keeps each key in order, on the partition murmur2Partition names, with its headers', async () => {
    const spec = topic(6);
    const bus = await openBus([spec]);
    const received: ConsumedRecord[] = [];
    await bus.subscribe({ topic: spec.name, group: 'order' }, async (batch) => {
      received.push(...batch.records);
    });
    const keys = Array.from({ length: 24 }, (_, i) => `ws-${i % 3}|10.0.${i}.7`);
    for (let round = 0; round < 5; round += 1) {
      await bus.publish(spec.name, keys.map((key) => record(key, String(round), { round: String(round), type: 'dns' })));
    }
    await waitUntil(() => received.length >= keys.length * 5, 'all records');
    expect(received).toHaveLength(keys.length * 5);
    for (const key of keys) {
      const ofKey = received.filter((r) => r.key === key);
      expect(ofKey.map((r) => r.value.toString())).toEqual(['0', '1', '2', '3', '4']);
      expect(new Set(ofKey.map((r) => r.partition))).toEqual(new Set([murmur2Partition(key, 6)]));
      expect(ofKey.map((r) => r.headers)).toEqual(['0', '1', '2', '3', '4'].map((round) => ({ round, type: 'dns' })));
    }
    expect(received.every((r) => /^\d+$/.test(r.offset) && r.timestamp > Date.now() - 60_000)).toBe(true);
  });

  it('resumes a group after reconnecting: handled records are not redelivered, unhandled ones are', async () => {
    const spec = topic(1);
    const first = await openBus([spec]);
    const seenFirst: string[] = [];
    await first.subscribe({ topic: spec.name, group: 'resume' }, async (batch) => {
      seenFirst.push(...batch.records.map((r) => r.value.toString()));
    });
    await first.publish(spec.name, ['a1', 'a2', 'a3'].map((v) => record('k', v)));
    await waitUntil(() => seenFirst.length === 3, 'first three records');
    await first.close();

    const second = await openBus([spec]);
    await second.publish(spec.name, ['b1', 'b2'].map((v) => record('k', v)));
    const seenSecond: string[] = [];
    const attempts: string[] = [];
    await second.subscribe({ topic: spec.name, group: 'resume' }, async (batch) => {
      const values = batch.records.map((r) => r.value.toString());
      if (values.some((v) => v.startsWith('poison'))) {
        attempts.push(batch.records[0].offset);
        throw new Error('cannot handle this yet');
      }
      seenSecond.push(...values);
    });
    await waitUntil(() => seenSecond.length === 2, 'the two new records');
    expect(seenSecond).toEqual(['b1', 'b2']);
    await second.publish(spec.name, ['poison1', 'poison2'].map((v) => record('k', v)));
    await waitUntil(() => attempts.length >= 3, 'retries of the failing batch');
    // Retried from the same offset every time: nothing skipped.
    expect(new Set(attempts)).toEqual(new Set(['5']));
    await second.close();

    const third = await openBus([spec]);
    const seenThird: string[] = [];
    const subscription = await third.subscribe({ topic: spec.name, group: 'resume' }, async (batch) => {
      seenThird.push(...batch.records.map((r) => r.value.toString()));
    });
    await subscription.caughtUp;
    expect(seenThird).toEqual(['poison1', 'poison2']);
  });

  it('broadcast readers each read a compacted topic from the start, commit nothing, and report caughtUp', async () => {
    const spec = topic(1, 'compact');
    const bus = await openBus([spec]);
    await bus.publish(spec.name, Array.from({ length: 40 }, (_, i) => record(`key-${i % 8}`, `v${i}`)));
    const readers = [[], []] as ConsumedRecord[][];
    const subscriptions = await Promise.all(
      readers.map((into) => bus.subscribe({ topic: spec.name }, async (batch: BusBatch) => void into.push(...batch.records))),
    );
    await Promise.all(subscriptions.map((s) => s.caughtUp));
    for (const into of readers) {
      // Caught up means every record published before subscribe() has been handled (compaction may drop older values).
      expect(into.at(-1)?.offset).toBe('39');
      expect(new Map(into.map((r) => [r.key, r.value.toString()])).get('key-7')).toBe('v39');
    }
    const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const groups = (await admin.listGroups()).groups.map((g) => g.groupId).filter((id) => id.startsWith('vigil.broadcast.'));
      const committed = await Promise.all(groups.map((groupId) => admin.fetchOffsets({ groupId, topics: [spec.name] })));
      expect(committed.flatMap((c) => c.flatMap((t) => t.partitions)).filter((p) => p.offset !== '-1')).toEqual([]);
    } finally {
      await admin.disconnect();
    }
    const empty = topic(1, 'compact');
    const emptyBus = await openBus([empty]);
    await expect((await emptyBus.subscribe({ topic: empty.name }, async () => undefined)).caughtUp).resolves.toBeUndefined();
  });

  it('splits partitions between two members of a group (two replicas)', async () => {
    const spec = topic(4);
    const [busA, busB] = [await openBus([spec]), await openBus([spec])];
    const byMember = new Map<string, ConsumedRecord[]>([['a', []], ['b', []]]);
    await busA.subscribe({ topic: spec.name, group: 'split' }, async (batch) => void byMember.get('a')?.push(...batch.records));
    await busB.subscribe({ topic: spec.name, group: 'split' }, async (batch) => void byMember.get('b')?.push(...batch.records));
    const keys = Array.from({ length: 40 }, (_, i) => `host-${i}`);
    await busA.publish(spec.name, keys.map((key) => record(key, key)));
    await waitUntil(() => byMember.get('a')!.length + byMember.get('b')!.length >= keys.length, 'all records across members');
    const a = byMember.get('a')!;
    const b = byMember.get('b')!;
    expect([...a, ...b].map((r) => r.key).sort()).toEqual([...keys].sort());
    const partitionsA = new Set(a.map((r) => r.partition));
    const partitionsB = new Set(b.map((r) => r.partition));
    expect(partitionsA.size).toBeGreaterThan(0);
    expect(partitionsB.size).toBeGreaterThan(0);
    expect([...partitionsA].filter((p) => partitionsB.has(p))).toEqual([]);
  });

  it('answers publish with BusBackpressureError on a retriable broker error and beyond the in-flight bound', async () => {
    const spec = topic(1);
    const bus = await openBus([spec], { publishRetries: 1, retryAfterSeconds: 7 });
    await bus.publish(spec.name, [record('k', 'before')]);
    // The topic disappears under the producer: the broker answers UNKNOWN_TOPIC_OR_PARTITION, a retriable error.
    const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [spec.name] });
    await admin.disconnect();
    const refused = await bus.publish(spec.name, [record('k', 'after')]).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BusBackpressureError);
    expect((refused as BusBackpressureError).retryAfterSeconds).toBe(7);

    const healthy = topic(1);
    const bounded = await openBus([healthy], { maxInFlightPublishBytes: 1000 });
    const big = () => [record('k', 'x'.repeat(800))];
    const results = await Promise.allSettled([bounded.publish(healthy.name, big()), bounded.publish(healthy.name, big())]);
    expect(results[0].status).toBe('fulfilled');
    expect(results[1].status === 'rejected' && results[1].reason).toBeInstanceOf(BusBackpressureError);
    await expect(bounded.publish(healthy.name, big())).resolves.toBeUndefined();
  });

  it('creates topics with the specified partitions and cleanup policy', async () => {
    const compacted = topic(3, 'compact');
    const deleted = topic(2, 'delete');
    await openBus([compacted, deleted]);
    const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const metadata = await admin.fetchTopicMetadata({ topics: [compacted.name, deleted.name] });
      const partitions = new Map(metadata.topics.map((t) => [t.name, t.partitions.length]));
      expect(partitions).toEqual(new Map([[compacted.name, 3], [deleted.name, 2]]));
      const configs = await admin.describeConfigs({
        includeSynonyms: false,
        resources: [compacted.name, deleted.name].map((name) => ({ type: 2, name, configNames: ['cleanup.policy', 'retention.ms'] })),
      });
      const byTopic = new Map(configs.resources.map((r) => [r.resourceName, Object.fromEntries(r.configEntries.map((e) => [e.configName, e.configValue]))]));
      expect(byTopic.get(compacted.name)?.['cleanup.policy']).toBe('compact');
      expect(byTopic.get(deleted.name)).toEqual({ 'cleanup.policy': 'delete', 'retention.ms': String(3600_000) });
    } finally {
      await admin.disconnect();
    }
    // A second bus (another replica starting) finds the topics and leaves them alone.
    await expect(openBus([compacted, deleted])).resolves.toBeInstanceOf(KafkaBus);
  });
});
