/**
 * SQL literals for values written into query text. The embedded engine runs parameterized queries one at a time
 * across the whole process (chdb cannot isolate bound parameters between connections), so hot queries write
 * their values as literals instead; everything a caller passes goes through these, never through concatenation.
 */

/** A ClickHouse string literal: quote and backslash are the characters its lexer needs escaped. */
export function sqlString(value: string): string {
  if (typeof value !== 'string') throw new TypeError(`expected a string, got ${typeof value}`);
  return `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** An array literal of strings, for `IN` lists. */
export function sqlStringArray(values: readonly string[]): string {
  return `[${values.map(sqlString).join(',')}]`;
}

/** A whole number literal; refuses anything that is not one (a string must be plain decimal digits). */
export function sqlInteger(value: bigint | number | string): string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return BigInt(value).toString();
  throw new TypeError(`expected a whole number, got ${String(value)}`);
}
