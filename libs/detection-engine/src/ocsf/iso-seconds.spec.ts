import { isoSeconds } from './iso-seconds';

describe('isoSeconds', () => {
  const reference = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

  it('writes what toISOString writes for the whole second, across days, years and the epoch', () => {
    let state = 7;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const times = [0, 999, 1000, -1, -1001, 86_399_999, 86_400_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(1969, 11, 31, 23, 59, 59)];
    for (let i = 0; i < 3_000; i++) times.push(Math.round((next() - 0.3) * 4e12), Date.UTC(2026, 10, 27) + Math.round(next() * 3 * 86_400_000));
    times.push(8.64e15, -8.64e15, 253_402_300_799_999);
    for (const ms of times) expect(isoSeconds(ms)).toBe(reference(ms));
  });

  it('refuses a time that is no date, as toISOString does', () => {
    for (const ms of [NaN, Infinity, 8.64e15 + 1000]) expect(() => isoSeconds(ms)).toThrow(RangeError);
  });
});
