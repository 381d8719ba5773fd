import type { Admin, ITopicConfig } from 'kafkajs';
import type { TopicSpec } from '@vigil/contracts';
import type { BusLogger } from '../local/partition-log';

export interface TopicSetupOptions {
  /** Replication factor of created topics; default min(3, brokers in the cluster). */
  replicationFactor?: number;
  /** Topic-level max.message.bytes (largest record batch the broker accepts). */
  maxMessageBytes: number;
}

/** The Kafka topic definition for a TopicSpec: partitions, cleanup policy, retention, batch size limit. */
export function topicConfig(spec: TopicSpec, replicationFactor: number, maxMessageBytes: number): ITopicConfig {
  const configEntries = [
    { name: 'cleanup.policy', value: spec.cleanup },
    { name: 'max.message.bytes', value: String(spec.maxMessageBytes ?? maxMessageBytes) },
  ];
  if (spec.cleanup === 'compact') {
    // The broker never compacts the active segment: rolling hourly or at 64 MiB keeps a frequently rewritten
    // compacted topic (the scoring state) small, instead of the default 1 GiB / 7 days.
    configEntries.push({ name: 'segment.ms', value: String(3600 * 1000) }, { name: 'segment.bytes', value: String(64 * 1024 * 1024) });
  }
  if (spec.cleanup === 'delete' && spec.retentionHours !== undefined) {
    configEntries.push({ name: 'retention.ms', value: String(Math.round(spec.retentionHours * 3600 * 1000)) });
  }
  // With three copies, acks=all should mean at least two, so one broker can fail without losing acknowledged data.
  if (replicationFactor >= 3) configEntries.push({ name: 'min.insync.replicas', value: '2' });
  return { topic: spec.name, numPartitions: spec.partitions, replicationFactor, configEntries };
}

/**
 * Creates the topics that do not exist yet (several replicas may race: "already exists" is fine) and warns about
 * existing topics with fewer partitions than specified. Returns each topic's actual partition count.
 */
export async function ensureTopics(admin: Admin, specs: TopicSpec[], options: TopicSetupOptions, log: BusLogger): Promise<Map<string, number>> {
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter((spec) => !existing.has(spec.name));
  if (missing.length > 0) {
    const replicationFactor = options.replicationFactor ?? Math.min(3, (await admin.describeCluster()).brokers.length);
    await admin.createTopics({
      topics: missing.map((spec) => topicConfig(spec, replicationFactor, options.maxMessageBytes)),
      waitForLeaders: true,
    });
  }
  const metadata = await admin.fetchTopicMetadata({ topics: specs.map((spec) => spec.name) });
  const partitions = new Map(metadata.topics.map((topic) => [topic.name, topic.partitions.length]));
  for (const spec of specs) {
    const actual = partitions.get(spec.name) ?? 0;
    if (actual < spec.partitions) {
      log(`topic ${spec.name} has ${actual} partition(s), fewer than the ${spec.partitions} specified; keys map by the actual count`);
    }
  }
  return partitions;
}
