import { CidrSet, isPublicAddress, NON_PUBLIC_RANGES, parseAddress, parseCidr } from './ip-ranges';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
  it.each([
    '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '0.0.0.0',
    '192.0.2.10', '198.51.100.7', '203.0.113.99', '224.0.0.251', '255.255.255.255', '::1', 'fe80::1', 'fd00::1',
    'ff02::1', '2001:db8::1', '::ffff:10.0.0.1', '::ffff:192.168.0.1',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each(['', 'example.com', '1.2.3', '300.1.1.1', undefined, 42, null])('%p is not an address', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it('answers on the IPv4 fast path exactly as the general parser does, edges of every block included', () => {
    const general = (ip: string) => {
      const address = parseAddress(ip);
      return address !== undefined && !new CidrSet(NON_PUBLIC_RANGES).contains(address);
    };
    const samples = ['01.2.3.4', ' 8.8.8.8', '8.8.8.8 ', '1.2.3.4.5', '1..2.3', '256.0.0.1', '1.2.3.', '.1.2.3'];
    for (const cidr of NON_PUBLIC_RANGES.filter((c) => c.includes('.'))) {
      const { first, last } = parseCidr(cidr);
      for (const v of [first - 1n, first, last, last + 1n]) {
        const n = Number(v & 0xffffffffn);
        samples.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
      }
    }
    let seed = 7;
    for (let i = 0; i < 2_000; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      samples.push([seed & 255, (seed >>> 8) & 255, (seed >>> 16) & 255, (seed * 31) & 255].join('.'));
    }
    for (const ip of samples) expect([ip, isPublicAddress(ip)]).toEqual([ip, general(ip)]);
  });
  it('treats 172.32.0.1 (outside 172.16/12) as public', () => {
    expect(isPublicAddress('172.32.0.1')).toBe(true);
  });
});

describe('parseAddress', () => {
  it('maps IPv4 and its IPv4-mapped IPv6 spelling to the same value', () => {
    expect(parseAddress('1.2.3.4')!.value).toBe(parseAddress('::ffff:1.2.3.4')!.value);
    expect(parseAddress('::ffff:0102:0304')!.value).toBe(parseAddress('1.2.3.4')!.value);
  });
  it('reads addresses with spaces and zone indexes, and refuses host names and near-addresses', () => {
    expect(parseAddress(' 1.2.3.4 ')!.value).toBe(parseAddress('1.2.3.4')!.value);
    expect(parseAddress('fe80::1%eth0')!.value).toBe(parseAddress('fe80::1')!.value);
    expect(parseAddress('1.2.3.4%2')!.family).toBe(4);
    for (const text of ['www.example.com', 'cafe', 'abc::g', '1.2.3', '1.2.3.256', '01.2.3.4', '1.2.3.4.5', '', '::ffff:1.2.3.x']) {
      expect(parseAddress(text)).toBeUndefined();
    }
  });
});

describe('CidrSet', () => {
  it('matches addresses inside its blocks only', () => {
    const set = new CidrSet(['104.16.0.0/13', '2606:4700::/32', '9.9.9.9']);
    expect(set.contains(parseAddress('104.23.255.255')!)).toBe(true);
    expect(set.contains(parseAddress('104.24.0.0')!)).toBe(false);
    expect(set.contains(parseAddress('2606:4700:10::1')!)).toBe(true);
    expect(set.contains(parseAddress('9.9.9.9')!)).toBe(true);
    expect(set.contains(parseAddress('9.9.9.10')!)).toBe(false);
  });
  it('answers for address text as for the parsed address, IPv4 inside IPv6 blocks included', () => {
    const sets = [
      new CidrSet(['104.16.0.0/13', '2606:4700::/32', '9.9.9.9']),
      new CidrSet(['::ffff:10.0.0.0/104', '::/0']),
      new CidrSet(['::ffff:0:0/96']),
      new CidrSet(['2001:db8::/32']),
    ];
    const addresses = ['104.16.0.0', '104.23.255.255', '104.24.0.0', '9.9.9.9', '9.9.9.10', '10.1.2.3', '11.0.0.1', '0.0.0.0', '255.255.255.255', '2606:4700:10::1', '::ffff:9.9.9.9', '2001:db8::5'];
    for (const set of sets) {
      for (const ip of addresses) expect([ip, set.containsAddress(ip)]).toEqual([ip, set.contains(parseAddress(ip)!)]);
      expect(set.containsAddress('not an address')).toBeUndefined();
      expect(set.containsAddress(undefined)).toBeUndefined();
    }
  });
  it('rejects malformed blocks with a message naming them', () => {
    expect(() => parseCidr('10.0.0.0/33')).toThrow(/10\.0\.0\.0\/33/);
    expect(() => parseCidr('nonsense/8')).toThrow(/nonsense/);
    expect(() => parseCidr('10.0.0.0/8/1')).toThrow(/invalid CIDR/);
  });
});
