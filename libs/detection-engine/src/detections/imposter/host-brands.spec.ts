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

  it('orders brands as a list moved by hand would, over long random sequences of look-ups', () => {
    const names = ['google', 'paypal', 'apple', 'netflix', 'amazon', 'chase'];
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    for (const maxBrands of [1, 3, 5]) {
      const host = new HostBrands();
      const model: { brand: string; at: number }[] = [];
      for (let step = 0; step < 500; step++) {
        const brand = names[next(names.length)];
        const at = next(1000);
        host.remember(brand, at, maxBrands);
        const found = model.findIndex((entry) => entry.brand === brand);
        const latest = found >= 0 ? Math.max(model[found].at, at) : at;
        if (found >= 0) model.splice(found, 1);
        model.push({ brand, at: latest });
        if (model.length > maxBrands) model.shift();
        expect(host.brands).toEqual(model.map((entry) => entry.brand));
        expect(host.times).toEqual(model.map((entry) => entry.at));
      }
    }
  });
});
