/**
 * Milliseconds since the epoch of a timestamp in the shape sensors send (`2026-11-27T10:51:33Z`, or with `.123`
 * before the `Z`); NaN for anything else, which callers hand to Date.parse. Every event carries one, and the
 * generic parser costs several times this check.
 */
export function parseUtcTimestamp(ts: string): number {
  const length = ts.length;
  if ((length !== 20 && length !== 24) || ts.charCodeAt(length - 1) !== 0x5a /* Z */) return NaN;
  if (ts.charCodeAt(4) !== 0x2d || ts.charCodeAt(7) !== 0x2d || ts.charCodeAt(10) !== 0x54 || ts.charCodeAt(13) !== 0x3a || ts.charCodeAt(16) !== 0x3a) {
    return NaN;
  }
  const intoHour = msIntoHour(ts, length);
  if (Number.isNaN(intoHour)) return NaN;
  // Events of a batch mostly share the hour: its start is worked out once.
  if (!ts.startsWith(lastHour)) {
    const hourMs = hourStartMs(ts);
    if (Number.isNaN(hourMs)) return NaN;
    lastHour = ts.slice(0, 13);
    lastHourMs = hourMs;
  }
  return lastHourMs + intoHour;
}

/** `YYYY-MM-DDTHH` of the latest hour worked out, and its start. */
let lastHour = '\u0000';
let lastHourMs = 0;

/** The start of the timestamp's hour; NaN when its date or hour is not one this parser takes. */
function hourStartMs(ts: string): number {
  const year = digits(ts, 0, 4);
  const month = digits(ts, 5, 2);
  const day = digits(ts, 8, 2);
  const hour = digits(ts, 11, 2);
  // Days past the month's end (which Date.parse rolls over into the next month) and years before 1000 (Date.UTC
  // maps 0-99 to 19xx) are left to Date.parse.
  if (!(year >= 1000 && month >= 1 && month <= 12 && day >= 1 && hour <= 23) || day > daysInMonth(year, month)) return NaN;
  return Date.UTC(year, month - 1, day, hour);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days of a month (1-12) of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month !== 2) return DAYS_IN_MONTH[month - 1];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return leap ? 29 : 28;
}

/** Minutes, seconds and milliseconds past the hour, in milliseconds; NaN when they are not valid. */
function msIntoHour(ts: string, length: number): number {
  const minute = digits(ts, 14, 2);
  const second = digits(ts, 17, 2);
  let ms = 0;
  if (length === 24) {
    if (ts.charCodeAt(19) !== 0x2e /* . */) return NaN;
    ms = digits(ts, 20, 3);
  }
  return minute <= 59 && second <= 59 && ms >= 0 ? minute * 60_000 + second * 1000 + ms : NaN;
}

/** The decimal number of `count` digits at `from`; NaN when any is not a digit. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const d = text.charCodeAt(i) - 0x30;
    if (d < 0 || d > 9) return NaN;
    value = value * 10 + d;
  }
  return value;
}
