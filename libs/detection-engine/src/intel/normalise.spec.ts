import { canonicalIp, normalisedUrlPath, normaliseUrl } from './normalise';

/** URLs in the shapes sensors and lists write them, and odd ones, from a seeded generator. */
function* generatedUrls(count: number): Iterable<string> {
  let state = 0x1b873593;
  const pick = <T>(items: readonly T[]): T => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return items[(state >>> 16) % items.length];
  };
  const schemes = ['', 'http://', 'HTTPS://', 'hxxp://', 'git+ssh://', '1http://', '//', '/', 'x:', 'a.b-c://'];
  const hosts = ['bad.example', 'BAD.Example.', '203.0.113.9', '[2001:db8::1]', 'user:pw@host.example', 'h', '', 'a b'];
  const ports = ['', ':80', ':8080', ':443', ':99999'];
  const paths = ['', '/', '/gate.php', '/a/b/', '//x', '/bins/mirai.arm7', '/p?/q', '/%41'];
  const tails = ['', '?id=1', '#f', '?a#b', '?', '#', '?x/y', ' ', '\t'];
  for (let i = 0; i < count; i++) yield pick(['', ' ']) + pick(schemes) + pick(hosts) + pick(ports) + pick(paths) + pick(tails);
}

describe('normalisedUrlPath', () => {
  it('gives the path normaliseUrl gives, whenever normaliseUrl gives one', () => {
    const differing: string[] = [];
    let normalised = 0;
    for (const url of generatedUrls(20_000)) {
      const full = normaliseUrl(url);
      if (full === undefined) continue;
      normalised++;
      if (normalisedUrlPath(url) !== full.path) differing.push(url);
    }
    expect(differing.slice(0, 10)).toEqual([]);
    expect(normalised).toBeGreaterThan(5_000);
  });

  it('keeps a lone path as written and drops the root of a full URL', () => {
    expect(normalisedUrlPath('/gate.php?x=1')).toBe('/gate.php');
    expect(normalisedUrlPath('/')).toBe('/');
    expect(normalisedUrlPath('http://bad.example/')).toBe('');
    expect(normalisedUrlPath('bad.example?x=/gate.php')).toBe('');
    expect(normalisedUrlPath('http://bad .example/gate.php')).toBeUndefined();
  });
});

describe('canonicalIp', () => {
  it('keeps a plain dotted quad as it is and writes every other form of an address canonically', () => {
    expect(canonicalIp('203.0.113.9')).toBe('203.0.113.9');
    expect(canonicalIp('0.0.0.0')).toBe('0.0.0.0');
    // forms the plain-quad shortcut refuses go through the general parser
    expect(canonicalIp(' 203.0.113.9 ')).toBe(canonicalIp('203.0.113.9'));
    expect(canonicalIp('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(canonicalIp('2001:DB8::1')).toBe(canonicalIp('2001:db8:0:0:0:0:0:1'));
    expect(canonicalIp('203.0.113.256')).toBeUndefined();
    expect(canonicalIp('resolver.example')).toBeUndefined();
  });
});
