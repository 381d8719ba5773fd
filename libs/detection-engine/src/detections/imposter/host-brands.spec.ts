import { HostBrands } from './host-brands';

describe('HostBrands', () => {
  it('keeps the brands looked up most recently, oldest first, each with its latest look-up', () => {
    const host = new HostBrands();
    for (const [brand, at] of [['google', 10], ['paypal', 20], ['google', 30], ['netflix', 40], ['netflix', 50], ['apple', 60]] as const) {
      host.remember(brand, at, 3);
    }
    expect(host.brands).toEqual(['google', 'netflix', 'apple']);
    expect(host.times).toEqual([30, 50, 60]);
    expect(host.timeOf('paypal')).toBeUndefined();
    expect(host.timeOf('netflix')).toBe(50);
  });

  it('never moves a look-up time back, though an earlier event arrives late', () => {
    const host = new HostBrands();
    host.remember('google', 100, 4);
    host.remember('paypal', 90, 4);
    host.remember('google', 50, 4);
    host.remember('google', 40, 4);
    expect(host.brands).toEqual(['paypal', 'google']);
    expect(host.timeOf('google')).toBe(100);
  });
});
