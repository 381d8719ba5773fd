/**
 * Value conversions shared by the format mappers. Log values arrive as strings (Zeek TSV, BIND) or as JSON
 * values (Zeek JSON, EVE, cloud logs); each helper accepts both and answers undefined for "not there".
 */

/** A non-empty string (numbers are written out), else undefined. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 ? value : undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A non-negative safe integer from a number or a digit string. */
export function countOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A non-negative finite number from a number or a decimal string (Zeek intervals, lease times). */
export function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * A port 1–65535. Port 0 is left out: the API reads 0 as "absent" anyway, and sensors write 0 where a protocol
 * has no ports.
 */
export function portOf(value: unknown): number | undefined {
  const n = countOf(value);
  return n !== undefined && n > 0 && n <= 65535 ? n : undefined;
}

/** The first element of a list value (Zeek sets and vectors, JSON arrays) or the value itself. */
export function firstOf(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}

// Logs repeat the same second many times: keep the last second's ISO prefix.
let lastSecond = NaN;
let lastSecondPrefix = '';

/**
 * `1591367999.305988` (Unix seconds with a fraction, as Zeek writes `ts`) → `2020-06-05T14:39:59.305Z`. Done on
 * the digits, not through a float, so no precision is lost (extra fractional digits are truncated).
 */
export function isoFromEpochSeconds(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'number') text = Number.isFinite(value) ? value.toFixed(6) : '';
  else if (typeof value === 'string') text = value;
  else return undefined;
  const dot = text.indexOf('.');
  const whole = dot === -1 ? text : text.slice(0, dot);
  if (!/^\d{1,11}$/.test(whole)) return undefined;
  const fraction = dot === -1 ? '' : text.slice(dot + 1);
  if (fraction !== '' && !/^\d+$/.test(fraction)) return undefined;
  const seconds = Number(whole);
  if (seconds !== lastSecond) {
    const iso = new Date(seconds * 1000).toISOString();
    lastSecond = seconds;
    lastSecondPrefix = iso.slice(0, 19);
  }
  return `${lastSecondPrefix}.${(fraction + '000').slice(0, 3)}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

/**
 * An RFC 3339 / ISO 8601 date-time in the spellings sensors use — `Z`, `+01:00`, Suricata's `+0100`, or no
 * offset (read as UTC) — to UTC ISO with milliseconds. Also takes epoch seconds (numbers or digit strings).
 */
export function isoFromTimestamp(value: unknown): string | undefined {
  if (typeof value === 'number') return isoFromEpochSeconds(value);
  if (typeof value !== 'string') return undefined;
  const m = RFC3339.exec(value.trim());
  if (!m) return /^\d+(?:\.\d+)?$/.test(value) ? isoFromEpochSeconds(value) : undefined;
  const [, y, mo, d, h, mi, s, fraction, , sign, oh, om] = m;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return undefined;
  const millis = Number(((fraction ?? '') + '000').slice(0, 3));
  let ms = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s), millis);
  if (sign !== undefined) ms -= (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A certificate fingerprint as bare lower-case hex (`8f:51:12` → `8f5112`). */
export function hexFingerprint(value: unknown): string | undefined {
  const text = textOf(value);
  if (text === undefined) return undefined;
  const hex = text.replace(/[:\s]/g, '').toLowerCase();
  return /^[0-9a-f]+$/.test(hex) ? hex : text;
}

/** `[2001:db8::1]` for IPv6 literals in URLs, the address unchanged otherwise. */
export function urlHost(ip: string): string {
  return ip.includes(':') ? `[${ip}]` : ip;
}
