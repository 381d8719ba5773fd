import type { KeySlots } from './shared-keys';
import type { KeyedState } from './state-budget';

/** The end of the recency list, and a slot that links to nothing. */
const NONE = -1;
const FIRST_CAPACITY = 16;

/**
 * A Map capped at `maxSize` entries that evicts the least recently used one. Every operation is O(1).
 *
 * Each entry lives in a numbered slot: the hash table maps a key to its slot, and the slot's key, value and
 * recency links sit in parallel arrays (links in typed arrays). So an entry costs no object of its own, a new key
 * allocates nothing once the arrays have grown, and a read that refreshes recency rewrites a few integers rather
 * than pointers between old-generation objects. Detections add a key for almost every new flow or name, and a
 * node object per entry had made each of those cost about twice a plain Map insert.
 */
export class LruMap<K, V> implements KeyedState {
  /** Each key's slot: a Map of the map's own, or its column of a table shared with other maps (shared-keys.ts). */
  private readonly slots: KeySlots<K>;
  private keys: (K | undefined)[] = [];
  private entries: (V | undefined)[] = [];
  /** Per slot, the slot used just before it (towards the least recently used end), or NONE. */
  private older = new Int32Array(FIRST_CAPACITY);
  /** Per slot, the slot used just after it; kept on a released slot so that a live iterator can walk on. */
  private newer = new Int32Array(FIRST_CAPACITY);
  private freeSlots: number[] = [];
  private oldest = NONE;
  private newest = NONE;
  /**
   * Bytes each entry holds outside the map (an owner's per-slot arrays, see {@link slotOf}), which the state
   * budget adds to its estimate of an entry.
   */
  extraBytesPerEntry = 0;
  /** Keys added since the last eviction (by the size cap or the state budget), and how many the map held then. */
  private addedSinceEviction = 0;
  private sizeAtEviction = 0;

  constructor(
    readonly maxSize: number,
    private readonly onEvict?: (key: K, value: V) => void,
    keySlots?: KeySlots<K>,
  ) {
    if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError(`LruMap: maxSize must be a positive integer, got ${maxSize}`);
    if (keySlots !== undefined && keySlots.size !== 0) throw new RangeError('LruMap: the key slots given must be empty');
    this.slots = keySlots ?? new Map<K, number>();
  }

  get size(): number {
    return this.slots.size;
  }

  /**
   * Whether keys are being pushed out: fewer keys have been added since the last eviction than the map held
   * then, so a key added now is likely to be evicted before it is old.
   */
  get evicting(): boolean {
    return this.addedSinceEviction < this.sizeAtEviction;
  }

  /** Returns the value and marks it most recently used. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    this.touch(slot);
    return this.entries[slot];
  }

  /**
   * The slot of a key, marked most recently used; -1 when absent. Slots are numbered densely from 0 (up to
   * `maxSize`) and a slot is reused once its key leaves, so an owner can keep per-entry numbers in arrays of its own
   * indexed by slot, written when {@link addNew} hands the slot out.
   */
  slotOf(key: K): number {
    const slot = this.slots.get(key);
    if (slot === undefined) return NONE;
    this.touch(slot);
    return slot;
  }

  /** Marks the entry in a slot ({@link slotOf}, {@link addNew}) most recently used, as a look-up of its key would. */
  markUsed(slot: number): void {
    this.touch(slot);
  }

  /** The slot of a key without touching its recency; -1 when absent. */
  peekSlot(key: K): number {
    return this.slots.get(key) ?? NONE;
  }

  /** The value held in a slot that {@link slotOf} or {@link addNew} gave. */
  valueAt(slot: number): V {
    return this.entries[slot] as V;
  }

  setValueAt(slot: number, value: V): void {
    this.entries[slot] = value;
  }

  /** Returns the value without touching its recency. */
  peek(key: K): V | undefined {
    const slot = this.slots.get(key);
    return slot === undefined ? undefined : this.entries[slot];
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  set(key: K, value: V): this {
    const slot = this.slots.get(key);
    if (slot !== undefined) {
      this.entries[slot] = value;
      this.touch(slot);
      return this;
    }
    this.addNew(key, value);
    return this;
  }

  /**
   * Adds a key that {@link get} or {@link peek} has just reported absent, as most recently used. It saves
   * {@link set}'s lookup of the key, which on maps of many keys is a cache miss of its own, and detections add a
   * key for almost every new flow or name.
   */
  addNew(key: K, value: V): number {
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      slot = this.keys.length;
      if (slot === this.older.length) this.growLinks();
      this.keys.push(key);
      this.entries.push(value);
    } else {
      this.keys[slot] = key;
      this.entries[slot] = value;
    }
    this.slots.set(key, slot);
    this.addedSinceEviction++;
    this.append(slot);
    while (this.slots.size > this.maxSize) this.evict(this.oldest);
    return slot;
  }

  /** Drops the `count` least recently used entries (telling `onEvict`); returns how many were dropped. */
  evictOldest(count: number): number {
    let dropped = 0;
    while (dropped < count && this.oldest !== NONE) {
      this.evict(this.oldest);
      dropped++;
    }
    return dropped;
  }

  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (slot === undefined) return false;
    this.slots.delete(key);
    this.release(slot);
    return true;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.items()) yield value;
  }

  /**
   * Entries from the least to the most recently used (the order in which {@link set} rebuilds them). The
   * iterator survives changes: entries removed meanwhile are skipped; it ends early when the entry it stands on
   * is moved to the recent end or its slot is reused.
   */
  *items(): IterableIterator<[K, V]> {
    for (let slot = this.oldest; slot !== NONE; slot = this.newer[slot]) {
      const key = this.keys[slot];
      if (key !== undefined) yield [key, this.entries[slot] as V];
    }
  }

  /** Keys with their slots, least recently used first (not to be changed while iterating). */
  *slotItems(): IterableIterator<[K, number]> {
    for (let slot = this.oldest; slot !== NONE; slot = this.newer[slot]) {
      const key = this.keys[slot];
      if (key !== undefined) yield [key, slot];
    }
  }

  clear(): void {
    this.slots.clear();
    this.keys = [];
    this.entries = [];
    this.freeSlots = [];
    this.older = new Int32Array(FIRST_CAPACITY);
    this.newer = new Int32Array(FIRST_CAPACITY);
    this.oldest = NONE;
    this.newest = NONE;
  }

  private evict(slot: number): void {
    const key = this.keys[slot] as K;
    const value = this.entries[slot] as V;
    this.slots.delete(key);
    this.addedSinceEviction = 0;
    this.sizeAtEviction = this.slots.size;
    this.release(slot);
    this.onEvict?.(key, value);
  }

  /** Unlinks a slot whose key has left the table and offers it for reuse. */
  private release(slot: number): void {
    this.unlink(slot);
    this.keys[slot] = undefined;
    this.entries[slot] = undefined;
    this.freeSlots.push(slot);
  }

  private touch(slot: number): void {
    if (slot === this.newest) return;
    this.unlink(slot);
    this.append(slot);
  }

  /** Doubles the link arrays (up to the bound): slots are numbered densely, so they never need more than maxSize. */
  private growLinks(): void {
    const capacity = Math.max(Math.min(this.older.length * 2, this.maxSize), this.older.length + 1);
    const older = new Int32Array(capacity);
    older.set(this.older);
    this.older = older;
    const newer = new Int32Array(capacity);
    newer.set(this.newer);
    this.newer = newer;
  }

  private append(slot: number): void {
    this.older[slot] = this.newest;
    this.newer[slot] = NONE;
    if (this.newest !== NONE) this.newer[this.newest] = slot;
    else this.oldest = slot;
    this.newest = slot;
  }

  /** Takes the slot out of the list; its `newer` link stays, so an iterator standing on it can go on. */
  private unlink(slot: number): void {
    const before = this.older[slot];
    const after = this.newer[slot];
    if (before !== NONE) this.newer[before] = after;
    else this.oldest = after;
    if (after !== NONE) this.older[after] = before;
    else this.newest = before;
    this.older[slot] = NONE;
  }
}
