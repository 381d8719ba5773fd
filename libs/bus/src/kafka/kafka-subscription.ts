/**
 * A KafkaBus subscription: one kafkajs consumer. With a group it is a group member (partitions split among
 * members, offsets committed only after the handler resolved). Without one it is a broadcast reader: a
 * consumer in a group of its own (a fresh id per subscription) that starts at the beginning and never commits.
 * A manual-commit member (`commit: 'manual'`) runs kafkajs without auto-commit and commits only through
 * commit(), for partitions the latest group join assigned to it.
 */
import { randomUUID } from 'node:crypto';
import type { Admin, Consumer, EachBatchPayload, Kafka } from 'kafkajs';
import type { BatchHandler, SubscribeOptions, Subscription } from '../bus';
import { CatchUpTracker } from '../local/catch-up';
import type { BusLogger } from '../local/partition-log';
import { describeError, isTransientKafkaError } from './kafka-errors';
import { toBusBatch } from './record-mapping';

export interface KafkaConsumerSettings {
  clientId: string;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  partitionsConsumedConcurrently: number;
  maxBytesPerPartition: number;
  /** Longest a fetch waits on the broker for new records; close() may wait for one fetch to return. */
  maxWaitTimeMs: number;
  /** Back-off between retries of a failing handler: doubles from initial up to max. */
  retryBackoffMs: { initial: number; max: number };
  /** subscribe() fails if the consumer has not joined its group within this time. */
  joinTimeoutMs: number;
  /** How often a group member re-reads the group's committed offsets until `caughtUp` resolves. */
  catchUpPollMs: number;
  log: BusLogger;
}

const CLOSED_EARLY = 'the subscription was closed before it caught up';

export class KafkaSubscription implements Subscription {
  private readonly consumer: Consumer;
  // Offsets are int64 in Kafka; as numbers they are exact up to 2^53 records per partition, far beyond reach.
  private readonly positions = new Map<number, number>();
  private tracker: CatchUpTracker | null = null;
  private stopping = false;
  /** Waits that close() cuts short: handler retry back-offs and the wait for the group join. */
  private readonly wakeOnClose = new Set<() => void>();
  private pollTimer: NodeJS.Timeout | null = null;
  private closing: Promise<void> | null = null;
  private readonly label: string;
  private readonly manualCommit: boolean;
  /** Partitions of the topic this member owns: set on each group join, emptied when a rebalance starts. */
  private readonly owned = new Set<number>();
  /** Woken when a rebalance starts or the subscription closes: pending commits stop waiting then. */
  private readonly onOwnershipLost = new Set<() => void>();

  private constructor(
    kafka: Kafka,
    private readonly admin: Admin,
    private readonly options: SubscribeOptions,
    private readonly handler: BatchHandler,
    private readonly settings: KafkaConsumerSettings,
    private readonly onClosed: (subscription: KafkaSubscription) => void,
  ) {
    const groupId = options.group ?? `${settings.clientId}.broadcast.${randomUUID()}`;
    this.label = options.group ? `group ${options.group} on ${options.topic}` : `broadcast reader of ${options.topic}`;
    this.manualCommit = options.commit === 'manual';
    this.consumer = kafka.consumer({
      groupId,
      sessionTimeout: settings.sessionTimeoutMs,
      heartbeatInterval: settings.heartbeatIntervalMs,
      maxBytesPerPartition: settings.maxBytesPerPartition,
      maxWaitTimeInMs: settings.maxWaitTimeMs,
      allowAutoTopicCreation: false,
    });
  }

  /** Creates the consumer, waits until it has joined its group, and returns the running subscription. */
  static async start(
    kafka: Kafka,
    admin: Admin,
    options: SubscribeOptions,
    handler: BatchHandler,
    settings: KafkaConsumerSettings,
    onClosed: (subscription: KafkaSubscription) => void,
  ): Promise<KafkaSubscription> {
    const subscription = new KafkaSubscription(kafka, admin, options, handler, settings, onClosed);
    try {
      await subscription.run();
    } catch (error) {
      await subscription.close().catch(() => undefined);
      throw error;
    }
    return subscription;
  }

  get caughtUp(): Promise<void> {
    return (this.tracker as CatchUpTracker).promise;
  }

  async commit(partition: number, nextOffset: string): Promise<boolean> {
    if (!this.manualCommit) throw new Error(`${this.label}: commit() is only for subscriptions with commit: 'manual'`);
    if (typeof nextOffset !== 'string' || !/^\d{1,19}$/.test(nextOffset)) {
      throw new TypeError(`commit(): offset must be a decimal string, got ${JSON.stringify(nextOffset)}`);
    }
    if (this.stopping || !this.owned.has(partition)) return false;
    // kafkajs sends the group generation along, so the broker refuses a commit from an outdated member; kafkajs
    // retries such a commit for a while, which this does not wait for once a rebalance has started.
    const commit = this.consumer.commitOffsets([{ topic: this.options.topic, partition, offset: nextOffset }]).then(
      () => true,
      (error: unknown) => {
        this.settings.log(`${this.label}: commit of offset ${nextOffset} on partition ${partition} failed: ${describeError(error)}`);
        return false;
      },
    );
    let lost!: () => void;
    const ownershipLost = new Promise<boolean>((resolve) => {
      lost = () => resolve(false);
      this.onOwnershipLost.add(lost);
    });
    const done = await Promise.race([commit, ownershipLost]);
    this.onOwnershipLost.delete(lost);
    if (!done || this.stopping || !this.owned.has(partition)) return false;
    this.advance(partition, Number(nextOffset));
    this.tracker?.check();
    return true;
  }

  /**
   * Stops fetching, lets an in-flight handler finish, commits what was handled (auto-commit members), and leaves
   * the group.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopping = true;
      for (const wake of this.wakeOnClose) wake();
      if (this.pollTimer) clearInterval(this.pollTimer);
      this.owned.clear();
      for (const wake of [...this.onOwnershipLost]) wake();
      try {
        await this.consumer.disconnect();
      } finally {
        this.tracker?.abandon(CLOSED_EARLY);
        this.onClosed(this);
      }
    })();
    return this.closing;
  }

  private async run(): Promise<void> {
    const { topic, group } = this.options;
    const fromBeginning = this.options.fromBeginning ?? true;
    const ends = await this.untilSettled(() => this.admin.fetchTopicOffsets(topic));
    const targets = new Map(ends.map((end) => [end.partition, Number(end.high)]));
    if (group === undefined) {
      for (const end of ends) this.positions.set(end.partition, Number(end.low));
    } else {
      await this.untilSettled(() => this.readGroupPositions());
      for (const end of ends) {
        // A new group that starts at the end has, by definition, nothing published before it to catch up with.
        if (!this.positions.has(end.partition)) this.positions.set(end.partition, Number(fromBeginning ? end.low : end.high));
      }
      this.consumer.on(this.consumer.events.COMMIT_OFFSETS, ({ payload }) => {
        for (const committed of payload.topics) {
          if (committed.topic !== topic) continue;
          for (const { partition, offset } of committed.partitions) this.advance(partition, Number(offset));
        }
        this.tracker?.check();
      });
    }
    this.tracker = new CatchUpTracker(targets, (partition) => this.positions.get(partition) ?? 0);
    this.tracker.check();

    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      const outcome = payload.restart ? 'kafkajs restarts it' : 'it stays stopped';
      this.settings.log(`${this.label}: consumer crashed (${outcome}): ${describeError(payload.error)}`);
    });
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      this.owned.clear();
      for (const partition of payload.memberAssignment[topic] ?? []) this.owned.add(partition);
    });
    this.consumer.on(this.consumer.events.REBALANCING, () => {
      this.owned.clear();
      for (const wake of [...this.onOwnershipLost]) wake();
    });
    const joined = this.waitForJoin();
    // Observed here so that a failure below (connect, subscribe) cannot leave it rejecting unobserved later.
    joined.catch(() => undefined);
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [topic], fromBeginning });
    await this.consumer.run({
      autoCommit: group !== undefined && !this.manualCommit,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.settings.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.handleBatch(payload),
    });
    await joined;
    if (group !== undefined) this.pollGroupProgress();
  }

  private advance(partition: number, next: number): void {
    if (next > (this.positions.get(partition) ?? -1)) this.positions.set(partition, next);
  }

  private async readGroupPositions(): Promise<void> {
    const { topic, group } = this.options;
    const offsets = await this.admin.fetchOffsets({ groupId: group as string, topics: [topic] });
    for (const entry of offsets) {
      if (entry.topic !== topic) continue;
      for (const { partition, offset } of entry.partitions) {
        if (offset !== '-1') this.advance(partition, Number(offset));
      }
    }
  }

  /** Other members' progress counts for the group's `caughtUp`: re-read committed offsets until caught up. */
  private pollGroupProgress(): void {
    let settled = false;
    this.caughtUp.then(
      () => (settled = true),
      () => (settled = true),
    );
    this.pollTimer = setInterval(() => {
      if (settled || this.stopping) {
        if (this.pollTimer) clearInterval(this.pollTimer);
        return;
      }
      this.readGroupPositions().then(
        () => this.tracker?.check(),
        () => undefined,
      );
    }, this.settings.catchUpPollMs);
    this.pollTimer.unref();
  }

  /**
   * Repeats `step` while it fails with a transient error (e.g. COORDINATOR_LOAD_IN_PROGRESS on a broker that has
   * just started, which kafkajs' admin does not retry), up to the join timeout.
   */
  private async untilSettled<T>(step: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.settings.joinTimeoutMs;
    let backoff = 100;
    for (;;) {
      try {
        return await step();
      } catch (error) {
        if (!isTransientKafkaError(error) || Date.now() + backoff > deadline || this.stopping) throw error;
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, 2000);
      }
    }
  }

  private waitForJoin(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        removeJoin();
        this.wakeOnClose.delete(cancel);
        reject(new Error(`KafkaBus: ${this.label} did not join its consumer group within ${this.settings.joinTimeoutMs} ms`));
      }, this.settings.joinTimeoutMs);
      const removeJoin = this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
        clearTimeout(timer);
        removeJoin();
        this.wakeOnClose.delete(cancel);
        resolve();
      });
      // close() cuts this wait short.
      const cancel = () => {
        clearTimeout(timer);
        removeJoin();
        reject(new Error(`KafkaBus: ${this.label} was closed before it joined its group`));
      };
      this.wakeOnClose.add(cancel);
    });
  }

  /**
   * Runs the handler until it succeeds, then resolves the batch's offsets (committed by kafkajs right after).
   * A failing handler is retried with back-off and never skipped; a rebalance or close in between abandons the
   * batch unresolved, so whoever owns the partition next receives it again.
   */
  private async handleBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    if (batch.messages.length === 0) return;
    const busBatch = toBusBatch(batch);
    let backoff = this.settings.retryBackoffMs.initial;
    for (;;) {
      if (this.stopping || !isRunning() || isStale()) return;
      try {
        await this.withHeartbeats(heartbeat, () => this.handler(busBatch));
        break;
      } catch (error) {
        this.settings.log(
          `${this.label}: handler failed on partition ${batch.partition} offsets ${batch.firstOffset()}..${batch.lastOffset()}, ` +
            `retrying in ${backoff} ms: ${describeError(error)}`,
        );
        await this.sleep(backoff);
        backoff = Math.min(backoff * 2, this.settings.retryBackoffMs.max);
        // Throws when the group is rebalancing: kafkajs then rejoins and the unresolved batch is fetched again.
        await heartbeat();
      }
    }
    const last = batch.lastOffset();
    resolveOffset(last);
    if (this.options.group === undefined || this.manualCommit) {
      this.advance(batch.partition, Number(last) + 1);
      this.tracker?.check();
    }
  }

  /** Keeps the group session alive while a slow handler runs (kafkajs only heartbeats between batches). */
  private async withHeartbeats(heartbeat: () => Promise<void>, work: () => Promise<void>): Promise<void> {
    const timer = setInterval(() => heartbeat().catch(() => undefined), this.settings.heartbeatIntervalMs);
    try {
      await work();
    } finally {
      clearInterval(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeOnClose.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeOnClose.add(wake);
    });
  }
}
