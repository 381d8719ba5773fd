import { createRng } from '../prng';
import { longTailHostDay, longTailTraffic } from './benign-long-tail';
import { cdnHostname } from './cdn-hostnames';

const longTail = Array.from({ length: 500 }, (_, i) => `site-number-${i}.example${i % 7}.org`);

describe('benign long-tail browsing', () => {
  it('is deterministic for a seed and differs between hosts and seeds', () => {
    const a = longTailHostDay(3, { longTail, seed: 's' });
    expect(longTailHostDay(3, { longTail, seed: 's' })).toEqual(a);
    expect(longTailHostDay(4, { longTail, seed: 's' }).events).not.toEqual(a.events);
    expect(longTailHostDay(3, { longTail, seed: 't' }).events).not.toEqual(a.events);
  });

  it('spends a working day browsing: time-ordered lookups of long-tail, CDN and popular names by one host', () => {
    const day = longTailHostDay(0, { longTail, seed: 1 });
    const times = day.events.map((e) => Date.parse(e.ts));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(day.events.every((e) => e.srcIP === day.srcIP && e.qtype === 'A')).toBe(true);
    expect(new Date(times[0]).getUTCHours()).toBeGreaterThanOrEqual(7);
    expect(day.events.length).toBeGreaterThan(200);
    const longTailLookups = day.events.filter((e) => longTail.some((d) => e.query === d || e.query === `www.${d}`)).length;
    expect(longTailLookups).toBeGreaterThan(50);
    expect(day.events.some((e) => /cloudfront\.net$|amazonaws\.com$|akamai/.test(e.query))).toBe(true);
    const withoutPopular = longTailHostDay(0, { longTail, seed: 1, includePopular: false });
    expect(withoutPopular.events.length).toBeLessThan(day.events.length);
  });

  it('contains link-prefetch bursts: many distinct long-tail names within seconds', () => {
    let largest = 0;
    for (const day of longTailTraffic(20, { longTail, seed: 2, includePopular: false })) {
      const times = day.events.map((e) => Date.parse(e.ts));
      for (let i = 0; i < times.length; i++) {
        let j = i;
        while (j < times.length && times[j] - times[i] <= 5_000) j++;
        largest = Math.max(largest, new Set(day.events.slice(i, j).map((e) => e.query)).size);
      }
    }
    expect(largest).toBeGreaterThanOrEqual(10);
  });

  it('refuses an empty long tail and bad host counts', () => {
    expect(() => longTailHostDay(0, { longTail: [] })).toThrow(RangeError);
    expect(() => longTailTraffic(0, { longTail }).next()).toThrow(RangeError);
  });
});

describe('cdnHostname', () => {
  it('draws provider names with generated labels', () => {
    const rng = createRng(5);
    const names = Array.from({ length: 500 }, () => cdnHostname(rng));
    expect(names.some((n) => /^d[a-z0-9]{13}\.cloudfront\.net$/.test(n))).toBe(true);
    expect(names.some((n) => /^ec2-\d+-\d+-\d+-\d+\..*compute.*\.amazonaws\.com$/.test(n))).toBe(true);
    expect(names.some((n) => /googleusercontent\.com$/.test(n))).toBe(true);
    expect(names.some((n) => /akamaiedge\.net$/.test(n))).toBe(true);
    expect(names.some((n) => /azureedge\.net$|azurefd\.net$/.test(n))).toBe(true);
  });
});
