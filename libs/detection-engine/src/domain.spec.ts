import { isRegistrableName, matchZone, registeredDomain, splitHostname, zoneSet } from './domain';

describe('registeredDomain', () => {
  it.each([
    ['www.example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['EXAMPLE.COM.', 'example.com'],
    ['example.com', 'example.com'],
    // private section of the public suffix list
    ['foo.bar.blogspot.com', 'bar.blogspot.com'],
    ['d111111abcdef8.cloudfront.net', 'd111111abcdef8.cloudfront.net'],
    ['x.oast.pro', 'oast.pro'],
    ['_dmarc.example.org', 'example.org'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
  ])('%s -> %s', (name, expected) => {
    expect(registeredDomain(name)).toBe(expected);
  });

  it('keeps tunnel payload labels that are not host-name characters', () => {
    expect(registeredDomain('q+Z8/Hn82BA.hidemyself.org.')).toBe('hidemyself.org');
    expect(registeredDomain('0eia6aKRFKKYMؼz7n8c.hidemyself.org')).toBe('hidemyself.org');
    expect(registeredDomain('YjebUyeq..hidemyself.org.')).toBe('hidemyself.org');
  });

  it.each([
    ['10.0.0.1'],
    ['2001:db8::1'],
    ['com'],
    ['co.uk'],
    ['localhost'],
    [''],
    ['   '],
    ['a..b'],
    ['-bad.com'],
    ['bad-.com'],
    ['exa mple.com'],
    ['x'.repeat(250) + '.com'],
  ])('undefined for %j', (name) => {
    expect(registeredDomain(name)).toBeUndefined();
  });

  it('undefined for values that are not strings', () => {
    expect(registeredDomain(42 as unknown as string)).toBeUndefined();
    expect(registeredDomain(undefined as unknown as string)).toBeUndefined();
  });
});

describe('splitHostname', () => {
  it('splits at the registered domain, lower-cased, trailing dot removed', () => {
    expect(splitHostname('A.B.Example.co.uk.')).toMatchObject({ hostname: 'a.b.example.co.uk', registeredDomain: 'example.co.uk', subdomain: 'a.b' });
    expect(splitHostname('example.com')).toMatchObject({ hostname: 'example.com', registeredDomain: 'example.com', subdomain: '' });
  });
});

describe('matchZone', () => {
  const zones = zoneSet(['oast.pro', '.Avts.McAfee.com.']);
  it('matches the zone itself and names under it', () => {
    expect(matchZone('oast.pro', zones)).toBe('oast.pro');
    expect(matchZone('a.b.oast.pro', zones)).toBe('oast.pro');
    expect(matchZone('x.avts.mcafee.com', zones)).toBe('avts.mcafee.com');
  });
  it('does not match look-alikes', () => {
    expect(matchZone('notoast.pro', zones)).toBeUndefined();
    expect(matchZone('oast.pro.evil.com', zones)).toBeUndefined();
    expect(matchZone('mcafee.com', zones)).toBeUndefined();
  });
  it('answers the most specific of nested zones', () => {
    const nested = zoneSet(['example.com', 'b.example.com', 'com']);
    expect(matchZone('a.b.example.com', nested)).toBe('b.example.com');
    expect(matchZone('c.example.com', nested)).toBe('example.com');
    expect(matchZone('other.com', nested)).toBe('com');
    expect(matchZone('other.net', nested)).toBeUndefined();
  });
  it('agrees with checking each parent of the name in turn', () => {
    const labels = ['a', 'b', 'ab', 'com', 'net', 'example', 'x-y', '0'];
    const names: string[] = [];
    for (let i = 0; i < 4_000; i++) {
      const count = 1 + (i % 5);
      names.push(Array.from({ length: count }, (_, j) => labels[(i * 7 + j * 13 + (i >> 3)) % labels.length]).join('.'));
    }
    const zones = zoneSet(names.filter((_, i) => i % 9 === 0));
    const zoneNames = new Set(names.filter((_, i) => i % 9 === 0));
    const naive = (name: string): string | undefined => {
      for (let parts = name.split('.'); parts.length > 0; parts = parts.slice(1)) if (zoneNames.has(parts.join('.'))) return parts.join('.');
      return undefined;
    };
    expect(names.filter((name) => matchZone(name, zones) !== naive(name))).toEqual([]);
    expect(names.filter((name) => naive(name) !== undefined).length).toBeGreaterThan(1_000);
  });
});

describe('splitHostname memo', () => {
  it('answers a name asked for again with the same frozen split from its second request on, keyed by the name as given', () => {
    const once = splitHostname('Cache.Example.co.uk.');
    expect(once).toMatchObject({ hostname: 'cache.example.co.uk', registeredDomain: 'example.co.uk', subdomain: 'cache' });
    // A name's first request is not held (most names of a long tail come once); its second is.
    const first = splitHostname('Cache.Example.co.uk.');
    expect(first).not.toBe(once);
    expect(first).toEqual(once);
    expect(splitHostname('Cache.Example.co.uk.')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(splitHostname('cache.example.co.uk')).toEqual(first);
    expect(splitHostname('co.uk')).toBeUndefined();
    expect(splitHostname('co.uk')).toBeUndefined();
  });
});

describe('isRegistrableName', () => {
  // The definition it implements, as a pattern per label.
  const byPattern = (name: string): boolean => name.split('.').every((label) => /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/.test(label));

  it('accepts exactly the names whose every label is 1-63 of [a-z0-9_-] without an edge hyphen', () => {
    const alphabet = 'ab9_-.-.A! é';
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const names = ['a', 'a.b', 'x-y.com', '_dmarc.example.com', '-a.com', 'a-.com', 'a..com', '.a', 'a.', '', 'a'.repeat(63) + '.com', 'a'.repeat(64) + '.com', 'A.com', 'a b.com'];
    for (let i = 0; i < 5000; i++) names.push(Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join(''));
    for (const name of names) expect([name, isRegistrableName(name)]).toEqual([name, byPattern(name)]);
  });
});
