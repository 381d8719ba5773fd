/** What an {@link LruMap} needs of the table that finds a key's slot: a `Map<K, number>` is one. */
export interface KeySlots<K> {
  readonly size: number;
  get(key: K): number | undefined;
  has(key: K): boolean;
  set(key: K, slot: number): unknown;
  delete(key: K): boolean;
  clear(): void;
}

/** Maps that can share one table; each takes a column of slots per key. */
const MAX_MEMBERS = 8;
const NO_SLOT = -1;
const FIRST_ROWS = 64;

/**
 * One hash table of string keys for several LRU maps that are mostly asked about the same key in turn (the
 * network detections' per-(host, destination) state: a flow is looked up under its pair key in up to six maps).
 * Each map keeps its own slots, recency, bound and evictions; only the look-up of a key's slot is shared: one
 * probe of the hash table per key, whose row holds each map's slot, and the latest key asked for is remembered,
 * so the second and later maps asking for it compare one string and read a number.
 *
 * A fresh pair key per flow is a string every map's table has to hash, probe and compare with the key it holds,
 * each probe a cache miss on tables of 100,000 keys. A row (32 bytes) costs less than the hash-table entry each
 * member no longer has, which the state budget still prices per entry (LRU_ENTRY_BYTES), so its estimate stays on
 * the safe side. The rows' array keeps the size of the most keys held at once.
 */
export class SharedKeyTable {
  private readonly rows = new Map<string, number>();
  /** Per row, {@link MAX_MEMBERS} slots (one per member map, NO_SLOT where the map does not hold the key). */
  private slots = new Int32Array(FIRST_ROWS * MAX_MEMBERS).fill(NO_SLOT);
  private freeRows: number[] = [];
  private rowCount = 0;
  private members = 0;
  private latestKey: string | undefined;
  private latestRow = NO_SLOT;

  /** The slots of one more map; at most {@link MAX_MEMBERS} per table. */
  member(): KeySlots<string> {
    if (this.members === MAX_MEMBERS) throw new RangeError(`SharedKeyTable: at most ${MAX_MEMBERS} maps can share a table`);
    return new SharedKeySlots(this, this.members++);
  }

  /** Distinct keys held by any member. */
  get size(): number {
    return this.rows.size;
  }

  /** The row of a key, or NO_SLOT; remembered for the next member asking. */
  rowOf(key: string): number {
    if (key === this.latestKey) return this.latestRow;
    const row = this.rows.get(key) ?? NO_SLOT;
    this.latestKey = key;
    this.latestRow = row;
    return row;
  }

  /** The row of a key, added (no member holding it) when missing. */
  rowFor(key: string): number {
    let row = this.rowOf(key);
    if (row !== NO_SLOT) return row;
    row = this.freeRows.pop() ?? this.rowCount++;
    if ((row + 1) * MAX_MEMBERS > this.slots.length) this.grow();
    this.rows.set(key, row);
    this.latestRow = row;
    return row;
  }

  slotAt(row: number, member: number): number {
    return this.slots[row * MAX_MEMBERS + member];
  }

  setSlot(row: number, member: number, slot: number): void {
    this.slots[row * MAX_MEMBERS + member] = slot;
  }

  /**
   * Takes a key out of a member: its row is found without disturbing the remembered key (a map evicts an old
   * key while the others are still to ask for the current one), and released once no member holds the key.
   * Returns whether the member held it.
   */
  remove(key: string, member: number): boolean {
    const row = key === this.latestKey ? this.latestRow : (this.rows.get(key) ?? NO_SLOT);
    if (row === NO_SLOT || this.slotAt(row, member) === NO_SLOT) return false;
    this.setSlot(row, member, NO_SLOT);
    if (this.unused(row)) this.release(key, row);
    return true;
  }

  /** Takes every key out of a member. */
  removeMember(member: number): void {
    for (const [key, row] of this.rows) {
      if (this.slotAt(row, member) === NO_SLOT) continue;
      this.setSlot(row, member, NO_SLOT);
      if (this.unused(row)) this.release(key, row);
    }
  }

  private unused(row: number): boolean {
    const at = row * MAX_MEMBERS;
    for (let m = 0; m < this.members; m++) if (this.slots[at + m] !== NO_SLOT) return false;
    return true;
  }

  private release(key: string, row: number): void {
    this.rows.delete(key);
    this.freeRows.push(row);
    if (key === this.latestKey) this.latestRow = NO_SLOT;
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(NO_SLOT);
    slots.set(this.slots);
    this.slots = slots;
  }
}

/** One member map's view of a {@link SharedKeyTable}. */
class SharedKeySlots implements KeySlots<string> {
  size = 0;

  constructor(
    private readonly table: SharedKeyTable,
    private readonly member: number,
  ) {}

  get(key: string): number | undefined {
    const row = this.table.rowOf(key);
    if (row === NO_SLOT) return undefined;
    const slot = this.table.slotAt(row, this.member);
    return slot === NO_SLOT ? undefined : slot;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, slot: number): void {
    const row = this.table.rowFor(key);
    if (this.table.slotAt(row, this.member) === NO_SLOT) this.size++;
    this.table.setSlot(row, this.member, slot);
  }

  delete(key: string): boolean {
    if (!this.table.remove(key, this.member)) return false;
    this.size--;
    return true;
  }

  clear(): void {
    this.table.removeMember(this.member);
    this.size = 0;
  }
}
