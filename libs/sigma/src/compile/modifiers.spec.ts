import { errorOf, ruleOf } from '../testing/compile-helpers';

const http = (url: string, extra: Record<string, unknown> = {}) => ({ ts: '2025-01-01T00:00:00Z', srcIP: '10.0.0.5', url, ...extra });
const matches = (detection: Record<string, unknown>, event: object, logsource?: Record<string, string>, type: 'http' | 'dns' | 'ip' | 'tls' | 'lease' = 'http', options = {}) =>
  ruleOf(detection, logsource, options).matches(type, event);

describe('string matching and wildcards', () => {
  it('plain values are case-insensitive equality', () => {
    const d = { sel: { 'cs-method': 'post' }, condition: 'sel' };
    expect(matches(d, http('/', { method: 'POST' }))).toBe(true);
    expect(matches(d, http('/', { method: 'POSTX' }))).toBe(false);
  });
  it('contains, startswith, endswith', () => {
    expect(matches({ s: { 'c-uri|contains': '/wp-admin/' }, condition: 's' }, http('http://a.com/x/WP-ADMIN/y'))).toBe(true);
    expect(matches({ s: { 'c-uri|contains': '/wp-admin/' }, condition: 's' }, http('http://a.com/x/wp-admn/y'))).toBe(false);
    expect(matches({ s: { 'c-useragent|startswith': 'curl/' }, condition: 's' }, http('/', { userAgent: 'curl/8.0' }))).toBe(true);
    expect(matches({ s: { 'c-useragent|startswith': 'curl/' }, condition: 's' }, http('/', { userAgent: 'xcurl/8.0' }))).toBe(false);
    expect(matches({ s: { 'c-uri|endswith': '.php' }, condition: 's' }, http('http://a.com/shell.PHP'))).toBe(true);
    expect(matches({ s: { 'c-uri|endswith': '.php' }, condition: 's' }, http('http://a.com/shell.php5'))).toBe(false);
  });
  it('* and ? wildcards, and their escapes', () => {
    const d = (v: string) => ({ s: { 'c-useragent': v }, condition: 's' });
    expect(matches(d('Mozilla/*(Charon; Inferno)'), http('/', { userAgent: 'Mozilla/4.0 (Charon; Inferno)' }))).toBe(true);
    expect(matches(d('a?c'), http('/', { userAgent: 'abc' }))).toBe(true);
    expect(matches(d('a?c'), http('/', { userAgent: 'abbc' }))).toBe(false);
    expect(matches(d('a*b*c'), http('/', { userAgent: 'a--b--b--c' }))).toBe(true);
    expect(matches(d('a*b*c'), http('/', { userAgent: 'a--c--b' }))).toBe(false);
    expect(matches(d('what\\?'), http('/', { userAgent: 'what?' }))).toBe(true);
    expect(matches(d('what\\?'), http('/', { userAgent: 'whatx' }))).toBe(false);
    expect(matches(d('star\\*'), http('/', { userAgent: 'star*' }))).toBe(true);
    expect(matches(d('star\\*'), http('/', { userAgent: 'starry' }))).toBe(false);
    expect(matches(d('back\\\\slash'), http('/', { userAgent: 'back\\slash' }))).toBe(true);
  });
  it('all: every value must match', () => {
    const d = { s: { 'c-uri|contains|all': ['/a/', '/b/'] }, condition: 's' };
    expect(matches(d, http('http://x/a/b/'))).toBe(true);
    expect(matches(d, http('http://x/a/c/'))).toBe(false);
  });
  it('long equality lists (hash lookup) keep wildcards and escapes', () => {
    const d = { s: { 'c-useragent': ['a', 'b', 'c', 'd', 'Evil*', 'back\\\\slash', 42] }, condition: 's' };
    expect(matches(d, http('/', { userAgent: 'C' }))).toBe(true);
    expect(matches(d, http('/', { userAgent: 'evilbot' }))).toBe(true);
    expect(matches(d, http('/', { userAgent: 'back\\slash' }))).toBe(true);
    expect(matches(d, http('/', { userAgent: '42' }))).toBe(true);
    expect(matches(d, http('/', { userAgent: 'e' }))).toBe(false);
  });
  it('lists are OR-ed', () => {
    const d = { s: { 'cs-method': ['PUT', 'DELETE'] }, condition: 's' };
    expect(matches(d, http('/', { method: 'delete' }))).toBe(true);
    expect(matches(d, http('/', { method: 'GET' }))).toBe(false);
  });
  it('cased makes the match case-sensitive', () => {
    const d = { s: { 'c-useragent|cased|contains': 'Bot' }, condition: 's' };
    expect(matches(d, http('/', { userAgent: 'EvilBot/1' }))).toBe(true);
    expect(matches(d, http('/', { userAgent: 'evilbot/1' }))).toBe(false);
  });
  it('empty string matches an empty field only, null an absent one', () => {
    expect(matches({ s: { 'c-useragent': '' }, condition: 's' }, http('/', { userAgent: '' }))).toBe(true);
    expect(matches({ s: { 'c-useragent': '' }, condition: 's' }, http('/'))).toBe(false);
    expect(matches({ s: { 'c-useragent': null }, condition: 's' }, http('/'))).toBe(true);
    expect(matches({ s: { 'c-useragent': null }, condition: 's' }, http('/', { userAgent: 'x' }))).toBe(false);
  });
  it('numbers compare as numbers or their decimal text', () => {
    const d = { s: { dst_port: [80, 8080] }, condition: 's' };
    expect(matches(d, { ts: 't', destPort: 8080 }, { category: 'firewall' }, 'ip')).toBe(true);
    expect(matches(d, { ts: 't', destPort: 443 }, { category: 'firewall' }, 'ip')).toBe(false);
  });
});

describe('re', () => {
  it('matches anywhere, case-sensitive unless i', () => {
    expect(matches({ s: { 'c-uri|re': '\\?d=[0-9]{1,3}\\.' }, condition: 's' }, http('http://x/a?d=10.1'))).toBe(true);
    expect(matches({ s: { 'c-uri|re': 'ABC' }, condition: 's' }, http('http://x/abc'))).toBe(false);
    expect(matches({ s: { 'c-uri|re|i': 'ABC' }, condition: 's' }, http('http://x/abc'))).toBe(true);
  });
  it('m and s flags', () => {
    const ua = 'line1\nline2';
    expect(matches({ s: { 'c-useragent|re': '^line2' }, condition: 's' }, http('/', { userAgent: ua }))).toBe(false);
    expect(matches({ s: { 'c-useragent|re|m': '^line2' }, condition: 's' }, http('/', { userAgent: ua }))).toBe(true);
    expect(matches({ s: { 'c-useragent|re': 'line1.line2' }, condition: 's' }, http('/', { userAgent: ua }))).toBe(false);
    expect(matches({ s: { 'c-useragent|re|s': 'line1.line2' }, condition: 's' }, http('/', { userAgent: ua }))).toBe(true);
  });
  it('rejects what RE2 cannot run in linear time, and stays linear on catastrophic patterns', () => {
    expect(errorOf({ s: { 'c-uri|re': '(a)\\1' }, condition: 's' })).toMatch(/does not compile in the linear-time \(RE2\) engine/);
    expect(errorOf({ s: { 'c-uri|re': '(?=x)y' }, condition: 's' })).toMatch(/does not compile/);
    const rule = ruleOf({ s: { 'c-uri|re': '^(a+)+$' }, condition: 's' });
    const start = Date.now();
    expect(rule.matches('http', http('a'.repeat(50_000) + '!'))).toBe(false);
    expect(Date.now() - start).toBeLessThan(2000);
  });
});

describe('cidr', () => {
  const d = { s: { 'dst_ip|cidr': ['10.0.0.0/8', '2001:db8::/32'] }, condition: 's' };
  const ip = (destIP: string) => ({ ts: 't', destIP });
  it('IPv4 and IPv6 blocks', () => {
    expect(matches(d, ip('10.200.3.4'), { category: 'firewall' }, 'ip')).toBe(true);
    expect(matches(d, ip('11.0.0.1'), { category: 'firewall' }, 'ip')).toBe(false);
    expect(matches(d, ip('2001:db8:1::5'), { category: 'firewall' }, 'ip')).toBe(true);
    expect(matches(d, ip('2001:db9::5'), { category: 'firewall' }, 'ip')).toBe(false);
    expect(matches(d, ip('not-an-ip'), { category: 'firewall' }, 'ip')).toBe(false);
  });
  it('odd prefix lengths', () => {
    const r = { s: { 'dst_ip|cidr': '192.168.0.0/23' }, condition: 's' };
    expect(matches(r, ip('192.168.1.255'), { category: 'firewall' }, 'ip')).toBe(true);
    expect(matches(r, ip('192.168.2.0'), { category: 'firewall' }, 'ip')).toBe(false);
  });
  it('rejects blocks that do not parse', () => {
    expect(errorOf({ s: { 'dst_ip|cidr': '10.0.0.0/33' }, condition: 's' }, { category: 'firewall' })).toMatch(/prefix length 33 exceeds 32/);
    expect(errorOf({ s: { 'dst_ip|cidr': '300.1.1.1/8' }, condition: 's' }, { category: 'firewall' })).toMatch(/not an IPv4 or IPv6 address/);
    expect(errorOf({ s: { 'dst_ip|cidr': '2001:db8:::/32' }, condition: 's' }, { category: 'firewall' })).toMatch(/not a CIDR block/);
  });
});

describe('numeric comparisons', () => {
  const fw = { category: 'firewall' };
  it('lt, lte, gt, gte', () => {
    const e = { ts: 't', bytesOut: 1000 };
    expect(matches({ s: { 'source.bytes|gt': 999 }, condition: 's' }, e, fw, 'ip')).toBe(true);
    expect(matches({ s: { 'source.bytes|gt': 1000 }, condition: 's' }, e, fw, 'ip')).toBe(false);
    expect(matches({ s: { 'source.bytes|gte': 1000 }, condition: 's' }, e, fw, 'ip')).toBe(true);
    expect(matches({ s: { 'source.bytes|lt': 1000 }, condition: 's' }, e, fw, 'ip')).toBe(false);
    expect(matches({ s: { 'source.bytes|lte': 1000 }, condition: 's' }, e, fw, 'ip')).toBe(true);
  });
  it('need numbers', () => {
    expect(errorOf({ s: { 'source.bytes|gt': 'many' }, condition: 's' }, fw)).toMatch(/modifier gt needs a number, got "many"/);
  });
});

describe('exists and fieldref', () => {
  it('exists true/false', () => {
    expect(matches({ s: { 'cs-referrer|exists': true }, condition: 's' }, http('/', { referrer: 'x' }))).toBe(true);
    expect(matches({ s: { 'cs-referrer|exists': true }, condition: 's' }, http('/'))).toBe(false);
    expect(matches({ s: { 'cs-referrer|exists': false }, condition: 's' }, http('/'))).toBe(true);
    expect(errorOf({ s: { 'cs-referrer|exists': 'yes' }, condition: 's' })).toMatch(/exists needs true or false/);
  });
  it('fieldref compares two fields of the event', () => {
    const d = { s: { 'cs-referrer|fieldref': 'c-uri' }, condition: 's' };
    expect(matches(d, http('http://a/x', { referrer: 'HTTP://A/X' }))).toBe(true);
    expect(matches(d, http('http://a/x', { referrer: 'http://b/' }))).toBe(false);
    const starts = { s: { 'c-uri|fieldref|startswith': 'cs-referrer' }, condition: 's' };
    expect(matches(starts, http('http://a/x/y', { referrer: 'http://a/x' }))).toBe(true);
    expect(matches(starts, http('http://b/x/y', { referrer: 'http://a/x' }))).toBe(false);
  });
});

describe('encodings', () => {
  it('base64 matches the encoded value', () => {
    const d = { s: { 'c-uri|base64|contains': 'whoami' }, condition: 's' };
    expect(matches(d, http('http://x/?q=' + Buffer.from('whoami').toString('base64')))).toBe(true);
    expect(matches(d, http('http://x/?q=whoami'))).toBe(false);
  });
  it('base64offset finds the value at any byte offset', () => {
    const d = { s: { 'c-uri|base64offset|contains': 'powershell' }, condition: 's' };
    for (const prefix of ['', 'a', 'ab', 'abc']) {
      const encoded = Buffer.from(`${prefix}powershell -enc`).toString('base64');
      expect(matches(d, http(`http://x/?p=${encoded}`))).toBe(true);
    }
    expect(matches(d, http(`http://x/?p=${Buffer.from('bash -c').toString('base64')}`))).toBe(false);
    expect(errorOf({ s: { 'c-uri|base64offset': 'x' }, condition: 's' })).toMatch(/base64offset needs contains/);
  });
  it('windash accepts every dash variant', () => {
    const d = { s: { 'c-uri|windash|contains': ' -urlcache ' }, condition: 's' };
    for (const dash of ['-', '/', '\u2013', '\u2014', '\u2015']) expect(matches(d, http(`http://x/certutil ${dash}urlcache -f`))).toBe(true);
    expect(matches(d, http('http://x/certutil urlcache -f'))).toBe(false);
  });
});

describe('expand', () => {
  const options = { placeholders: { admin_hosts: ['jump1.corp', 'jump2.corp'] } };
  it('replaces placeholders with the workspace values', () => {
    const d = { s: { 'cs-host|expand': '%admin_hosts%' }, condition: 's' };
    expect(matches(d, http('http://jump2.corp/'), undefined, 'http', options)).toBe(true);
    expect(matches(d, http('http://jump3.corp/'), undefined, 'http', options)).toBe(false);
  });
  it('names a placeholder that is not configured', () => {
    expect(errorOf({ s: { 'cs-host|expand': '%dc_hosts%' }, condition: 's' }, undefined, options)).toMatch(/placeholder %dc_hosts% is not configured .*admin_hosts/);
  });
});

describe('modifier validation', () => {
  it('names unknown modifiers and illegal combinations', () => {
    expect(errorOf({ s: { 'c-uri|contians': 'x' }, condition: 's' })).toMatch(/unknown modifier 'contians'/);
    expect(errorOf({ s: { 'c-uri|wide|base64': 'x' }, condition: 's' })).toMatch(/modifier 'wide' is not supported/);
    expect(errorOf({ s: { 'c-uri|contains|startswith': 'x' }, condition: 's' })).toMatch(/contains and startswith exclude each other/);
    expect(errorOf({ s: { 'c-uri|re|contains': 'x' }, condition: 's' })).toMatch(/re cannot be combined with contains/);
    expect(errorOf({ s: { 'c-uri|i': 'x' }, condition: 's' })).toMatch(/needs re/);
    expect(errorOf({ s: { 'c-uri|cidr|gt': 'x' }, condition: 's' })).toMatch(/exclude each other/);
    expect(errorOf({ s: { 'c-uri': ['a', null] }, condition: 's' })).toMatch(/null inside a list/);
  });
});
