import { isIpAddress } from './ip-address';

describe('isIpAddress', () => {
  it.each<[string, boolean]>([
    ['10.0.0.1', true],
    ['0.0.0.0', true],
    ['255.255.255.255', true],
    ['192.168.1.10', true],
    ['256.1.1.1', false],
    ['1.2.3', false],
    ['1.2.3.4.5', false],
    ['01.2.3.4', false],
    ['1..3.4', false],
    ['1.2.3.4.', false],
    ['.1.2.3', false],
    [' 1.2.3.4', false],
    ['1.2.3.a', false],
    ['1234.1.1.1', false],
    ['', false],
    ['::1', true],
    ['2001:db8::1', true],
    ['::ffff:10.0.0.1', true],
    ['fe80::1%eth0', false],
    ['2001:db8:::1', false],
    ['example.com', false],
  ])('%j -> %s', (value, expected) => {
    expect(isIpAddress(value)).toBe(expected);
  });
});
