import type { TelemetryType } from '@vigil/contracts';
import type { SigmaEnrichment } from '../types';
import { accessorOf, isLowerCaseList, type FieldValue } from './field-registry';
import { lowerCase } from './lower-case';

const ABSENT = Symbol('absent');
const UNSET = Symbol('unset');

function asStrings(value: FieldValue): string[] | null {
  if (value === undefined || value === null) return null;
  if (isLowerCaseList(value)) return value as string[];
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}

/**
 * One event as rules see it: each field is extracted at most once, however many rules read it,
 * with its string forms (as sent, and lower-cased for case-insensitive matching) cached alongside.
 * Everything is computed lazily: the pre-filter reads raw values only, and the lower-cased forms
 * are built just for the few rules it lets through.
 */
export class EventView {
  // Caches by field id (and derived slot), each allocated on first use: most events are only screened.
  private values?: Array<FieldValue | typeof ABSENT>;
  private plain?: Array<string[] | null>;
  private lower?: Array<string[] | null>;
  private derived?: unknown[];

  constructor(
    readonly type: TelemetryType,
    readonly event: Record<string, unknown>,
    readonly enrichment: SigmaEnrichment | undefined,
  ) {}

  value(id: number): FieldValue {
    const values = (this.values ??= []);
    const cached = values[id];
    if (cached === ABSENT) return undefined;
    if (cached !== undefined) return cached;
    let value: FieldValue;
    try {
      value = accessorOf(id)(this.event, this.enrichment, this);
    } catch {
      value = undefined; // a malformed event field reads as absent rather than failing the whole rule set
    }
    values[id] = value === undefined ? ABSENT : value;
    return value;
  }

  /** A value several fields derive from (slot from `derivedSlot()`), computed once per event. */
  derive<T>(slot: number, compute: (event: Record<string, unknown>) => T): T {
    const derived = (this.derived ??= []);
    let cached = derived[slot];
    if (cached === undefined) {
      cached = compute(this.event);
      derived[slot] = cached === undefined ? UNSET : cached;
    }
    return (cached === UNSET ? undefined : cached) as T;
  }

  /** String forms of the field's values; null when the field is absent. */
  strings(id: number): string[] | null {
    const plain = (this.plain ??= []);
    let cached = plain[id];
    if (cached === undefined) cached = plain[id] = asStrings(this.value(id));
    return cached;
  }

  lowerStrings(id: number): string[] | null {
    const lower = (this.lower ??= []);
    let cached = lower[id];
    if (cached === undefined) {
      const value = this.value(id);
      if (value === undefined || value === null) cached = null;
      else if (isLowerCaseList(value)) cached = value as string[];
      else if (Array.isArray(value)) {
        cached = new Array<string>(value.length);
        for (let i = 0; i < value.length; i++) cached[i] = lowerCase(String(value[i]));
      } else cached = [lowerCase(String(value))];
      lower[id] = cached;
    }
    return cached;
  }
}
