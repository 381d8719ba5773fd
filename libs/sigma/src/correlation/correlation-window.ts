export interface WindowEntry {
  timeMs: number;
  /** Position of the referenced rule in the correlation's `rules`. */
  source: number;
  /** The aggregated field's value, as text (value_count, value_percentile) or number (value_sum, value_avg). */
  value?: string | number;
  /** A handle on the contributing event, kept for the match report. */
  sample: unknown;
}

/**
 * The events of one correlation group within the timespan, sorted by event time, with running
 * aggregates so each new event costs O(log n) plus what it evicts. At most `capacity` entries.
 */
export class CorrelationWindow {
  readonly entries: WindowEntry[] = [];
  private readonly counts = new Map<string, number>();
  private sum = 0;
  private numeric = 0;

  constructor(
    private readonly timespanMs: number,
    private readonly capacity: number,
  ) {}

  /** Adds an event; returns false when it is older than the window allows. */
  add(entry: WindowEntry): boolean {
    const latest = this.entries.length ? this.entries[this.entries.length - 1].timeMs : entry.timeMs;
    if (entry.timeMs <= Math.max(latest, entry.timeMs) - this.timespanMs) return false;
    let at = this.entries.length;
    while (at > 0 && this.entries[at - 1].timeMs > entry.timeMs) at--;
    this.entries.splice(at, 0, entry);
    this.account(entry, 1);
    const newest = this.entries[this.entries.length - 1].timeMs;
    let drop = 0;
    while (drop < this.entries.length && (this.entries[drop].timeMs <= newest - this.timespanMs || this.entries.length - drop > this.capacity)) {
      this.account(this.entries[drop], -1);
      drop++;
    }
    if (drop) this.entries.splice(0, drop);
    return true;
  }

  private account(entry: WindowEntry, sign: 1 | -1): void {
    if (typeof entry.value === 'number') {
      this.sum += sign * entry.value;
      this.numeric += sign;
    } else if (typeof entry.value === 'string') {
      const n = (this.counts.get(entry.value) ?? 0) + sign;
      if (n === 0) this.counts.delete(entry.value);
      else this.counts.set(entry.value, n);
    }
  }

  clear(): void {
    this.entries.length = 0;
    this.counts.clear();
    this.sum = 0;
    this.numeric = 0;
  }

  get size(): number {
    return this.entries.length;
  }
  get distinct(): number {
    return this.counts.size;
  }
  get total(): number {
    return this.sum;
  }
  get average(): number {
    return this.numeric ? this.sum / this.numeric : 0;
  }
  /** Share (percent) of the window's values equal to `value`. */
  sharePercent(value: string): number {
    let all = 0;
    for (const n of this.counts.values()) all += n;
    return all ? (100 * (this.counts.get(value) ?? 0)) / all : 0;
  }
  /** Distinct referenced rules present. */
  sources(): Set<number> {
    return new Set(this.entries.map((e) => e.source));
  }
  /** Whether the referenced rules 0..n-1 occur in this order in time. */
  inOrder(n: number): boolean {
    let next = 0;
    for (const e of this.entries) if (e.source === next && ++next === n) return true;
    return false;
  }
}
