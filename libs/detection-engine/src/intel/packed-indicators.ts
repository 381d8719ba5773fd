import type { IndicatorMeta } from './indicator';
import { stringHash } from '../string-hash';

/** Indexes into an index's meta table: one number for the common single-label case, an array otherwise. */
export type Refs = number | number[];

/** The read side of one kind's table: a `Map` satisfies it, and so does a view over a packed table. */
export interface KeyedRefs<K> {
  readonly size: number;
  get(key: K): Refs | undefined;
  keys(): Iterable<K>;
}

/** Namespaces of the packed table: one per kind of key (an IPv4 address is a number, the rest are strings). */
export const PACKED_NAMESPACES = ['domains', 'ipv4', 'ipv6', 'ipPorts', 'urls', 'ja3', 'ja3s', 'certs'] as const;
export type PackedNamespace = (typeof PACKED_NAMESPACES)[number];

/**
 * An immutable indicator table in one `SharedArrayBuffer`, so that every scoring thread of a process reads the
 * same copy of the seed (posting it to a worker shares the memory, it does not copy it). Plain data: it
 * survives `postMessage`. CIDR tables are few and stay as entry lists.
 */
export interface PackedIndicators {
  buffer: SharedArrayBuffer;
  /** Entries in the table. */
  entries: number;
  /** Slots of the open-addressing table (a power of two). */
  slots: number;
  /** UTF-16 code units of all string keys. */
  chars: number;
  /** Meta ids of entries with more than one. */
  multiRefs: number;
  sizes: Record<PackedNamespace, number>;
  /** Indicators by kind, and in all, as the index that was packed counted them. */
  counts: Record<string, number>;
  size: number;
  metas: IndicatorMeta[];
  cidr4: [prefix: number, entries: [number, Refs][]][];
  cidr6: [prefix: number, entries: [string, Refs][]][];
}

/** Per entry: namespace, key start (or the IPv4 value), key length, refs (a meta id, or a start in `multi`), ref count. */
const FIELDS = 5;
const EMPTY = 0;

function numberHash(ns: number, value: number): number {
  let h = Math.imul((value ^ (ns << 27)) >>> 0, 0x9e3779b1);
  h ^= h >>> 15;
  return Math.imul(h, 0x85ebca6b) >>> 0;
}

function layout(p: Pick<PackedIndicators, 'entries' | 'slots' | 'chars' | 'multiRefs'>) {
  const slotBytes = p.slots * 4;
  const entryBytes = p.entries * FIELDS * 4;
  const multiBytes = p.multiRefs * 4;
  return { slotBytes, entryBytes, multiBytes, charOffset: slotBytes + entryBytes + multiBytes, total: slotBytes + entryBytes + multiBytes + p.chars * 2 };
}

/** Reads a {@link PackedIndicators} buffer; `view(ns)` gives a {@link KeyedRefs} per namespace. */
export class PackedTable {
  private readonly slots: Int32Array;
  private readonly entries: Uint32Array;
  private readonly multi: Uint32Array;
  private readonly chars: Uint16Array;
  private readonly mask: number;

  constructor(readonly packed: PackedIndicators) {
    const l = layout(packed);
    this.slots = new Int32Array(packed.buffer, 0, packed.slots);
    this.entries = new Uint32Array(packed.buffer, l.slotBytes, packed.entries * FIELDS);
    this.multi = new Uint32Array(packed.buffer, l.slotBytes + l.entryBytes, packed.multiRefs);
    this.chars = new Uint16Array(packed.buffer, l.charOffset, packed.chars);
    this.mask = packed.slots - 1;
  }

  view<K extends string | number>(namespace: PackedNamespace): KeyedRefs<K> {
    const ns = PACKED_NAMESPACES.indexOf(namespace);
    const size = this.packed.sizes[namespace];
    const get =
      namespace === 'ipv4'
        ? (key: number) => (size === 0 ? undefined : this.getNumber(ns, key))
        : (key: string) => (size === 0 ? undefined : this.getString(ns, key));
    return { size, get: get as (key: K) => Refs | undefined, keys: () => this.keysOf(ns) as Iterable<K> };
  }

  /** The keys of one namespace, in table order. */
  private *keysOf(ns: number): Iterable<string | number> {
    const e = this.entries;
    for (let at = 0; at < e.length; at += FIELDS) {
      if (e[at] !== ns) continue;
      if (PACKED_NAMESPACES[ns] === 'ipv4') yield e[at + 1];
      else yield String.fromCharCode(...this.chars.subarray(e[at + 1], e[at + 1] + e[at + 2]));
    }
  }

  private getString(ns: number, key: string): Refs | undefined {
    if (typeof key !== 'string') return undefined;
    const e = this.entries;
    for (let slot = stringHash(ns, key) & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = this.slots[slot];
      if (id === EMPTY) return undefined;
      const at = (id - 1) * FIELDS;
      if (e[at] === ns && e[at + 2] === key.length && this.sameChars(e[at + 1], key)) return this.refsAt(at);
    }
  }

  private getNumber(ns: number, key: number): Refs | undefined {
    const e = this.entries;
    for (let slot = numberHash(ns, key) & this.mask; ; slot = (slot + 1) & this.mask) {
      const id = this.slots[slot];
      if (id === EMPTY) return undefined;
      const at = (id - 1) * FIELDS;
      if (e[at] === ns && e[at + 1] === key) return this.refsAt(at);
    }
  }

  private sameChars(start: number, key: string): boolean {
    const chars = this.chars;
    for (let i = 0; i < key.length; i++) if (chars[start + i] !== key.charCodeAt(i)) return false;
    return true;
  }

  private refsAt(at: number): Refs {
    const count = this.entries[at + 4];
    const first = this.entries[at + 3];
    return count === 1 ? first : Array.from(this.multi.subarray(first, first + count));
  }
}

export interface PackSource {
  metas: readonly IndicatorMeta[];
  tables: Record<PackedNamespace, ReadonlyMap<string | number, Refs>>;
  cidr4: ReadonlyMap<number, ReadonlyMap<number, Refs>>;
  cidr6: ReadonlyMap<number, ReadonlyMap<string, Refs>>;
  counts: Readonly<Record<string, number>>;
  size: number;
}

/** Packs Map-based tables into one shared buffer (load factor at most one half). */
export function packIndicators(source: PackSource): PackedIndicators {
  let entries = 0;
  let chars = 0;
  let multiRefs = 0;
  const sizes = {} as Record<PackedNamespace, number>;
  for (const namespace of PACKED_NAMESPACES) {
    const table = source.tables[namespace];
    sizes[namespace] = table.size;
    entries += table.size;
    for (const [key, refs] of table) {
      if (typeof key === 'string') chars += key.length;
      if (typeof refs !== 'number') multiRefs += refs.length;
    }
  }
  let slots = 16;
  while (slots < entries * 2) slots *= 2;
  const packed: PackedIndicators = {
    buffer: new SharedArrayBuffer(0),
    entries,
    slots,
    chars,
    multiRefs,
    sizes,
    counts: { ...source.counts },
    size: source.size,
    metas: [...source.metas],
    cidr4: [...source.cidr4].map(([prefix, table]) => [prefix, [...table]]),
    cidr6: [...source.cidr6].map(([prefix, table]) => [prefix, [...table]]),
  };
  const l = layout(packed);
  packed.buffer = new SharedArrayBuffer(l.total);
  const slotArray = new Int32Array(packed.buffer, 0, slots);
  const entryArray = new Uint32Array(packed.buffer, l.slotBytes, entries * FIELDS);
  const multiArray = new Uint32Array(packed.buffer, l.slotBytes + l.entryBytes, multiRefs);
  const charArray = new Uint16Array(packed.buffer, l.charOffset, chars);
  let entry = 0;
  let charAt = 0;
  let multiAt = 0;
  PACKED_NAMESPACES.forEach((namespace, ns) => {
    for (const [key, refs] of source.tables[namespace]) {
      const at = entry * FIELDS;
      entryArray[at] = ns;
      if (typeof key === 'number') {
        entryArray[at + 1] = key;
      } else {
        entryArray[at + 1] = charAt;
        entryArray[at + 2] = key.length;
        for (let i = 0; i < key.length; i++) charArray[charAt++] = key.charCodeAt(i);
      }
      if (typeof refs === 'number') {
        entryArray[at + 3] = refs;
        entryArray[at + 4] = 1;
      } else {
        entryArray[at + 3] = multiAt;
        entryArray[at + 4] = refs.length;
        for (const ref of refs) multiArray[multiAt++] = ref;
      }
      let slot = (typeof key === 'number' ? numberHash(ns, key) : stringHash(ns, key)) & (slots - 1);
      while (slotArray[slot] !== EMPTY) slot = (slot + 1) & (slots - 1);
      slotArray[slot] = ++entry;
    }
  });
  return packed;
}
