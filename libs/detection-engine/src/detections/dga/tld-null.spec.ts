import { TLD_NULL_FORMAT, TLD_P_FLOOR, TldNull, defaultTldNull, type TldNullFile } from './tld-null';

/** A made-up benign population: 59 % com, 25 % net, 15 % org, 1 % info; windows of 4 mostly hold 1-3 distinct suffixes. */
function smallNull(): TldNull {
  const file: TldNullFile = {
    format: TLD_NULL_FORMAT,
    domains: 1000,
    counts: { com: 590, net: 250, org: 150, info: 10 },
    distinct: {
      '2': { atMost: [0.45, 1], atLeast: [1, 0.55] },
      '4': { atMost: [0.14, 0.7, 1, 1], atLeast: [1, 0.86, 0.3, 0.002] },
    },
    windowsPerSize: 10_000,
    source: 'test',
  };
  return new TldNull(file);
}

describe('TldNull', () => {
  it('picks the most surprising of its three tests and pays three times for the choice', () => {
    const tlds = smallNull();
    // One suffix four times: P(at most 1 distinct) = 0.14.
    const one = tlds.evidence(['com', 'com', 'com', 'com']);
    expect(one).toMatchObject({ test: 'few_suffixes', distinct: 1 });
    expect(one.p).toBeCloseTo(0.42, 10);
    // Four distinct suffixes where the population has three: P(at least 4) = 0.002.
    const four = tlds.evidence(['com', 'net', 'org', 'com.mx']);
    expect(four).toMatchObject({ test: 'many_suffixes', distinct: 4 });
    expect(four.p).toBeCloseTo(3 * 0.002, 10);
    // A typical window says nothing.
    expect(tlds.evidence(['com', 'com', 'net', 'org']).p).toBeGreaterThan(0.5);
  });

  it('weighs a suffix benign domains rarely use by its count, over every suffix it could have been', () => {
    const tlds = smallNull();
    const e = tlds.evidence(['info', 'info', 'com', 'net']);
    expect(e).toMatchObject({ test: 'rare_suffix', suffix: 'info' });
    // P(Binomial(4, 0.01) >= 2), times 5 categories (4 counted, 1 for the unseen) and 3 tests.
    const tail = 6 * 0.01 ** 2 * 0.99 ** 2 + 4 * 0.01 ** 3 * 0.99 + 0.01 ** 4;
    expect(e.p).toBeCloseTo(3 * 5 * tail, 12);
    // A suffix never seen has half a domain's share.
    expect(tlds.share('zz')).toBe(0.0005);
    expect(tlds.share('constructor')).toBe(0.0005);
  });

  it('never goes below its floor, however unlike the benign shares a host is', () => {
    const tlds = smallNull();
    expect(tlds.evidence(['zz', 'zz', 'zz', 'zz']).p).toBe(TLD_P_FLOOR);
  });

  it('says nothing of one domain or of a window size it has no table for', () => {
    const tlds = smallNull();
    expect(tlds.evidence(['com']).p).toBe(1);
    expect(tlds.evidence(['com', 'com', 'com']).test).toBe('none');
  });

  it('refuses a table of another format or with the wrong number of shares', () => {
    const file = smallNull().file;
    expect(() => new TldNull({ ...file, format: 'other' as never })).toThrow(/format/);
    expect(() => new TldNull({ ...file, distinct: { '3': { atMost: [1], atLeast: [1] } } })).toThrow(/size 3/);
  });

  describe('the committed table (benign validation slice)', () => {
    const tlds = defaultTldNull();

    it('finds ten .com domains in a row unusual, and ten of a country code no more so', () => {
      const allCom = tlds.evidence(Array(10).fill('com'));
      expect(allCom.test).toBe('few_suffixes');
      expect(allCom.p).toBeLessThan(0.01);
      expect(tlds.evidence(Array(10).fill('pl')).p).toBeGreaterThanOrEqual(TLD_P_FLOOR);
    });

    it('finds old cheap gTLDs in a row unusual, and a browsing mix ordinary', () => {
      expect(tlds.evidence(['name', 'biz', 'info', 'name', 'biz', 'info', 'com', 'org', 'net', 'biz']).p).toBeLessThan(0.01);
      expect(tlds.evidence(['com', 'com', 'net', 'com', 'org', 'de', 'com', 'io', 'com', 'co.uk']).p).toBeGreaterThan(0.1);
    });
  });
});
