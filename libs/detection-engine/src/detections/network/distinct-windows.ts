import type { KeyedState } from '../../state/state-budget';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { LruMap } from '../../state/lru-map';
import { readLru, writeLru } from '../../state/lru-snapshot';
import { readArray, readCount, readNumber, readString, readTuples, readOffset, writeNumber, writeOffset } from '../../state/snapshot';
import type { DetectorStateStats, ObservedEvent } from '../detection';

export interface DistinctWindowsOptions {
  windowMs: number;
  /** Keys kept; the least recently used is dropped first. */
  maxKeys: number;
  /** Distinct items remembered per key; the least recently seen is dropped first. */
  maxItemsPerKey: number;
}

interface ItemEntry {
  lastSeenMs: number;
  /** Occurrences not yet reported in a hit. */
  unreported: number;
  /** Latest occurrence, kept as evidence while unreported. */
  latest: ObservedEvent;
}

interface KeyWindow {
  latestMs: number;
  /** Map order = least recently seen first. */
  items: Map<string, ItemEntry>;
  /**
   * No item was last seen before this (a lower bound, made exact by each scan for expired items): items are
   * scanned only once the window's cutoff passes it, instead of on every event.
   */
  oldestSeenMs: number;
}

/** Occurrences a hit accounts for, and the events to show for them (oldest first, trigger last). */
export interface PendingReport {
  weight: number;
  evidence: ObservedEvent[];
}

/** Drops the items last seen before `cutoffMs`; returns when the oldest remaining one was last seen. */
function dropSeenBefore(items: Map<string, ItemEntry>, cutoffMs: number): number {
  let oldestSeenMs = Infinity;
  for (const [name, entry] of items) {
    if (entry.lastSeenMs < cutoffMs) items.delete(name);
    else oldestSeenMs = Math.min(oldestSeenMs, entry.lastSeenMs);
  }
  return oldestSeenMs;
}

/**
 * Distinct items seen per key within a sliding window of event time (e.g. distinct ports one host tried on
 * one destination in 60 s), bounded by an LRU over keys and a cap of items per key.
 */
export class DistinctWindows {
  private readonly windows: LruMap<string, KeyWindow>;

  /** The keyed state, for the process-wide memory budget. */
  keyedState(): readonly KeyedState[] {
    return [this.windows];
  }

  constructor(private readonly options: DistinctWindowsOptions) {
    if (!(options.windowMs > 0)) throw new RangeError(`windowMs must be positive, got ${options.windowMs}`);
    if (!Number.isInteger(options.maxItemsPerKey) || options.maxItemsPerKey < 1) {
      throw new RangeError(`maxItemsPerKey must be a positive integer, got ${options.maxItemsPerKey}`);
    }
    this.windows = new LruMap(options.maxKeys);
  }

  /**
   * Records `item` for `key` and returns how many distinct items the window holds now; undefined when the
   * event is older than the window (late events no longer say anything about the current rate).
   */
  record(key: string, item: string, observed: ObservedEvent): number | undefined {
    const timeMs = observed.timeMs;
    let window = this.windows.get(key);
    if (window === undefined) {
      window = { latestMs: timeMs, items: new Map(), oldestSeenMs: timeMs };
      this.windows.addNew(key, window);
    }
    if (timeMs < window.latestMs - this.options.windowMs) return undefined;
    window.latestMs = Math.max(window.latestMs, timeMs);
    const items = window.items;
    let entry = items.get(item);
    if (entry === undefined) {
      entry = { lastSeenMs: timeMs, unreported: 1, latest: observed };
      window.oldestSeenMs = Math.min(window.oldestSeenMs, timeMs);
    } else {
      // Moved to the most recent end of the map's order.
      items.delete(item);
      entry.lastSeenMs = Math.max(entry.lastSeenMs, timeMs);
      entry.unreported++;
      entry.latest = observed;
    }
    items.set(item, entry);
    while (items.size > this.options.maxItemsPerKey) items.delete(items.keys().next().value as string);
    const cutoff = window.latestMs - this.options.windowMs;
    if (window.oldestSeenMs < cutoff) window.oldestSeenMs = dropSeenBefore(items, cutoff);
    return items.size;
  }

  /** The distinct items of `key`, least recently seen first. */
  items(key: string): string[] {
    return [...(this.windows.peek(key)?.items.keys() ?? [])];
  }

  /** Marks everything recorded for `key` as reported and returns it; `trigger` is the last evidence event. */
  takePending(key: string, trigger: ObservedEvent, maxEvidence: number): PendingReport {
    const window = this.windows.peek(key);
    if (window === undefined) return { weight: 1, evidence: [trigger] };
    let weight = 0;
    const earlier: ObservedEvent[] = [];
    for (const entry of window.items.values()) {
      if (entry.unreported === 0) continue;
      weight += entry.unreported;
      if (entry.latest !== trigger) earlier.push(entry.latest);
      entry.unreported = 0;
    }
    earlier.sort((a, b) => a.timeMs - b.timeMs);
    return { weight: Math.max(weight, 1), evidence: [...earlier.slice(-(maxEvidence - 1)), trigger] };
  }

  /** Per key `[latestMs, [item, age, unreported, event, ...]]`, ages relative to latestMs. */
  snapshot(events: SnapshotEventWriter): unknown[] {
    return writeLru(this.windows, (w) => [
      writeNumber(w.latestMs),
      [...w.items].flatMap(([item, e]) => [item, writeOffset(w.latestMs, e.lastSeenMs), e.unreported, events.observed(e.latest)]),
    ], events);
  }

  /** Replaces the state with a {@link snapshot} (undefined: empties it). */
  restore(data: unknown, events: SnapshotEventReader, what: string): void {
    readLru(
      this.windows,
      data,
      (value, at) => {
        const [latest, flat] = readArray(value, at);
        const latestMs = readNumber(latest, `${at}.latestMs`);
        const tuples = readTuples(flat, 4, `${at}.items`);
        const items = new Map<string, ItemEntry>();
        // Oldest items first: keep the newest maxItemsPerKey.
        for (let i = Math.max(0, tuples.length - 4 * this.options.maxItemsPerKey); i < tuples.length; i += 4) {
          items.set(readString(tuples[i], `${at}.item`), {
            lastSeenMs: readOffset(latestMs, tuples[i + 1], `${at}.age`),
            unreported: readCount(tuples[i + 2], `${at}.unreported`),
            latest: events.observed(tuples[i + 3], `${at}.event`),
          });
        }
        // A bound below every sighting: the next event's scan makes it exact.
        return { latestMs, items, oldestSeenMs: -Infinity };
      },
      what,
      events,
    );
  }

  stats(): DetectorStateStats {
    let largestKey = 0;
    for (const window of this.windows.values()) largestKey = Math.max(largestKey, window.items.size);
    return { keys: this.windows.size, maxKeys: this.windows.maxSize, largestKey, maxEntriesPerKey: this.options.maxItemsPerKey };
  }
}
