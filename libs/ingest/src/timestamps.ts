/**
 * Event timestamps: RFC 3339 strings (any offset, any number of fractional digits, `T`, `t` or a space
 * between date and time; no offset means UTC) or Unix epoch numbers (seconds, milli-, micro- or
 * nanoseconds, told apart by magnitude; digit strings too). Normalised to UTC ISO 8601 with millisecond
 * precision (`2018-09-03T09:39:47.123Z`; extra fractional digits are truncated).
 *
 * Parsed and formatted by hand: this runs once per event, and `Date#toISOString` plus a regular expression
 * cost more than parsing the event's JSON.
 */

/** Go's zero `time.Time` (`0001-01-01T00:00:00Z`), which Go clients send for "unset". */
export const ZERO_TIME = Symbol('zero time');
export const INVALID_TIME = Symbol('invalid time');
export type TimestampResult = string | typeof ZERO_TIME | typeof INVALID_TIME;

const EPOCH = /^\d+(?:\.\d+)?$/;

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const GO_ZERO_MS = -62_135_596_800_000; // 0001-01-01T00:00:00Z
/** Earliest and latest accepted instants: four-digit years keep the ISO form fixed-width. */
const MIN_MS = Date.UTC(1000, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** An event's `ts` may be at most this many years before or after the time its batch was received. */
export const MAX_EVENT_TIME_SKEW_YEARS = 10;

/** The instants an event's `ts` may take for a batch received at `now`, inclusive, as normalised ISO strings. */
export interface EventTimeWindow {
  earliest: string;
  latest: string;
  /**
   * Dates (`YYYY-MM-DD`) between which an RFC 3339 text is inside the window whatever its offset (two days in
   * from `earliest`, one from `latest`), so that it is judged as sent: see {@link isWithinEventTimeWindow}.
   */
  surelyFrom: string;
  surelyBefore: string;
}

/** `now` ± {@link MAX_EVENT_TIME_SKEW_YEARS} calendar years. */
export function eventTimeWindow(now: Date): EventTimeWindow {
  const shifted = (years: number, days = 0) => {
    const date = new Date(now.getTime());
    date.setUTCFullYear(date.getUTCFullYear() + years);
    return isoFromMillis(Math.min(Math.max(date.getTime() + days * DAY_MS, MIN_MS), MAX_MS));
  };
  return {
    earliest: shifted(-MAX_EVENT_TIME_SKEW_YEARS),
    latest: shifted(MAX_EVENT_TIME_SKEW_YEARS),
    surelyFrom: shifted(-MAX_EVENT_TIME_SKEW_YEARS, 2).slice(0, 10),
    surelyBefore: shifted(MAX_EVENT_TIME_SKEW_YEARS, -1).slice(0, 10),
  };
}

/**
 * True when `normalized`, the valid result of {@link normalizeTimestamp} for `sent`, is inside `window`.
 * Normalised timestamps have four-digit years, so they compare as strings; but a normalised string is built
 * from pieces, and comparing it first joins them, which costs more than the rest of the check. So an RFC 3339
 * text whose date is well inside the window (a string comparison of the text as sent) is decided without it.
 */
export function isWithinEventTimeWindow(sent: string | number, normalized: string, window: EventTimeWindow): boolean {
  if (typeof sent === 'string' && sent.charCodeAt(4) === MINUS && sent >= window.surelyFrom && sent < window.surelyBefore) return true;
  return normalized >= window.earliest && normalized <= window.latest;
}

// Batches repeat the same timestamp string many times: remember the last one.
let lastInput: string | number | undefined;
let lastResult: TimestampResult = INVALID_TIME;

export function normalizeTimestamp(value: string | number): TimestampResult {
  if (value === lastInput) return lastResult;
  const result = typeof value === 'number' ? fromEpoch(value) : fromString(value);
  lastInput = value;
  lastResult = result;
  return result;
}

/** UTC ISO 8601 with milliseconds for an instant in years 1000–9999 (same output as `Date#toISOString`). */
export function isoFromMillis(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hour = Math.floor(rest / HOUR_MS);
  rest -= hour * HOUR_MS;
  const minute = Math.floor(rest / MINUTE_MS);
  rest -= minute * MINUTE_MS;
  const second = Math.floor(rest / SECOND_MS);
  return timeOfDay(datePrefixOfDay(days), hour, minute, second, rest - second * SECOND_MS);
}

function timeOfDay(datePrefix: string, hour: number, minute: number, second: number, milli: number): string {
  return datePrefix + HOURS_MINUTES[hour * 60 + minute] + SECONDS[second] + MILLIS[milli];
}

// Events of a batch mostly fall on one day: keep the last date prefix (`2018-09-03T`) built.
let lastDay = NaN;
let lastDayPrefix = '';

/** `YYYY-MM-DDT` for a count of days since 1970-01-01 (proleptic Gregorian; H. Hinnant's civil_from_days). */
function datePrefixOfDay(days: number): string {
  if (days === lastDay) return lastDayPrefix;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  lastDay = days;
  lastDayPrefix = `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T`;
  return lastDayPrefix;
}

let lastDate = -1;
let lastDatePrefix = '';

/** `YYYY-MM-DDT` for a (valid, four-digit-year) calendar date. */
function datePrefixOf(year: number, month: number, day: number): string {
  const key = year * 10_000 + month * 100 + day;
  if (key !== lastDate) {
    lastDate = key;
    lastDatePrefix = `${year}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}T`;
  }
  return lastDatePrefix;
}

// Pieces of the ISO form, so that one is joined from four strings.
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, '0'));
const HOURS_MINUTES = Array.from({ length: 1440 }, (_, n) => `${TWO_DIGITS[Math.floor(n / 60)]}:${TWO_DIGITS[n % 60]}:`);
const SECONDS = TWO_DIGITS.slice(0, 60).map((ss) => `${ss}.`);
const MILLIS = Array.from({ length: 1000 }, (_, n) => `${String(n).padStart(3, '0')}Z`);

const ZERO = 48;
const PLUS = 43;
const MINUS = 45;
const DOT = 46;
const COMMA = 44;
const COLON = 58;
const SPACE = 32;

function fromString(raw: string): TimestampResult {
  const s = raw.charCodeAt(0) <= SPACE || raw.charCodeAt(raw.length - 1) <= SPACE ? raw.trim() : raw;
  if (isCanonicalIso(s)) return s;
  if (s.charCodeAt(4) !== MINUS) return EPOCH.test(s) ? fromEpoch(Number(s)) : INVALID_TIME;
  if (s.length < 19) return INVALID_TIME;
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  const separator = s.charCodeAt(10);
  if (
    (year | month | day | hour | minute | second) < 0 ||
    s.charCodeAt(7) !== MINUS ||
    (separator !== 84 /* T */ && separator !== 116 /* t */ && separator !== SPACE) ||
    s.charCodeAt(13) !== COLON ||
    s.charCodeAt(16) !== COLON
  ) {
    return INVALID_TIME;
  }
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return INVALID_TIME;
  if (hour > 23 || minute > 59 || second > 60) return INVALID_TIME; // 60: leap second, rolls over

  let i = 19;
  let millis = 0;
  const fractionMark = s.charCodeAt(i);
  if (fractionMark === DOT || fractionMark === COMMA) {
    const start = ++i;
    while (isDigit(s.charCodeAt(i))) i++;
    if (i === start) return INVALID_TIME;
    for (let k = start; k < start + 3; k++) millis = millis * 10 + (k < i ? s.charCodeAt(k) - ZERO : 0);
  }
  while (s.charCodeAt(i) === SPACE) i++;
  const offsetMinutes = offsetAt(s, i);
  if (offsetMinutes === undefined) return INVALID_TIME;

  // Common case without date arithmetic: the offset does not move the time to another day.
  const minuteOfDay = hour * 60 + minute - offsetMinutes;
  if (year >= 1000 && second < 60 && minuteOfDay >= 0 && minuteOfDay < 1440) {
    return timeOfDay(datePrefixOf(year, month, day), Math.floor(minuteOfDay / 60), minuteOfDay % 60, second, millis);
  }
  let ms = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  if (year < 100) ms = withFullYear(ms, year); // Date.UTC maps years 0-99 to 1900-1999
  return fromMillis(ms - offsetMinutes * MINUTE_MS);
}

const CANONICAL_ISO = /^[1-9]\d{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** Already `YYYY-MM-DDTHH:MM:SS.mmmZ` (a real date): nothing to do, and nothing to allocate. */
function isCanonicalIso(s: string): boolean {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */ || !CANONICAL_ISO.test(s)) return false;
  return Number(s.slice(8, 10)) <= daysInMonth(Number(s.slice(0, 4)), Number(s.slice(5, 7)));
}

/** Minutes east of UTC for `Z`, `±hh:mm`, `±hhmm`, `±hh` or nothing at `i` (the end), else undefined. */
function offsetAt(s: string, i: number): number | undefined {
  const length = s.length;
  if (i === length) return 0;
  const mark = s.charCodeAt(i);
  if (mark === 90 /* Z */ || mark === 122 /* z */) return i + 1 === length ? 0 : undefined;
  if ((mark !== PLUS && mark !== MINUS) || i + 3 > length) return undefined;
  const hours = digits(s, i + 1, 2);
  let minutes = 0;
  let end = i + 3;
  if (end < length) {
    if (s.charCodeAt(end) === COLON) end++;
    if (end + 2 > length) return undefined;
    minutes = digits(s, end, 2);
    end += 2;
  }
  if (end !== length || hours < 0 || minutes < 0 || hours > 23 || minutes > 59) return undefined;
  return (mark === MINUS ? -1 : 1) * (hours * 60 + minutes);
}

/** The number written by `count` (2 or 4) digits at `from`, or -1. The caller makes sure they are in `s`. */
function digits(s: string, from: number, count: 2 | 4): number {
  const a = s.charCodeAt(from) - ZERO;
  const b = s.charCodeAt(from + 1) - ZERO;
  // `>>> 0` makes a negative difference huge: one comparison per digit.
  if (a >>> 0 > 9 || b >>> 0 > 9) return -1;
  if (count === 2) return a * 10 + b;
  const c = s.charCodeAt(from + 2) - ZERO;
  const d = s.charCodeAt(from + 3) - ZERO;
  if (c >>> 0 > 9 || d >>> 0 > 9) return -1;
  return a * 1000 + b * 100 + c * 10 + d;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= ZERO + 9;
}

function fromEpoch(value: number): TimestampResult {
  if (!Number.isFinite(value) || value < 0) return INVALID_TIME;
  if (value === 0) return ZERO_TIME;
  // Seconds until year 5138, then milliseconds, microseconds, nanoseconds.
  const ms = value < 1e11 ? value * 1e3 : value < 1e14 ? value : value < 1e17 ? value / 1e3 : value / 1e6;
  return fromMillis(Math.floor(ms));
}

function fromMillis(ms: number): TimestampResult {
  // Go's zero time written in any time zone lands within a day of the zero instant.
  if (Math.abs(ms - GO_ZERO_MS) <= DAY_MS) return ZERO_TIME;
  if (ms < MIN_MS || ms > MAX_MS) return INVALID_TIME;
  return isoFromMillis(ms);
}

function withFullYear(ms: number, year: number): number {
  const date = new Date(ms);
  date.setUTCFullYear(year);
  return date.getTime();
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
