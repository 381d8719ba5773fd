import type { LruMap } from './lru-map';
import { fail, readArray, readString } from './snapshot';

/** Where keys repeated across parts (one pair of hosts in several detectors) are stored once. */
interface KeyWriter {
  string(value: string): number;
}
interface KeyReader {
  string(ref: unknown, what: string): string;
}

/**
 * An LRU map as a flat list `[key, value, key, value, ...]`, least recently used first; with `keys`, each
 * key is the number of a string of the shared table.
 */
export function writeLru<V>(map: LruMap<string, V>, encode: (value: V, key: string) => unknown, keys?: KeyWriter): unknown[] {
  const out: unknown[] = [];
  for (const [key, value] of map.items()) out.push(keys === undefined ? key : keys.string(key), encode(value, key));
  return out;
}

/** {@link writeLru} for an owner that keeps part of each entry in arrays of its own, by slot (LruMap.slotOf). */
export function writeLruBySlot<V>(map: LruMap<string, V>, encode: (slot: number, key: string) => unknown, keys?: KeyWriter): unknown[] {
  const out: unknown[] = [];
  for (const [key, slot] of map.slotItems()) out.push(keys === undefined ? key : keys.string(key), encode(slot, key));
  return out;
}

/**
 * Replaces the map's content with a {@link writeLru} list (undefined: empties it). Everything is decoded
 * before the map is touched, so a malformed list leaves the map as it was. Re-inserting in order keeps the
 * recency order; a list longer than the map's bound keeps its most recent entries.
 */
export function readLru<V>(
  map: LruMap<string, V>,
  data: unknown,
  decode: (value: unknown, what: string, key: string) => V,
  what: string,
  keys?: KeyReader,
): void {
  const decoded: [string, V][] = [];
  if (data !== undefined) {
    const flat = readArray(data, what);
    if (flat.length % 2 !== 0) fail(what, 'a flat list of [key, value] pairs', `length ${flat.length}`);
    for (let i = Math.max(0, flat.length - 2 * map.maxSize); i < flat.length; i += 2) {
      const at = `${what}[${i}]`;
      const key = typeof flat[i] === 'number' && keys !== undefined ? keys.string(flat[i], at) : readString(flat[i], at);
      decoded.push([key, decode(flat[i + 1], `${what}[${i + 1}]`, key)]);
    }
  }
  map.clear();
  for (const [key, value] of decoded) map.set(key, value);
}
