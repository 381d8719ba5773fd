import { isoFromEpochSeconds, isoFromTimestamp } from '../values';

/** Zeek `time` values: epoch seconds with a fraction (TSV, default JSON) or ISO 8601 (JSON with `JSON::TS_ISO8601`). */
export function zeekTime(value: unknown): string | undefined {
  if (typeof value === 'string' && value.includes('-')) return isoFromTimestamp(value);
  return isoFromEpochSeconds(value);
}
