import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@vigil/platform';

/**
 * Per-destination delivery metrics (label `destination` = destination id). Lag is measured where the delivering
 * replica can see it: the age of the oldest record it has fetched and not yet delivered (0 when caught up), and
 * how many such records it holds. In Kafka mode the exact offset lag of consumer group `escalation.<id>` is also
 * visible to any Kafka lag exporter.
 */
const sent = new Counter({ name: 'vigil_escalation_sent_total', help: 'Findings/alerts delivered to an escalation destination', labelNames: ['destination'], registers: [metricsRegistry] });
const failed = new Counter({
  name: 'vigil_escalation_failed_total',
  help: 'Deliveries given up after the retries (dead-lettered)',
  labelNames: ['destination'],
  registers: [metricsRegistry],
});
const retries = new Counter({ name: 'vigil_escalation_retries_total', help: 'Failed delivery attempts that were retried', labelNames: ['destination'], registers: [metricsRegistry] });

/** Oldest pending record timestamp per destination and partition, and pending counts, read at scrape time. */
const pending = new Map<string, Map<number, { oldestMs: number; count: number }>>();

new Gauge({
  name: 'vigil_escalation_lag_seconds',
  help: 'Age of the oldest record fetched for a destination and not yet delivered (0 when caught up)',
  labelNames: ['destination'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    const now = Date.now();
    for (const [destination, partitions] of pending) {
      let oldest = Number.POSITIVE_INFINITY;
      for (const entry of partitions.values()) if (entry.count > 0) oldest = Math.min(oldest, entry.oldestMs);
      this.set({ destination }, Number.isFinite(oldest) ? Math.max(0, (now - oldest) / 1000) : 0);
    }
  },
});
new Gauge({
  name: 'vigil_escalation_pending_records',
  help: 'Records fetched for a destination and not yet delivered or skipped',
  labelNames: ['destination'],
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [destination, partitions] of pending) {
      let count = 0;
      for (const entry of partitions.values()) count += entry.count;
      this.set({ destination }, count);
    }
  },
});

export const escalationMetrics = {
  sent(destination: string): void {
    sent.inc({ destination });
  },
  failed(destination: string): void {
    failed.inc({ destination });
  },
  retried(destination: string): void {
    retries.inc({ destination });
  },
  /** A partition's pending records: count left and the oldest one's append time. */
  pending(destination: string, partition: number, count: number, oldestMs: number): void {
    let partitions = pending.get(destination);
    if (!partitions) pending.set(destination, (partitions = new Map()));
    partitions.set(partition, { oldestMs, count });
  },
  /** Starts the destination's series at 0, so dashboards see it before its first delivery. */
  register(destination: string): void {
    sent.inc({ destination }, 0);
    failed.inc({ destination }, 0);
    retries.inc({ destination }, 0);
    if (!pending.has(destination)) pending.set(destination, new Map());
  },
  /** Drops a removed destination's series. */
  forget(destination: string): void {
    pending.delete(destination);
    sent.remove({ destination });
    failed.remove({ destination });
    retries.remove({ destination });
  },
};
