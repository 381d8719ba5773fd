import { BrandIndex } from './brand-index';

describe('BrandIndex', () => {
  const index = new BrandIndex(['paypal', 'google', 'microsoft', 'amazon', 'apple', 'example', 'ok']);

  it.each([
    ['paypa1', 'paypal', 'homoglyph'],
    ['rnicrosoft', 'microsoft', 'homoglyph'],
    ['g0ogle', 'google', 'homoglyph'],
    ['goofle', 'google', 'bitsquat'],
    ['paypall', 'paypal', 'typosquat'],
    ['amzon', 'amazon', 'typosquat'],
    ['gogole', 'google', 'typosquat'],
    ['micrsoft', 'microsoft', 'typosquat'],
    ['paypal-secure-login', 'paypal', 'combosquat'],
    ['account-microsoft', 'microsoft', 'combosquat'],
  ])('%s imitates %s (%s)', (label, brand, technique) => {
    expect(index.match(label)).toMatchObject({ brand, technique });
  });

  it.each(['paypal', 'wikipedia', 'applesauce', 'googleplex', 'amazing', 'ok1', 'appl', 'micro-soft-x', 'tunnel-example', 'google-fan-club'])('%s is not an imposter', (label) => {
    expect(index.match(label)).toBeUndefined();
  });

  it('skips brands too short to have few innocent neighbours', () => {
    expect(index.size).toBe(6);
    expect(index.match('0k')).toBeUndefined();
  });
});
