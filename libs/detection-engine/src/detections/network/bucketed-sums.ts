import type { KeyedState } from '../../state/state-budget';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { FirstSightings } from '../../state/first-sightings';
import { LruMap } from '../../state/lru-map';
import { readLru, writeLru } from '../../state/lru-snapshot';
import { readArray, readCount, readNumber, readNumbers, readOffset, readTuples, writeNumber, writeOffset } from '../../state/snapshot';
import type { DetectorStateStats, ObservedEvent } from '../detection';
import type { PendingReport } from './distinct-windows';

/** The measure a flow adds when a window counts connections. */
export const ONE_CONNECTION: readonly number[] = [1];

export interface BucketedSumsOptions {
  windowMs: number;
  /** The window is kept as this many time buckets: memory per key is fixed, edges are bucket-accurate. */
  buckets: number;
  maxKeys: number;
  /** Evidence events remembered per bucket. */
  maxEvidence: number;
  /**
   * Events are remembered as evidence only once the window's first total has reached this (default 0: always).
   * Keys far below their detection's threshold then hold no events, which is most keys. While keys are being
   * evicted, a key's first event below this is held in a first-sightings table instead of state, so a detection
   * whose threshold is not below this sees the same totals.
   */
  evidenceFrom?: number;
}

/** First events held per instance while keys are being evicted (about 450 KB with two measures). */
const FIRST_SIGHTING_SLOTS = 16_384;

interface Bucket {
  startMs: number;
  sums: number[];
  unreported: number;
  /** Latest unreported events, oldest first, at most maxEvidence; undefined until the first (most keys never keep one). */
  evidence?: ObservedEvent[];
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
  /** The array {@link add} answers with, reused: every flow goes through here, and the caller reads it at once. */
  private readonly totals: number[] = [];
  /** Keys' first events ([timeMs, ...values]) while the map is evicting; made when first needed. */
  private firstSightings?: FirstSightings;
  private readonly sighting: number[] = [];

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

  /**
   * Adds `values` at the event's time and returns the window's totals (an array valid until the next call:
   * reused, or `values` itself); undefined for an event older than the window.
   */
  add(key: string, values: readonly number[], observed: ObservedEvent): readonly number[] | undefined {
    const startMs = this.bucketStart(observed.timeMs);
    let state = this.sums.get(key);
    if (state === undefined) {
      state = this.newKey(key, values, observed.timeMs);
      // Held as a first sighting: the window holds this event alone.
      if (state === undefined) return values;
    }
    if (startMs <= state.latestMs - this.options.windowMs) return undefined;
    if (observed.timeMs > state.latestMs) state.latestMs = observed.timeMs;

    const buckets = state.buckets;
    const bucket = bucketAt(buckets, startMs, values.length);
    for (let i = 0; i < values.length; i++) bucket.sums[i] = (bucket.sums[i] ?? 0) + values[i];
    bucket.unreported++;

    const cutoff = state.latestMs - this.options.windowMs;
    while (buckets.length > 0 && buckets[0].startMs + this.bucketMs <= cutoff) buckets.shift();
    const totals = this.totals;
    totals.length = values.length;
    totals.fill(0);
    for (const b of buckets) for (let i = 0; i < totals.length; i++) totals[i] += b.sums[i] ?? 0;
    if (totals[0] >= (this.options.evidenceFrom ?? 0)) {
      const evidence = (bucket.evidence ??= []);
      evidence.push(observed);
      if (evidence.length > this.options.maxEvidence) evidence.shift();
    }
    return totals;
  }

  /**
   * The state of a key not in the map, before its current event. Undefined when that event is held in the
   * first-sightings table instead (the map is evicting, and the event is not evidence); when the table held an
   * earlier one, the state starts from it, as that event left it.
   */
  private newKey(key: string, values: readonly number[], timeMs: number): KeySums | undefined {
    let state: KeySums;
    if (this.sums.evicting && values[0] < (this.options.evidenceFrom ?? 0)) {
      const sightings = (this.firstSightings ??= new FirstSightings(FIRST_SIGHTING_SLOTS, 1 + values.length));
      const first = this.sighting;
      first.length = 1 + values.length;
      first[0] = timeMs;
      for (let i = 0; i < values.length; i++) first[1 + i] = values[i];
      if (!sightings.recallOrHold(key, first)) return undefined;
      const firstMs = first[0];
      state = { latestMs: firstMs, buckets: [{ startMs: this.bucketStart(firstMs), sums: first.slice(1, 1 + values.length), unreported: 1 }] };
    } else {
      // Made with its first bucket in place: most keys never get a second, and a list grown by push would
      // reserve room for 17.
      state = { latestMs: timeMs, buckets: [emptyBucket(this.bucketStart(timeMs), values.length)] };
    }
    this.sums.set(key, state);
    return state;
  }

  private bucketStart(timeMs: number): number {
    return Math.floor(timeMs / this.bucketMs) * this.bucketMs;
  }

  takePending(key: string, trigger: ObservedEvent, maxEvidence: number): PendingReport {
    const state = this.sums.peek(key);
    if (state === undefined) return { weight: 1, evidence: [trigger] };
    let weight = 0;
    const earlier: ObservedEvent[] = [];
    for (const bucket of state.buckets) {
      weight += bucket.unreported;
      for (const event of bucket.evidence ?? []) if (event !== trigger) earlier.push(event);
      bucket.unreported = 0;
      bucket.evidence = undefined;
    }
    earlier.sort((a, b) => a.timeMs - b.timeMs);
    return { weight: Math.max(weight, 1), evidence: [...earlier.slice(-(maxEvidence - 1)), trigger] };
  }

  /** Per key `[latestMs, [latestMs - startMs, sums, unreported, events, ...]]`, buckets oldest first. */
  snapshot(events: SnapshotEventWriter): unknown[] {
    return writeLru(this.sums, (state) => [
      writeNumber(state.latestMs),
      state.buckets.flatMap((b) => [writeOffset(state.latestMs, b.startMs), b.sums.map(writeNumber), b.unreported, (b.evidence ?? []).map((e) => events.observed(e))]),
    ], events);
  }

  /** Replaces the state with a {@link snapshot} (undefined: empties it); first sightings are not in snapshots. */
  restore(data: unknown, events: SnapshotEventReader, what: string): void {
    this.firstSightings?.clear();
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
          const evidence = readArray(tuples[i + 3], `${at}.evidence`)
            .slice(-this.options.maxEvidence)
            .map((ref) => events.observed(ref, `${at}.evidence`));
          buckets.push({
            startMs: readOffset(latestMs, tuples[i], `${at}.startMs`),
            sums: readNumbers(tuples[i + 1], `${at}.sums`),
            unreported: readCount(tuples[i + 2], `${at}.unreported`),
            ...(evidence.length > 0 ? { evidence } : {}),
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

/** The bucket starting at `startMs`, added in time order when missing (events mostly land in the newest bucket). */
function bucketAt(buckets: Bucket[], startMs: number, measures: number): Bucket {
  let at = buckets.length;
  while (at > 0 && buckets[at - 1].startMs > startMs) at--;
  if (at > 0 && buckets[at - 1].startMs === startMs) return buckets[at - 1];
  const bucket = emptyBucket(startMs, measures);
  if (at === buckets.length) buckets.push(bucket);
  else buckets.splice(at, 0, bucket);
  return bucket;
}

function emptyBucket(startMs: number, measures: number): Bucket {
  return { startMs, sums: new Array<number>(measures).fill(0), unreported: 0 };
}
