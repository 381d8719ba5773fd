/**
 * KafkaBus: the Bus of distributed mode, on Apache Kafka through kafkajs.
 *
 * open() connects, creates missing topics from the TopicSpecs (partitions, cleanup policy, retention) and
 * connects the producer. publish() waits for acks from all in-sync replicas (acks = -1) and partitions by
 * kafkajs' default partitioner, Kafka's murmur2 of the record key (the same function LocalBus uses). A
 * transient broker failure or more than `maxInFlightPublishBytes` waiting for acks makes publish() throw
 * BusBackpressureError instead of queueing without bound.
 *
 * Usage: `const bus = await KafkaBus.open({ brokers: ['127.0.0.1:9092'], topics: ALL_TOPICS })`.
 */
import { Kafka, Partitioners, type Admin, type Producer } from 'kafkajs';
import type { TopicSpec } from '@vigil/contracts';
import { BusBackpressureError, type BatchHandler, type Bus, type BusRecord, type SubscribeOptions, type Subscription } from '../bus';
import type { BusLogger } from '../local/partition-log';
import { describeError, isTransientKafkaError } from './kafka-errors';
import { KAFKAJS_LEVEL, kafkaLogCreator, type KafkaLogLevel } from './kafka-log';
import { KafkaSubscription, type KafkaConsumerSettings } from './kafka-subscription';
import { recordBytes, toKafkaMessage } from './record-mapping';
import { ensureTopics } from './topic-setup';

export interface KafkaBusOptions {
  /** Bootstrap brokers, `host:port`. */
  brokers: string[];
  topics: TopicSpec[];
  /** Client id (Kafka quotas and logs); also prefixes broadcast readers' private group ids. Default `vigil`. */
  clientId?: string;
  /** Replication factor of topics this bus creates. Default min(3, brokers in the cluster). */
  replicationFactor?: number;
  /** publish() throws BusBackpressureError beyond this many bytes awaiting acknowledgement. Default 64 MiB. */
  maxInFlightPublishBytes?: number;
  /** Topic-level max.message.bytes of created topics. Default 16 MiB (one request's events for one host fit). */
  maxMessageBytes?: number;
  /** Producer retries of retriable errors before publish() gives up with BusBackpressureError. Default 3. */
  publishRetries?: number;
  /** Producer request timeout. Default 30 s. */
  publishTimeoutMs?: number;
  /** Seconds a refused publisher is told to wait (Retry-After). Default 5. */
  retryAfterSeconds?: number;
  /** Consumer group session timeout. Default 30 s. */
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** Partitions one subscription handles at the same time (order within a partition is kept). Default 4. */
  partitionsConsumedConcurrently?: number;
  /** Fetch size per partition. Default 4 MiB. */
  maxBytesPerPartition?: number;
  /** Longest an idle fetch waits on the broker (also bounds how long close() waits). Default 1 s. */
  maxWaitTimeMs?: number;
  /** Back-off between retries of a failing handler. Defaults 100 ms doubling up to 5 s. */
  retryBackoffMs?: { initial: number; max: number };
  /** subscribe() fails if the consumer has not joined its group within this time. Default 60 s. */
  joinTimeoutMs?: number;
  /** kafkajs' own log level (into `log`). Default `warn`. */
  logLevel?: KafkaLogLevel;
  /** Where warnings go. Default: stderr. */
  log?: BusLogger;
}

type Lifecycle = 'new' | 'open' | 'closing' | 'closed';

const MiB = 1024 * 1024;

export class KafkaBus implements Bus {
  private lifecycle: Lifecycle = 'new';
  private readonly kafka: Kafka;
  private readonly admin: Admin;
  private readonly producer: Producer;
  private readonly log: BusLogger;
  private readonly topics: Map<string, TopicSpec>;
  private readonly consumerSettings: KafkaConsumerSettings;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private inFlightBytes = 0;
  private closing: Promise<void> | null = null;

  constructor(private readonly options: KafkaBusOptions) {
    validateOptions(options);
    this.log = options.log ?? ((message) => process.stderr.write(`[KafkaBus] ${message}\n`));
    this.topics = new Map(options.topics.map((spec) => [spec.name, spec]));
    const clientId = options.clientId ?? 'vigil';
    this.kafka = new Kafka({
      clientId,
      brokers: options.brokers,
      logLevel: KAFKAJS_LEVEL[options.logLevel ?? 'warn'],
      logCreator: kafkaLogCreator(this.log),
    });
    this.admin = this.kafka.admin();
    this.producer = this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
      retry: { retries: options.publishRetries ?? 3, initialRetryTime: 200, maxRetryTime: 5000 },
    });
    this.consumerSettings = {
      clientId,
      sessionTimeoutMs: options.sessionTimeoutMs ?? 30_000,
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 3_000,
      partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 4,
      maxBytesPerPartition: options.maxBytesPerPartition ?? 4 * MiB,
      maxWaitTimeMs: options.maxWaitTimeMs ?? 1_000,
      retryBackoffMs: options.retryBackoffMs ?? { initial: 100, max: 5_000 },
      joinTimeoutMs: options.joinTimeoutMs ?? 60_000,
      catchUpPollMs: 500,
      log: this.log,
    };
  }

  /** Creates and opens a KafkaBus. */
  static async open(options: KafkaBusOptions): Promise<KafkaBus> {
    const bus = new KafkaBus(options);
    await bus.open();
    return bus;
  }

  /** Connects, creates missing topics and connects the producer. */
  async open(): Promise<void> {
    if (this.lifecycle !== 'new') throw new Error(`KafkaBus.open(): the bus is already ${this.lifecycle}`);
    this.lifecycle = 'open';
    try {
      await this.admin.connect();
      await ensureTopics(
        this.admin,
        this.options.topics,
        { replicationFactor: this.options.replicationFactor, maxMessageBytes: this.options.maxMessageBytes ?? 16 * MiB },
        this.log,
      );
      await this.producer.connect();
    } catch (error) {
      this.lifecycle = 'closed';
      await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()]);
      throw new Error(`KafkaBus: cannot open on ${this.options.brokers.join(',')}: ${describeError(error)}`, { cause: error });
    }
  }

  async publish(topic: string, records: BusRecord[]): Promise<void> {
    this.assertUsable('publish');
    this.topicSpec(topic);
    if (!Array.isArray(records)) throw new TypeError(`publish(${topic}): records must be an array`);
    if (records.length === 0) return;
    let bytes = 0;
    for (const record of records) {
      checkRecord(topic, record);
      bytes += recordBytes(record);
    }
    const bound = this.options.maxInFlightPublishBytes ?? 64 * MiB;
    // One oversized publish on an idle producer is let through, so a large request is never refused forever.
    if (this.inFlightBytes > 0 && this.inFlightBytes + bytes > bound) {
      throw new BusBackpressureError(this.options.retryAfterSeconds ?? 5);
    }
    this.inFlightBytes += bytes;
    try {
      await this.producer.send({
        topic,
        acks: -1,
        timeout: this.options.publishTimeoutMs ?? 30_000,
        messages: records.map(toKafkaMessage),
      });
    } catch (error) {
      if (isTransientKafkaError(error)) {
        this.log(`publish to ${topic} refused for now: ${describeError(error)}`);
        throw new BusBackpressureError(this.options.retryAfterSeconds ?? 5);
      }
      throw error;
    } finally {
      this.inFlightBytes -= bytes;
    }
  }

  async subscribe(options: SubscribeOptions, handler: BatchHandler): Promise<Subscription> {
    if (this.lifecycle !== 'open') {
      this.assertUsable('subscribe');
      throw new Error('KafkaBus.subscribe(): the bus is closing');
    }
    if (!options || typeof options !== 'object') throw new TypeError('subscribe(): options must be an object');
    this.topicSpec(options.topic);
    if (typeof handler !== 'function') throw new TypeError(`subscribe(${options.topic}): handler must be a function`);
    if (options.group !== undefined && (typeof options.group !== 'string' || !/^[A-Za-z0-9._-]{1,200}$/.test(options.group))) {
      throw new TypeError(`subscribe(${options.topic}): invalid group name ${JSON.stringify(options.group)}`);
    }
    if (options.commit !== undefined && options.commit !== 'auto' && options.commit !== 'manual') {
      throw new TypeError(`subscribe(${options.topic}): commit must be 'auto' or 'manual'`);
    }
    if (options.commit === 'manual' && options.group === undefined) throw new TypeError(`subscribe(${options.topic}): commit: 'manual' needs a group`);
    const subscription = await KafkaSubscription.start(this.kafka, this.admin, options, handler, this.consumerSettings, (s) =>
      this.subscriptions.delete(s),
    );
    this.subscriptions.add(subscription);
    if (this.lifecycle !== 'open') {
      await subscription.close();
      throw new Error('KafkaBus.subscribe(): the bus closed while subscribing');
    }
    return subscription;
  }

  /** Closes every subscription (in-flight handlers finish and commit), then the producer and admin clients. */
  close(): Promise<void> {
    if (this.lifecycle === 'new') {
      this.lifecycle = 'closed';
      return Promise.resolve();
    }
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.lifecycle = 'closing';
    // Handlers may still publish while they finish, so subscriptions stop before the producer disconnects.
    const results = await Promise.allSettled([...this.subscriptions].map((subscription) => subscription.close()));
    this.lifecycle = 'closed';
    results.push(...(await Promise.allSettled([this.producer.disconnect(), this.admin.disconnect()])));
    const problems = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as unknown);
    if (problems.length > 0) throw new AggregateError(problems, `KafkaBus.close(): ${problems.length} step(s) failed`);
  }

  private topicSpec(topic: string): TopicSpec {
    const spec = typeof topic === 'string' ? this.topics.get(topic) : undefined;
    if (!spec) throw new Error(`unknown topic "${String(topic)}": this KafkaBus was opened with ${[...this.topics.keys()].join(', ') || 'no topics'}`);
    return spec;
  }

  private assertUsable(operation: string): void {
    if (this.lifecycle === 'open' || this.lifecycle === 'closing') return;
    if (this.lifecycle === 'closed') throw new Error(`KafkaBus.${operation}(): the bus is closed`);
    throw new Error(`KafkaBus.${operation}(): the bus is not open yet (await open() first)`);
  }
}

function checkRecord(topic: string, record: BusRecord): void {
  if (!record || typeof record.key !== 'string') throw new TypeError(`publish(${topic}): every record needs a string key`);
  if (!Buffer.isBuffer(record.value)) throw new TypeError(`publish(${topic}): record values must be Buffers`);
  if (record.headers !== undefined) {
    for (const [name, value] of Object.entries(record.headers)) {
      if (typeof value !== 'string') throw new TypeError(`publish(${topic}): header ${name} must be a string`);
    }
  }
}

function validateOptions(options: KafkaBusOptions): void {
  if (!options || typeof options !== 'object') throw new TypeError('KafkaBus: options are required');
  if (!Array.isArray(options.brokers) || options.brokers.length === 0 || !options.brokers.every((b) => /^[^\s:,]+:\d{1,5}$/.test(b))) {
    throw new TypeError(`KafkaBus: brokers must be a non-empty list of host:port, got ${JSON.stringify(options.brokers)}`);
  }
  if (!Array.isArray(options.topics)) throw new TypeError('KafkaBus: topics must be an array of TopicSpec');
  const seen = new Set<string>();
  for (const spec of options.topics) {
    const name = spec?.name;
    if (typeof name !== 'string' || !/^[A-Za-z0-9._-]{1,249}$/.test(name)) {
      throw new TypeError(`KafkaBus: invalid topic name ${JSON.stringify(name)} (use letters, digits, ".", "_", "-")`);
    }
    if (seen.has(name)) throw new TypeError(`KafkaBus: topic ${name} is listed twice`);
    seen.add(name);
    if (!Number.isInteger(spec.partitions) || spec.partitions < 1) throw new TypeError(`KafkaBus: topic ${name} needs a positive partition count`);
    if (spec.cleanup !== 'delete' && spec.cleanup !== 'compact') {
      throw new TypeError(`KafkaBus: topic ${name} has unknown cleanup ${JSON.stringify(spec.cleanup)}`);
    }
  }
  const positive = (value: number | undefined, name: string) => {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw new TypeError(`KafkaBus: ${name} must be a positive number`);
  };
  positive(options.replicationFactor, 'replicationFactor');
  positive(options.maxInFlightPublishBytes, 'maxInFlightPublishBytes');
  positive(options.maxMessageBytes, 'maxMessageBytes');
  positive(options.publishTimeoutMs, 'publishTimeoutMs');
  positive(options.retryAfterSeconds, 'retryAfterSeconds');
  positive(options.sessionTimeoutMs, 'sessionTimeoutMs');
  positive(options.heartbeatIntervalMs, 'heartbeatIntervalMs');
  positive(options.partitionsConsumedConcurrently, 'partitionsConsumedConcurrently');
  positive(options.maxBytesPerPartition, 'maxBytesPerPartition');
  positive(options.joinTimeoutMs, 'joinTimeoutMs');
  positive(options.maxWaitTimeMs, 'maxWaitTimeMs');
  positive(options.retryBackoffMs?.initial, 'retryBackoffMs.initial');
  positive(options.retryBackoffMs?.max, 'retryBackoffMs.max');
  if (options.publishRetries !== undefined && !(Number.isInteger(options.publishRetries) && options.publishRetries >= 0)) {
    throw new TypeError('KafkaBus: publishRetries must be a whole number');
  }
}
