import { isoFromEpochSeconds, isoFromTimestamp, portOf, countOf, hexFingerprint } from './values';

describe('value conversions', () => {
  it('converts Zeek epoch seconds with a fraction without float error', () => {
    expect(isoFromEpochSeconds('1591367999.305988')).toBe('2020-06-05T14:39:59.305Z');
    expect(isoFromEpochSeconds('1591367999.9999999')).toBe('2020-06-05T14:39:59.999Z');
    expect(isoFromEpochSeconds('1591367999')).toBe('2020-06-05T14:39:59.000Z');
    expect(isoFromEpochSeconds(1591367999.5)).toBe('2020-06-05T14:39:59.500Z');
    expect(isoFromEpochSeconds('-')).toBeUndefined();
    expect(isoFromEpochSeconds('12e5')).toBeUndefined();
  });

  it('converts RFC 3339 spellings, including Suricata offsets without a colon', () => {
    expect(isoFromTimestamp('2017-04-07T22:24:37.251547+0100')).toBe('2017-04-07T21:24:37.251Z');
    expect(isoFromTimestamp('2017-04-07T22:24:37.251547-05:30')).toBe('2017-04-08T03:54:37.251Z');
    expect(isoFromTimestamp('2017-01-04T10:48:43')).toBe('2017-01-04T10:48:43.000Z');
    expect(isoFromTimestamp('2024-06-10T06:13:20.987654321Z')).toBe('2024-06-10T06:13:20.987Z');
    expect(isoFromTimestamp('2024-13-10T06:13:20Z')).toBeUndefined();
    expect(isoFromTimestamp('2017-03-16T19:20:177Z')).toBeUndefined();
  });

  it('reads ports and counters from numbers and digit strings', () => {
    expect([portOf('53211'), portOf(443), portOf(0), portOf('0'), portOf(70000), portOf('-')]).toEqual([53211, 443, undefined, undefined, undefined, undefined]);
    expect([countOf('0'), countOf(12), countOf('-1'), countOf(1.5)]).toEqual([0, 12, undefined, undefined]);
    expect(hexFingerprint('8F:51:12')).toBe('8f5112');
  });
});
