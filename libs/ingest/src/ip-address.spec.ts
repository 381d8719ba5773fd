import { isIP } from 'node:net';
import { isDottedQuad, isIpAddress } from './ip-address';

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

describe('isDottedQuad', () => {
  it('accepts exactly what node:net isIP reads as IPv4', () => {
    const alphabet = '0123456789.....25x ';
    let seed = 11;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const values = ['0.0.0.0', '255.255.255.255', '256.0.0.0', '00.1.2.3', '1.2.3.04', '199.249.230.1'];
    for (let i = 0; i < 20_000; i++) values.push(Array.from({ length: 5 + (next() % 12) }, () => alphabet[next() % alphabet.length]).join(''));
    for (let i = 0; i < 2_000; i++) values.push([next() % 300, next() % 300, next() % 300, next() % 300].join('.'));
    for (const value of values) expect([value, isDottedQuad(value)]).toEqual([value, isIP(value) === 4]);
  });
});
