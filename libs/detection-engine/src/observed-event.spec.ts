import { endpointId, urlHostname, urlPathOf } from './observed-event';

/** The WHATWG parser's answer, as every HTTP URL was read before plain URLs took a shortcut. */
function reference(url: string): { hostname?: string; path?: string } {
  const trimmed = url.trim();
  if (trimmed.length === 0) return {};
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : trimmed.startsWith('//') ? `http:${trimmed}` : `http://${trimmed}`;
  try {
    const parsed = new URL(withScheme);
    let host = parsed.hostname.toLowerCase();
    if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
    host = host.trim();
    if (host.endsWith('.')) host = host.slice(0, -1);
    return host.length === 0 ? {} : { hostname: host, path: parsed.pathname };
  } catch {
    return {};
  }
}

/** A seeded generator, so that a failure names a URL that can be replayed. */
function* generatedUrls(count: number): Iterable<string> {
  let state = 0x2545f491;
  const pick = <T>(items: readonly T[]): T => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return items[(state >>> 16) % items.length];
  };
  const schemes = ['', 'http://', 'https://', 'HTTP://', '//', 'ftp://', 'ws://', 'http:/'];
  const hosts = ['example.com', 'Example.COM.', 'a-b.example.org', 'xn--mnchen-3ya.de', 'xn--a.com', 'XN--MNCHEN-3YA.de', '10.0.0.1', '010.0.0.1', '0x7f.1', 'example.0x1', 'host.123', 'host.123.', 'a.0x1f.', 'localhost', 'münchen.de', 'user:pw@example.com', 'ex_ample.com', '[2001:db8::1]', 'a..b', '.example.com', '-x-.com', 'ex%41mple.com', ''];
  const ports = ['', ':80', ':8080', ':65535', ':65536', ':99999', ':', ':0x50'];
  const paths = ['', '/', '/index.php', '/a/b/../c', '/./x', '/%2e%2E/x', '/.well-known/x', '/a b', '/a"b', '/a<b>', '/a{b}', '/a`b', '/a^b', '/a|b', '/a\\b', '/ä', '/%zz', "/it's;(x)*+,=:@~!$&", '/a//b', '\\evil'];
  const tails = ['', '?q=1', '?q=a b', '#frag', '?x#y', '?', '#'];
  for (let i = 0; i < count; i++) yield pick(['', ' ']) + pick(schemes) + pick(hosts) + pick(ports) + pick(paths) + pick(tails) + pick(['', ' ', '\t']);
}

describe('HTTP URLs of events', () => {
  it('read as the WHATWG parser reads them, shortcut or not', () => {
    const differing: string[] = [];
    for (const url of generatedUrls(20_000)) {
      const expected = reference(url);
      if (urlHostname(url) !== expected.hostname || urlPathOf(url) !== expected.path) differing.push(url);
    }
    expect(differing.slice(0, 10)).toEqual([]);
  });

  it('give the host and path of plain and unusual URLs', () => {
    expect([urlHostname('Example.COM.:8080/a/b?x'), urlPathOf('Example.COM.:8080/a/b?x')]).toEqual(['example.com', '/a/b']);
    expect([urlHostname('https://shop.example'), urlPathOf('https://shop.example')]).toEqual(['shop.example', '/']);
    expect([urlHostname('http://0x7f.1/x'), urlPathOf('http://0x7f.1/a/../x')]).toEqual(['127.0.0.1', '/x']);
    expect(urlPathOf('example.com/a/./b/../x%2E%2e/../y')).toBe('/a/y');
    expect(urlHostname('http://example.com:99999/')).toBeUndefined();
    expect(urlHostname('   ')).toBeUndefined();
  });
});

describe('endpointId', () => {
  it('names a host by its lower-cased name, one string per name as sent, and an unnamed endpoint by its address', () => {
    const sent = ['WS-0042', 'ws-0042'];
    const first = endpointId('10.0.0.5', sent[0]);
    expect(first).toBe('host:ws-0042');
    expect(endpointId('10.0.0.9', sent[1])).toBe('host:ws-0042');
    // Remembered ids answer the same as made ones (string identity, what the memo is for, is not observable here).
    expect(endpointId('10.0.0.5', `WS-${'0042'}`)).toBe(first);
    expect(endpointId('10.0.0.5', undefined)).toBe('10.0.0.5');
    expect(endpointId('10.0.0.5', 'ws-0043')).toBe('host:ws-0043');
    // Names too long to hold are still named, just not remembered.
    const long = `h${'x'.repeat(300)}`;
    expect(endpointId('10.0.0.5', long.toUpperCase())).toBe(`host:${long}`);
  });
});
