import type { KeyedState } from './state-budget';

/**
 * A Map capped at `maxSize` entries that evicts the least recently used one. Recency is kept by
 * re-inserting on access (a JS Map iterates in insertion order), so every operation is O(1).
 */
export class LruMap<K, V> implements KeyedState {
  private readonly entries = new Map<K, V>();

  constructor(
    readonly maxSize: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError(`LruMap: maxSize must be a positive integer, got ${maxSize}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Returns the value and marks it most recently used. */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  /** Returns the value without touching its recency. */
  peek(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  set(key: K, value: V): this {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxSize) {
      const oldest = this.entries.keys().next().value as K;
      const evicted = this.entries.get(oldest) as V;
      this.entries.delete(oldest);
      this.onEvict?.(oldest, evicted);
    }
    return this;
  }

  /** Drops the `count` least recently used entries (telling `onEvict`); returns how many were dropped. */
  evictOldest(count: number): number {
    let dropped = 0;
    for (const [key, value] of this.entries) {
      if (dropped >= count) break;
      this.entries.delete(key);
      this.onEvict?.(key, value);
      dropped++;
    }
    return dropped;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  values(): IterableIterator<V> {
    return this.entries.values();
  }

  /** Entries from the least to the most recently used (the order in which {@link set} rebuilds them). */
  items(): IterableIterator<[K, V]> {
    return this.entries.entries();
  }

  clear(): void {
    this.entries.clear();
  }
}
