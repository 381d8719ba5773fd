/**
 * A DetectionEngine's detection state as plain JSON data (no Maps, Sets, typed arrays, BigInt or functions),
 * so it can be shipped (e.g. on a compacted Kafka topic) and restored into a fresh engine built with the same
 * options. `parts` holds one entry per stateful part (detector id, `findings`, `leases`, `extra`) and the
 * shared `events` table the parts refer to.
 */
export interface EngineSnapshot {
  v: 1;
  parts: Record<string, unknown>;
}

export const ENGINE_SNAPSHOT_VERSION = 1;

/** A snapshot that cannot be restored: unknown version or a malformed part. */
export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
}

// Readers of untrusted snapshot data: each returns the checked value or throws a SnapshotError naming `what`.

export function fail(what: string, expected: string, got: unknown): never {
  const shown = JSON.stringify(got);
  throw new SnapshotError(`${what}: expected ${expected}, got ${shown === undefined ? String(got) : shown.slice(0, 80)}`);
}

export function readArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) fail(what, 'an array', value);
  return value;
}

/** An array whose length is a multiple of `stride` (flat tuples). */
export function readTuples(value: unknown, stride: number, what: string): unknown[] {
  const array = readArray(value, what);
  if (array.length % stride !== 0) fail(what, `a flat list of ${stride}-tuples`, `length ${array.length}`);
  return array;
}

export function readObject(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(what, 'an object', value);
  return value as Record<string, unknown>;
}

export function readString(value: unknown, what: string): string {
  if (typeof value !== 'string') fail(what, 'a string', value);
  return value;
}

export function readOptionalString(value: unknown, what: string): string | undefined {
  return value === null || value === undefined ? undefined : readString(value, what);
}

/** Numbers are written by {@link writeNumber}: non-finite ones as strings, which JSON cannot hold otherwise. */
export function readNumber(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  if (value === 'NaN') return NaN;
  return fail(what, 'a number', value);
}

export function readCount(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(what, 'a non-negative integer', value);
  return value;
}

export function writeNumber(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

export function readNumbers(value: unknown, what: string): number[] {
  return readArray(value, what).map((n, i) => readNumber(n, `${what}[${i}]`));
}

export function readStrings(value: unknown, what: string): string[] {
  return readArray(value, what).map((s, i) => readString(s, `${what}[${i}]`));
}

/** Deltas (first absolute) make long runs of nearby timestamps short. */
export function writeDeltas(values: readonly number[]): (number | string)[] {
  return values.map((v, i) => writeNumber(i === 0 ? v : v - values[i - 1]));
}

export function readDeltas(value: unknown, what: string): number[] {
  const deltas = readNumbers(value, what);
  for (let i = 1; i < deltas.length; i++) deltas[i] += deltas[i - 1];
  return deltas;
}

/**
 * `value` as its distance below `base` (short for nearby times), or `[value]` when floating point would not
 * give it back exactly.
 */
export function writeOffset(base: number, value: number): number | string | [number | string] {
  const offset = base - value;
  return Number.isFinite(offset) && base - offset === value ? offset : [writeNumber(value)];
}

export function readOffset(base: number, encoded: unknown, what: string): number {
  return Array.isArray(encoded) && encoded.length === 1 ? readNumber(encoded[0], what) : base - readNumber(encoded, what);
}
