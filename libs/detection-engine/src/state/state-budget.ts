import { estimateBytes } from './estimate-bytes';

/**
 * What an LruMap spends on an entry besides its key and value: the hash-table slot (with the table's spare
 * capacity, about 48 bytes) and its slot in the key, value and link arrays (16 + 8, with their spare capacity
 * about 32). Even so the live heap of an engine full of the sustained bench's traffic measured about 1.6x the
 * estimate (per-host structures outside the budget, V8's slack), and under load the heap in use (with the
 * garbage between collections) grows by about 3x the budget; the README's sizing advice allows for it.
 */
const LRU_ENTRY_BYTES = 80;

/** Keyed detection state the budget can price and shrink: an LruMap (least recently used first). */
export interface KeyedState {
  readonly size: number;
  /** Entries from the least to the most recently used; the iterator must survive changes to the map. */
  items(): IterableIterator<[unknown, unknown]>;
  /** Drops the `count` least recently used entries; returns how many were dropped. */
  evictOldest(count: number): number;
  /** Bytes each entry holds besides its key and value (per-slot arrays of the map's owner). */
  readonly extraBytesPerEntry?: number;
}

/** How the budget treats one registered map. */
export interface KeyedStateTerms {
  /**
   * Share of the capacity (0-1) that the map's part keeps however fast the other parts churn: the budget evicts
   * from the part only what it holds beyond this share, unless the parts without a reserve cannot free enough.
   * For state other state depends on and that is refreshed slowly (DHCP leases, open findings): with equal
   * shares, a part's keys live as long as everyone's (budget / insertions per second), which under a busy fleet
   * is seconds, far shorter than a lease or a finding.
   */
  reservedShare?: number;
}

export interface StateBudgetOptions {
  /** Estimated bytes all registered state may hold together. */
  capacityBytes: number;
  /** Least time between two checks (ms). Default 1000. */
  checkIntervalMs?: number;
  /** Entries priced per map and check, continuing where the previous check stopped. Default 4. */
  sampleSize?: number;
  /** When over capacity, state is cut to this share of it, so eviction does not run on every check. Default 0.9. */
  targetShare?: number;
  clock?: () => number;
}

export interface DetectionStateUsage {
  keys: number;
  /** Estimated bytes (keys × the running mean of sampled entry sizes). */
  bytes: number;
  /** Keys evicted by the budget since start. */
  evictions: number;
}

interface Registered {
  part: string;
  reservedShare: number;
  /** Weak: an engine that was dropped (partition handed over, idle) leaves the budget when it is collected. */
  ref: WeakRef<KeyedState>;
  cursor?: IterableIterator<[unknown, unknown]>;
  /** Running mean of the estimated bytes of one entry (key and value). */
  entryBytes: number;
  sampled: number;
}

/**
 * One memory budget for the detection state of every engine in a process (all partitions, all detections).
 * Each check prices every registered map by sampling its entries and, when the total is over capacity, evicts
 * the least recently used keys of every map in proportion to its size, until the total is back under the target
 * share. So every detection keeps its most recently active hosts and loses the ones quiet the longest, and no
 * detection starves the others. A part registered with a reserved share loses only what it holds beyond that
 * share (see {@link KeyedStateTerms}). Evicted keys start again empty when they next appear; see the README for
 * what each detection can miss.
 */
export class StateBudget {
  private readonly maps: Registered[] = [];
  private readonly evicted = new Map<string, number>();
  private readonly clock: () => number;
  private readonly checkIntervalMs: number;
  private readonly sampleSize: number;
  private readonly targetShare: number;
  private lastCheck = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: StateBudgetOptions) {
    if (!(options.capacityBytes > 0)) throw new RangeError(`StateBudget: capacityBytes must be positive, got ${options.capacityBytes}`);
    this.clock = options.clock ?? Date.now;
    this.checkIntervalMs = options.checkIntervalMs ?? 1000;
    this.sampleSize = options.sampleSize ?? 4;
    this.targetShare = options.targetShare ?? 0.9;
  }

  get capacityBytes(): number {
    return this.options.capacityBytes;
  }

  /**
   * Adds a map under `part` (a detection id, `findings`, `leases`); several maps may share a part, and the
   * reserved share is the part's (give its maps the same terms).
   */
  register(part: string, state: KeyedState, terms: KeyedStateTerms = {}): void {
    const reservedShare = terms.reservedShare ?? 0;
    if (!(reservedShare >= 0 && reservedShare < 1)) throw new RangeError(`StateBudget: reservedShare must be in [0, 1), got ${reservedShare}`);
    this.maps.push({ part, reservedShare, ref: new WeakRef(state), entryBytes: 0, sampled: 0 });
    if (!this.evicted.has(part)) this.evicted.set(part, 0);
  }

  /** Checks the budget when the check interval has passed; call after each unit of work. */
  maybeEnforce(): void {
    const now = this.clock();
    if (now - this.lastCheck < this.checkIntervalMs) return;
    this.lastCheck = now;
    this.enforce();
  }

  /** Prices all state and evicts when over capacity; returns the estimated bytes after it. */
  enforce(): number {
    const live = this.liveMaps();
    let total = 0;
    const partBytes = new Map<string, number>();
    for (const [map, state] of live) {
      this.sample(map, state);
      const bytes = state.size * map.entryBytes;
      total += bytes;
      partBytes.set(map.part, (partBytes.get(map.part) ?? 0) + bytes);
    }
    if (total <= this.options.capacityBytes) return total;
    const toFree = total - this.options.capacityBytes * this.targetShare;
    // What each map holds beyond its part's reserve (a part's reserve spread over its maps by their sizes).
    const beyondReserve = live.map(([map, state]) => {
      const bytes = state.size * map.entryBytes;
      const part = partBytes.get(map.part) ?? 0;
      const reserve = this.options.capacityBytes * map.reservedShare;
      return part <= reserve ? 0 : bytes * (1 - reserve / part);
    });
    const evictable = beyondReserve.reduce((sum, bytes) => sum + bytes, 0);
    // Beyond the reserves first; only when that cannot free enough do the reserves give way, all maps alike.
    const fromReserves = Math.max(0, toFree - evictable) / Math.max(total - evictable, 1);
    total = 0;
    live.forEach(([map, state], i) => {
      const bytes = state.size * map.entryBytes;
      const freeBytes = evictable > 0 ? (Math.min(toFree, evictable) * beyondReserve[i]) / evictable : 0;
      const share = Math.min(1, (freeBytes + fromReserves * (bytes - beyondReserve[i])) / Math.max(bytes, 1));
      const excess = Math.ceil(state.size * share);
      if (excess > 0) {
        const dropped = state.evictOldest(excess);
        this.evicted.set(map.part, (this.evicted.get(map.part) ?? 0) + dropped);
      }
      total += state.size * map.entryBytes;
    });
    return total;
  }

  /** Keys, estimated bytes and evictions per part. */
  usage(): Record<string, DetectionStateUsage> {
    const usage: Record<string, DetectionStateUsage> = {};
    for (const [part, evictions] of this.evicted) usage[part] = { keys: 0, bytes: 0, evictions };
    for (const [map, state] of this.liveMaps()) {
      const u = usage[map.part];
      u.keys += state.size;
      u.bytes += Math.round(state.size * map.entryBytes);
    }
    return usage;
  }

  /** Registered maps still alive, forgetting collected ones. */
  private liveMaps(): [Registered, KeyedState][] {
    const live: [Registered, KeyedState][] = [];
    for (let i = this.maps.length - 1; i >= 0; i--) {
      const state = this.maps[i].ref.deref();
      if (state === undefined) this.maps.splice(i, 1);
      else live.push([this.maps[i], state]);
    }
    return live.reverse();
  }

  private sample(map: Registered, state: KeyedState): void {
    if (state.size === 0) return;
    let taken = 0;
    const seen = new Set<object>();
    while (taken < this.sampleSize) {
      map.cursor ??= state.items();
      const next = map.cursor.next();
      if (next.done) {
        map.cursor = undefined;
        if (taken === 0 || state.size <= this.sampleSize) break;
        continue;
      }
      const [key, value] = next.value;
      seen.clear();
      const bytes = estimateBytes(key, seen) + estimateBytes(value, seen) + LRU_ENTRY_BYTES + (state.extraBytesPerEntry ?? 0);
      map.sampled++;
      // A running mean that settles on the map's typical entry and follows it as windows fill up.
      map.entryBytes += (bytes - map.entryBytes) / Math.min(map.sampled, 256);
      taken++;
    }
  }
}
