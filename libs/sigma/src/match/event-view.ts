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
  /** Strings already lower-cased for this event (several fields often carry the same string, e.g. the URL in the keyword field). */
  private readonly loweredFrom: string[] = [];
  private readonly loweredTo: string[] = [];

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
    if (cached === undefined) {
      const value = this.value(id);
      if (value === undefined || value === null) cached = null;
      else if (Array.isArray(value)) cached = value.map((v) => this.lowered(String(v)));
      else cached = [this.lowered(String(value))];
      this.lower[id] = cached;
    }
    return cached;
  }

  /**
   * The lower-cased form of a string of this event; the same string object for equal inputs, so
   * callers may tell repeated values apart by identity.
   */
  private lowered(s: string): string {
    const from = this.loweredFrom;
    for (let i = 0; i < from.length; i++) if (from[i] === s) return this.loweredTo[i];
    const lower = s.toLowerCase();
    from.push(s);
    this.loweredTo.push(lower);
    return lower;
  }
}
