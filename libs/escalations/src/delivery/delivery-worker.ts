import type { Bus, BusBatch, ConsumedRecord, Subscription } from '@vigil/bus';
import { deliveryGroup, type EscalationDestination } from '../destinations/destination';
import { itemFromRecord, type EscalationItem } from '../payload/escalation-item';
import type { EscalationTransport } from '../transports/transport';
import { DeliveryCancelledError, DeliveryPausedError, deliverWithRetries } from './deliver';
import { escalationMetrics } from './escalation-metrics';

export interface DeliveryTopics {
  findings: string;
  alerts: string;
  deadLetter: string;
}

export interface WorkerLog {
  log(message: string): void;
  warn(message: string): void;
}

export interface DeliveryWorkerOptions {
  bus: Bus;
  topics: DeliveryTopics;
  transport: EscalationTransport;
  log: WorkerLog;
  /** Offsets are committed at least this often within a long batch (and always at its end). Default 250 ms. */
  commitIntervalMs?: number;
}

/**
 * How long one handler call may wait for a retry before handing the partition back to the bus (which calls again
 * with the same records). A member that sits in a long back-off would otherwise hold up its group's rebalances,
 * and the Bus port tells a handler nothing about them.
 */
const HOLD_MS = 10_000;

/** Thrown out of the handler to hand a partition back while a delivery waits for its next attempt. */
class PartitionHandedBackError extends Error {
  override readonly name = 'PartitionHandedBackError';
  constructor(message: string) {
    super(message);
    // Logged by the bus on every hand-back: the message says it all, a stack trace would only add noise.
    this.stack = `${this.name}: ${message}`;
  }
}

/** Header names on the dead-letter record of a delivery that was given up. */
export const DEAD_LETTER_HEADERS = { destination: 'escalation-destination', idempotencyKey: 'idempotency-key', attempts: 'escalation-attempts' } as const;

/**
 * Delivers one destination: a member of the destination's own consumer group `escalation.<id>` on the findings
 * (or alerts) topic, so each destination keeps its own position and a failing one holds back no other. Records are
 * delivered in partition order, each retried per the destination's policy and dead-lettered when that runs out;
 * the group's offset is committed (manual commit) only past records that were delivered, dead-lettered or are
 * not for this destination, so a restart or a hand-over to another replica re-delivers at most the records
 * after the last commit (at least once; duplicates carry the same Idempotency-Key).
 */
export class DeliveryWorker {
  private subscription: Subscription | undefined;
  /** Resolves with the subscription: the bus may hand over the first batch before subscribe() has returned. */
  private readonly subscribed: Promise<Subscription>;
  private resolveSubscribed!: (subscription: Subscription) => void;
  /** Rejects with DeliveryCancelledError once the worker stops. */
  private readonly cancelled: Promise<never>;
  private readonly abort = new AbortController();
  /** Next offset per partition that this process has already dealt with (a retried batch skips what is done). */
  private readonly done = new Map<number, number>();
  /** Deliveries waiting for their next attempt, by `<partition>:<offset>`. */
  private readonly paused = new Map<string, { attempts: number; resumeAt: number }>();
  private readonly notBeforeMs: number;
  private readonly label: string;

  constructor(
    readonly destination: EscalationDestination,
    private readonly options: DeliveryWorkerOptions,
  ) {
    this.notBeforeMs = Date.parse(destination.createdAt);
    this.label = `escalation "${destination.name}" (${destination.id})`;
    this.subscribed = new Promise((resolve) => (this.resolveSubscribed = resolve));
    this.cancelled = new Promise<never>((_, reject) => this.abort.signal.addEventListener('abort', () => reject(new DeliveryCancelledError()), { once: true }));
    this.cancelled.catch(() => undefined);
  }

  get sourceTopic(): string {
    return this.destination.format === 'ocsf' ? this.options.topics.findings : this.options.topics.alerts;
  }

  async start(): Promise<void> {
    escalationMetrics.register(this.destination.id);
    this.subscription = await this.options.bus.subscribe(
      { topic: this.sourceTopic, group: deliveryGroup(this.destination.id), fromBeginning: true, commit: 'manual' },
      (batch) => this.handle(batch),
    );
    this.resolveSubscribed(this.subscription);
  }

  /** Stops at once: an attempt or back-off in progress is abandoned uncommitted (re-delivered later). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.subscription?.close();
    await this.options.transport.close();
  }

  private async handle(batch: BusBatch): Promise<void> {
    const { partition } = batch;
    const commitEvery = this.options.commitIntervalMs ?? 250;
    const todo = batch.records.filter((r) => Number(r.offset) >= (this.done.get(partition) ?? 0));
    let lastCommit = Date.now();
    let committed = true;
    let handedBack = false;
    try {
      for (let i = 0; i < todo.length; i++) {
        const record = todo[i];
        escalationMetrics.pending(this.destination.id, partition, todo.length - i, record.timestamp);
        const item = this.select(record);
        if (item) await this.deliver(batch, record, item);
        const next = String(Number(record.offset) + 1);
        this.done.set(partition, Number(next));
        committed = false;
        if (Date.now() - lastCommit >= commitEvery) {
          if (!(await this.commit(partition, next))) return;
          committed = true;
          lastCommit = Date.now();
        }
      }
      const last = batch.records[batch.records.length - 1];
      if (!committed || todo.length < batch.records.length) await this.commit(partition, String(Number(last.offset) + 1));
    } catch (error) {
      handedBack = error instanceof PartitionHandedBackError;
      // Stopping: leave the rest uncommitted for whoever consumes the partition next.
      if (!(error instanceof DeliveryCancelledError)) throw error;
    } finally {
      // A partition handed back is still pending: its lag keeps growing until the delivery is done.
      if (!handedBack) escalationMetrics.pending(this.destination.id, partition, 0, 0);
    }
  }

  /** The item to deliver, or undefined for a record this destination does not take. */
  private select(record: ConsumedRecord): EscalationItem | undefined {
    if (record.timestamp < this.notBeforeMs) return undefined;
    let item: EscalationItem;
    try {
      item = itemFromRecord(this.destination.format, record.value);
    } catch {
      // The findings writer dead-letters unreadable records already; nothing to deliver.
      return undefined;
    }
    if (item.workspaceId !== this.destination.workspaceId || item.severity < this.destination.minSeverity) return undefined;
    return item;
  }

  private async deliver(batch: BusBatch, record: ConsumedRecord, item: EscalationItem): Promise<void> {
    const id = this.destination.id;
    const key = `${batch.partition}:${record.offset}`;
    let outcome: Awaited<ReturnType<typeof deliverWithRetries>>;
    try {
      outcome = await deliverWithRetries(this.options.transport, item, this.destination.retry, this.abort.signal, {
        resume: this.paused.get(key),
        holdMs: HOLD_MS,
        onRetry: (attempt, error, waitMs) => {
          escalationMetrics.retried(id);
          this.options.log.warn(`${this.label}: attempt ${attempt} for ${item.idempotencyKey} failed (${error}); retrying in ${waitMs} ms`);
        },
      });
    } catch (error) {
      if (!(error instanceof DeliveryPausedError)) throw error;
      this.paused.set(key, error.resume);
      // What came before this record is done: record it, then hand the partition back until the next attempt.
      await this.commit(batch.partition, record.offset);
      throw new PartitionHandedBackError(`${this.label}: ${item.idempotencyKey} waits for attempt ${error.resume.attempts + 1}; partition ${batch.partition} handed back meanwhile`);
    }
    this.paused.delete(key);
    if (outcome.ok) {
      escalationMetrics.sent(id);
      return;
    }
    const reason = `escalation failed after ${outcome.attempts} attempt(s): ${outcome.error}`;
    await this.options.bus.publish(this.options.topics.deadLetter, [
      {
        key: record.key,
        value: record.value,
        headers: {
          ...record.headers,
          reason,
          source: batch.topic,
          [DEAD_LETTER_HEADERS.destination]: id,
          [DEAD_LETTER_HEADERS.idempotencyKey]: item.idempotencyKey,
          [DEAD_LETTER_HEADERS.attempts]: String(outcome.attempts),
        },
      },
    ]);
    escalationMetrics.failed(id);
    this.options.log.warn(`${this.label}: ${item.idempotencyKey} sent to ${this.options.topics.deadLetter}: ${reason}`);
  }

  private async commit(partition: number, nextOffset: string): Promise<boolean> {
    if (this.abort.signal.aborted) throw new DeliveryCancelledError();
    const subscription = await Promise.race([this.subscribed, this.cancelled]);
    const ok = await subscription.commit(partition, nextOffset);
    // Lost the partition (rebalance): its new owner resumes from the last commit; stop this batch here.
    if (!ok) this.done.delete(partition);
    return ok;
  }
}
