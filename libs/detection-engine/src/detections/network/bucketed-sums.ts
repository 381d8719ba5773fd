import type { KeyedState } from '../../state/state-budget';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { LruMap } from '../../state/lru-map';
import { readLru, writeLru } from '../../state/lru-snapshot';
import { readArray, readCount, readNumber, readNumbers, readOffset, readTuples, writeNumber, writeOffset } from '../../state/snapshot';
import type { DetectorStateStats, ObservedEvent } from '../detection';
import type { PendingReport } from './distinct-windows';

export interface BucketedSumsOptions {
  windowMs: number;
  /** The window is kept as this many time buckets: memory per key is fixed, edges are bucket-accurate. */
  buckets: number;
  maxKeys: number;
  /** Evidence events remembered per bucket. */
  maxEvidence: number;
  /**
   * Events are remembered as evidence only once the window's first total has reached this (default 0: always).
   * Keys far below their detection's threshold then hold no events, which is most keys.
   */
  evidenceFrom?: number;
}

interface Bucket {
  startMs: number;
  sums: number[];
  unreported: number;
  /** Latest unreported events, oldest first, at most maxEvidence. */
  evidence: ObservedEvent[];
}

interface KeySums {
  latestMs: number;
  /** Oldest first. */
  buckets: Bucket[];
}

/**
 * Running sums of a few measures (bytes, packets, connections) per key over a sliding window of event time,
 * in fixed time buckets so that a key costs the same however many events it sees.
 */
export class BucketedSums {
  private readonly sums: LruMap<string, KeySums>;
  private readonly bucketMs: number;

  /** The keyed state, for the process-wide memory budget. */
  keyedState(): readonly KeyedState[] {
    return [this.sums];
  }

  constructor(private readonly options: BucketedSumsOptions) {
    if (!(options.windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${options.windowMs}`);
    if (!Number.isInteger(options.buckets) || options.buckets < 1) throw new RangeError(`buckets must be a positive integer, got ${options.buckets}`);
    if (!Number.isInteger(options.maxEvidence) || options.maxEvidence < 1) {
      throw new RangeError(`maxEvidence must be a positive integer, got ${options.maxEvidence}`);
    }
    this.bucketMs = options.windowMs / options.buckets;
    this.sums = new LruMap(options.maxKeys);
  }

  /** Adds `values` at the event's time and returns the window's totals; undefined for an event older than the window. */
  add(key: string, values: readonly number[], observed: ObservedEvent): number[] | undefined {
    let state = this.sums.get(key);
    if (state === undefined) {
      state = { latestMs: observed.timeMs, buckets: [] };
      this.sums.set(key, state);
    }
    const startMs = Math.floor(observed.timeMs / this.bucketMs) * this.bucketMs;
    if (startMs <= state.latestMs - this.options.windowMs) return undefined;
    state.latestMs = Math.max(state.latestMs, observed.timeMs);

    let bucket = state.buckets.find((b) => b.startMs === startMs);
    if (bucket === undefined) {
      bucket = { startMs, sums: values.map(() => 0), unreported: 0, evidence: [] };
      state.buckets.push(bucket);
      state.buckets.sort((a, b) => a.startMs - b.startMs);
    }
    values.forEach((v, i) => (bucket.sums[i] = (bucket.sums[i] ?? 0) + v));
    bucket.unreported++;

    const cutoff = state.latestMs - this.options.windowMs;
    while (state.buckets.length > 0 && state.buckets[0].startMs + this.bucketMs <= cutoff) state.buckets.shift();
    const totals = values.map(() => 0);
    for (const b of state.buckets) b.sums.forEach((v, i) => (totals[i] += v));
    if (totals[0] >= (this.options.evidenceFrom ?? 0)) {
      bucket.evidence.push(observed);
      if (bucket.evidence.length > this.options.maxEvidence) bucket.evidence.shift();
    }
    return totals;
  }

  takePending(key: string, trigger: ObservedEvent, maxEvidence: number): PendingReport {
    const state = this.sums.peek(key);
    if (state === undefined) return { weight: 1, evidence: [trigger] };
    let weight = 0;
    const earlier: ObservedEvent[] = [];
    for (const bucket of state.buckets) {
      weight += bucket.unreported;
      for (const event of bucket.evidence) if (event !== trigger) earlier.push(event);
      bucket.unreported = 0;
      bucket.evidence = [];
    }
    earlier.sort((a, b) => a.timeMs - b.timeMs);
    return { weight: Math.max(weight, 1), evidence: [...earlier.slice(-(maxEvidence - 1)), trigger] };
  }

  /** Per key `[latestMs, [latestMs - startMs, sums, unreported, events, ...]]`, buckets oldest first. */
  snapshot(events: SnapshotEventWriter): unknown[] {
    return writeLru(this.sums, (state) => [
      writeNumber(state.latestMs),
      state.buckets.flatMap((b) => [writeOffset(state.latestMs, b.startMs), b.sums.map(writeNumber), b.unreported, b.evidence.map((e) => events.observed(e))]),
    ], events);
  }

  /** Replaces the state with a {@link snapshot} (undefined: empties it). */
  restore(data: unknown, events: SnapshotEventReader, what: string): void {
    readLru(
      this.sums,
      data,
      (value, at) => {
        const [latest, flat] = readArray(value, at);
        const latestMs = readNumber(latest, `${at}.latestMs`);
        const tuples = readTuples(flat, 4, `${at}.buckets`);
        const buckets: Bucket[] = [];
        // A bucket per time slot of the window (plus the one being filled): more can only be corrupt.
        for (let i = Math.max(0, tuples.length - 4 * (this.options.buckets + 1)); i < tuples.length; i += 4) {
          buckets.push({
            startMs: readOffset(latestMs, tuples[i], `${at}.startMs`),
            sums: readNumbers(tuples[i + 1], `${at}.sums`),
            unreported: readCount(tuples[i + 2], `${at}.unreported`),
            evidence: readArray(tuples[i + 3], `${at}.evidence`)
              .slice(-this.options.maxEvidence)
              .map((ref) => events.observed(ref, `${at}.evidence`)),
          });
        }
        return { latestMs, buckets };
      },
      what,
      events,
    );
  }

  stats(): DetectorStateStats {
    let largestKey = 0;
    for (const state of this.sums.values()) largestKey = Math.max(largestKey, state.buckets.length);
    return { keys: this.sums.size, maxKeys: this.sums.maxSize, largestKey, maxEntriesPerKey: this.options.buckets + 1 };
  }
}
