import type { TelemetryType } from '@vigil/contracts';
import type { SigmaEnrichment } from '../types';
import { accessorOf, type FieldValue } from './field-registry';

const ABSENT = Symbol('absent');

function asStrings(value: FieldValue): string[] | null {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}

/**
 * One event as rules see it: each field is extracted at most once, however many rules read it,
 * with its string forms (as sent, and lower-cased for case-insensitive matching) cached alongside.
 */
export class EventView {
  private readonly values: Array<FieldValue | typeof ABSENT> = [];
  private readonly plain: Array<string[] | null> = [];
  private readonly lower: Array<string[] | null> = [];

  constructor(
    readonly type: TelemetryType,
    readonly event: Record<string, unknown>,
    readonly enrichment: SigmaEnrichment | undefined,
  ) {}

  value(id: number): FieldValue {
    const cached = this.values[id];
    if (cached === ABSENT) return undefined;
    if (cached !== undefined) return cached;
    let value: FieldValue;
    try {
      value = accessorOf(id)(this.event, this.enrichment);
    } catch {
      value = undefined; // a malformed event field reads as absent rather than failing the whole rule set
    }
    this.values[id] = value === undefined ? ABSENT : value;
    return value;
  }

  /** String forms of the field's values; null when the field is absent. */
  strings(id: number): string[] | null {
    let cached = this.plain[id];
    if (cached === undefined) cached = this.plain[id] = asStrings(this.value(id));
    return cached;
  }

  lowerStrings(id: number): string[] | null {
    let cached = this.lower[id];
    if (cached === undefined) cached = this.lower[id] = this.strings(id)?.map((s) => s.toLowerCase()) ?? null;
    return cached;
  }
}
