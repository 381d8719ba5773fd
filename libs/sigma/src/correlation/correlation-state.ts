/** Correlation state that cannot be restored (malformed snapshot data). */
export class CorrelationStateError extends Error {
  override readonly name = 'CorrelationStateError';
}

export function stateFail(what: string, expected: string, got: unknown): never {
  const shown = JSON.stringify(got);
  throw new CorrelationStateError(`${what}: expected ${expected}, got ${shown === undefined ? String(got) : shown.slice(0, 80)}`);
}

export function stateArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) stateFail(what, 'an array', value);
  return value;
}

export function stateString(value: unknown, what: string): string {
  if (typeof value !== 'string') stateFail(what, 'a string', value);
  return value;
}

/** Non-finite numbers travel as strings (JSON has no Infinity or NaN). */
export function writeStateNumber(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

export function stateNumber(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  if (value === 'Infinity' || value === '-Infinity' || value === 'NaN') return Number(value);
  return stateFail(what, 'a number', value);
}

export function stateCount(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) stateFail(what, 'a non-negative integer', value);
  return value;
}
