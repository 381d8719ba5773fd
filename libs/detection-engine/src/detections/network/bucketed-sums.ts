import type { KeyedState } from '../../state/state-budget';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { FirstSightings } from '../../state/first-sightings';
import { LruMap } from '../../state/lru-map';
import type { KeySlots } from '../../state/shared-keys';
import { readLru, writeLruBySlot } from '../../state/lru-snapshot';
import { SlotNumbers } from '../../state/slot-numbers';
import { fail, readArray, readCount, readNumber, readNumbers, readOffset, readTuples, writeNumber, writeOffset } from '../../state/snapshot';
import type { DetectorStateStats, ObservedEvent } from '../detection';
import type { PendingReport } from './distinct-windows';

/** The measure a flow adds when a window counts connections. */
export const ONE_CONNECTION: readonly number[] = [1];

export interface BucketedSumsOptions {
  windowMs: number;
  /** Numbers every event adds (the length of `values` given to {@link BucketedSums.add}). */
  measures: number;
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
  /**
   * Whether new keys start compact (see {@link BucketedSums}); by default when `evidenceFrom` is above 0, since
   * a key whose first event is evidence takes the general form at once. The totals, reports and snapshots are
   * the same either way.
   */
  compactKeys?: boolean;
  /** Where keys find their slots, when shared with other detections' maps (see SharedKeyTable); else a map of its own. */
  keySlots?: KeySlots<string>;
}

/** First events held per instance while keys are being evicted (about 450 KB with two measures). */
const FIRST_SIGHTING_SLOTS = 16_384;

/**
 * A key's window: its buckets oldest first, each `2 + measures` numbers in one list (start, events not yet
 * reported, then the sums), and the evidence each bucket keeps. One list instead of an object and a sums list
 * per bucket: most keys hold one bucket, and per-pair detections make a key for almost every new flow.
 */
interface KeySums {
  latestMs: number;
  cells: number[];
  /** Per bucket (same order), its latest unreported events, oldest first; undefined until a bucket keeps one (most keys never do). */
  evidence?: (ObservedEvent[] | undefined)[];
}

const START = 0;
const UNREPORTED = 1;
const SUMS = 2;

/** Where a compact key's numbers start in the slab: its latest event time, then its one bucket's cells. */
const LATEST = 0;
const CELLS = 1;

/**
 * Running sums of a few measures (bytes, packets, connections) per key over a sliding window of event time,
 * in fixed time buckets so that a key costs the same however many events it sees.
 *
 * When events become evidence only from some total on (`evidenceFrom`), a key starts compact: its latest time
 * and its one bucket live in a typed array indexed by the key's slot in the map (the slab), and the map holds
 * no object for it. Per-pair detections make a key for almost every new flow and most pairs never leave their
 * first bucket; an object and a list per key had made those keys most of the detections' allocation. A key
 * takes the general form (a {@link KeySums}) when it needs a second bucket or keeps an event as evidence.
 */
export class BucketedSums {
  /** Per key its window, or undefined while the key is compact (its numbers in {@link slab}). */
  private readonly sums: LruMap<string, KeySums | undefined>;
  private readonly bucketMs: number;
  /** Numbers per bucket in a key's cells. */
  private readonly stride: number;
  /**
   * An empty bucket's cells, copied for each new bucket: a copy has the exact length and keeps the list's kind
   * (doubles, for the NaN start), where a list grown by push would reserve room for 17 more.
   */
  private readonly emptyBucket: number[];
  /** The array {@link add} answers with, reused: every flow goes through here, and the caller reads it at once. */
  private readonly totals: number[] = [];
  /** Keys' first events ([timeMs, ...values]) while the map is evicting; made when first needed. */
  private firstSightings?: FirstSightings;
  private readonly sighting: number[] = [];
  /** Whether new keys start compact (only when events are not evidence from the first). */
  private readonly compact: boolean;
  /** Per slot of a compact key, its latest time and its one bucket. */
  private readonly slab: SlotNumbers;
  /** The total of the first measure from which an event is kept as evidence. */
  private readonly evidenceFrom: number;

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
    if (!Number.isInteger(options.measures) || options.measures < 1) throw new RangeError(`measures must be a positive integer, got ${options.measures}`);
    this.bucketMs = options.windowMs / options.buckets;
    this.stride = SUMS + options.measures;
    this.emptyBucket = [NaN, 0, ...Array<number>(options.measures).fill(0)];
    this.sums = new LruMap(options.maxKeys, undefined, options.keySlots);
    this.evidenceFrom = options.evidenceFrom ?? 0;
    this.compact = options.compactKeys ?? this.evidenceFrom > 0;
    this.slab = new SlotNumbers(CELLS + this.stride, options.maxKeys + 1);
    if (this.compact) this.sums.extraBytesPerEntry = this.slab.bytesPerSlot;
  }

  /**
   * Adds `values` at the event's time and returns the window's totals (an array valid until the next call:
   * reused, or `values` itself); undefined for an event older than the window.
   */
  add(key: string, values: readonly number[], observed: ObservedEvent): readonly number[] | undefined {
    let slot = this.sums.slotOf(key);
    if (slot < 0) {
      slot = this.newKey(key, values, observed.timeMs);
      // Held as a first sighting: the window holds this event alone.
      if (slot < 0) return values;
    }
    const state = this.sums.valueAt(slot);
    return state === undefined ? this.addCompact(slot, values, observed) : this.addToWindow(state, values, observed);
  }

  /** {@link add} for a compact key: its one bucket takes the event, unless the event needs another or is evidence. */
  private addCompact(slot: number, values: readonly number[], observed: ObservedEvent): readonly number[] | undefined {
    const slab = this.slab.values;
    const at = this.slab.offsetOf(slot);
    const startMs = this.bucketStart(observed.timeMs);
    const latestMs = slab[at + LATEST];
    if (startMs <= latestMs - this.options.windowMs) return undefined;
    if (startMs !== slab[at + CELLS + START]) return this.addToWindow(this.expand(slot), values, observed);
    // The bucket holds the key's latest time, so it is the newest and cannot have left the window.
    if (observed.timeMs > latestMs) slab[at + LATEST] = observed.timeMs;
    const sums = at + CELLS + SUMS;
    const totals = this.totals;
    totals.length = values.length;
    for (let i = 0; i < values.length; i++) totals[i] = slab[sums + i] += values[i];
    slab[at + CELLS + UNREPORTED]++;
    if (totals[0] >= this.evidenceFrom) this.expand(slot).evidence = [[observed]];
    return totals;
  }

  /** Gives a compact key its general form. */
  private expand(slot: number): KeySums {
    const state = this.windowAt(slot);
    this.sums.setValueAt(slot, state);
    return state;
  }

  /** {@link add} for a key in its general form. */
  private addToWindow(state: KeySums, values: readonly number[], observed: ObservedEvent): readonly number[] | undefined {
    const startMs = this.bucketStart(observed.timeMs);
    if (startMs <= state.latestMs - this.options.windowMs) return undefined;
    if (observed.timeMs > state.latestMs) state.latestMs = observed.timeMs;

    const stride = this.stride;
    let at = this.bucketAt(state, startMs);
    const cells = state.cells;
    for (let i = 0; i < values.length; i++) cells[at + SUMS + i] += values[i];
    cells[at + UNREPORTED]++;

    const cutoff = state.latestMs - this.options.windowMs;
    let expired = 0;
    while (expired < cells.length && cells[expired + START] + this.bucketMs <= cutoff) expired += stride;
    if (expired > 0) {
      cells.splice(0, expired);
      state.evidence?.splice(0, expired / stride);
      at -= expired;
    }
    const totals = this.totals;
    totals.length = values.length;
    totals.fill(0);
    for (let b = 0; b < cells.length; b += stride) for (let i = 0; i < totals.length; i++) totals[i] += cells[b + SUMS + i];
    if (totals[0] >= this.evidenceFrom) {
      const byBucket = (state.evidence ??= []);
      const evidence = (byBucket[at / stride] ??= []);
      evidence.push(observed);
      if (evidence.length > this.options.maxEvidence) evidence.shift();
    }
    return totals;
  }

  /**
   * Adds a key not in the map, its window empty before its current event, and returns its slot. -1 when that
   * event is held in the first-sightings table instead (the map is evicting, and the event is not evidence);
   * when the table held an earlier one, the window starts from it, as that event left it.
   */
  private newKey(key: string, values: readonly number[], timeMs: number): number {
    let firstMs = timeMs;
    let first: readonly number[] | undefined;
    if (this.sums.evicting && values[0] < this.evidenceFrom) {
      const sightings = (this.firstSightings ??= new FirstSightings(FIRST_SIGHTING_SLOTS, 1 + values.length));
      const sighting = this.sighting;
      sighting.length = 1 + values.length;
      sighting[0] = timeMs;
      for (let i = 0; i < values.length; i++) sighting[1 + i] = values[i];
      if (!sightings.recallOrHold(key, sighting)) return -1;
      firstMs = sighting[0];
      first = sighting;
    }
    if (!this.compact) {
      const cells = this.newBucket(firstMs);
      if (first !== undefined) {
        cells[UNREPORTED] = 1;
        for (let i = 0; i < values.length; i++) cells[SUMS + i] = first[1 + i];
      }
      return this.sums.addNew(key, { latestMs: firstMs, cells });
    }
    const slot = this.sums.addNew(key, undefined);
    const at = this.slab.reserve(slot);
    const slab = this.slab.values;
    slab[at + LATEST] = firstMs;
    slab[at + CELLS + START] = this.bucketStart(firstMs);
    slab[at + CELLS + UNREPORTED] = first === undefined ? 0 : 1;
    for (let i = 0; i < values.length; i++) slab[at + CELLS + SUMS + i] = first === undefined ? 0 : first[1 + i];
    return slot;
  }

  /** The cells of an empty bucket holding `timeMs`. */
  private newBucket(timeMs: number): number[] {
    const cells = this.emptyBucket.slice();
    cells[START] = this.bucketStart(timeMs);
    return cells;
  }

  private bucketStart(timeMs: number): number {
    return Math.floor(timeMs / this.bucketMs) * this.bucketMs;
  }

  takePending(key: string, trigger: ObservedEvent, maxEvidence: number): PendingReport {
    const slot = this.sums.peekSlot(key);
    if (slot < 0) return { weight: 1, evidence: [trigger] };
    const state = this.sums.valueAt(slot);
    if (state === undefined) {
      // Compact: no events kept.
      const unreported = this.slab.offsetOf(slot) + CELLS + UNREPORTED;
      const weight = this.slab.values[unreported];
      this.slab.values[unreported] = 0;
      return { weight: Math.max(weight, 1), evidence: [trigger] };
    }
    const { cells } = state;
    const stride = this.stride;
    let weight = 0;
    for (let b = 0; b < cells.length; b += stride) {
      weight += cells[b + UNREPORTED];
      cells[b + UNREPORTED] = 0;
    }
    const earlier: ObservedEvent[] = [];
    for (const events of state.evidence ?? []) for (const event of events ?? []) if (event !== trigger) earlier.push(event);
    state.evidence = undefined;
    earlier.sort((a, b) => a.timeMs - b.timeMs);
    return { weight: Math.max(weight, 1), evidence: [...earlier.slice(-(maxEvidence - 1)), trigger] };
  }

  /** The window of the key in a slot, its general form made up for a compact key (kept only by {@link expand}). */
  private windowAt(slot: number): KeySums {
    const state = this.sums.valueAt(slot);
    if (state !== undefined) return state;
    const slab = this.slab.values;
    const at = this.slab.offsetOf(slot);
    // A copy of the empty bucket keeps the cells a list of doubles of the exact length (see emptyBucket).
    const cells = this.emptyBucket.slice();
    for (let i = 0; i < this.stride; i++) cells[i] = slab[at + CELLS + i];
    return { latestMs: slab[at + LATEST], cells };
  }

  /** Per key `[latestMs, [latestMs - startMs, sums, unreported, events, ...]]`, buckets oldest first. */
  snapshot(events: SnapshotEventWriter): unknown[] {
    return writeLruBySlot(this.sums, (slot) => {
      const state = this.windowAt(slot);
      const stride = this.stride;
      const flat: unknown[] = [];
      for (let b = 0, n = 0; b < state.cells.length; b += stride, n++) {
        flat.push(
          writeOffset(state.latestMs, state.cells[b + START]),
          state.cells.slice(b + SUMS, b + stride).map(writeNumber),
          state.cells[b + UNREPORTED],
          (state.evidence?.[n] ?? []).map((e) => events.observed(e)),
        );
      }
      return [writeNumber(state.latestMs), flat];
    }, events);
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
        const cells: number[] = [];
        const byBucket: (ObservedEvent[] | undefined)[] = [];
        // A bucket per time slot of the window (plus the one being filled): more can only be corrupt.
        for (let i = Math.max(0, tuples.length - 4 * (this.options.buckets + 1)); i < tuples.length; i += 4) {
          const sums = readNumbers(tuples[i + 1], `${at}.sums`);
          if (sums.length !== this.options.measures) fail(`${at}.sums`, `${this.options.measures} sums`, sums.length);
          cells.push(readOffset(latestMs, tuples[i], `${at}.startMs`), readCount(tuples[i + 2], `${at}.unreported`), ...sums);
          const evidence = readArray(tuples[i + 3], `${at}.evidence`)
            .slice(-this.options.maxEvidence)
            .map((ref) => events.observed(ref, `${at}.evidence`));
          byBucket.push(evidence.length > 0 ? evidence : undefined);
        }
        const state: KeySums = { latestMs, cells };
        if (byBucket.some((e) => e !== undefined)) state.evidence = byBucket;
        return state;
      },
      what,
      events,
    );
  }

  /**
   * The offset in the key's cells of the bucket starting at `startMs`, added in time order when missing (events
   * mostly land in the newest bucket).
   */
  private bucketAt(state: KeySums, startMs: number): number {
    const { cells } = state;
    const stride = this.stride;
    let at = cells.length;
    while (at > 0 && cells[at - stride + START] > startMs) at -= stride;
    if (at > 0 && cells[at - stride + START] === startMs) return at - stride;
    cells.splice(at, 0, ...this.newBucket(startMs));
    const evidence = state.evidence;
    if (evidence !== undefined && at / stride < evidence.length) evidence.splice(at / stride, 0, undefined);
    return at;
  }

  stats(): DetectorStateStats {
    let largestKey = 0;
    for (const state of this.sums.values()) largestKey = Math.max(largestKey, state === undefined ? 1 : state.cells.length / this.stride);
    return { keys: this.sums.size, maxKeys: this.sums.maxSize, largestKey, maxEntriesPerKey: this.options.buckets + 1 };
  }
}
