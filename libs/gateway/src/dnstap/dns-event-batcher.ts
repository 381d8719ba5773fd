import type { DnsEvent } from '@vigil/contracts';
import { TelemetryBusUnavailableError } from '../telemetry-intake';

export const DNSTAP_BATCH_EVENTS = 2000;
export const DNSTAP_FLUSH_INTERVAL_MS = 1000;
/** Attempts of a flush once the connection is closing (while it is open, a flush retries until the bus takes it). */
const ATTEMPTS_WHEN_CLOSING = 3;
const MAX_RETRY_DELAY_MS = 5000;

export interface BatcherOptions {
  maxEvents: number;
  intervalMs: number;
  /** Publishes one batch; throws TelemetryBusUnavailableError when the bus refuses it (retried). */
  publish(events: DnsEvent[]): Promise<void>;
  /** A batch given up (other error, or the bus still unavailable while closing). */
  onDropped(count: number, error: unknown): void;
  /** A publish attempt that will be retried. */
  onRetry(count: number, error: TelemetryBusUnavailableError): void;
}

/**
 * The events of one dnstap connection, published in batches: when `maxEvents` are pending (the caller pauses
 * reading until the flush is done, so a sender outrunning the bus is held back by TCP) or `intervalMs` after the
 * first pending event. One flush at a time.
 */
export class DnsEventBatcher {
  private pending: DnsEvent[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private closing = false;

  constructor(private readonly options: BatcherOptions) {}

  get size(): number {
    return this.pending.length;
  }

  get full(): boolean {
    return this.pending.length >= this.options.maxEvents;
  }

  add(events: DnsEvent[]): void {
    if (events.length === 0) return;
    for (const event of events) this.pending.push(event);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.intervalMs);
      this.timer.unref();
    }
  }

  /** Publishes what is pending; resolves when done (also when the batch had to be dropped). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.publish(batch).finally(() => (this.flushing = undefined));
    await this.flushing;
  }

  /** Publishes the rest with a bounded number of attempts; no timer is left behind. */
  async close(): Promise<void> {
    this.closing = true;
    await this.flush();
  }

  private async publish(batch: DnsEvent[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.publish(batch);
        return;
      } catch (error) {
        if (!(error instanceof TelemetryBusUnavailableError) || (this.closing && attempt >= ATTEMPTS_WHEN_CLOSING)) {
          this.options.onDropped(batch.length, error);
          return;
        }
        this.options.onRetry(batch.length, error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(error.retryAfterSeconds * 1000, MAX_RETRY_DELAY_MS)));
      }
    }
  }
}
