import { createRng } from './prng';

const draw = (seed: number | string, n = 20) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => rng.next());
};

describe('createRng', () => {
  it('repeats the same sequence for the same seed', () => {
    expect(draw(42)).toEqual(draw(42));
    expect(draw('abc')).toEqual(draw('abc'));
  });

  it('gives different sequences for different seeds', () => {
    expect(draw(1)).not.toEqual(draw(2));
    expect(draw('1')).toEqual(draw(1));
  });

  it('stays in range and spreads over it', () => {
    const rng = createRng(7);
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const v = rng.next();
      expect(v >= 0 && v < 1).toBe(true);
      counts[Math.floor(v * 10)]++;
    }
    for (const c of counts) expect(c).toBeGreaterThan(1_700);
  });

  it('draws integers within bounds, both ends included', () => {
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2_000; i++) seen.add(rng.int(-2, 2));
    expect([...seen].sort()).toEqual([-1, -2, 0, 1, 2].sort());
  });

  it('honours weights', () => {
    const rng = createRng(9);
    let heavy = 0;
    for (let i = 0; i < 10_000; i++) if (rng.weighted([['a', 9], ['b', 1]] as const) === 'a') heavy++;
    expect(heavy).toBeGreaterThan(8_700);
    expect(heavy).toBeLessThan(9_300);
  });

  it('builds strings from the alphabet', () => {
    expect(createRng(1).string('ab', 50)).toMatch(/^[ab]{50}$/);
  });

  it('refuses bad arguments with clear errors', () => {
    const rng = createRng(1);
    expect(() => createRng(Number.NaN)).toThrow(/finite/);
    expect(() => rng.int(3, 1)).toThrow(/min <= max/);
    expect(() => rng.pick([])).toThrow(/non-empty/);
    expect(() => rng.weighted([['a', 0]])).toThrow(/positive weight/);
  });
});
