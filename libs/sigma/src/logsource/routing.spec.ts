import { errorOf, ruleOf } from '../testing/compile-helpers';

describe('logsource routing and field mapping', () => {
  it('routes each supported logsource to Vigil event types', () => {
    const sel = { sel: { 'srcIP|exists': true }, condition: 'sel' };
    expect(ruleOf(sel, { category: 'dns' }).eventTypes).toEqual(['dns']);
    expect(ruleOf(sel, { category: 'dns_query', product: 'windows' }).eventTypes).toEqual(['dns']);
    expect(ruleOf(sel, { product: 'zeek', service: 'dns' }).eventTypes).toEqual(['dns']);
    expect(ruleOf(sel, { category: 'firewall' }).eventTypes).toEqual(['ip']);
    expect(ruleOf(sel, { product: 'zeek', service: 'conn' }).eventTypes).toEqual(['ip']);
    expect(ruleOf(sel, { category: 'network_connection', product: 'linux' }).eventTypes).toEqual(['ip', 'dns', 'http']);
    expect(ruleOf(sel, { category: 'proxy' }).eventTypes).toEqual(['http']);
    expect(ruleOf(sel, { category: 'webserver' }).eventTypes).toEqual(['http']);
    expect(ruleOf(sel, { product: 'zeek', service: 'http' }).eventTypes).toEqual(['http']);
    expect(ruleOf(sel, { product: 'zeek', service: 'x509' }).eventTypes).toEqual(['tls']);
    expect(ruleOf(sel, { category: 'tls' }).eventTypes).toEqual(['tls']);
    expect(ruleOf(sel, { category: 'dhcp' }).eventTypes).toEqual(['lease']);
  });
  it('rejects other logsources naming what is supported', () => {
    const sel = { sel: { a: 1 }, condition: 'sel' };
    for (const ls of <Array<Record<string, string>>>[{ product: 'cisco', service: 'aaa' }, { product: 'zeek', service: 'smb_files' }, { product: 'zeek', service: 'kerberos' }, { category: 'process_creation', product: 'windows' }]) {
      expect(errorOf(sel, ls)).toMatch(/^unsupported logsource \(.*\): .*supported logsources are category dns, dns_query, firewall/);
    }
  });
  it('endpoint categories accept only network fields', () => {
    expect(errorOf({ sel: { QueryName: 'x', Image: 'a.exe' }, condition: 'sel' }, { category: 'dns_query', product: 'windows' })).toMatch(/field 'Image' is not carried by network telemetry/);
  });
  it('maps Sigma field names onto DNS events (query normalised)', () => {
    const rule = ruleOf({ sel: { 'query|endswith': '.onion', record_type: 'TXT' }, condition: 'sel' }, { category: 'dns' });
    expect(rule.matches('dns', { ts: 't', query: 'ABC.Onion.', qtype: 'TXT' })).toBe(true);
    expect(rule.matches('dns', { ts: 't', query: 'abc.onion', qtype: 'A' })).toBe(false);
  });
  it('maps web fields onto the parts of the HTTP URL', () => {
    const ev = { ts: 't', url: 'https://Files.Example.com:8443/a/b/run.ps1?cmd=whoami#x' };
    const m = (field: string, value: string) => ruleOf({ sel: { [field]: value }, condition: 'sel' }).matches('http', ev);
    expect(m('cs-host', 'files.example.com')).toBe(true);
    expect(m('c-uri-stem', '/a/b/run.ps1')).toBe(true);
    expect(m('c-uri-query', '/a/b/run.ps1?cmd=whoami')).toBe(true);
    expect(m('c-uri-extension', 'ps1')).toBe(true);
    expect(m('url.query', 'cmd=whoami')).toBe(true);
    expect(m('c-uri-extension', 'exe')).toBe(false);
  });
  it('firewall action synonyms and blocked, Initiated on flows', () => {
    const rule = ruleOf({ sel: { dst_port: 21, action: ['forward', 'accept'] }, condition: 'sel' }, { category: 'firewall' });
    expect(rule.matches('ip', { ts: 't', destPort: 21, action: 'allow' })).toBe(true);
    expect(rule.matches('ip', { ts: 't', destPort: 21, action: 'deny' })).toBe(false);
    const blocked = ruleOf({ sel: { blocked: 'true' }, condition: 'sel' }, { category: 'firewall' });
    expect(blocked.matches('ip', { ts: 't', action: 'DROP' })).toBe(true);
    expect(blocked.matches('ip', { ts: 't', action: 'allow' })).toBe(false);
    const conn = ruleOf({ sel: { 'DestinationHostname|endswith': '.ngrok.io', Initiated: 'true' }, condition: 'sel' }, { category: 'network_connection', product: 'windows' });
    expect(conn.matches('dns', { ts: 't', query: 'x.ngrok.io' })).toBe(true);
    expect(conn.matches('http', { ts: 't', url: 'http://x.ngrok.io/' })).toBe(true);
    expect(conn.matches('dns', { ts: 't', query: 'x.example.io' })).toBe(false);
  });
  it('TLS and DHCP lease taxonomy', () => {
    const tls = ruleOf({ sel: { 'tls.ja3': 'ABCDEF', 'issuer|contains': 'Evil CA' }, condition: 'sel' }, { category: 'tls' });
    expect(tls.matches('tls', { ts: 't', ja3: 'abcdef', issuer: 'CN=Evil CA' })).toBe(true);
    expect(tls.matches('tls', { ts: 't', ja3: 'abcdef', issuer: 'CN=Good CA' })).toBe(false);
    const lease = ruleOf({ sel: { 'lease.type': 'ack', 'mac|startswith': '00:0c:29' }, condition: 'sel' }, { category: 'dhcp' });
    expect(lease.matches('lease', { ts: 't', type: 'ACK', srcMac: '00:0C:29:11:22:33' })).toBe(true);
    expect(lease.matches('lease', { ts: 't', type: 'ACK', srcMac: '00:50:56:11:22:33' })).toBe(false);
  });
  it('enrichment fields read the built-in analytics passed at match time', () => {
    const rule = ruleOf(
      { sel: { 'wisdom.flags.young_domain': true, 'wisdom.labels.intel': 'c2', registered_domain: 'bad.example' }, condition: 'sel' },
      { category: 'dns' },
    );
    const ev = { ts: 't', query: 'x.bad.example' };
    expect(rule.matches('dns', ev, { flags: ['young_domain'], labels: ['intel:c2'], domain: 'bad.example' })).toBe(true);
    expect(rule.matches('dns', ev, { flags: [], labels: ['intel:c2'], domain: 'bad.example' })).toBe(false);
    expect(rule.matches('dns', ev)).toBe(false);
    const noFlag = ruleOf({ sel: { 'wisdom.flags.young_domain': false }, condition: 'sel' }, { category: 'dns' });
    expect(noFlag.matches('dns', ev, { flags: ['other'] })).toBe(true);
  });
  it('warns about fields no routed event carries', () => {
    expect(ruleOf({ sel: { 'cs-cookie|contains': 'x' }, condition: 'sel' }).warnings[0]).toMatch(/'cs-cookie' is not carried/);
  });
});
