import type { KeyedState } from './state-budget';

interface Node<K, V> {
  key: K;
  value: V;
  /** Towards the least recently used end. */
  older?: Node<K, V>;
  /** Towards the most recently used end; kept on an unlinked node so a live iterator can walk on. */
  newer?: Node<K, V>;
  linked: boolean;
}

/**
 * A Map capped at `maxSize` entries that evicts the least recently used one. Recency is a doubly linked list
 * threaded through the entries, so a read that refreshes recency moves two pointers instead of deleting and
 * re-inserting the hash entry (which, on maps of 100,000 keys read on every event, left the hash table churning).
 * Every operation is O(1).
 */
export class LruMap<K, V> implements KeyedState {
  private readonly nodes = new Map<K, Node<K, V>>();
  private oldest?: Node<K, V>;
  private newest?: Node<K, V>;
  /** Keys added since the last eviction (by the size cap or the state budget), and how many the map held then. */
  private addedSinceEviction = 0;
  private sizeAtEviction = 0;

  constructor(
    readonly maxSize: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!Number.isInteger(maxSize) || maxSize < 1) throw new RangeError(`LruMap: maxSize must be a positive integer, got ${maxSize}`);
  }

  get size(): number {
    return this.nodes.size;
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
    const node = this.nodes.get(key);
    if (node === undefined) return undefined;
    if (node !== this.newest) {
      this.unlink(node);
      this.append(node);
    }
    return node.value;
  }

  /** Returns the value without touching its recency. */
  peek(key: K): V | undefined {
    return this.nodes.get(key)?.value;
  }

  has(key: K): boolean {
    return this.nodes.has(key);
  }

  set(key: K, value: V): this {
    const existing = this.nodes.get(key);
    if (existing !== undefined) {
      existing.value = value;
      if (existing !== this.newest) {
        this.unlink(existing);
        this.append(existing);
      }
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
  addNew(key: K, value: V): void {
    const node: Node<K, V> = { key, value, linked: false };
    this.nodes.set(key, node);
    this.addedSinceEviction++;
    this.append(node);
    while (this.nodes.size > this.maxSize) this.evict(this.oldest!);
  }

  /** Drops the `count` least recently used entries (telling `onEvict`); returns how many were dropped. */
  evictOldest(count: number): number {
    let dropped = 0;
    while (dropped < count && this.oldest !== undefined) {
      this.evict(this.oldest);
      dropped++;
    }
    return dropped;
  }

  delete(key: K): boolean {
    const node = this.nodes.get(key);
    if (node === undefined) return false;
    this.nodes.delete(key);
    this.unlink(node);
    return true;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.items()) yield value;
  }

  /**
   * Entries from the least to the most recently used (the order in which {@link set} rebuilds them). The
   * iterator survives changes: entries removed meanwhile are skipped, entries moved to the recent end are met
   * again there.
   */
  *items(): IterableIterator<[K, V]> {
    let node = this.oldest;
    while (node !== undefined) {
      if (node.linked) yield [node.key, node.value];
      node = node.newer;
    }
  }

  clear(): void {
    this.nodes.clear();
    this.oldest = undefined;
    this.newest = undefined;
  }

  private evict(node: Node<K, V>): void {
    this.nodes.delete(node.key);
    this.addedSinceEviction = 0;
    this.sizeAtEviction = this.nodes.size;
    this.unlink(node);
    this.onEvict?.(node.key, node.value);
  }

  private append(node: Node<K, V>): void {
    node.older = this.newest;
    node.newer = undefined;
    node.linked = true;
    if (this.newest !== undefined) this.newest.newer = node;
    else this.oldest = node;
    this.newest = node;
  }

  /** Takes the node out of the list; its `newer` pointer stays, so an iterator standing on it can go on. */
  private unlink(node: Node<K, V>): void {
    if (node.older !== undefined) node.older.newer = node.newer;
    else this.oldest = node.newer;
    if (node.newer !== undefined) node.newer.older = node.older;
    else this.newest = node.older;
    node.older = undefined;
    node.linked = false;
  }
}
