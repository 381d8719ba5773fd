import { detectLogFormat } from '../detect';
import { createLogParser } from '../log-parser';
import type { RecordOutcome } from '../outcome';

function parse(lines: string[]): RecordOutcome[] {
  const parser = createLogParser('suricata-eve');
  return [...lines.flatMap((line) => parser.line(line)), ...parser.finish()];
}
const only = (outcomes: RecordOutcome[]) => {
  expect(outcomes).toHaveLength(1);
  const [outcome] = outcomes;
  if (outcome.kind !== 'events') throw new Error(`expected events, got ${JSON.stringify(outcome)}`);
  return outcome.events;
};

describe('Suricata EVE', () => {
  it('is detected by event_type and timestamp', () => {
    expect(detectLogFormat(['{"timestamp":"2024-06-10T08:13:20.123456+0200","flow_id":1,"event_type":"stats","stats":{}}'])).toBe('suricata-eve');
  });

  it('maps a v1/v2 DNS query (offset +0200) and skips the answer records', () => {
    const query = '{"timestamp":"2024-06-10T08:13:20.123456+0200","flow_id":1990123456789012,"in_iface":"eth0","event_type":"dns","src_ip":"10.14.1.39","src_port":53211,"dest_ip":"10.0.0.53","dest_port":53,"proto":"UDP","dns":{"type":"query","id":16000,"rrname":"twitter.com","rrtype":"A","tx_id":0,"opcode":0}}';
    const answerV2 = '{"timestamp":"2024-06-10T08:13:20.140000+0200","flow_id":1990123456789012,"event_type":"dns","src_ip":"10.0.0.53","src_port":53,"dest_ip":"10.14.1.39","dest_port":53211,"proto":"UDP","dns":{"version":2,"type":"answer","id":16000,"flags":"8180","qr":true,"rd":true,"ra":true,"rrname":"twitter.com","rrtype":"A","rcode":"NOERROR","answers":[{"rrname":"twitter.com","rrtype":"A","ttl":8,"rdata":"104.244.42.1"}]}}';
    const answerV1 = '{"timestamp":"2024-06-10T06:13:20.140000+0000","event_type":"dns","src_ip":"10.0.0.53","dest_ip":"10.14.1.39","proto":"UDP","dns":{"type":"answer","id":16000,"rrname":"twitter.com","rrtype":"A","ttl":8,"rdata":"104.244.42.1"}}';
    const outcomes = parse([query, answerV2, answerV1]);
    expect(outcomes.slice(1)).toEqual([{ kind: 'skipped', reason: 'dns_answer' }, { kind: 'skipped', reason: 'dns_answer' }]);
    expect(only(outcomes.slice(0, 1))).toEqual([{ type: 'dns', event: { ts: '2024-06-10T06:13:20.123Z', srcIP: '10.14.1.39', srcPort: 53211, query: 'twitter.com', qtype: 'A' } }]);
  });

  it('maps every question of a v3 request (Suricata 8)', () => {
    const v3 = '{"timestamp":"2024-06-10T06:13:20.000000+0000","event_type":"dns","src_ip":"2001:db8::39","src_port":40000,"dest_ip":"2001:db8::53","dest_port":53,"proto":"UDP","dns":{"version":3,"type":"request","tx_id":0,"id":1,"flags":"100","rd":true,"opcode":0,"rcode":"NOERROR","queries":[{"rrname":"a.example.com","rrtype":"AAAA"},{"rrname":"b.example.com","rrtype":"A"}]}}';
    expect(only(parse([v3])).map((e) => e.event)).toEqual([
      { ts: '2024-06-10T06:13:20.000Z', srcIP: '2001:db8::39', srcPort: 40000, query: 'a.example.com', qtype: 'AAAA' },
      { ts: '2024-06-10T06:13:20.000Z', srcIP: '2001:db8::39', srcPort: 40000, query: 'b.example.com', qtype: 'A' },
    ]);
  });

  it('maps a flow: to-server counters are what the client sent, time is the flow start, ICMP has no ports', () => {
    const flow = '{"timestamp":"2024-06-10T06:15:00.000000+0000","flow_id":99,"event_type":"flow","src_ip":"10.14.1.39","src_port":50122,"dest_ip":"203.0.113.7","dest_port":443,"proto":"TCP","app_proto":"tls","flow":{"pkts_toserver":7,"pkts_toclient":9,"bytes_toserver":1202,"bytes_toclient":5492,"start":"2024-06-10T06:13:20.250000+0000","end":"2024-06-10T06:13:21.500000+0000","age":1,"state":"closed","reason":"timeout","alerted":false}}';
    const scan = '{"timestamp":"2024-06-10T06:15:00.000000+0000","event_type":"flow","src_ip":"10.14.1.40","src_port":61000,"dest_ip":"198.51.100.9","dest_port":3389,"proto":"TCP","app_proto":"failed","flow":{"pkts_toserver":1,"pkts_toclient":0,"bytes_toserver":60,"bytes_toclient":0,"start":"2024-06-10T06:14:00.000000+0000","end":"2024-06-10T06:14:00.000000+0000","age":0,"state":"new","reason":"timeout"}}';
    const icmp = '{"timestamp":"2024-06-10T06:15:00.000000+0000","event_type":"flow","src_ip":"10.14.1.41","dest_ip":"192.0.2.1","proto":"ICMP","icmp_type":8,"icmp_code":0,"flow":{"pkts_toserver":1,"pkts_toclient":1,"bytes_toserver":98,"bytes_toclient":98,"age":0}}';
    expect(only(parse([flow]))[0].event).toEqual({ ts: '2024-06-10T06:13:20.250Z', srcIP: '10.14.1.39', srcPort: 50122, destIP: '203.0.113.7', destPort: 443, proto: 'tcp', app: 'tls', duration: 1.25, bytesOut: 1202, bytesIn: 5492, packetsOut: 7, packetsIn: 9 });
    expect(only(parse([scan]))[0].event).toMatchObject({ bytesIn: 0, packetsIn: 0, bytesOut: 60, duration: 0 });
    expect((only(parse([scan]))[0].event as { app?: string }).app).toBeUndefined();
    expect(only(parse([icmp]))[0].event).toEqual({ ts: '2024-06-10T06:15:00.000Z', srcIP: '10.14.1.41', destIP: '192.0.2.1', proto: 'icmp', duration: 0, bytesOut: 98, bytesIn: 98, packetsOut: 1, packetsIn: 1 });
  });

  it('maps http with and without extended logging (status as a string, explicit port)', () => {
    const extended = '{"timestamp":"2024-06-10T06:16:40.100000+0000","event_type":"http","src_ip":"10.14.1.39","src_port":49812,"dest_ip":"93.184.216.34","dest_port":8080,"proto":"TCP","tx_id":0,"http":{"hostname":"www.example.com","http_port":8080,"url":"/download/setup.exe","http_user_agent":"Microsoft BITS/7.8","http_content_type":"application/x-dosexec","http_refer":"http://www.example.com/","http_method":"GET","protocol":"HTTP/1.1","status":"200","length":1048576}}';
    const basic = '{"timestamp":"2024-06-10T06:16:41.000000+0000","event_type":"http","src_ip":"10.14.1.39","src_port":49813,"dest_ip":"2001:db8::80","dest_port":8000,"proto":"TCP","http":{"url":"/index.html","http_user_agent":"curl/8.5.0"}}';
    expect(only(parse([extended]))[0].event).toEqual({ ts: '2024-06-10T06:16:40.100Z', srcIP: '10.14.1.39', srcPort: 49812, url: 'http://www.example.com:8080/download/setup.exe', method: 'GET', status: 200, app: 'http', bytesIn: 1048576, contentType: 'application/x-dosexec', referrer: 'http://www.example.com/', userAgent: 'Microsoft BITS/7.8' });
    expect(only(parse([basic]))[0].event).toMatchObject({ url: 'http://[2001:db8::80]:8000/index.html', userAgent: 'curl/8.5.0' });
  });

  it('maps tls (extended) with fingerprint, validity and JA3/JA3S, and a resumed session without certificate', () => {
    const tls = '{"timestamp":"2024-06-10T06:18:20.750000+0000","event_type":"tls","src_ip":"10.14.1.39","src_port":51000,"dest_ip":"198.51.100.20","dest_port":443,"proto":"TCP","tls":{"subject":"C=US, ST=California, L=Mountain View, O=Google Inc, CN=*.google.com","issuerdn":"C=US, O=Google Inc, CN=Google Internet Authority G2","serial":"0C:00:99:B7:D7:54:C9:F6","fingerprint":"8f:51:12:06:a0:cc:4e:cd:e8:a3:8b:38:f8:87:59:e5:af:95:ca:cd","sni":"calendar.google.com","version":"TLS 1.2","notbefore":"2017-01-04T10:48:43","notafter":"2017-03-29T10:18:00","ja3":{"hash":"e7d705a3286e19ea42f587b344ee6865","string":"771,49195-49199,0-23,29-23,0"},"ja3s":{"hash":"ae4edc6faf64d08308082ad26be60767","string":"771,49199,65281"}}}';
    const resumed = '{"timestamp":"2024-06-10T06:18:21.000000+0000","event_type":"tls","src_ip":"10.14.1.39","src_port":51001,"dest_ip":"198.51.100.21","dest_port":443,"proto":"TCP","tls":{"session_resumed":true}}';
    expect(only(parse([tls]))[0].event).toEqual({
      ts: '2024-06-10T06:18:20.750Z', srcIP: '10.14.1.39', srcPort: 51000, destIP: '198.51.100.20', destPort: 443,
      certHash: '8f511206a0cc4ecde8a38b38f88759e5af95cacd', subject: 'C=US, ST=California, L=Mountain View, O=Google Inc, CN=*.google.com',
      issuer: 'C=US, O=Google Inc, CN=Google Internet Authority G2', validFrom: '2017-01-04T10:48:43.000Z', validTo: '2017-03-29T10:18:00.000Z',
      ja3: 'e7d705a3286e19ea42f587b344ee6865', ja3s: 'ae4edc6faf64d08308082ad26be60767',
    });
    expect(only(parse([resumed]))[0].event).toEqual({ ts: '2024-06-10T06:18:21.000Z', srcIP: '10.14.1.39', srcPort: 51001, destIP: '198.51.100.21', destPort: 443 });
  });

  it('maps dhcp ACKs (extended and not) and releases, skips the rest of the exchange', () => {
    const ack = '{"timestamp":"2024-06-10T06:20:00.000000+0000","event_type":"dhcp","src_ip":"10.14.0.1","src_port":67,"dest_ip":"10.14.1.39","dest_port":68,"proto":"UDP","dhcp":{"type":"reply","id":3571862112,"client_mac":"00:0c:29:5b:1f:3e","assigned_ip":"10.14.1.39","client_ip":"0.0.0.0","relay_ip":"0.0.0.0","next_server_ip":"0.0.0.0","dhcp_type":"ack","lease_time":86400,"renewal_time":43200,"rebinding_time":75600,"subnet_mask":"255.255.255.0","hostname":"ws-042"}}';
    const renew = '{"timestamp":"2024-06-10T18:20:00.000000+0000","event_type":"dhcp","src_ip":"10.14.0.1","dest_ip":"10.14.1.39","proto":"UDP","dhcp":{"type":"reply","id":1,"client_mac":"00:0c:29:5b:1f:3e","assigned_ip":"10.14.1.39","client_ip":"10.14.1.39","dhcp_type":"ack","lease_time":86400}}';
    const nonExtended = '{"timestamp":"2024-06-10T06:20:00.000000+0000","event_type":"dhcp","src_ip":"10.14.0.1","dest_ip":"255.255.255.255","proto":"UDP","dhcp":{"type":"reply","id":2,"client_mac":"00:0c:29:aa:bb:cc","assigned_ip":"10.14.1.50","dhcp_type":"ack","renewal_time":1800}}';
    const release = '{"timestamp":"2024-06-10T20:06:40.000000+0000","event_type":"dhcp","src_ip":"10.14.1.39","src_port":68,"dest_ip":"10.14.0.1","dest_port":67,"proto":"UDP","dhcp":{"type":"request","id":3,"client_mac":"00:0c:29:5b:1f:3e","assigned_ip":"0.0.0.0","client_ip":"10.14.1.39","dhcp_type":"release"}}';
    const discover = '{"timestamp":"2024-06-10T06:19:59.000000+0000","event_type":"dhcp","src_ip":"0.0.0.0","dest_ip":"255.255.255.255","proto":"UDP","dhcp":{"type":"request","id":3571862112,"client_mac":"00:0c:29:5b:1f:3e","assigned_ip":"0.0.0.0","dhcp_type":"discover"}}';
    const outcomes = parse([ack, renew, nonExtended, release, discover]);
    expect(outcomes[4]).toEqual({ kind: 'skipped', reason: 'dhcp_no_lease_change' });
    expect(outcomes.slice(0, 4).map((o) => (o.kind === 'events' ? o.events[0].event : o))).toEqual([
      { ts: '2024-06-10T06:20:00.000Z', srcIP: '10.14.1.39', srcMac: '00:0c:29:5b:1f:3e', srcHost: 'ws-042', type: 'assign', duration: 86400 },
      { ts: '2024-06-10T18:20:00.000Z', srcIP: '10.14.1.39', srcMac: '00:0c:29:5b:1f:3e', type: 'renew', duration: 86400 },
      { ts: '2024-06-10T06:20:00.000Z', srcIP: '10.14.1.50', srcMac: '00:0c:29:aa:bb:cc', type: 'assign' },
      { ts: '2024-06-10T20:06:40.000Z', srcIP: '10.14.1.39', srcMac: '00:0c:29:5b:1f:3e', type: 'release', termination: true },
    ]);
  });

  it('skips other event types, rejects bad JSON and records without a usable time, reads @cee: prefixes', () => {
    const outcomes = parse([
      '{"timestamp":"2024-06-10T06:13:20.000000+0000","event_type":"alert","src_ip":"10.0.0.1","alert":{"signature_id":2018358}}',
      '{"timestamp":"2024-06-10T06:13:20.000000+0000","event_type":"stats","stats":{"uptime":30}}',
      '{"timestamp":"not a time","event_type":"dns","dns":{"type":"query","rrname":"a.com"}}',
      '{"event_type":"flow"',
      'garbage',
      '@cee: {"timestamp":"2024-06-10T06:13:20Z","event_type":"dns","src_ip":"10.0.0.1","dns":{"type":"query","rrname":"cee.example.com","rrtype":"A"}}',
    ]);
    expect(outcomes.map((o) => (o.kind === 'events' ? o.events[0].event : o))).toEqual([
      { kind: 'skipped', reason: 'event_type_alert' },
      { kind: 'skipped', reason: 'event_type_stats' },
      { kind: 'rejected', reason: 'invalid_ts' },
      { kind: 'rejected', reason: 'invalid_json' },
      { kind: 'rejected', reason: 'invalid_json' },
      { ts: '2024-06-10T06:13:20.000Z', srcIP: '10.0.0.1', query: 'cee.example.com', qtype: 'A' },
    ]);
  });
});
