import { LruMap } from './lru-map';
import { StateBudget } from './state-budget';
import { estimateBytes } from './estimate-bytes';

/** A map of `n` keys whose values are strings of `size` characters. */
function filled(n: number, size: number, prefix = 'k'): LruMap<string, string> {
  const map = new LruMap<string, string>(1_000_000);
  for (let i = 0; i < n; i++) map.set(`${prefix}${i}`, 'x'.repeat(size));
  return map;
}

describe('estimateBytes', () => {
  it('grows with strings, array slots and object properties, and counts a shared part once', () => {
    expect(estimateBytes('x'.repeat(1000))).toBeGreaterThan(estimateBytes('x'.repeat(10)) + 900);
    expect(estimateBytes([1, 2, 3, 4])).toBeGreaterThan(estimateBytes([1]));
    const shared = { text: 'y'.repeat(10_000) };
    expect(estimateBytes([shared, shared])).toBeLessThan(estimateBytes([shared, { text: 'y'.repeat(10_000) }]));
    expect(estimateBytes(new Map([['a', 'b'.repeat(500)]]))).toBeGreaterThan(500);
  });
});

describe('StateBudget', () => {
  it('leaves state under capacity alone', () => {
    const budget = new StateBudget({ capacityBytes: 10_000_000 });
    const map = filled(1000, 100);
    budget.register('dns_tunnel', map);
    expect(budget.enforce()).toBeLessThan(10_000_000);
    expect(map.size).toBe(1000);
    expect(budget.usage().dns_tunnel).toEqual({ keys: 1000, bytes: expect.any(Number), evictions: 0 });
  });

  it('evicts the least recently used keys of every map, in proportion, until under the target share', () => {
    const big = filled(4000, 400, 'big');
    const small = filled(1000, 400, 'small');
    big.get('big0'); // the oldest key of `big` was just used: it must survive
    const perEntry = estimateBytes('big1') + estimateBytes('x'.repeat(400)) + 48;
    const budget = new StateBudget({ capacityBytes: perEntry * 2500, targetShare: 0.8 });
    budget.register('beacon_ip', big);
    budget.register('dga_volume', small);
    const after = budget.enforce();
    expect(after).toBeLessThanOrEqual(perEntry * 2500 * 0.8 * 1.05);
    // Both lost the same share of their keys.
    expect(Math.abs(big.size / 4000 - small.size / 1000)).toBeLessThan(0.01);
    expect(big.has('big0')).toBe(true);
    expect(big.has('big1')).toBe(false);
    expect(big.has('big3999')).toBe(true);
    expect(small.has('small0')).toBe(false);
    const usage = budget.usage();
    expect(usage.beacon_ip.evictions).toBe(4000 - big.size);
    expect(usage.dga_volume.evictions).toBe(1000 - small.size);
  });

  it('sums maps registered under one part (several engines) and checks at most once per interval', () => {
    let now = 0;
    const budget = new StateBudget({ capacityBytes: 1_000_000, checkIntervalMs: 1000, clock: () => now });
    const a = filled(2000, 300, 'a');
    const b = filled(2000, 300, 'b');
    budget.register('strobe', a);
    budget.register('strobe', b);
    budget.maybeEnforce();
    const sizeAfterFirst = a.size + b.size;
    expect(sizeAfterFirst).toBeLessThan(4000);
    for (let i = 0; i < 2000; i++) a.set(`again${i}`, 'x'.repeat(300));
    now = 500;
    budget.maybeEnforce();
    expect(a.size + b.size).toBe(sizeAfterFirst + 2000);
    now = 1000;
    budget.maybeEnforce();
    expect(a.size + b.size).toBeLessThan(sizeAfterFirst);
    expect(budget.usage().strobe.keys).toBe(a.size + b.size);
  });

  it('keeps a part within its reserved share while the other parts churn, and evicts what it holds beyond it', () => {
    const perEntry = estimateBytes('pair100000') + estimateBytes('x'.repeat(200)) + 80;
    const capacity = perEntry * 10_000;
    let now = 0;
    const budget = new StateBudget({ capacityBytes: capacity, checkIntervalMs: 1000, clock: () => now });
    const leases = filled(2000, 200, 'lease');
    const pairs = filled(7000, 200, 'pair');
    const unprotected = filled(2000, 200, 'lease');
    const unprotectedPairs = filled(7000, 200, 'pair');
    budget.register('leases', leases, { reservedShare: 0.25 });
    budget.register('beacon_ip', pairs);
    // The same two maps under a budget of equal shares, for comparison.
    const equal = new StateBudget({ capacityBytes: capacity, checkIntervalMs: 1000, clock: () => now });
    equal.register('leases', unprotected);
    equal.register('beacon_ip', unprotectedPairs);
    // Ten seconds of new pairs, a thousand more a second than the budget holds: the leases are never touched again.
    for (let second = 1; second <= 10; second++) {
      for (let i = 0; i < 2000; i++) {
        pairs.set(`pair${second * 100_000 + i}`, 'x'.repeat(200));
        unprotectedPairs.set(`pair${second * 100_000 + i}`, 'x'.repeat(200));
      }
      now = second * 1000;
      budget.maybeEnforce();
      equal.maybeEnforce();
    }
    expect(leases.size).toBe(2000);
    expect(budget.usage().leases.evictions).toBe(0);
    expect(budget.usage().beacon_ip.evictions).toBeGreaterThan(15_000);
    expect(budget.enforce()).toBeLessThanOrEqual(capacity);
    // With equal shares the leases wear away at the pairs' pace.
    expect(unprotected.size).toBeLessThan(1000);

    // A part that grows past its reserve loses only the excess, least recently used first.
    for (let i = 2000; i < 5000; i++) leases.set(`lease${i}`, 'x'.repeat(200));
    now += 1000;
    budget.maybeEnforce();
    expect(leases.size).toBeGreaterThanOrEqual(Math.floor(capacity * 0.25 / perEntry) - 50);
    expect(leases.size).toBeLessThan(5000);
    expect(leases.has('lease0')).toBe(false);
    expect(leases.has('lease4999')).toBe(true);
  });

  it('takes the excess beyond the reserves first, and lets the reserves give way when that is not enough', () => {
    const perEntry = estimateBytes('lease1000') + estimateBytes('x'.repeat(200)) + 80;
    const budget = new StateBudget({ capacityBytes: perEntry * 1000, targetShare: 0.9 });
    const leases = filled(1500, 200, 'lease');
    const findings = filled(300, 200, 'finding');
    budget.register('leases', leases, { reservedShare: 0.5 });
    budget.register('findings', findings, { reservedShare: 0.45 });
    budget.enforce();
    // Enough beyond the leases' reserve: the findings, within theirs, lose nothing.
    expect(findings.size).toBe(300);
    expect(Math.abs(leases.size - 600)).toBeLessThanOrEqual(15);

    // Reserves that add up to more than the target share (0.95 against 0.9): both parts are cut below their reserves.
    for (let i = 300; i < 700; i++) findings.set(`finding${i}`, 'x'.repeat(200));
    for (let i = 1500; i < 2400; i++) leases.set(`lease${i}`, 'x'.repeat(200));
    expect(budget.enforce()).toBeLessThanOrEqual(perEntry * 1000 * 0.92);
    expect(leases.size).toBeLessThan(500);
    expect(findings.size).toBeLessThan(450);
    expect(leases.has('lease2399')).toBe(true);
    expect(findings.has('finding699')).toBe(true);
    expect(() => budget.register('x', filled(1, 1), { reservedShare: 1 })).toThrow(RangeError);
  });
});
