import { MAX_AGE_GRAMMARS, MAX_AGE_LIMIT_SECONDS, MAX_AGE_UNIT_SECONDS, maxAgeLimits, type MaxAgeKind, type MaxAgeUnit } from '@vigil/contracts';
import { InvalidQueryError } from './errors';

export type ResultKind = MaxAgeKind;
export { MAX_AGE_LIMIT_SECONDS };

/** Look-back when the client sends no maxAge: 3 days. */
export const DEFAULT_MAX_AGE_SECONDS = 3 * 24 * 3600;

/** The published patterns (the OpenAPI document's), compiled once: a value is served exactly when it matches. */
const MATCHERS: Readonly<Record<ResultKind, RegExp>> = {
  findings: new RegExp(MAX_AGE_GRAMMARS.findings.pattern),
  alerts: new RegExp(MAX_AGE_GRAMMARS.alerts.pattern),
};

/**
 * Parses the `maxAge` query parameter into seconds, by the grammar the OpenAPI document publishes
 * (`@vigil/contracts`): a whole number without leading zeros and a unit, from 1 up to 30 days (findings
 * `s m h d`, alerts `s m h`). Absent means the 3-day default; anything else, an empty value included, is an
 * {@link InvalidQueryError} whose message says what is wrong.
 */
export function parseMaxAge(value: string | undefined, kind: ResultKind): number {
  if (value === undefined) return DEFAULT_MAX_AGE_SECONDS;
  if (!MATCHERS[kind].test(value)) throw new InvalidQueryError(whyRefused(value, kind));
  const unit = value[value.length - 1] as MaxAgeUnit;
  return Number(value.slice(0, -1)) * MAX_AGE_UNIT_SECONDS[unit];
}

/** The message for a value the pattern refused. */
function whyRefused(value: string, kind: ResultKind): string {
  const grammar = MAX_AGE_GRAMMARS[kind];
  const units = grammar.units.join(', ');
  if (value === '') return `maxAge must not be empty: leave it out for the 3-day default, or send a whole number followed by ${units} (e.g. 86400s)`;
  const shape = /^(\d+)([a-z])$/.exec(value);
  if (shape === null || !(grammar.units as readonly string[]).includes(shape[2])) {
    return `maxAge must be a whole number followed by ${units} (e.g. 86400s), got ${JSON.stringify(value)}`;
  }
  if (/^0+$/.test(shape[1])) return 'maxAge must be greater than zero';
  if (shape[1].startsWith('0')) return `maxAge must be written without leading zeros, got ${JSON.stringify(value)}`;
  return `maxAge must be at most ${grammar.limit} (${maxAgeLimits(kind)}), got ${JSON.stringify(value)}`;
}
