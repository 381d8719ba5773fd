import { createLogParser } from '../log-parser';
import type { ImportedEvent, RecordOutcome } from '../outcome';
import { CONN_COLUMNS, DNS_COLUMNS, zeekDnsRow, zeekTsvLog } from '../testing/zeek-tsv';
import { CertificateIndex } from './certificate-index';
import type { LogFormat } from '../formats';

function parse(format: LogFormat, text: string, certificates?: CertificateIndex): RecordOutcome[] {
  const parser = createLogParser(format, { certificates });
  return [...text.split('\n').flatMap((line) => parser.line(line)), ...parser.finish()];
}
const eventsOf = (outcomes: RecordOutcome[]): ImportedEvent[] => outcomes.flatMap((o) => (o.kind === 'events' ? o.events : []));

describe('Zeek conn.log (TSV)', () => {
  const log = zeekTsvLog('conn', CONN_COLUMNS, [
    ['1718000000.123456', 'CHhAvVGS1DHFjwGM9', '10.14.1.39', '50122', '203.0.113.7', '443', 'tcp', 'ssl', '1.250321', '830', '5120', 'SF', 'T', 'F', '0', 'ShADadFf', '7', '1202', '9', '5492', '(empty)'],
    // A scan probe: nothing came back (resp 0 stays 0), service and duration unset.
    ['1718000001.5', 'C4J4Th3PJpwUYZZ6gc', '10.14.1.40', '61000', '198.51.100.9', '3389', 'tcp', '-', '-', '0', '0', 'S0', 'T', 'F', '0', 'S', '1', '44', '0', '0', '(empty)'],
    // ICMP: the "ports" are type and code, and 0 anyway.
    ['1718000002.000001', 'CtPZjS20MLrsMUOJi2', '10.14.1.41', '8', '192.0.2.1', '0', 'icmp', '-', '0.001', '56', '56', 'OTH', 'T', 'F', '0', '-', '1', '84', '1', '84', '(empty)'],
    // IPv6, two services (the first counts), a tunnel parent set.
    ['1718000003.25', 'Cabc', '2001:db8::5', '55000', '2606:4700::1111', '853', 'tcp', 'ssl,dns', '12.5', '1000', '2000', 'SF', 'T', 'F', '0', 'ShADadFf', '10', '1500', '12', '2600', 'CXWv6p3arKYeMETxOg,CjhGID4nQcgTWjvg4c'],
    // Garbage: the wrong number of fields.
    ['1718000004.0', 'Cxyz', '10.1.1.1'],
  ]);

  it('maps each connection to an ip event, keeping 0 counters and leaving unset fields out', () => {
    const outcomes = parse('zeek-conn', log);
    expect(outcomes.filter((o) => o.kind === 'rejected')).toEqual([{ kind: 'rejected', reason: 'zeek_field_count_mismatch' }]);
    expect(eventsOf(outcomes)).toEqual([
      { type: 'ip', event: { ts: '2024-06-10T06:13:20.123Z', srcIP: '10.14.1.39', srcPort: 50122, destIP: '203.0.113.7', destPort: 443, proto: 'tcp', app: 'ssl', duration: 1.250321, bytesOut: 830, bytesIn: 5120, packetsOut: 7, packetsIn: 9 } },
      { type: 'ip', event: { ts: '2024-06-10T06:13:21.500Z', srcIP: '10.14.1.40', srcPort: 61000, destIP: '198.51.100.9', destPort: 3389, proto: 'tcp', bytesOut: 0, bytesIn: 0, packetsOut: 1, packetsIn: 0 } },
      { type: 'ip', event: { ts: '2024-06-10T06:13:22.000Z', srcIP: '10.14.1.41', destIP: '192.0.2.1', proto: 'icmp', duration: 0.001, bytesOut: 56, bytesIn: 56, packetsOut: 1, packetsIn: 1 } },
      { type: 'ip', event: { ts: '2024-06-10T06:13:23.250Z', srcIP: '2001:db8::5', srcPort: 55000, destIP: '2606:4700::1111', destPort: 853, proto: 'tcp', app: 'ssl', duration: 12.5, bytesOut: 1000, bytesIn: 2000, packetsOut: 10, packetsIn: 12 } },
    ]);
  });

  it('rejects data lines before any #fields header', () => {
    expect(parse('zeek-conn', '1718000000.1\tCx\t10.0.0.1\n')).toEqual([{ kind: 'rejected', reason: 'zeek_data_before_fields_header' }]);
  });

  it('reads a header whose separator is not a tab, and decodes escaped separators in values', () => {
    const log = ['#separator \\x7c', '#set_separator|,', '#empty_field|(empty)', '#unset_field|-', '#path|dns', '#fields|ts|id.orig_h|id.orig_p|query|qtype_name', '#types|time|addr|port|string|string', '1718000000.0|10.0.0.7|5353|odd\\x7cname.example.com|A'].join('\n');
    expect(eventsOf(parse('zeek-dns', log))).toEqual([{ type: 'dns', event: { ts: '2024-06-10T06:13:20.000Z', srcIP: '10.0.0.7', srcPort: 5353, query: 'odd|name.example.com', qtype: 'A' } }]);
  });
});

describe('Zeek dns.log (TSV)', () => {
  it('maps queries, uses the numeric qtype when the name is unset, and rejects records without a query', () => {
    const row = zeekDnsRow('1718000100.000200', '10.14.1.39', 53211, 'www.example.com', 'A', '1');
    const numeric = zeekDnsRow('1718000100.5', '10.14.1.39', 53212, 'odd.example.com', '-', '65399');
    const noQuery = zeekDnsRow('1718000101.0', '10.14.1.39', 53213, '-', '-', '-');
    const escaped = zeekDnsRow('1718000102.0', 'fe80::1', 0, 'bad\\x09tab.example.com', 'AAAA', '28');
    const outcomes = parse('zeek-dns', zeekTsvLog('dns', DNS_COLUMNS, [row, numeric, noQuery, escaped]));
    expect(outcomes.filter((o) => o.kind === 'rejected')).toEqual([{ kind: 'rejected', reason: 'missing_query' }]);
    expect(eventsOf(outcomes)).toEqual([
      { type: 'dns', event: { ts: '2024-06-10T06:15:00.000Z', srcIP: '10.14.1.39', srcPort: 53211, query: 'www.example.com', qtype: 'A' } },
      { type: 'dns', event: { ts: '2024-06-10T06:15:00.500Z', srcIP: '10.14.1.39', srcPort: 53212, query: 'odd.example.com', qtype: '65399' } },
      { type: 'dns', event: { ts: '2024-06-10T06:15:02.000Z', srcIP: 'fe80::1', query: 'bad\ttab.example.com', qtype: 'AAAA' } },
    ]);
  });
});

describe('Zeek http.log (TSV)', () => {
  const columns = [
    ['ts', 'time'], ['uid', 'string'], ['id.orig_h', 'addr'], ['id.orig_p', 'port'], ['id.resp_h', 'addr'], ['id.resp_p', 'port'],
    ['trans_depth', 'count'], ['method', 'string'], ['host', 'string'], ['uri', 'string'], ['referrer', 'string'], ['version', 'string'],
    ['user_agent', 'string'], ['origin', 'string'], ['request_body_len', 'count'], ['response_body_len', 'count'], ['status_code', 'count'],
    ['status_msg', 'string'], ['info_code', 'count'], ['info_msg', 'string'], ['tags', 'set[enum]'], ['username', 'string'], ['password', 'string'],
    ['proxied', 'set[string]'], ['orig_fuids', 'vector[string]'], ['orig_filenames', 'vector[string]'], ['orig_mime_types', 'vector[string]'],
    ['resp_fuids', 'vector[string]'], ['resp_filenames', 'vector[string]'], ['resp_mime_types', 'vector[string]'],
  ] as const;
  const row = (over: Record<number, string>) => {
    const base = ['1718000200.1', 'CUM0KZ3MLUfNB0cl11', '10.14.1.39', '49812', '93.184.216.34', '80', '1', 'GET', 'www.example.com', '/download/setup.exe?x=1', 'http://www.example.com/', '1.1', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', '-', '0', '1048576', '200', 'OK', '-', '-', '(empty)', '-', '-', '-', '-', '-', '-', 'FakNcS1Jfe01uljb3', '-', 'application/x-dosexec'];
    return base.map((value, i) => over[i] ?? value);
  };

  it('rebuilds the URL from Host and URI and maps status, sizes, MIME type, referrer and agent', () => {
    const outcomes = parse('zeek-http', zeekTsvLog('http', columns, [
      row({}),
      // No Host header: the server address and non-default port make the URL; the basic-auth user is kept.
      row({ 4: '2001:db8::80', 5: '8080', 8: '-', 9: '/admin', 10: '-', 12: '-', 15: '0', 16: '401', 21: 'admin', 29: '(empty)' }),
      // A proxy request with an absolute URI.
      row({ 8: 'proxy.internal:3128', 9: 'http://evil.example.net/a.ps1', 16: '-' }),
      // Neither host nor URI.
      row({ 4: '-', 8: '-', 9: '-' }),
    ]));
    expect(outcomes.filter((o) => o.kind === 'rejected')).toEqual([{ kind: 'rejected', reason: 'missing_url' }]);
    const events = eventsOf(outcomes);
    expect(events[0]).toEqual({
      type: 'http',
      event: { ts: '2024-06-10T06:16:40.100Z', srcIP: '10.14.1.39', srcPort: 49812, url: 'http://www.example.com/download/setup.exe?x=1', method: 'GET', status: 200, app: 'http', bytesOut: 0, bytesIn: 1048576, contentType: 'application/x-dosexec', referrer: 'http://www.example.com/', userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' },
    });
    expect(events[1].event).toMatchObject({ url: 'http://[2001:db8::80]:8080/admin', status: 401, srcUser: 'admin', bytesIn: 0 });
    expect((events[1].event as { contentType?: string }).contentType).toBeUndefined();
    expect(events[2].event).toMatchObject({ url: 'http://evil.example.net/a.ps1' });
    expect((events[2].event as { status?: number }).status).toBeUndefined();
  });
});

describe('Zeek ssl.log joined with x509.log (TSV)', () => {
  const x509New = [
    ['ts', 'time'], ['fingerprint', 'string'], ['certificate.version', 'count'], ['certificate.serial', 'string'], ['certificate.subject', 'string'],
    ['certificate.issuer', 'string'], ['certificate.not_valid_before', 'time'], ['certificate.not_valid_after', 'time'], ['certificate.key_alg', 'string'],
    ['certificate.sig_alg', 'string'], ['certificate.key_type', 'string'], ['certificate.key_length', 'count'], ['certificate.exponent', 'string'],
    ['certificate.curve', 'string'], ['san.dns', 'vector[string]'], ['san.uri', 'vector[string]'], ['san.email', 'vector[string]'], ['san.ip', 'vector[addr]'],
    ['basic_constraints.ca', 'bool'], ['basic_constraints.path_len', 'count'], ['host_cert', 'bool'], ['client_cert', 'bool'],
  ] as const;
  const sslNew = [
    ['ts', 'time'], ['uid', 'string'], ['id.orig_h', 'addr'], ['id.orig_p', 'port'], ['id.resp_h', 'addr'], ['id.resp_p', 'port'], ['version', 'string'],
    ['cipher', 'string'], ['curve', 'string'], ['server_name', 'string'], ['resumed', 'bool'], ['last_alert', 'string'], ['next_protocol', 'string'],
    ['established', 'bool'], ['ssl_history', 'string'], ['cert_chain_fps', 'vector[string]'], ['client_cert_chain_fps', 'vector[string]'],
    ['sni_matches_cert', 'bool'], ['ja3', 'string'], ['ja3s', 'string'],
  ] as const;
  const fp = '6ad2ea9a1c8a8a5d01bc6c1de2e6a5b5d3b2b0f77d7b5a7a0b1a7c2c39c9ee10';

  it('Zeek ≥ 4.2: joins subject, issuer and validity by the fingerprint in cert_chain_fps', () => {
    const certificates = new CertificateIndex();
    const x509 = parse('zeek-x509', zeekTsvLog('x509', x509New, [
      ['1718000299.0', fp, '3', '4E1FB9D2E5C7A1F0', 'CN=Major Cobalt Strike,OU=AdvancedPenTesting,O=cobaltstrike,L=Somewhere,ST=Cyberspace,C=Earth', 'CN=Major Cobalt Strike,OU=AdvancedPenTesting,O=cobaltstrike,L=Somewhere,ST=Cyberspace,C=Earth', '1431529200.000000', '1747062000.000000', 'rsaEncryption', 'sha256WithRSAEncryption', 'rsa', '2048', '65537', '-', '(empty)', '-', '-', '-', 'F', '-', 'T', 'F'],
    ]), certificates);
    expect(x509).toEqual([{ kind: 'skipped', reason: 'x509_certificate_indexed' }]);
    const ssl = parse('zeek-ssl', zeekTsvLog('ssl', sslNew, [
      ['1718000300.75', 'C1', '10.14.1.39', '51000', '198.51.100.20', '443', 'TLSv12', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'x25519', '-', 'F', '-', 'h2', 'T', 'CsiI', `${fp},9f1b`, '(empty)', 'F', 'a0e9f5d64349fb13191bc781f81f42e1', 'ae4edc6faf64d08308082ad26be60767'],
      // Resumed session: no certificate at all.
      ['1718000301.0', 'C2', '10.14.1.39', '51001', '198.51.100.21', '443', 'TLSv13', 'TLS_AES_128_GCM_SHA256', '-', 'www.example.org', 'T', '-', '-', 'T', 'Cs', '(empty)', '(empty)', '-', '-', '-'],
    ]), certificates);
    expect(eventsOf(ssl)).toEqual([
      {
        type: 'tls',
        event: {
          ts: '2024-06-10T06:18:20.750Z', srcIP: '10.14.1.39', srcPort: 51000, destIP: '198.51.100.20', destPort: 443, certHash: fp,
          subject: 'CN=Major Cobalt Strike,OU=AdvancedPenTesting,O=cobaltstrike,L=Somewhere,ST=Cyberspace,C=Earth',
          issuer: 'CN=Major Cobalt Strike,OU=AdvancedPenTesting,O=cobaltstrike,L=Somewhere,ST=Cyberspace,C=Earth',
          validFrom: '2015-05-13T15:00:00.000Z', validTo: '2025-05-12T15:00:00.000Z',
          ja3: 'a0e9f5d64349fb13191bc781f81f42e1', ja3s: 'ae4edc6faf64d08308082ad26be60767',
        },
      },
      { type: 'tls', event: { ts: '2024-06-10T06:18:21.000Z', srcIP: '10.14.1.39', srcPort: 51001, destIP: '198.51.100.21', destPort: 443 } },
    ]);
  });

  it('older Zeeks: joins by the file id in cert_chain_fuids and keeps the subject/issuer ssl.log carries', () => {
    const certificates = new CertificateIndex();
    const x509Old = [['ts', 'time'], ['id', 'string'], ['certificate.version', 'count'], ['certificate.serial', 'string'], ['certificate.subject', 'string'], ['certificate.issuer', 'string'], ['certificate.not_valid_before', 'time'], ['certificate.not_valid_after', 'time']] as const;
    parse('zeek-x509', zeekTsvLog('x509', x509Old, [['1718000299.0', 'FJpg6m3hPbLzt2lWQl', '3', '01', 'CN=localhost', 'CN=localhost', '1700000000.0', '1600000000.0']]), certificates);
    const sslOld = [['ts', 'time'], ['uid', 'string'], ['id.orig_h', 'addr'], ['id.orig_p', 'port'], ['id.resp_h', 'addr'], ['id.resp_p', 'port'], ['version', 'string'], ['cipher', 'string'], ['server_name', 'string'], ['established', 'bool'], ['cert_chain_fuids', 'vector[string]'], ['client_cert_chain_fuids', 'vector[string]'], ['subject', 'string'], ['issuer', 'string'], ['validation_status', 'string']] as const;
    const ssl = parse('zeek-ssl', zeekTsvLog('ssl', sslOld, [['1718000300.0', 'C3', '10.14.1.42', '52000', '203.0.113.50', '8443', 'TLSv12', 'TLS_RSA_WITH_AES_128_CBC_SHA', '-', 'T', 'FJpg6m3hPbLzt2lWQl', '(empty)', 'CN=localhost,O=Inline', 'CN=localhost,O=Inline', 'self signed certificate']]), certificates);
    expect(eventsOf(ssl)).toEqual([
      { type: 'tls', event: { ts: '2024-06-10T06:18:20.000Z', srcIP: '10.14.1.42', srcPort: 52000, destIP: '203.0.113.50', destPort: 8443, subject: 'CN=localhost,O=Inline', issuer: 'CN=localhost,O=Inline', validFrom: '2023-11-14T22:13:20.000Z', validTo: '2020-09-13T12:26:40.000Z' } },
    ]);
  });
});

describe('Zeek dhcp.log (TSV)', () => {
  const columns = [
    ['ts', 'time'], ['uids', 'set[string]'], ['client_addr', 'addr'], ['server_addr', 'addr'], ['mac', 'string'], ['host_name', 'string'],
    ['client_fqdn', 'string'], ['domain', 'string'], ['requested_addr', 'addr'], ['assigned_addr', 'addr'], ['lease_time', 'interval'],
    ['client_message', 'string'], ['server_message', 'string'], ['msg_types', 'vector[string]'], ['duration', 'interval'],
  ] as const;

  it('maps grants, renewals and releases to lease events and skips conversations that change no lease', () => {
    const outcomes = parse('zeek-dhcp', zeekTsvLog('dhcp', columns, [
      ['1718000400.0', 'CmWOt6VWaNGqXYcH6', '-', '10.14.0.1', '00:0c:29:5b:1f:3e', 'ws-042', '-', 'corp.example', '10.14.1.39', '10.14.1.39', '86400.000000', '-', '-', 'DISCOVER,OFFER,REQUEST,ACK', '0.012'],
      ['1718043600.0', 'CnKS8w1YeUbAwd8Pna', '10.14.1.39', '10.14.0.1', '00:0c:29:5b:1f:3e', 'ws-042', '-', 'corp.example', '-', '10.14.1.39', '86400.000000', '-', '-', 'REQUEST,ACK', '0.003'],
      ['1718050000.0', 'CZ2b7T3cLYTcCq4Mbb', '10.14.1.39', '10.14.0.1', '00:0c:29:5b:1f:3e', '-', '-', '-', '-', '-', '-', '-', '-', 'RELEASE', '0'],
      ['1718050001.0', 'C9', '-', '-', '00:0c:29:aa:bb:cc', '-', '-', '-', '-', '-', '-', '-', '-', 'DISCOVER', '0'],
      ['1718050002.0', 'C8', '10.14.1.77', '10.14.0.1', '00:0c:29:aa:bb:dd', '-', '-', '-', '-', '-', '-', '-', '-', 'INFORM,ACK', '0.001'],
    ]));
    expect(outcomes.filter((o) => o.kind === 'skipped')).toEqual([{ kind: 'skipped', reason: 'dhcp_no_lease_change' }, { kind: 'skipped', reason: 'dhcp_no_lease_change' }]);
    expect(eventsOf(outcomes)).toEqual([
      { type: 'lease', event: { ts: '2024-06-10T06:20:00.000Z', srcIP: '10.14.1.39', srcMac: '00:0c:29:5b:1f:3e', srcHost: 'ws-042', type: 'assign', duration: 86400 } },
      { type: 'lease', event: { ts: '2024-06-10T18:20:00.000Z', srcIP: '10.14.1.39', srcMac: '00:0c:29:5b:1f:3e', srcHost: 'ws-042', type: 'renew', duration: 86400 } },
      { type: 'lease', event: { ts: '2024-06-10T20:06:40.000Z', srcIP: '10.14.1.39', srcMac: '00:0c:29:5b:1f:3e', type: 'release', termination: true } },
    ]);
  });

  it('reads the pre-2.6 dhcp.log (granted leases only)', () => {
    const old = [['ts', 'time'], ['uid', 'string'], ['id.orig_h', 'addr'], ['id.orig_p', 'port'], ['id.resp_h', 'addr'], ['id.resp_p', 'port'], ['mac', 'string'], ['assigned_ip', 'addr'], ['lease_time', 'interval'], ['trans_id', 'count']] as const;
    const outcomes = parse('zeek-dhcp', zeekTsvLog('dhcp', old, [['1718000400.0', 'C1', '10.14.1.39', '68', '10.14.0.1', '67', '00:0c:29:5b:1f:3e', '10.14.1.39', '3600.000000', '2853401230']]));
    expect(eventsOf(outcomes)).toEqual([{ type: 'lease', event: { ts: '2024-06-10T06:20:00.000Z', srcIP: '10.14.1.39', srcMac: '00:0c:29:5b:1f:3e', type: 'assign', duration: 3600 } }]);
  });
});
