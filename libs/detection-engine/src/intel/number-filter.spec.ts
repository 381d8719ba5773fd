import { NumberFilter } from './number-filter';

describe('NumberFilter', () => {
  // addresses spread over the whole space, as IPv4 indicators are (above 2^31 included)
  const present = Array.from({ length: 50_000 }, (_, i) => (Math.imul(i + 1, 2654435761) >>> 0) % 4_294_967_296);
  const filter = new NumberFilter(present, present.length);

  it('never rules out a number it holds', () => {
    expect(present.filter((value) => !filter.mayContain(value))).toEqual([]);
    expect(new NumberFilter([0, 4_294_967_295], 2).mayContain(4_294_967_295)).toBe(true);
  });

  it('rules out most numbers it does not hold, neighbours of held ones included', () => {
    const held = new Set(present);
    const absent = present.map((value) => (value + 1) % 4_294_967_296).filter((value) => !held.has(value));
    const passed = absent.filter((value) => filter.mayContain(value)).length;
    expect(passed / absent.length).toBeLessThan(0.1);
  });

  it('holds nothing when built from nothing', () => {
    const empty = new NumberFilter([], 0);
    expect([0, 1, 16_909_060].some((value) => empty.mayContain(value))).toBe(false);
  });
});
