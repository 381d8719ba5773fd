/**
 * LocalBus: the durable, embedded Bus of Vigil's all-in-one mode, standing in for Kafka inside one process.
 *
 * Layout under `dir`: `<topic>/<partition>/<baseOffset>.log` segment files of CRC-checked records, and
 * `_groups/<group>.json` committed offsets. publish() resolves only after the records are fsynced (group commit);
 * consumers see records only once they are durable. Partitioning is Kafka's murmur2, so keys land where Kafka
 * would put them.
 *
 * Usage: `const bus = await LocalBus.open({ dir, topics })`, or `new LocalBus(opts)` then `await bus.open()`.
 */
import { promises as fs } from 'fs';
import * as path from 'path';
import type { TopicSpec } from '@vigil/contracts';
import type { BatchHandler, Bus, BusRecord, SubscribeOptions, Subscription } from '../bus';
import { compactPartition } from './compaction';
import { lockDirectory, type DirLock } from './dir-lock';
import { ensureDirectory } from './fs-util';
import { GroupCommitWriter } from './group-commit-writer';
import { GroupConsumers } from './group-consumers';
import { GroupOffsets, checkGroupName } from './group-offsets';
import { murmur2Partition } from './murmur2';
import { type BusLogger, PartitionLog } from './partition-log';
import { encodeFrame, type UnsealedFrame } from './record-frame';
import { BroadcastSubscription, GroupSubscription, currentEnds } from './subscriptions';
import type { ConsumerSettings } from './consumer-settings';

export interface LocalBusOptions {
  /** Data directory (created if missing). One LocalBus per directory at a time. */
  dir: string;
  topics: TopicSpec[];
  /** Roll to a new segment file past this size. Default 64 MiB. */
  segmentBytes?: number;
  /** Largest accepted record (key + headers + value + framing). Default 16 MiB. */
  maxRecordBytes?: number;
  /** publish() fails with BusBackpressureError when more than this is waiting to be written. Default 256 MiB. */
  maxBufferedPublishBytes?: number;
  /** In-memory tail per topic, shared by its partitions. Default 32 MiB. */
  tailBytesPerTopic?: number;
  /** Largest batch handed to a handler. Defaults 500 records, 4 MiB. */
  maxBatchRecords?: number;
  maxBatchBytes?: number;
  /** Back-off between retries of a failing handler: doubles from initial up to max. Defaults 100 ms, 5 s. */
  retryBackoffMs?: { initial: number; max: number };
  /** How long a group commit may wait before it is written to disk. Default 100 ms. */
  offsetFlushDelayMs?: number;
  /** How often retention runs. Default 5 minutes. */
  retentionCheckIntervalMs?: number;
  /**
   * A group whose last commit on a topic is older than this, and that has no member in this process, no longer
   * holds back retention on that topic (Kafka's offsets.retention.minutes). Default 168 hours.
   */
  groupOffsetsRetentionHours?: number;
  /** Where warnings go (corruption, handler failures). Default: stderr. */
  log?: BusLogger;
}

interface TopicState {
  spec: TopicSpec;
  logs: PartitionLog[];
}

type Lifecycle = 'new' | 'opening' | 'open' | 'closing' | 'closed';

const MiB = 1024 * 1024;
const TOPIC_NAME = /^[A-Za-z0-9._-]{1,249}$/;
const GROUPS_DIR = '_groups';

export class LocalBus implements Bus {
  private lifecycle: Lifecycle = 'new';
  private readonly settings: Required<Omit<LocalBusOptions, 'topics' | 'log' | 'retryBackoffMs'>>;
  private readonly consumerSettings: ConsumerSettings;
  private readonly logger: BusLogger;
  private readonly topics = new Map<string, TopicState>();
  private readonly groupConsumers = new Map<string, GroupConsumers>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly writer: GroupCommitWriter;
  private offsets: GroupOffsets | null = null;
  private lock: DirLock | null = null;
  private retentionTimer: NodeJS.Timeout | null = null;
  private retentionRun: Promise<void> | null = null;
  private closing: Promise<void> | null = null;
  private opening: Promise<void> | null = null;

  constructor(private readonly options: LocalBusOptions) {
    validateOptions(options);
    this.logger = options.log ?? ((message) => process.stderr.write(`[LocalBus] ${message}\n`));
    this.settings = {
      dir: path.resolve(options.dir),
      segmentBytes: options.segmentBytes ?? 64 * MiB,
      maxRecordBytes: options.maxRecordBytes ?? 16 * MiB,
      maxBufferedPublishBytes: options.maxBufferedPublishBytes ?? 256 * MiB,
      tailBytesPerTopic: options.tailBytesPerTopic ?? 32 * MiB,
      maxBatchRecords: options.maxBatchRecords ?? 500,
      maxBatchBytes: options.maxBatchBytes ?? 4 * MiB,
      offsetFlushDelayMs: options.offsetFlushDelayMs ?? 100,
      retentionCheckIntervalMs: options.retentionCheckIntervalMs ?? 5 * 60 * 1000,
      groupOffsetsRetentionHours: options.groupOffsetsRetentionHours ?? 168,
    };
    this.consumerSettings = {
      limits: { maxRecords: this.settings.maxBatchRecords, maxBytes: this.settings.maxBatchBytes },
      retry: { initialBackoffMs: options.retryBackoffMs?.initial ?? 100, maxBackoffMs: options.retryBackoffMs?.max ?? 5000 },
      logger: this.logger,
    };
    this.writer = new GroupCommitWriter(this.settings.maxBufferedPublishBytes);
  }

  /** Creates and opens a LocalBus. */
  static async open(options: LocalBusOptions): Promise<LocalBus> {
    const bus = new LocalBus(options);
    await bus.open();
    return bus;
  }

  /** Locks the directory, recovers every partition log (truncating torn tails) and loads group offsets. */
  open(): Promise<void> {
    if (this.lifecycle !== 'new') return Promise.reject(new Error(`LocalBus.open(): the bus is already ${this.lifecycle}`));
    this.lifecycle = 'opening';
    this.opening = this.openResources();
    return this.opening;
  }

  private async openResources(): Promise<void> {
    const { dir } = this.settings;
    try {
      await ensureDirectory(dir);
      this.lock = await lockDirectory(dir);
      this.offsets = await GroupOffsets.load(path.join(dir, GROUPS_DIR), this.settings.offsetFlushDelayMs, this.logger);
      for (const spec of this.options.topics) this.topics.set(spec.name, await this.openTopic(spec));
    } catch (error) {
      await this.releaseResources();
      this.lifecycle = 'closed';
      throw error;
    }
    this.lifecycle = 'open';
    this.scheduleRetention();
  }

  async publish(topic: string, records: BusRecord[]): Promise<void> {
    this.assertUsable('publish');
    const state = this.topicState(topic);
    if (!Array.isArray(records)) throw new TypeError(`publish(${topic}): records must be an array`);
    if (records.length === 0) return;
    const parts = new Map<PartitionLog, UnsealedFrame[]>();
    let bytes = 0;
    for (const record of records) {
      const unsealed = encodeFrame(record, this.settings.maxRecordBytes);
      const log = state.logs[murmur2Partition(unsealed.key, state.logs.length)];
      const list = parts.get(log);
      if (list) list.push(unsealed);
      else parts.set(log, [unsealed]);
      bytes += unsealed.frameBytes;
    }
    await this.writer.submit(parts, bytes);
  }

  async subscribe(options: SubscribeOptions, handler: BatchHandler): Promise<Subscription> {
    if (this.lifecycle !== 'open') {
      this.assertUsable('subscribe');
      throw new Error('LocalBus.subscribe(): the bus is closing');
    }
    if (!options || typeof options !== 'object') throw new TypeError('subscribe(): options must be an object');
    const state = this.topicState(options.topic);
    if (typeof handler !== 'function') throw new TypeError(`subscribe(${options.topic}): handler must be a function`);
    const { group } = options;
    if (group !== undefined) checkGroupName(group);
    else if (options.commit === 'manual') throw new TypeError(`subscribe(${options.topic}): commit: 'manual' needs a group`);
    const targets = currentEnds(state.logs);
    const forget = (subscription: Subscription) => this.subscriptions.delete(subscription);
    if (group === undefined) {
      const reader = new BroadcastSubscription(state.logs, handler, this.consumerSettings, targets, forget);
      this.subscriptions.add(reader);
      return reader;
    }
    const commit = options.commit ?? 'auto';
    if (commit !== 'auto' && commit !== 'manual') throw new TypeError(`subscribe(${options.topic}): commit must be 'auto' or 'manual'`);
    const member = new GroupSubscription(
      this.groupConsumersFor(group, state),
      handler,
      options.fromBeginning ?? true,
      commit === 'manual',
      targets,
      forget,
    );
    // Registered before joining, so a close() racing with the join still stops this member.
    this.subscriptions.add(member);
    await member.join();
    return member;
  }

  /**
   * Stops every subscription (waiting for in-flight handlers), writes what was already accepted, persists
   * group offsets and releases the directory. publish() and subscribe() reject afterwards.
   */
  close(): Promise<void> {
    if (this.lifecycle === 'new') {
      this.lifecycle = 'closed';
      return Promise.resolve();
    }
    this.closing ??= this.shutDown();
    return this.closing;
  }

  /**
   * Deletes expired segments of `delete` topics: a segment goes once its last append is older than the topic's
   * retention and every group that committed on the topic has consumed past it. Compacts `compact` topics: records
   * superseded by a later one of the same key leave the closed segments. Runs on a timer; public for maintenance
   * and tests.
   */
  runRetention(now: number = Date.now()): Promise<void> {
    this.retentionRun ??= this.applyRetention(now).finally(() => (this.retentionRun = null));
    return this.retentionRun;
  }

  private async shutDown(): Promise<void> {
    if (this.lifecycle === 'opening') await this.opening?.catch(() => undefined);
    if (this.lifecycle === 'closed') return;
    this.lifecycle = 'closing';
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    // Handlers may still publish while they finish, so subscriptions stop before the writer closes.
    await Promise.all([...this.subscriptions].map((subscription) => subscription.close()));
    this.lifecycle = 'closed';
    await this.writer.drain();
    await this.retentionRun;
    await this.releaseResources();
  }

  private async releaseResources(): Promise<void> {
    const problems: unknown[] = [];
    const attempt = async (step: () => Promise<void>) => {
      try {
        await step();
      } catch (error) {
        problems.push(error);
      }
    };
    if (this.offsets) await attempt(() => (this.offsets as GroupOffsets).close());
    for (const state of this.topics.values()) {
      for (const log of state.logs) await attempt(() => log.close());
    }
    if (this.lock) await attempt(() => (this.lock as DirLock).release());
    this.lock = null;
    if (problems.length > 0) {
      throw new AggregateError(problems, `LocalBus.close(): ${problems.length} step(s) failed`);
    }
  }

  private async openTopic(spec: TopicSpec): Promise<TopicState> {
    const topicDir = path.join(this.settings.dir, spec.name);
    await ensureDirectory(topicDir);
    const onDisk = (await fs.readdir(topicDir)).filter((name) => /^\d+$/.test(name)).map(Number);
    const beyond = onDisk.filter((partition) => partition >= spec.partitions);
    if (beyond.length > 0) {
      throw new Error(
        `topic ${spec.name} is configured with ${spec.partitions} partition(s) but ${topicDir} holds partition(s) ` +
          `${beyond.join(', ')}; partitions can be added, never removed`,
      );
    }
    const tailBytes = Math.max(256 * 1024, Math.floor(this.settings.tailBytesPerTopic / spec.partitions));
    const logs: PartitionLog[] = [];
    try {
      for (let partition = 0; partition < spec.partitions; partition += 1) {
        logs.push(
          await PartitionLog.open(path.join(topicDir, String(partition)), spec.name, partition, {
            segmentBytes: this.settings.segmentBytes,
            tailBytes,
            log: this.logger,
          }),
        );
      }
    } catch (error) {
      await Promise.allSettled(logs.map((log) => log.close()));
      throw error;
    }
    return { spec, logs };
  }

  private groupConsumersFor(group: string, state: TopicState): GroupConsumers {
    const key = `${group}\u0000${state.spec.name}`;
    let consumers = this.groupConsumers.get(key);
    if (!consumers) {
      consumers = new GroupConsumers(group, state.logs, this.offsets as GroupOffsets, this.consumerSettings);
      this.groupConsumers.set(key, consumers);
    }
    return consumers;
  }

  private scheduleRetention(): void {
    const hasRetention = [...this.topics.values()].some((t) => t.spec.cleanup === 'compact' || t.spec.retentionHours);
    if (!hasRetention) return;
    const run = () =>
      this.runRetention().catch((error: unknown) => this.logger(`retention failed: ${describe(error)}`));
    void run();
    this.retentionTimer = setInterval(run, this.settings.retentionCheckIntervalMs);
    this.retentionTimer.unref();
  }

  private async applyRetention(now: number): Promise<void> {
    const offsets = this.offsets;
    if (!offsets || this.lifecycle === 'closed') return;
    const groupExpiryMs = this.settings.groupOffsetsRetentionHours * 3600 * 1000;
    for (const state of this.topics.values()) {
      const { spec } = state;
      if (spec.cleanup === 'compact') {
        await this.compactTopic(state);
        continue;
      }
      if (!spec.retentionHours) continue;
      const cutoff = now - spec.retentionHours * 3600 * 1000;
      const activeGroups = new Set(
        [...this.groupConsumers.entries()]
          .filter(([key, consumers]) => key.endsWith(`\u0000${spec.name}`) && consumers.memberCount > 0)
          .map(([, consumers]) => consumers.group),
      );
      const holders = [...offsets.groupsOn(spec.name)].filter(
        (g) => activeGroups.has(g.group) || now - g.committedAt <= groupExpiryMs,
      );
      for (const log of state.logs) {
        let consumedUpTo = Number.POSITIVE_INFINITY;
        for (const holder of holders) consumedUpTo = Math.min(consumedUpTo, holder.partitions.get(log.partition) ?? 0);
        for (const group of activeGroups) {
          consumedUpTo = Math.min(consumedUpTo, offsets.get(group, spec.name, log.partition) ?? 0);
        }
        const removed = await log.removeOldSegments(
          (segment, nextBaseOffset) => segment.lastAppendMs < cutoff && nextBaseOffset <= consumedUpTo,
        );
        if (removed > 0) this.logger(`${spec.name}/${log.partition}: retention removed ${removed} segment(s)`);
      }
    }
  }

  private async compactTopic(state: TopicState): Promise<void> {
    for (const log of state.logs) {
      if (this.lifecycle === 'closed') return;
      const { rewritten, removed, bytesFreed } = await compactPartition(log);
      if (rewritten + removed > 0) {
        this.logger(`${state.spec.name}/${log.partition}: compaction freed ${bytesFreed} bytes (${rewritten} segment(s) rewritten, ${removed} removed)`);
      }
    }
  }

  private topicState(topic: string): TopicState {
    const state = typeof topic === 'string' ? this.topics.get(topic) : undefined;
    if (!state) throw new Error(`unknown topic "${String(topic)}": this LocalBus was opened with ${[...this.topics.keys()].join(', ') || 'no topics'}`);
    return state;
  }

  private assertUsable(operation: string): void {
    if (this.lifecycle === 'open' || this.lifecycle === 'closing') return;
    if (this.lifecycle === 'closed') throw new Error(`LocalBus.${operation}(): the bus is closed`);
    throw new Error(`LocalBus.${operation}(): the bus is not open yet (await open() first)`);
  }
}

function validateOptions(options: LocalBusOptions): void {
  if (!options || typeof options !== 'object') throw new TypeError('LocalBus: options are required');
  if (typeof options.dir !== 'string' || options.dir.length === 0) throw new TypeError('LocalBus: dir must be a non-empty path');
  if (!Array.isArray(options.topics)) throw new TypeError('LocalBus: topics must be an array of TopicSpec');
  const seen = new Set<string>();
  for (const spec of options.topics) {
    const name = spec?.name;
    if (typeof name !== 'string' || !TOPIC_NAME.test(name) || name === '.' || name === '..' || name === GROUPS_DIR) {
      throw new TypeError(`LocalBus: invalid topic name ${JSON.stringify(name)} (use letters, digits, ".", "_", "-")`);
    }
    if (seen.has(name)) throw new TypeError(`LocalBus: topic ${name} is listed twice`);
    seen.add(name);
    if (!Number.isInteger(spec.partitions) || spec.partitions < 1 || spec.partitions > 10_000) {
      throw new TypeError(`LocalBus: topic ${name} needs a partition count between 1 and 10000`);
    }
    if (spec.cleanup !== 'delete' && spec.cleanup !== 'compact') {
      throw new TypeError(`LocalBus: topic ${name} has unknown cleanup ${JSON.stringify(spec.cleanup)}`);
    }
    if (spec.retentionHours !== undefined && !(typeof spec.retentionHours === 'number' && spec.retentionHours > 0)) {
      throw new TypeError(`LocalBus: topic ${name} needs a positive retentionHours when given`);
    }
  }
  const positive = (value: number | undefined, name: string) => {
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) throw new TypeError(`LocalBus: ${name} must be a positive number`);
  };
  positive(options.segmentBytes, 'segmentBytes');
  positive(options.maxRecordBytes, 'maxRecordBytes');
  positive(options.maxBufferedPublishBytes, 'maxBufferedPublishBytes');
  positive(options.tailBytesPerTopic, 'tailBytesPerTopic');
  positive(options.maxBatchRecords, 'maxBatchRecords');
  positive(options.maxBatchBytes, 'maxBatchBytes');
  positive(options.offsetFlushDelayMs, 'offsetFlushDelayMs');
  positive(options.retentionCheckIntervalMs, 'retentionCheckIntervalMs');
  positive(options.groupOffsetsRetentionHours, 'groupOffsetsRetentionHours');
  positive(options.retryBackoffMs?.initial, 'retryBackoffMs.initial');
  positive(options.retryBackoffMs?.max, 'retryBackoffMs.max');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
