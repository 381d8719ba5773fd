/**
 * The delivery loop of one partition for one subscriber: read a batch, await the handler, then report progress
 * (which commits for a group). A failing handler gets the same batch again after a growing back-off; nothing is
 * skipped and nothing is committed past a record whose handler has not resolved. New records wake the loop
 * through the log's in-process notification.
 */
import type { BatchHandler, BusBatch, ConsumedRecord } from '../bus';
import type { BusLogger, PartitionLog } from './partition-log';
import { PartitionReader } from './partition-reader';
import type { StoredRecord } from './record-frame';
import type { ReadLimits } from './recent-records';

export interface RetryPolicy {
  initialBackoffMs: number;
  maxBackoffMs: number;
}

export interface PartitionConsumerOptions {
  log: PartitionLog;
  handler: BatchHandler;
  /** First offset to deliver. */
  startOffset: number;
  limits: ReadLimits;
  retry: RetryPolicy;
  logger: BusLogger;
  /**
   * Called with the next offset to deliver whenever the position moves: after a batch's handler resolved, or
   * past offsets that can no longer be read (removed by retention, corrupt).
   */
  onHandled: (nextOffset: number) => void;
  /** Label for log lines, e.g. "group scoring" or "broadcast reader". */
  label: string;
}

export class PartitionConsumer {
  private position: number;
  private stopping = false;
  /** Ends the current wait (for records or a back-off) early; set while the loop waits. */
  private interrupt: (() => void) | null = null;
  private readonly loop: Promise<void>;

  constructor(private readonly options: PartitionConsumerOptions) {
    this.position = options.startOffset;
    this.loop = this.run();
  }

  /** Stops after the in-flight handler (if any) settles; a batch being retried is abandoned uncommitted. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.interrupt?.();
    await this.loop;
  }

  private get name(): string {
    return `${this.options.log.topic}/${this.options.log.partition} (${this.options.label})`;
  }

  private async run(): Promise<void> {
    const { log, limits, logger } = this.options;
    const reader = new PartitionReader(log, logger);
    let readFailures = 0;
    try {
      while (!this.stopping) {
        if (log.end <= this.position) {
          await this.waitFor((wake) => log.onNextAdvance(wake));
          continue;
        }
        let records: StoredRecord[];
        try {
          const result = await reader.read(this.position, limits);
          records = result.records;
          if (records.length === 0) {
            if (result.next === this.position) {
              await this.pause(this.backoff(++readFailures));
            } else {
              this.position = result.next;
              this.options.onHandled(this.position);
            }
            continue;
          }
          readFailures = 0;
        } catch (error) {
          logger(`${this.name}: read failed at offset ${this.position}: ${describe(error)}`);
          await this.pause(this.backoff(++readFailures));
          continue;
        }
        if (!(await this.deliver(records))) break;
        this.position = records[records.length - 1].offset + 1;
        this.options.onHandled(this.position);
      }
    } finally {
      await reader.close().catch((error: unknown) => logger(`${this.name}: closing reader: ${describe(error)}`));
    }
  }

  /** Calls the handler until it resolves; false when stopped first. */
  private async deliver(records: StoredRecord[]): Promise<boolean> {
    const { log } = this.options;
    let attempt = 0;
    while (!this.stopping) {
      const batch: BusBatch = { topic: log.topic, partition: log.partition, records: records.map((r) => this.toConsumed(r)) };
      try {
        await this.options.handler(batch);
        return true;
      } catch (error) {
        attempt += 1;
        const delay = this.backoff(attempt);
        this.options.logger(
          `${this.name}: handler failed for offsets ${records[0].offset}..${records[records.length - 1].offset} ` +
            `(attempt ${attempt}), retrying in ${delay} ms: ${describe(error)}`,
        );
        await this.pause(delay);
      }
    }
    return false;
  }

  private toConsumed(record: StoredRecord): ConsumedRecord {
    const consumed: ConsumedRecord = {
      key: record.key,
      value: record.value,
      partition: this.options.log.partition,
      offset: String(record.offset),
      timestamp: record.timestamp,
    };
    if (record.headers) consumed.headers = { ...record.headers };
    return consumed;
  }

  private backoff(attempt: number): number {
    const { initialBackoffMs, maxBackoffMs } = this.options.retry;
    return Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.min(attempt - 1, 30));
  }

  private pause(ms: number): Promise<void> {
    return this.waitFor((wake) => {
      const timer = setTimeout(wake, ms);
      return () => clearTimeout(timer);
    });
  }

  /**
   * Waits until `arm`'s wake-up fires or stop() interrupts. `arm` returns a canceller; nothing is left registered
   * afterwards (unlike racing against a long-lived stop promise, which would pile up reactions).
   */
  private waitFor(arm: (wake: () => void) => () => void): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.stopping) {
        resolve();
        return;
      }
      const finish = () => {
        this.interrupt = null;
        resolve();
      };
      const cancel = arm(finish);
      this.interrupt = () => {
        cancel();
        finish();
      };
    });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
