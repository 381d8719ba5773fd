import type { BusBatch } from '@vigil/bus';
import { SnapshotAssembler, SnapshotRecordError, type StoredSnapshot } from './snapshot-records';

/**
 * The newest complete snapshot of every events partition, as read from `scoring.state.v1` by every replica
 * (compressed, in memory). Keeps the one with the highest events offset, so a stale writer cannot set a
 * partition back.
 */
export class SnapshotDirectory {
  private readonly latest = new Map<number, StoredSnapshot>();
  private readonly assembler = new SnapshotAssembler();
  private readonly waiters = new Set<() => void>();

  constructor(private readonly warn: (message: string) => void = () => undefined) {}

  /** Feeds a batch of state-topic records (the broadcast reader's handler). */
  apply(batch: BusBatch): void {
    for (const record of batch.records) {
      try {
        const complete = this.assembler.offer(record);
        if (complete !== undefined) this.offer(complete);
      } catch (error) {
        if (!(error instanceof SnapshotRecordError)) throw error;
        this.warn(`state record ${record.key} at offset ${record.offset} ignored: ${error.message}`);
      }
    }
  }

  /** Records a snapshot (also the writer's own, without waiting for it to come back from the topic). */
  offer(snapshot: StoredSnapshot): void {
    const held = this.latest.get(snapshot.partition);
    if (held !== undefined && held.offset > snapshot.offset) return;
    this.latest.set(snapshot.partition, snapshot);
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  latestOf(partition: number): StoredSnapshot | undefined {
    return this.latest.get(partition);
  }

  /** Compressed bytes held, for metrics. */
  get heldBytes(): number {
    let bytes = 0;
    for (const snapshot of this.latest.values()) bytes += snapshot.data.length;
    return bytes;
  }

  /**
   * The latest snapshot of `partition` once one at or past `minOffset` is known, or whatever is known (maybe
   * nothing) after `timeoutMs`.
   */
  async waitFor(partition: number, minOffset: number, timeoutMs: number): Promise<StoredSnapshot | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const held = this.latest.get(partition);
      const left = deadline - Date.now();
      if ((held !== undefined && held.offset >= minOffset) || left <= 0) return held;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }
}
