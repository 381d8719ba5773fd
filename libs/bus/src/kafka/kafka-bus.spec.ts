import { KafkaBus } from './kafka-bus';
import { topicConfig } from './topic-setup';

const topics = [{ name: 'tlm.events.v1', partitions: 3, cleanup: 'delete' as const, retentionHours: 72 }];

describe('KafkaBus (no broker needed)', () => {
  it('rejects invalid options with a clear message', () => {
    expect(() => new KafkaBus({ brokers: [], topics })).toThrow(/brokers must be a non-empty list/);
    expect(() => new KafkaBus({ brokers: ['no-port'], topics })).toThrow(/host:port/);
    expect(() => new KafkaBus({ brokers: ['k:9092'], topics: [{ name: 'bad name', partitions: 1, cleanup: 'delete' }] })).toThrow(/invalid topic name/);
    expect(() => new KafkaBus({ brokers: ['k:9092'], topics, maxInFlightPublishBytes: 0 })).toThrow(/maxInFlightPublishBytes/);
  });

  it('refuses publish and subscribe before open, and unknown topics', async () => {
    const bus = new KafkaBus({ brokers: ['127.0.0.1:1'], topics });
    await expect(bus.publish('tlm.events.v1', [])).rejects.toThrow(/not open yet/);
    await expect(bus.subscribe({ topic: 'tlm.events.v1' }, async () => undefined)).rejects.toThrow(/not open yet/);
    await bus.close();
    await expect(bus.publish('tlm.events.v1', [])).rejects.toThrow(/closed/);
  });

  it('fails open() with the broker list when no broker answers', async () => {
    const bus = new KafkaBus({ brokers: ['127.0.0.1:1'], topics, log: () => undefined });
    // kafkajs' own connection retries take a few seconds before it gives up.
    await expect(bus.open()).rejects.toThrow(/cannot open on 127\.0\.0\.1:1/);
  }, 30_000);

  it('maps a TopicSpec to partitions, cleanup policy and retention', () => {
    expect(topicConfig(topics[0], 1, 1024)).toEqual({
      topic: 'tlm.events.v1',
      numPartitions: 3,
      replicationFactor: 1,
      configEntries: [
        { name: 'cleanup.policy', value: 'delete' },
        { name: 'max.message.bytes', value: '1024' },
        { name: 'retention.ms', value: String(72 * 3600 * 1000) },
      ],
    });
    const compacted = topicConfig({ name: 'ctl.api-keys.v1', partitions: 1, cleanup: 'compact' }, 3, 1024);
    expect(compacted.configEntries).toEqual([
      { name: 'cleanup.policy', value: 'compact' },
      { name: 'max.message.bytes', value: '1024' },
      { name: 'segment.ms', value: String(3600 * 1000) },
      { name: 'segment.bytes', value: String(64 * 1024 * 1024) },
      { name: 'min.insync.replicas', value: '2' },
    ]);
    // A topic's own record limit wins over the bus-wide one (the scoring state's snapshots are large).
    const state = topicConfig({ name: 'scoring.state.v1', partitions: 1, cleanup: 'compact', maxMessageBytes: 8 << 20 }, 1, 1024);
    expect(state.configEntries).toContainEqual({ name: 'max.message.bytes', value: String(8 << 20) });
  });
});
