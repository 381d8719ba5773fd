import { StringFilter } from './string-filter';

describe('StringFilter', () => {
  const present = Array.from({ length: 5_000 }, (_, i) => `/path/${i}/gate.php`);
  const filter = new StringFilter(present, present.length);

  it('never rules out a string it holds', () => {
    expect(present.filter((value) => !filter.mayContain(value))).toEqual([]);
  });

  it('rules out most strings it does not hold', () => {
    const absent = Array.from({ length: 20_000 }, (_, i) => `/other/${i}.js`);
    const passed = absent.filter((value) => filter.mayContain(value)).length;
    expect(passed / absent.length).toBeLessThan(0.1);
  });

  it('holds nothing when built from nothing', () => {
    const empty = new StringFilter([], 0);
    expect(['', '/', '/a'].some((value) => empty.mayContain(value))).toBe(false);
  });
});
