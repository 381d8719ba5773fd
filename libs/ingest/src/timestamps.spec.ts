import { eventTimeWindow, INVALID_TIME, isoFromMillis, isWithinEventTimeWindow, MAX_EVENT_TIME_SKEW_YEARS, normalizeTimestamp, ZERO_TIME } from './timestamps';

describe('normalizeTimestamp', () => {
  it.each<[string | number, string]>([
    ['2018-09-03T11:39:47.123456789+02:00', '2018-09-03T09:39:47.123Z'],
    ['2021-04-07T09:55:37Z', '2021-04-07T09:55:37.000Z'],
    ['2021-04-07T09:55:37.120Z', '2021-04-07T09:55:37.120Z'],
    ['2021-04-07t09:55:37z', '2021-04-07T09:55:37.000Z'],
    ['2021-04-07 09:55:37', '2021-04-07T09:55:37.000Z'],
    [' 2021-04-07T09:55:37Z ', '2021-04-07T09:55:37.000Z'],
    ['2021-04-07T09:55:37.5-05:30', '2021-04-07T15:25:37.500Z'],
    ['2021-04-07T09:55:37+0530', '2021-04-07T04:25:37.000Z'],
    ['2021-04-07T09:55:37+05', '2021-04-07T04:55:37.000Z'],
    ['2021-04-07T09:55:37 +02:00', '2021-04-07T07:55:37.000Z'],
    ['2021-04-07T09:55:37.1Z', '2021-04-07T09:55:37.100Z'],
    ['1999-12-31T23:30:00-01:00', '2000-01-01T00:30:00.000Z'],
    ['2021-04-07T23:59:59.999-01:00', '2021-04-08T00:59:59.999Z'],
    ['2021-04-07T09:55:37,25Z', '2021-04-07T09:55:37.250Z'],
    ['2021-04-07T09:55:37.123456789123Z', '2021-04-07T09:55:37.123Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['2016-12-31T23:59:60Z', '2017-01-01T00:00:00.000Z'],
    [1536000000, '2018-09-03T18:40:00.000Z'],
    [1536000000.5, '2018-09-03T18:40:00.500Z'],
    [1536000000123, '2018-09-03T18:40:00.123Z'],
    [1536000000123456, '2018-09-03T18:40:00.123Z'],
    [1536000000123456789, '2018-09-03T18:40:00.123Z'],
    ['1536000000', '2018-09-03T18:40:00.000Z'],
    ['1536000000.25', '2018-09-03T18:40:00.250Z'],
  ])('%j -> %s', (input, expected) => {
    expect(normalizeTimestamp(input)).toBe(expected);
  });

  it.each<string | number>(['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000000000Z', '0000-12-31T19:00:00-05:00', 0])(
    'treats Go zero time %j as absent',
    (input) => {
      expect(normalizeTimestamp(input)).toBe(ZERO_TIME);
    },
  );

  it.each<string | number>([
    'yesterday',
    '',
    '2021-04-07',
    '2021-02-29T00:00:00Z',
    '2021-02-29T00:00:00.000Z',
    '2021-04-31T00:00:00.000Z',
    '2021-04-31T00:00:00Z',
    '2021-13-01T00:00:00Z',
    '2021-00-10T00:00:00Z',
    '2021-04-07T24:00:00Z',
    '2021-04-07T12:60:00Z',
    '2021-04-07T12:00:61Z',
    '2021-04-07T09:55:37+25:00',
    '2021-04-07T09:55:37.Z',
    '2021-04-07T09:55:37 PST',
    '2021-04-07T09:55:37+02:00x',
    '2021-04-07T09:55:37+2:00',
    '2021-04-07T09:55:37ZZ',
    '2021-04-07X09:55:37Z',
    '2021-4-7T09:55:37Z',
    '2021-04-07T09:55',
    '+2021-04-07T09:55:37Z',
    '0500-01-01T00:00:00Z',
    -5,
    Number.POSITIVE_INFINITY,
    '12abc',
  ])('rejects %j', (input) => {
    expect(normalizeTimestamp(input)).toBe(INVALID_TIME);
  });

  it('gives the same answer for a repeated input (last-value cache)', () => {
    const first = normalizeTimestamp('2020-01-01T00:00:00+01:00');
    expect(normalizeTimestamp('2020-01-01T00:00:00+01:00')).toBe(first);
    expect(normalizeTimestamp('2020-01-01T00:00:00+02:00')).toBe('2019-12-31T22:00:00.000Z');
    expect(normalizeTimestamp('2020-01-01T00:00:00+01:00')).toBe('2019-12-31T23:00:00.000Z');
  });
});

describe('isoFromMillis', () => {
  it('formats like Date#toISOString across years 1000-9999', () => {
    const min = Date.UTC(1000, 0, 1);
    const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    const samples = [min, max, 0, Date.UTC(2000, 1, 29), Date.UTC(1900, 1, 28, 23, 59, 59, 999), Date.UTC(2100, 2, 1)];
    let seed = 1;
    for (let n = 0; n < 50_000; n++) {
      seed = (seed * 48271) % 2147483647;
      samples.push(min + Math.floor((seed / 2147483647) * (max - min)));
    }
    for (const ms of samples) {
      const expected = new Date(ms).toISOString();
      if (isoFromMillis(ms) !== expected) throw new Error(`${ms}: ${isoFromMillis(ms)} !== ${expected}`);
    }
    expect(isoFromMillis(Date.UTC(2018, 8, 3, 9, 39, 47, 123))).toBe('2018-09-03T09:39:47.123Z');
  });
});

describe('eventTimeWindow', () => {
  it('spans ten calendar years either side of the receive time, as comparable ISO strings', () => {
    expect(MAX_EVENT_TIME_SKEW_YEARS).toBe(10);
    expect(eventTimeWindow(new Date('2026-11-25T10:21:32.123Z'))).toEqual({
      earliest: '2016-11-25T10:21:32.123Z',
      latest: '2036-11-25T10:21:32.123Z',
      surelyFrom: '2016-11-27',
      surelyBefore: '2036-11-24',
    });
    const { earliest, latest } = eventTimeWindow(new Date('2024-02-29T00:00:00.000Z'));
    expect([earliest, latest]).toEqual(['2014-03-01T00:00:00.000Z', '2034-03-01T00:00:00.000Z']);
  });

  it('decides like an exact comparison for any text, offset and epoch near the edges (20,000 random cases)', () => {
    const window = eventTimeWindow(new Date('2026-11-25T10:21:32.123Z'));
    const edges = [Date.parse(window.earliest), Date.parse(window.latest)];
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const disagreements: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      const instant = edges[n % 2] + Math.round((random() - 0.5) * 6 * 86_400_000);
      const offsetMinutes = Math.round((random() - 0.5) * 2 * (23 * 60 + 59));
      const local = new Date(instant + offsetMinutes * 60_000).toISOString().slice(0, 23);
      const sign = offsetMinutes < 0 ? '-' : '+';
      const abs = Math.abs(offsetMinutes);
      const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
      for (const sent of [`${local}${offset}`, `${local}123456${offset}`, new Date(instant).toISOString(), instant, instant / 1000, ` ${local}Z`]) {
        const normalized = normalizeTimestamp(sent);
        if (typeof normalized !== 'string') throw new Error(`not a timestamp: ${sent}`);
        const exact = normalized >= window.earliest && normalized <= window.latest;
        if (isWithinEventTimeWindow(sent, normalized, window) !== exact) disagreements.push(String(sent));
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('orders normalised timestamps like the instants they name', () => {
    const { earliest, latest } = eventTimeWindow(new Date('2026-01-01T00:00:00.000Z'));
    const inside = normalizeTimestamp('2020-06-01T12:00:00+14:00') as string;
    const before = normalizeTimestamp(1_000_000_000) as string; // 2001
    const after = normalizeTimestamp('2040-01-01T00:00:00Z') as string;
    expect(earliest <= inside && inside <= latest).toBe(true);
    expect(before < earliest).toBe(true);
    expect(after > latest).toBe(true);
  });
});
