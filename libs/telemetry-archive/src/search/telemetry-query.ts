import { isIP } from 'node:net';
import { TELEMETRY_TYPES, type TelemetryType } from '@vigil/contracts';

/** A telemetry search request that cannot be served (the endpoint answers 400 with the message). */
export class InvalidTelemetryQueryError extends Error {
  override readonly name = 'InvalidTelemetryQueryError';
}

/** The archive keeps 30 days; a search reaches no further back. */
export const ARCHIVE_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** Longest time range of one search. */
export const MAX_RANGE_MS = 24 * 3600 * 1000;
/** Range when `since` is not given: the hour before `until`. */
export const DEFAULT_RANGE_MS = 3600 * 1000;
export const DEFAULT_LIMIT = 1000;
export const MAX_LIMIT = 10_000;

export interface TelemetryQuery {
  workspace: string;
  /** An IP address (matches `srcIP`) or a host name (matches `srcHost`, case-insensitively). */
  host?: { ip: string } | { name: string };
  /** Epoch ms, inclusive: by the time Vigil accepted the events. */
  sinceMs: number;
  /** Epoch ms, exclusive. */
  untilMs: number;
  types: TelemetryType[];
  limit: number;
}

const RELATIVE = /^(\d{1,6})(s|m|h|d)$/;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An ISO 8601 date-time, or a duration (`90s`, `15m`, `2h`, `1d`) meaning that long before now. */
export function parseInstant(value: string, name: string, now: number): number {
  const relative = RELATIVE.exec(value);
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]];
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value)) throw new InvalidTelemetryQueryError(`${name} must be an ISO 8601 date-time or a duration such as 15m, 2h, 1d; got ${JSON.stringify(value)}`);
  const parsed = Date.parse(value);
  if (Number.isNaN(parsed)) throw new InvalidTelemetryQueryError(`${name} is not a valid date-time: ${JSON.stringify(value)}`);
  return parsed;
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new InvalidTelemetryQueryError(`${name} must be given once`);
  return value;
}

/** Validates `GET /admin/v1/telemetry` parameters; every limit is checked before any work is done. */
export function parseTelemetryQuery(query: Record<string, unknown>, now = Date.now()): TelemetryQuery {
  const known = new Set(['workspace', 'host', 'since', 'until', 'type', 'limit']);
  const unknown = Object.keys(query).filter((key) => !known.has(key));
  if (unknown.length) throw new InvalidTelemetryQueryError(`unknown parameter(s): ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  const workspace = single(query, 'workspace');
  if (workspace === undefined) throw new InvalidTelemetryQueryError('workspace (id or name) is required');
  const hostText = single(query, 'host');
  let host: TelemetryQuery['host'];
  if (hostText !== undefined) {
    if (hostText.length > 255 || /\s/.test(hostText)) throw new InvalidTelemetryQueryError('host must be an IP address or a host name');
    host = isIP(hostText) !== 0 ? { ip: hostText } : { name: hostText.toLowerCase() };
  }
  const untilText = single(query, 'until');
  const untilMs = untilText === undefined ? now : parseInstant(untilText, 'until', now);
  const sinceText = single(query, 'since');
  const sinceMs = sinceText === undefined ? untilMs - DEFAULT_RANGE_MS : parseInstant(sinceText, 'since', now);
  if (sinceMs >= untilMs) throw new InvalidTelemetryQueryError('since must be before until');
  if (untilMs - sinceMs > MAX_RANGE_MS) throw new InvalidTelemetryQueryError(`the time range must be at most ${MAX_RANGE_MS / 3_600_000} hours; narrow since/until`);
  if (sinceMs < now - ARCHIVE_RETENTION_MS) throw new InvalidTelemetryQueryError('since is older than the archive keeps telemetry (30 days)');
  const typeText = single(query, 'type');
  const types = typeText === undefined ? [] : [...new Set(typeText.split(',').map((t) => t.trim()))];
  for (const type of types) {
    if (!(TELEMETRY_TYPES as readonly string[]).includes(type)) throw new InvalidTelemetryQueryError(`type must be one or more of ${TELEMETRY_TYPES.join(', ')} (comma-separated); got ${JSON.stringify(type)}`);
  }
  const limitText = single(query, 'limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    if (!/^\d{1,6}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_LIMIT) throw new InvalidTelemetryQueryError(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
    limit = Number(limitText);
  }
  return { workspace, host, sinceMs, untilMs, types: types as TelemetryType[], limit };
}
