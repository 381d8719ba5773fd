/**
 * What a sole writer (the embedded store: one process owns the data directory) remembers of its own inserts, so
 * that most records need no existence query: each costs the embedded engine about 4 ms of CPU, once per insert
 * of a few records, which under a saturated sensor fleet came to a tenth of a core.
 *
 * Exact for every record whose own time (whole milliseconds, as stored) lies after `coveredAfterMs`: no record
 * that late was stored before this process started (the bound starts at the newest time stored then), and every
 * one stored since is remembered, because forgetting a key raises the bound to its time. Records at or before the
 * bound are left to the store. A re-delivered record keeps its time (a finding's batch time, an alert's event
 * time), so it is judged on the same side of the bound as its first delivery.
 */
export class RecentlyStoredKeys {
  /** Key → the record's time, in insertion order (the order keys are forgotten in). */
  private readonly keys = new Map<string, number>();
  private coveredAfterMs: number;

  constructor(
    newestStoredTimeMs: number,
    private readonly capacity: number,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a whole number ≥ 1, got ${capacity}`);
    this.coveredAfterMs = newestStoredTimeMs;
  }

  /** Whether `has` is exact for a record of this time. */
  covers(timeMs: number): boolean {
    return storedMs(timeMs) > this.coveredAfterMs;
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** A record of this time and key is stored. */
  add(key: string, timeMs: number): void {
    this.keys.delete(key);
    this.keys.set(key, storedMs(timeMs));
    for (const [oldest, oldestMs] of this.keys) {
      if (this.keys.size <= this.capacity) break;
      this.keys.delete(oldest);
      this.coveredAfterMs = Math.max(this.coveredAfterMs, oldestMs);
    }
  }

  /** Records up to this time may be stored without being remembered (an insert failed part-way): ask the store. */
  uncover(timeMs: number): void {
    this.coveredAfterMs = Math.max(this.coveredAfterMs, storedMs(timeMs));
  }

  get size(): number {
    return this.keys.size;
  }
}

/** The time as DateTime64(3) keeps it: JavaScript dates drop the fraction of a millisecond toward zero. */
function storedMs(timeMs: number): number {
  return Math.trunc(timeMs);
}
