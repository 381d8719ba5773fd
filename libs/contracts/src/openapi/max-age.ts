import toRegexRange from 'to-regex-range';

/**
 * The grammar of the `maxAge` query parameter of GET /v1/findings and GET /v1/alerts, with its bounds, as one
 * regular expression per operation. The OpenAPI document publishes these patterns and the findings service
 * parses with the very same ones, so that every value the document allows is served and every other value is
 * a 400 (API fuzzers generate values from the pattern).
 *
 * A value is a whole number without leading zeros, from 1 up to the look-back limit in that unit, followed by
 * the unit: `1s`…`2592000s`, `1m`…`43200m`, `1h`…`720h` and, for findings only, `1d`…`30d`.
 */

export type MaxAgeUnit = 's' | 'm' | 'h' | 'd';
export type MaxAgeKind = 'findings' | 'alerts';

/** Longest look-back for both operations: 30 days (the findings and alerts tables keep 30 days). */
export const MAX_AGE_LIMIT_SECONDS = 30 * 24 * 3600;

export const MAX_AGE_UNIT_SECONDS: Readonly<Record<MaxAgeUnit, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

export interface MaxAgeGrammar {
  /** Units in the order they are documented. */
  readonly units: readonly MaxAgeUnit[];
  /** Largest number per unit: the limit in that unit. */
  readonly maxima: Readonly<Partial<Record<MaxAgeUnit, number>>>;
  /** The limit as the spec writes it (`30d`, `720h`). */
  readonly limit: string;
  /** Anchored ECMA-262 pattern matching exactly the allowed values. */
  readonly pattern: string;
}

function maxAgeGrammar(units: readonly MaxAgeUnit[], limit: string): MaxAgeGrammar {
  const maxima: Partial<Record<MaxAgeUnit, number>> = {};
  for (const unit of units) maxima[unit] = Math.floor(MAX_AGE_LIMIT_SECONDS / MAX_AGE_UNIT_SECONDS[unit]);
  const alternatives = units.map((unit) => `${toRegexRange(1, maxima[unit]!)}${unit}`);
  return { units, maxima, limit, pattern: `^(?:${alternatives.join('|')})$` };
}

export const MAX_AGE_GRAMMARS: Readonly<Record<MaxAgeKind, MaxAgeGrammar>> = {
  findings: maxAgeGrammar(['s', 'm', 'h', 'd'], '30d'),
  alerts: maxAgeGrammar(['s', 'm', 'h'], '720h'),
};

export const FINDINGS_MAX_AGE_PATTERN = MAX_AGE_GRAMMARS.findings.pattern;
export const ALERTS_MAX_AGE_PATTERN = MAX_AGE_GRAMMARS.alerts.pattern;

/** `2592000s, 43200m, 720h or 30d`: the largest value in each unit, for descriptions and messages. */
export function maxAgeLimits(kind: MaxAgeKind): string {
  const { units, maxima } = MAX_AGE_GRAMMARS[kind];
  const values = units.map((unit) => `${maxima[unit]}${unit}`);
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}
