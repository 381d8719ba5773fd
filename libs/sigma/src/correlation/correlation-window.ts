import { stateArray, stateCount, stateFail, stateNumber, writeStateNumber } from './correlation-state';

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

  /**
   * `[entries, sum]`: entries flat as `[timeMs, source, value, sample, ...]`, oldest first, with the
   * running sum kept as is (re-adding floating-point values in another order could change it).
   */
  snapshot(encodeSample: (sample: unknown) => unknown): unknown[] {
    return [this.entries.flatMap((e) => [writeStateNumber(e.timeMs), e.source, e.value ?? null, encodeSample(e.sample)]), writeStateNumber(this.sum)];
  }

  /** A window from a {@link snapshot}; `sources` is the number of referenced rules (valid `source` values). */
  static restore(timespanMs: number, capacity: number, sources: number, data: unknown, decodeSample: (encoded: unknown, what: string, timeMs: number) => unknown, what: string): CorrelationWindow {
    const [flat, sum] = stateArray(data, what);
    const tuples = stateArray(flat, `${what}.entries`);
    if (tuples.length % 4 !== 0) stateFail(`${what}.entries`, 'a flat list of 4-tuples', `length ${tuples.length}`);
    const window = new CorrelationWindow(timespanMs, capacity);
    const from = Math.max(0, tuples.length - 4 * capacity);
    let previousMs = -Infinity;
    for (let i = from; i < tuples.length; i += 4) {
      const timeMs = stateNumber(tuples[i], `${what}.timeMs`);
      if (!(timeMs >= previousMs)) stateFail(`${what}.timeMs`, 'times in ascending order', timeMs);
      previousMs = timeMs;
      const source = stateCount(tuples[i + 1], `${what}.source`);
      if (source >= sources) stateFail(`${what}.source`, `a rule position below ${sources}`, source);
      const raw = tuples[i + 2];
      if (raw !== null && typeof raw !== 'string' && typeof raw !== 'number') stateFail(`${what}.value`, 'a string, number or null', raw);
      const entry: WindowEntry = { timeMs, source, sample: decodeSample(tuples[i + 3], `${what}.sample`, timeMs) };
      if (raw !== null) entry.value = raw;
      window.entries.push(entry);
      window.account(entry, 1);
    }
    // The running sum of the full window is exact; one recomputed after dropping entries is all there is.
    if (from === 0) window.sum = stateNumber(sum, `${what}.sum`);
    return window;
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
