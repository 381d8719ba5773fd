import { normalizeProtocol, normalizeQtype, normalizeQueryName } from './dns-names';

describe('normalizeQueryName', () => {
  it.each<[string, string]>([
    ['example.com', 'example.com'],
    ['WWW.Example.COM.', 'www.example.com'],
    [' host.example.org ', 'host.example.org'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['localhost', 'localhost'],
    ['bücher.example', 'bücher.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
    [Array.from({ length: 4 }, () => 'a'.repeat(62)).join('.') + '.a', Array.from({ length: 4 }, () => 'a'.repeat(62)).join('.') + '.a'],
  ])('%j -> %j', (input, expected) => {
    expect(normalizeQueryName(input)).toBe(expected);
  });

  it.each<string>([
    '.',
    '',
    'a..b',
    '.example.com',
    'example.com..',
    `${'a'.repeat(64)}.com`,
    Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.') + '.ab', // 258 characters
    'exa mple.com',
    'example\u0000.com',
  ])('refuses %j', (input) => {
    expect(normalizeQueryName(input)).toBeUndefined();
  });
});

describe('normalizeQtype', () => {
  it.each<[string, string]>([
    ['a', 'A'],
    ['aaaa', 'AAAA'],
    [' txt ', 'TXT'],
    ['1', 'A'],
    ['2', 'NS'],
    ['5', 'CNAME'],
    ['6', 'SOA'],
    ['10', 'NULL'],
    ['12', 'PTR'],
    ['15', 'MX'],
    ['16', 'TXT'],
    ['28', 'AAAA'],
    ['33', 'SRV'],
    ['64', 'SVCB'],
    ['65', 'HTTPS'],
    ['255', 'ANY'],
    ['999', 'TYPE999'],
  ])('%j -> %s', (input, expected) => {
    expect(normalizeQtype(input)).toBe(expected);
  });
});

describe('normalizeProtocol', () => {
  it.each<[string, string]>([
    ['TCP', 'tcp'],
    ['Udp', 'udp'],
    ['6', 'tcp'],
    ['17', 'udp'],
    ['1', 'icmp'],
    ['58', 'ipv6-icmp'],
    ['253', '253'],
  ])('%j -> %s', (input, expected) => {
    expect(normalizeProtocol(input)).toBe(expected);
  });
});
