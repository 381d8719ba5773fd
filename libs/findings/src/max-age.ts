import { InvalidQueryError } from './errors';

export type ResultKind = 'findings' | 'alerts';

/** Look-back when the client sends no maxAge: 3 days. */
export const DEFAULT_MAX_AGE_SECONDS = 3 * 24 * 3600;
/** Longest look-back for both kinds: 30 days (findings `30d`, alerts `720h`), also the tables' TTL. */
export const MAX_AGE_LIMIT_SECONDS = 30 * 24 * 3600;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const GRAMMAR: Record<ResultKind, { pattern: RegExp; units: string; limit: string }> = {
  findings: { pattern: /^(\d{1,12})([smhd])$/, units: 's, m, h or d', limit: '30d' },
  alerts: { pattern: /^(\d{1,12})([smh])$/, units: 's, m or h', limit: '720h' },
};

/**
 * Parses the `maxAge` query parameter into seconds: a whole number with a unit suffix, above zero and at most
 * 30 days. Absent (or empty, as sent by `maxAge=`) means the 3-day default.
 */
export function parseMaxAge(value: string | undefined, kind: ResultKind): number {
  if (value === undefined || value === '') return DEFAULT_MAX_AGE_SECONDS;
  const grammar = GRAMMAR[kind];
  const match = typeof value === 'string' ? grammar.pattern.exec(value) : null;
  if (!match) {
    throw new InvalidQueryError(
      `maxAge must be a whole number followed by ${grammar.units} (e.g. 86400s), got ${JSON.stringify(value)}`,
    );
  }
  const seconds = Number(match[1]) * UNIT_SECONDS[match[2]];
  if (seconds === 0) throw new InvalidQueryError('maxAge must be greater than zero');
  if (seconds > MAX_AGE_LIMIT_SECONDS) {
    throw new InvalidQueryError(`maxAge must be at most ${grammar.limit}, got ${JSON.stringify(value)}`);
  }
  return seconds;
}
