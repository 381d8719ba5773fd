import { detectLogFormat } from '../detect';
import { bindQueryEvent } from './bind-query-log';

const now = new Date('2024-06-10T12:00:00Z');
const eventOf = (line: string) => {
  const outcome = bindQueryEvent(line, now);
  if (outcome.kind !== 'events') throw new Error(JSON.stringify(outcome));
  return outcome.events[0].event;
};

describe('BIND query log lines', () => {
  it('reads lines with BIND\'s own timestamp and category prefix', () => {
    const line = '10-Jun-2024 06:13:20.123 queries: info: client @0x7f5c3c0e9a00 10.0.0.1#53211 (example.com): query: example.com IN A +E(0)K (10.0.0.53)';
    expect(detectLogFormat([line])).toBe('bind-query');
    expect(eventOf(line)).toEqual({ ts: '2024-06-10T06:13:20.123Z', srcIP: '10.0.0.1', srcPort: 53211, query: 'example.com', qtype: 'A' });
  });

  it('reads lines without a timestamp, with a view, IPv6 clients, old BIND without @0x and ISO 8601 time', () => {
    expect(eventOf('client @0x7f5c3c0e9a00 10.0.0.1#53211 (example.com): query: example.com IN A +E(0)K (10.0.0.53)')).toEqual({ ts: undefined, srcIP: '10.0.0.1', srcPort: 53211, query: 'example.com', qtype: 'A' });
    expect(eventOf('queries: info: client @0x55d1 2001:db8::7#40001 (x.example.org): view internal: query: x.example.org IN AAAA -EDC (2001:db8::53)')).toMatchObject({ srcIP: '2001:db8::7', srcPort: 40001, query: 'x.example.org', qtype: 'AAAA' });
    expect(eventOf('client 192.168.1.9#1024: query: old.example.net IN MX + (192.168.1.1)')).toMatchObject({ srcIP: '192.168.1.9', query: 'old.example.net', qtype: 'MX' });
    expect(eventOf('2024-06-10T06:13:20.500Z queries: info: client @0x1 10.0.0.2#5300 (t.example): query: t.example IN TXT + (10.0.0.53)')).toMatchObject({ ts: '2024-06-10T06:13:20.500Z' });
  });

  it('reads syslog-prefixed lines, taking the year that does not put them in the future', () => {
    expect(eventOf('Jun 10 06:13:20 ns1 named[812]: client @0x7f 10.0.0.3#600 (a.example): query: a.example IN A + (10.0.0.53)')).toMatchObject({ ts: '2024-06-10T06:13:20.000Z' });
    expect(eventOf('Dec 31 23:59:59 ns1 named[812]: client @0x7f 10.0.0.3#600 (a.example): query: a.example IN A + (10.0.0.53)')).toMatchObject({ ts: '2023-12-31T23:59:59.000Z' });
  });

  it('skips other categories and rejects query lines it cannot read', () => {
    expect(bindQueryEvent('10-Jun-2024 06:13:20.123 general: info: zone example.com/IN: loaded serial 2024061001', now)).toEqual({ kind: 'skipped', reason: 'not_a_query_line' });
    expect(bindQueryEvent('10-Jun-2024 06:13:20.123 queries: info: client @0x1 garbage: query: (truncated', now)).toEqual({ kind: 'rejected', reason: 'unparsed_query_line' });
    expect(bindQueryEvent('99-Foo-2024 06:13:20.123 client @0x1 10.0.0.1#1 (a.b): query: a.b IN A + (10.0.0.53)', now)).toEqual({ kind: 'rejected', reason: 'invalid_ts' });
  });
});
