import { observeEvent } from '../observed-event';
import { batch, dnsEvent, httpEvent, T0 } from '../testing/fixtures';
import type { ObservedEvent } from '../detections/detection';
import { EventTableReader, EventTableWriter } from './event-table';
import { SnapshotError } from './snapshot';

const observe = (b: ReturnType<typeof batch>, i = 0) => observeEvent(b, i) as ObservedEvent;

describe('event table', () => {
  it('stores each event once and gives shared events back as one object', () => {
    const dns = observe(batch('b-1', 'dns', [dnsEvent('WWW.Example.COM.', T0, '10.0.0.5', { srcHost: 'Laptop-1' })]));
    const http = observe(batch('b-2', 'http', [httpEvent('https://shop.example.org/x', T0 + 5)]));
    // As the engine does after lease attribution: a new endpoint, the event with srcHost added.
    http.endpoint = { ip: '10.0.0.5', host: 'pc-7', mac: 'aa:bb:cc:dd:ee:ff', id: 'host:pc-7' };
    const writer = new EventTableWriter();
    const refs = [writer.observed(dns), writer.observed(http), writer.observed(dns)];
    expect(refs).toEqual([0, 1, 0]);
    const reader = new EventTableReader(JSON.parse(JSON.stringify(writer.table())));
    const [a, b, c] = refs.map((r) => reader.observed(r, 'ref'));
    expect(a).toEqual(dns);
    expect(b).toEqual(http);
    expect(c).toBe(a);
    expect(a.hostname).toBe('www.example.com');
    expect(a.rawHostname).toBe('WWW.Example.COM');
    expect(a.endpoint.id).toBe('host:laptop-1');
  });

  it('gives every observed event, of any type and read back from a table, the same fields in the same order', () => {
    const dns = observe(batch('b-1', 'dns', [dnsEvent('www.example.com', T0)]));
    const http = observe(batch('b-2', 'http', [httpEvent('https://shop.example.org/x', T0)]));
    const ip = observe(batch('b-3', 'ip', [{ ts: new Date(T0).toISOString(), srcIP: '10.0.0.5', destIP: '203.0.113.9', destPort: 443 }]));
    const writer = new EventTableWriter();
    const refs = [writer.observed(dns), writer.observed(http), writer.observed(ip)];
    const reader = new EventTableReader(JSON.parse(JSON.stringify(writer.table())));
    const shapes = [dns, http, ip, ...refs.map((r) => reader.observed(r, 'ref'))].map((o) => Object.keys(o).join(','));
    expect(new Set(shapes).size).toBe(1);
    expect(shapes[0]).toBe('workspaceId,batchId,index,type,event,timeMs,endpoint,hostname,rawHostname,urlPath');
  });

  it('stores field names once per field list, and a "__proto__" field as data', () => {
    const writer = new EventTableWriter();
    const event = JSON.parse('{"ts":"t","srcIP":"10.0.0.1","__proto__":{"polluted":true},"skip":null}') as object;
    writer.event(event);
    writer.event({ ts: 'u', srcIP: '10.0.0.2', gone: undefined });
    const table = JSON.parse(JSON.stringify(writer.table()));
    expect(table.k).toEqual([['ts', 'srcIP', '__proto__', 'skip'], ['ts', 'srcIP']]);
    const reader = new EventTableReader(table);
    const back = reader.event(0, 'e') as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(back).toEqual(event);
    expect(reader.event(1, 'e')).toEqual({ ts: 'u', srcIP: '10.0.0.2' });
  });

  it('keeps an endpoint id that is not derivable (host learned after the finding opened)', () => {
    const o = observe(batch('b-3', 'dns', [dnsEvent('a.example', T0)]));
    o.endpoint = { ip: '10.0.0.5', host: 'late', id: '10.0.0.5' };
    const writer = new EventTableWriter();
    writer.observed(o);
    expect(new EventTableReader(JSON.parse(JSON.stringify(writer.table()))).observed(0, 'x').endpoint).toEqual(o.endpoint);
  });

  it('rejects dangling references and malformed tables with a SnapshotError', () => {
    const reader = new EventTableReader({ s: ['ws'], k: [[]], e: [[0]], o: [[0, 5, 0, 'dns', 0, T0, '10.0.0.1']] });
    expect(() => reader.observed(0, 'ev')).toThrow(/events.o\[0\].batch: expected a string reference/);
    expect(() => reader.observed(3, 'ev')).toThrow(SnapshotError);
    expect(() => reader.event(-1, 'ev')).toThrow(SnapshotError);
    expect(() => new EventTableReader({ s: [], k: [['a', 'b']], e: [[0, 1]], o: [] }).event(0, 'ev')).toThrow(/values for a known field list/);
    expect(() => new EventTableReader({ s: 'x', k: [], e: [], o: [] })).toThrow(SnapshotError);
    expect(() => new EventTableReader({ s: [], k: [], e: [], o: [[0, 0, 0, 'smtp']] }).observed(0, 'ev')).toThrow(SnapshotError);
  });
});
