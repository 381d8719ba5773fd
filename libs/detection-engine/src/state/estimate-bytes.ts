/**
 * A rough estimate of the V8 heap a value holds: object headers, properties, array slots, string bytes and
 * map entries, following references once (shared parts are counted once per call). Used to price detection
 * state for the memory budget; it is an estimate within a factor of about 1.5, not a measurement.
 */
const OBJECT_HEADER = 24;
const SLOT = 8;
const STRING_HEADER = 16;
const MAP_HEADER = 80;
const MAP_ENTRY = 3 * SLOT;
/** Nesting followed at most; deeper parts are counted as one slot. */
const MAX_DEPTH = 8;

export function estimateBytes(value: unknown, seen: Set<object> = new Set(), depth = 0): number {
  switch (typeof value) {
    case 'string':
      return STRING_HEADER + value.length;
    case 'number':
      return Number.isInteger(value) && Math.abs(value) < 2 ** 30 ? 0 : 16;
    case 'object':
      break;
    default:
      return 0;
  }
  if (value === null || seen.has(value) || depth > MAX_DEPTH) return 0;
  seen.add(value);
  const next = depth + 1;
  if (ArrayBuffer.isView(value)) return OBJECT_HEADER + value.byteLength;
  if (Array.isArray(value)) {
    let bytes = OBJECT_HEADER + SLOT * value.length;
    for (const item of value) bytes += estimateBytes(item, seen, next);
    return bytes;
  }
  if (value instanceof Map) {
    let bytes = MAP_HEADER + MAP_ENTRY * value.size;
    for (const [k, v] of value) bytes += estimateBytes(k, seen, next) + estimateBytes(v, seen, next);
    return bytes;
  }
  if (value instanceof Set) {
    let bytes = MAP_HEADER + 2 * SLOT * value.size;
    for (const item of value) bytes += estimateBytes(item, seen, next);
    return bytes;
  }
  let bytes = OBJECT_HEADER;
  for (const key in value) {
    bytes += SLOT + estimateBytes((value as Record<string, unknown>)[key], seen, next);
  }
  return bytes;
}
