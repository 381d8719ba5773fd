import { parseUtcTimestamp } from './utc-timestamp';

describe('parseUtcTimestamp', () => {
  it('agrees with Date.parse on the shapes it takes', () => {
    for (const ts of ['2026-11-27T10:51:33Z', '2026-11-27T10:51:33.123Z', '1999-01-01T00:00:00Z', '2024-02-28T23:59:59.999Z', '1000-06-15T12:00:00.000Z']) {
      expect(parseUtcTimestamp(ts)).toBe(Date.parse(ts));
    }
  });

  it('agrees with Date.parse on random timestamps of that shape', () => {
    for (let i = 0; i < 2000; i++) {
      const ms = Math.floor(Math.random() * 4_102_444_800_000);
      const iso = new Date(ms).toISOString();
      const ts = i % 2 === 0 ? iso : `${iso.slice(0, 19)}Z`;
      const expected = Date.parse(ts);
      expect(parseUtcTimestamp(ts)).toBe(expected);
    }
  });

  it('takes the last days of months, leap days included, and leaves days past the end of a month to Date.parse', () => {
    for (const ts of ['2026-11-29T03:44:31.000Z', '2026-11-30T00:00:00Z', '2026-12-31T23:59:59.999Z', '2026-01-31T12:00:00Z', '2026-04-30T12:00:00Z']) {
      expect(parseUtcTimestamp(ts)).toBe(Date.parse(ts));
    }
    for (const ts of ['2024-02-29T00:00:00Z', '2000-02-29T10:00:00.000Z', '1600-02-29T10:00:00Z']) expect(parseUtcTimestamp(ts)).toBe(Date.parse(ts));
    // Date.parse rolls these over into the next month; the fast path does not take them.
    for (const ts of ['2026-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2100-02-29T00:00:00Z', '2026-04-31T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-32T00:00:00Z']) {
      expect(parseUtcTimestamp(ts)).toBeNaN();
    }
  });

  it('agrees with Date.parse on runs of timestamps within an hour, before 1970 too, and still refuses bad minutes', () => {
    for (const hour of ['2026-11-27T10', '1969-12-28T23', '1000-01-01T00']) {
      for (const rest of [':30:00.500Z', ':59:59.999Z', ':00:00Z', ':07:08Z', ':00:00.000Z']) expect(parseUtcTimestamp(hour + rest)).toBe(Date.parse(hour + rest));
      for (const rest of [':60:00Z', ':00:60Z', ':0x:00Z', ':00:00,000Z', ':00:00.0x0Z']) expect(parseUtcTimestamp(hour + rest)).toBeNaN();
    }
  });

  it('answers NaN for everything else, so the caller falls back to Date.parse', () => {
    for (const ts of [
      '', 'yesterday', '2026-11-27', '2026-11-27T10:51:33', '2026-11-27T10:51:33+02:00', '2026-11-27 10:51:33Z', '2026-13-01T00:00:00Z',
      '2026-00-10T00:00:00Z', '2026-11-00T00:00:00Z', '2026-11-27T24:00:00Z', '2026-11-27T10:60:00Z', '2026-11-27T10:51:60Z',
      '2026-11-27T10:51:33.1Z', '2026-11-27T10:51:33.12345Z', '2026-11-27T10:51:33,123Z', '0099-11-27T10:51:33Z', '2026-11-31T10:51:33Z',
      '20x6-11-27T10:51:33Z', '2026-11-27T10:51:33.12xZ',
    ]) {
      expect(parseUtcTimestamp(ts)).toBeNaN();
    }
  });
});
