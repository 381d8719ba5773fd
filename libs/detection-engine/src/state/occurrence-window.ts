import type { ObservedEvent } from '../detections/detection';
import type { SnapshotEventReader, SnapshotEventWriter } from './event-table';
import { readArray, readCount, readNumber, readOffset, readString, readTuples, writeNumber, writeOffset } from './snapshot';

/** One distinct key of a window: when it was last seen, its latest event and the occurrences not yet reported. */
export interface Occurrence<T> {
  lastSeenMs: number;
  unreported: number;
  /** Latest occurrence, kept for evidence while unreported. */
  latest: ObservedEvent;
  data: T;
}

/**
 * The distinct keys (subdomains, domains, ...) one host produced within a sliding time window, bounded in size,
 * for detections that fire on "N distinct things in T". Map order = least recently seen first.
 */
export class OccurrenceWindow<T> {
  readonly entries = new Map<string, Occurrence<T>>();
  private keyChanges = 0;
  /** A value a detector derived from the keys, as of {@link keyVersion} (kept here: a side table costs more). */
  derived: { keyVersion: number; value: unknown } | undefined;

  constructor(
    public latestMs: number,
    private readonly windowMs: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Changes whenever a key joins or leaves the window (not when a key present recurs): for caching what depends only on the keys. */
  get keyVersion(): number {
    return this.keyChanges;
  }

  /**
   * Records one occurrence of `key` and drops what fell out of the window. Returns false (recording nothing) for an
   * out-of-order event older than the window: it no longer says anything about the current rate.
   */
  add(key: string, observed: ObservedEvent, data: T): boolean {
    if (observed.timeMs < this.latestMs - this.windowMs) return false;
    this.latestMs = Math.max(this.latestMs, observed.timeMs);
    const previous = this.entries.get(key);
    if (previous === undefined) this.keyChanges++;
    this.entries.delete(key);
    this.entries.set(key, {
      lastSeenMs: Math.max(previous?.lastSeenMs ?? observed.timeMs, observed.timeMs),
      unreported: (previous?.unreported ?? 0) + 1,
      latest: observed,
      data,
    });
    while (this.entries.size > this.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
      this.keyChanges++;
    }
    const cutoff = this.latestMs - this.windowMs;
    for (const [k, entry] of this.entries) {
      if (entry.lastSeenMs < cutoff) {
        this.entries.delete(k);
        this.keyChanges++;
      }
    }
    return true;
  }

  /**
   * Marks every unreported occurrence as reported: the build-up when a detection first fires, one occurrence
   * afterwards. Returns their count and the latest events of those keys other than `trigger`, oldest first.
   */
  takeUnreported(trigger: ObservedEvent): { weight: number; pending: { key: string; event: ObservedEvent }[] } {
    let weight = 0;
    const pending: { key: string; event: ObservedEvent }[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.unreported === 0) continue;
      weight += entry.unreported;
      if (entry.latest !== trigger) pending.push({ key, event: entry.latest });
      entry.unreported = 0;
    }
    pending.sort((a, b) => a.event.timeMs - b.event.timeMs);
    return { weight, pending };
  }
}

/** How a window's per-key data travels in a snapshot: a fixed number of plain values. */
export interface OccurrenceDataCodec<T> {
  width: number;
  write(data: T): unknown[];
  read(values: unknown[], at: string): T;
}

/** `[latestMs, [key, age, ...data, unreported, event, ...]]`, ages relative to latestMs. */
export function writeOccurrenceWindow<T>(window: OccurrenceWindow<T>, codec: OccurrenceDataCodec<T>, events: SnapshotEventWriter): unknown {
  return [
    writeNumber(window.latestMs),
    [...window.entries].flatMap(([key, e]) => [key, writeOffset(window.latestMs, e.lastSeenMs), ...codec.write(e.data), e.unreported, events.observed(e.latest)]),
  ];
}

/** The inverse of {@link writeOccurrenceWindow}; keeps the most recent `maxEntries` keys. */
export function readOccurrenceWindow<T>(
  value: unknown,
  at: string,
  options: { windowMs: number; maxEntries: number },
  codec: OccurrenceDataCodec<T>,
  events: SnapshotEventReader,
): OccurrenceWindow<T> {
  const [latest, flat] = readArray(value, at);
  const window = new OccurrenceWindow<T>(readNumber(latest, `${at}.latestMs`), options.windowMs, options.maxEntries);
  const width = codec.width + 4;
  const tuples = readTuples(flat, width, `${at}.entries`);
  for (let i = Math.max(0, tuples.length - width * options.maxEntries); i < tuples.length; i += width) {
    window.entries.set(readString(tuples[i], `${at}.key`), {
      lastSeenMs: readOffset(window.latestMs, tuples[i + 1], `${at}.age`),
      data: codec.read(tuples.slice(i + 2, i + 2 + codec.width), at),
      unreported: readCount(tuples[i + 2 + codec.width], `${at}.unreported`),
      latest: events.observed(tuples[i + 3 + codec.width], `${at}.event`),
    });
  }
  return window;
}
