import { detectLogFormat } from '../detect';
import { createLogParser } from '../log-parser';
import type { RecordOutcome } from '../outcome';

function parse(format: 'route53-resolver' | 'gcp-cloud-dns', lines: string[]): RecordOutcome[] {
  const parser = createLogParser(format);
  return [...lines.flatMap((line) => parser.line(line)), ...parser.finish()];
}
const view = (outcomes: RecordOutcome[]) => outcomes.map((o) => (o.kind === 'events' ? o.events.map((e) => e.event) : o));

describe('Amazon Route 53 Resolver query logs', () => {
  const record = {
    version: '1.100000', account_id: '123456789012', region: 'eu-west-1', vpc_id: 'vpc-0a1b2c3d4e5f67890',
    query_timestamp: '2024-06-10T06:13:20Z', query_name: 'c2-beacon.example.net.', query_type: 'TXT', query_class: 'IN', rcode: 'NOERROR',
    answers: [{ Rdata: '"v=spf1 -all"', Type: 'TXT', Class: 'IN' }], srcaddr: '10.14.1.39', srcport: '53211', transport: 'UDP',
    srcids: { instance: 'i-0d15cd0d3e1a2b3c4' }, firewall_rule_action: 'ALERT',
  };

  it('is detected and maps name, type, source (srcport is a string) and the instance id', () => {
    const line = JSON.stringify(record);
    expect(detectLogFormat([line])).toBe('route53-resolver');
    expect(view(parse('route53-resolver', [line]))).toEqual([[{ ts: '2024-06-10T06:13:20.000Z', srcIP: '10.14.1.39', srcPort: 53211, srcID: 'i-0d15cd0d3e1a2b3c4', query: 'c2-beacon.example.net.', qtype: 'TXT' }]]);
  });

  it('reads records written back to back (Firehose) and rejects unusable ones', () => {
    const inbound = { ...record, srcaddr: '2001:db8::99', srcport: '0', srcids: { resolver_endpoint: 'rslvr-in-0123456789abcdef0' } };
    const lines = [JSON.stringify(record) + JSON.stringify(inbound), JSON.stringify({ ...record, query_name: '' }), JSON.stringify({ ...record, query_timestamp: 'yesterday' })];
    expect(view(parse('route53-resolver', lines))).toEqual([
      [expect.objectContaining({ srcIP: '10.14.1.39' })],
      [{ ts: '2024-06-10T06:13:20.000Z', srcIP: '2001:db8::99', srcID: 'rslvr-in-0123456789abcdef0', query: 'c2-beacon.example.net.', qtype: 'TXT' }],
      { kind: 'rejected', reason: 'missing_query' },
      { kind: 'rejected', reason: 'invalid_ts' },
    ]);
  });
});

describe('Google Cloud DNS query logs', () => {
  const entry = {
    insertId: '1wphyk5f1e0l8z', logName: 'projects/acme-prod/logs/dns.googleapis.com%2Fdns_queries', receiveTimestamp: '2024-06-10T06:13:21.104957361Z',
    resource: { type: 'dns_query', labels: { project_id: 'acme-prod', location: 'europe-west1', target_type: 'private-zone', target_name: 'corp-zone' } },
    severity: 'INFO', timestamp: '2024-06-10T06:13:20.987654321Z',
    jsonPayload: {
      authAnswer: true, protocol: 'UDP', queryName: 'db.corp.internal.', queryType: 'A', rdata: 'db.corp.internal.\t300\tIN\ta\t10.128.0.12', responseCode: 'NOERROR',
      serverLatency: 0, sourceIP: '10.128.0.5', sourceNetwork: 'default', vmInstanceId: 5403245614093837117, vmInstanceIdString: '5403245614093837117',
      vmInstanceName: '412931582938.web-1', vmProjectId: 'acme-prod', vmZoneName: 'europe-west1-b',
    },
  };

  it('is detected and maps the query entry, VM name and id', () => {
    const line = JSON.stringify(entry);
    expect(detectLogFormat([line])).toBe('gcp-cloud-dns');
    expect(view(parse('gcp-cloud-dns', [line]))).toEqual([[{ ts: '2024-06-10T06:13:20.987Z', srcIP: '10.128.0.5', srcHost: '412931582938.web-1', srcID: '5403245614093837117', query: 'db.corp.internal.', qtype: 'A' }]]);
  });

  it('reads a pretty-printed array export (gcloud logging read --format=json) and skips non-query entries', () => {
    const audit = { insertId: 'x', logName: 'projects/acme-prod/logs/cloudaudit.googleapis.com%2Factivity', timestamp: '2024-06-10T06:00:00Z', protoPayload: { methodName: 'dns.changes.create' } };
    const text = JSON.stringify([entry, audit, { ...entry, jsonPayload: { ...entry.jsonPayload, queryName: 'x.corp.internal.', sourceIP: 'fd20::5' } }], null, 2);
    const lines = text.split('\n');
    expect(detectLogFormat(lines.slice(0, 40))).toBe('gcp-cloud-dns');
    expect(view(parse('gcp-cloud-dns', lines))).toEqual([
      [expect.objectContaining({ query: 'db.corp.internal.' })],
      { kind: 'skipped', reason: 'not_a_dns_query_entry' },
      [expect.objectContaining({ query: 'x.corp.internal.', srcIP: 'fd20::5' })],
    ]);
  });

  it('rejects a truncated last entry without swallowing the next line', () => {
    const full = JSON.stringify(entry);
    expect(view(parse('gcp-cloud-dns', [full.slice(0, 80), full]))).toEqual([{ kind: 'rejected', reason: 'invalid_json' }, [expect.objectContaining({ query: 'db.corp.internal.' })]]);
    expect(view(parse('gcp-cloud-dns', [full.slice(0, 80)]))).toEqual([{ kind: 'rejected', reason: 'invalid_json' }]);
  });
});
