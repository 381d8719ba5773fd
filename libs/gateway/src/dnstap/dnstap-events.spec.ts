import * as dnsPacket from 'dns-packet';
import { DnstapEventMapper, addressOf } from './dnstap-events';
import { DnstapDecodeError, MESSAGE_TYPE, decodeDnstap, type DnstapMessage } from './dnstap-message';
import { dnstapPayload } from './testing/dnstap-frames';

const T = Date.parse('2026-03-01T10:15:30.250Z');

function message(overrides: Partial<DnstapMessage> = {}): DnstapMessage {
  return {
    type: MESSAGE_TYPE.CLIENT_QUERY,
    queryAddress: Buffer.from([10, 1, 2, 3]),
    queryPort: 41000,
    queryTimeSec: Math.floor(T / 1000),
    queryTimeNsec: 250_000_000,
    queryMessage: dnsPacket.encode({ type: 'query', id: 1, questions: [{ type: 'TXT', name: 'x1.tunnel.example.com' }] }),
    ...overrides,
  };
}

describe('dnstap → dnsEvent mapping', () => {
  it('decodes a dnstap protobuf (encoded from dnstap.proto) and maps a CLIENT_QUERY', () => {
    const decoded = decodeDnstap(dnstapPayload({ srcIP: '10.20.30.40', srcPort: 5353, name: 'Www.Example.COM', qtype: 'AAAA', time: T }));
    expect(decoded).toMatchObject({ type: MESSAGE_TYPE.CLIENT_QUERY, queryPort: 5353, queryTimeSec: Math.floor(T / 1000), queryTimeNsec: 250_000_000 });
    expect(new DnstapEventMapper().map(decoded!)).toEqual({
      kind: 'events',
      events: [{ ts: '2026-03-01T10:15:30.250Z', srcIP: '10.20.30.40', srcPort: 5353, query: 'Www.Example.COM', qtype: 'AAAA' }],
    });
  });

  it('maps RESOLVER_QUERY, AUTH_QUERY and FORWARDER_QUERY the same way, and skips stub, tool and update messages', () => {
    for (const type of [MESSAGE_TYPE.RESOLVER_QUERY, MESSAGE_TYPE.AUTH_QUERY, MESSAGE_TYPE.FORWARDER_QUERY]) {
      expect(new DnstapEventMapper().map(message({ type }))).toEqual({ kind: 'events', events: [{ ts: '2026-03-01T10:15:30.250Z', srcIP: '10.1.2.3', srcPort: 41000, query: 'x1.tunnel.example.com', qtype: 'TXT' }] });
    }
    for (const type of [9, 10, 11, 13]) expect(new DnstapEventMapper().map(message({ type }))).toEqual({ kind: 'skipped', reason: 'message_type' });
  });

  it('counts a lookup once: responses are skipped once queries of the same family were seen, else mapped', () => {
    const response = message({ type: MESSAGE_TYPE.CLIENT_RESPONSE, queryMessage: undefined, responseMessage: dnsPacket.encode({ type: 'response', id: 1, questions: [{ type: 'MX', name: 'mail.example.org' }] }) });
    const mapper = new DnstapEventMapper();
    // A sender that logs only responses is heard, with the question from the response.
    expect(mapper.map(response)).toMatchObject({ kind: 'events', events: [{ query: 'mail.example.org', qtype: 'MX', srcIP: '10.1.2.3' }] });
    expect(mapper.map(message())).toMatchObject({ kind: 'events' });
    expect(mapper.map(response)).toEqual({ kind: 'skipped', reason: 'response_of_logged_query' });
    // Resolver responses are another family: still mapped.
    expect(mapper.map({ ...response, type: MESSAGE_TYPE.RESOLVER_RESPONSE })).toMatchObject({ kind: 'events' });
    // Time: the query time, else the response time.
    expect(new DnstapEventMapper().map({ ...response, queryTimeSec: undefined, responseTimeSec: 1_700_000_000, responseTimeNsec: 5_000_000 })).toMatchObject({ events: [{ ts: '2023-11-14T22:13:20.005Z' }] });
  });

  it('gives every question its event, unknown qtypes as numbers (named by the intake), and IPv6 addresses in canonical form', () => {
    const wire = dnsPacket.encode({ type: 'query', id: 2, questions: [{ type: 'A', name: 'a.example' }, { type: 'A', name: 'b.example' }] });
    wire.writeUInt16BE(65, wire.length - 4); // the last question's type: HTTPS, which dns-packet does not name
    const v6 = Buffer.from('20010db8000000000000000000000053', 'hex');
    expect(new DnstapEventMapper().map(message({ queryMessage: wire, queryAddress: v6, queryPort: 0, queryTimeSec: undefined }))).toEqual({
      kind: 'events',
      events: [
        { srcIP: '2001:db8::53', query: 'a.example', qtype: 'A' },
        { srcIP: '2001:db8::53', query: 'b.example', qtype: 65 },
      ],
    });
    expect(addressOf(Buffer.from('00000000000000000000ffff0a000005', 'hex'))).toBe('10.0.0.5');
    expect(addressOf(Buffer.alloc(16))).toBe('::');
  });

  it('rejects messages without a usable DNS message or address, and refuses payloads that are not dnstap', () => {
    const mapper = new DnstapEventMapper();
    expect(mapper.map(message({ queryMessage: undefined }))).toEqual({ kind: 'rejected', reason: 'missing_dns_message' });
    expect(mapper.map(message({ queryMessage: Buffer.from([1, 2, 3]) }))).toEqual({ kind: 'rejected', reason: 'invalid_dns_message' });
    expect(mapper.map(message({ queryMessage: dnsPacket.encode({ type: 'query', id: 3, questions: [] }) }))).toEqual({ kind: 'rejected', reason: 'no_question' });
    expect(mapper.map(message({ queryAddress: Buffer.from([1, 2, 3]) }))).toEqual({ kind: 'rejected', reason: 'invalid_query_address' });
    expect(() => decodeDnstap(Buffer.from('GET / HTTP/1.1\r\n'))).toThrow(DnstapDecodeError);
    expect(() => decodeDnstap(Buffer.from([0x0a, 0x01, 0x41]))).toThrow(/missing required 'type'/);
  });
});
