import { detectLogFormat } from '../detect';
import { createLogParser } from '../log-parser';
import type { RecordOutcome } from '../outcome';
import { CertificateIndex } from './certificate-index';

function parse(format: Parameters<typeof createLogParser>[0], lines: string[], certificates?: CertificateIndex): RecordOutcome[] {
  const parser = createLogParser(format, { certificates });
  return lines.flatMap((line) => parser.line(line));
}

describe('Zeek JSON logs', () => {
  it('reads conn.log JSON (epoch ts, unset fields absent, IPv6) like the TSV form', () => {
    const lines = [
      '{"ts":1718000000.123456,"uid":"CHhAvVGS1DHFjwGM9","id.orig_h":"fe80::c001","id.orig_p":5353,"id.resp_h":"ff02::fb","id.resp_p":5353,"proto":"udp","service":"dns","duration":0.0004,"orig_bytes":120,"resp_bytes":0,"conn_state":"S0","local_orig":true,"local_resp":false,"missed_bytes":0,"history":"D","orig_pkts":2,"orig_ip_bytes":216,"resp_pkts":0,"resp_ip_bytes":0,"orig_l2_addr":"00:0c:29:5b:1f:3e"}',
      '{"ts":1718000001,"uid":"C2","id.orig_h":"10.0.0.8","id.orig_p":0,"id.resp_h":"10.0.0.9","id.resp_p":0,"proto":"tcp","conn_state":"OTH","orig_pkts":0,"resp_pkts":0}',
      '{"ts":1718000002.5,"uid":"C3"',
    ];
    expect(detectLogFormat(lines, 'conn.json')).toBe('zeek-conn');
    expect(parse('zeek-conn', lines)).toEqual([
      { kind: 'events', events: [{ type: 'ip', event: { ts: '2024-06-10T06:13:20.123Z', srcIP: 'fe80::c001', srcPort: 5353, destIP: 'ff02::fb', destPort: 5353, proto: 'udp', app: 'dns', duration: 0.0004, bytesOut: 120, bytesIn: 0, packetsOut: 2, packetsIn: 0, srcMac: '00:0c:29:5b:1f:3e' } }] },
      // Ports 0 are left out (the API reads 0 as absent).
      { kind: 'events', events: [{ type: 'ip', event: { ts: '2024-06-10T06:13:21.000Z', srcIP: '10.0.0.8', destIP: '10.0.0.9', proto: 'tcp', packetsOut: 0, packetsIn: 0 } }] },
      { kind: 'rejected', reason: 'invalid_json' },
    ]);
  });

  it('reads ISO 8601 timestamps (JSON::TS_ISO8601) and tells the log type by fields or _path', () => {
    const dns = '{"ts":"2024-06-10T06:15:00.000200Z","uid":"C1","id.orig_h":"10.14.1.39","id.orig_p":53211,"id.resp_h":"10.0.0.53","id.resp_p":53,"proto":"udp","trans_id":40132,"query":"www.example.com","qclass":1,"qclass_name":"C_INTERNET","qtype":1,"qtype_name":"A","rcode":0,"rcode_name":"NOERROR","AA":false,"TC":false,"RD":true,"RA":true,"Z":0,"answers":["93.184.216.34"],"TTLs":[3600.0],"rejected":false}';
    expect(detectLogFormat([dns], 'whatever.log')).toBe('zeek-dns');
    expect(parse('zeek-dns', [dns])).toEqual([{ kind: 'events', events: [{ type: 'dns', event: { ts: '2024-06-10T06:15:00.000Z', srcIP: '10.14.1.39', srcPort: 53211, query: 'www.example.com', qtype: 'A' } }] }]);
    expect(detectLogFormat(['{"_path":"http","ts":1718000000.0,"uid":"C1"}'])).toBe('zeek-http');
    expect(detectLogFormat(['{"_path":"weird","ts":1718000000.0,"uid":"C1","name":"bad_TCP_checksum"}'])).toBeUndefined();
  });

  it('joins ssl and x509 JSON records by fingerprint', () => {
    const certificates = new CertificateIndex();
    const x509 = '{"ts":1718000299.0,"fingerprint":"aa11","certificate.version":3,"certificate.serial":"01","certificate.subject":"CN=test","certificate.issuer":"CN=Test CA","certificate.not_valid_before":1700000000.0,"certificate.not_valid_after":1800000000.0,"host_cert":true,"client_cert":false}';
    expect(detectLogFormat([x509], 'x509.log')).toBe('zeek-x509');
    parse('zeek-x509', [x509], certificates);
    const ssl = '{"ts":1718000300.0,"uid":"C1","id.orig_h":"10.14.1.39","id.orig_p":51000,"id.resp_h":"198.51.100.20","id.resp_p":443,"version":"TLSv13","cipher":"TLS_AES_256_GCM_SHA384","server_name":"test","resumed":false,"established":true,"cert_chain_fps":["aa11","bb22"]}';
    expect(parse('zeek-ssl', [ssl], certificates)).toEqual([
      { kind: 'events', events: [{ type: 'tls', event: { ts: '2024-06-10T06:18:20.000Z', srcIP: '10.14.1.39', srcPort: 51000, destIP: '198.51.100.20', destPort: 443, certHash: 'aa11', subject: 'CN=test', issuer: 'CN=Test CA', validFrom: '2023-11-14T22:13:20.000Z', validTo: '2027-01-15T08:00:00.000Z' } }] },
    ]);
  });
});
