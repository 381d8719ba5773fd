/**
 * The bus port. Two implementations: LocalBus (embedded mode: durable log files under the data directory)
 * and KafkaBus (distributed mode). Semantics follow Kafka so that code above the port cannot tell them apart.
 */
export interface BusRecord {
  key: string;
  value: Buffer;
  headers?: Record<string, string>;
}

export interface ConsumedRecord extends BusRecord {
  partition: number;
  /** Position in the partition, as a decimal string (Kafka offsets are int64). */
  offset: string;
  /** Epoch milliseconds at which the record was appended. */
  timestamp: number;
}

export interface BusBatch {
  topic: string;
  partition: number;
  records: ConsumedRecord[];
}

export interface SubscribeOptions {
  topic: string;
  /**
   * Consumer group: each partition goes to one member of the group, and the group's offset is committed
   * after the handler resolves (at-least-once). Omit for a broadcast reader that reads the whole topic
   * from the start on every start-up and commits nothing (used to rebuild caches from compacted topics).
   */
  group?: string;
  /** For a new group without a committed offset: start from the earliest record (default true). */
  fromBeginning?: boolean;
  /**
   * Groups only. `auto` (default): the group's offset is committed after each batch's handler resolved.
   * `manual`: nothing is committed until the subscriber calls {@link Subscription.commit}, so a member that
   * takes a partition over resumes at the last offset the subscriber chose to commit (e.g. where its state was
   * last saved).
   */
  commit?: 'auto' | 'manual';
}

export type BatchHandler = (batch: BusBatch) => Promise<void>;

export interface Subscription {
  /** Resolves once the subscriber has caught up with everything published before subscribe() was called. */
  readonly caughtUp: Promise<void>;
  /**
   * Manual-commit group members only: makes `nextOffset` (the next record to deliver, a decimal string) the
   * group's position in `partition`. Resolves true once stored, false when this member does not own the
   * partition (any more) or the commit was refused because the group is rebalancing. Throws for broadcast
   * readers and auto-commit members.
   */
  commit(partition: number, nextOffset: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface Bus {
  /**
   * Resolves once every record is durable (fsynced locally, or acknowledged by all in-sync Kafka replicas). The
   * record values are handed over: the local bus writes and serves them without a copy, so never change one after.
   */
  publish(topic: string, records: BusRecord[]): Promise<void>;
  subscribe(options: SubscribeOptions, handler: BatchHandler): Promise<Subscription>;
  close(): Promise<void>;
}

/** Thrown by publish() when the bus cannot take more now; the gateway answers 503 with Retry-After. */
export class BusBackpressureError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('the event bus is saturated; retry later');
  }
}

/** Nest injection token for the process's Bus. */
export const BUS = Symbol('BUS');
