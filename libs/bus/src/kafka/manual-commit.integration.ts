import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { TopicSpec } from '@vigil/contracts';
import { kafkaBrokers } from '../../../../tools/integration/servers';
import type { ConsumedRecord, Subscription } from '../bus';
import { KafkaBus } from './kafka-bus';
import { waitUntil } from '@vigil/testing';

const topic = (partitions: number, extra: Partial<TopicSpec> = {}): TopicSpec => ({
  name: `it.manual.${randomUUID().slice(0, 8)}`,
  partitions,
  cleanup: 'delete',
  retentionHours: 1,
  ...extra,
});
const record = (key: string, value: string) => ({ key, value: Buffer.from(value) });

const open: KafkaBus[] = [];
async function openBus(topics: TopicSpec[]): Promise<KafkaBus> {
  const bus = await KafkaBus.open({ brokers: kafkaBrokers(), topics, heartbeatIntervalMs: 300, sessionTimeoutMs: 6_000, maxWaitTimeMs: 200, log: () => undefined });
  open.push(bus);
  return bus;
}
afterEach(async () => {
  await Promise.allSettled(open.splice(0).map((bus) => bus.close()));
});


async function committed(group: string, name: string): Promise<Map<number, string>> {
  const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const [entry] = await admin.fetchOffsets({ groupId: group, topics: [name] });
    return new Map(entry.partitions.map((p) => [p.partition, p.offset]));
  } finally {
    await admin.disconnect();
  }
}

describe('KafkaBus manual commits against a real broker', () => {
  it('commits nothing by itself; commit() sets where the group resumes', async () => {
    const spec = topic(1);
    const bus = await openBus([spec]);
    await bus.publish(spec.name, Array.from({ length: 10 }, (_, i) => record('k', `v${i}`)));
    const seen: ConsumedRecord[] = [];
    const sub = await bus.subscribe({ topic: spec.name, group: 'm', commit: 'manual' }, async (batch) => void seen.push(...batch.records));
    await sub.caughtUp;
    expect(seen).toHaveLength(10);
    expect((await committed('m', spec.name)).get(0)).toBe('-1');
    expect(await sub.commit(0, '4')).toBe(true);
    expect((await committed('m', spec.name)).get(0)).toBe('4');
    await bus.close();

    const again = await openBus([spec]);
    const resumed: string[] = [];
    await again.subscribe({ topic: spec.name, group: 'm', commit: 'manual' }, async (batch) => void resumed.push(...batch.records.map((r) => r.value.toString())));
    await waitUntil(() => resumed.length >= 6, 'redelivery from offset 4');
    expect(resumed).toEqual(['v4', 'v5', 'v6', 'v7', 'v8', 'v9']);
  });

  it('accepts a commit only from the member that owns the partition', async () => {
    const spec = topic(2);
    const [busA, busB] = [await openBus([spec]), await openBus([spec])];
    const partitionsOf = new Map<Subscription, Set<number>>();
    const subscribe = async (bus: KafkaBus) => {
      const mine = new Set<number>();
      const sub = await bus.subscribe({ topic: spec.name, group: 'own', commit: 'manual' }, async (batch) => void mine.add(batch.partition));
      partitionsOf.set(sub, mine);
      return sub;
    };
    const a = await subscribe(busA);
    const b = await subscribe(busB);
    await busA.publish(spec.name, Array.from({ length: 20 }, (_, i) => record(`host-${i}`, 'x')));
    await waitUntil(() => partitionsOf.get(a)!.size + partitionsOf.get(b)!.size === 2 && partitionsOf.get(a)!.size === 1, 'one partition each');
    const [pa] = [...partitionsOf.get(a)!];
    const [pb] = [...partitionsOf.get(b)!];
    expect(pa).not.toBe(pb);
    expect(await a.commit(pb, '1')).toBe(false);
    expect(await a.commit(pa, '1')).toBe(true);
    expect(await b.commit(pb, '1')).toBe(true);
    await expect(a.commit(pa, 'one')).rejects.toThrow(/decimal/);
    const auto = await busA.subscribe({ topic: spec.name, group: 'auto' }, async () => undefined);
    await expect(auto.commit(0, '0')).rejects.toThrow(/manual/);
  });

  it('creates a topic with its own max.message.bytes when the spec sets one', async () => {
    const spec = topic(1, { cleanup: 'compact', retentionHours: undefined, maxMessageBytes: 8 * 1024 * 1024 });
    await openBus([spec]);
    const admin = new Kafka({ brokers: kafkaBrokers(), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const configs = await admin.describeConfigs({ includeSynonyms: false, resources: [{ type: 2, name: spec.name, configNames: ['max.message.bytes'] }] });
      expect(configs.resources[0].configEntries[0].configValue).toBe(String(8 * 1024 * 1024));
    } finally {
      await admin.disconnect();
    }
  });
});
