/** The latest day formatted, as `YYYY-MM-DDT` (days since the epoch → text). */
let formattedDay = NaN;
let dayPrefix = '';

/** Dates beyond this many ms from the epoch are invalid (ECMAScript's time value range). */
const MAX_TIME_MS = 8.64e15;

function twoDigits(value: number): string {
  return value < 10 ? `0${value}` : `${value}`;
}

/**
 * `Date#toISOString` of the second that contains `ms` (`2026-11-27T10:51:33.000Z`). A finding version carries
 * nine such times, mostly of the same day, and `toISOString` was the costliest step of building one; the day
 * part is worked out once per day here and the time of day by arithmetic.
 * @throws RangeError for a time that is not a valid date, as `toISOString` does
 */
export function isoSeconds(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (!(Math.abs(seconds * 1000) <= MAX_TIME_MS)) return new Date(seconds * 1000).toISOString();
  const day = Math.floor(seconds / 86_400);
  if (day !== formattedDay) {
    const iso = new Date(day * 86_400_000).toISOString();
    dayPrefix = iso.slice(0, iso.indexOf('T') + 1);
    formattedDay = day;
  }
  const inDay = seconds - day * 86_400;
  return `${dayPrefix}${twoDigits(Math.floor(inDay / 3_600))}:${twoDigits(Math.floor(inDay / 60) % 60)}:${twoDigits(inDay % 60)}.000Z`;
}
