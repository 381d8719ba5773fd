import type { DnsEvent, TelemetryBatch } from '@vigil/contracts';
import { murmur2Partition } from '@vigil/bus';
import { packTelemetryRecords } from './pack-batches';

const dns = (srcIP: string, query: string): DnsEvent => ({ ts: '2026-01-01T00:00:00.000Z', srcIP, query });

describe('packTelemetryRecords', () => {
  it('groups events by the partition of their (workspace, source IP) key, keeping each host\'s order', () => {
    const events = [dns('10.0.0.1', 'a.com'), dns('10.0.0.2', 'b.com'), dns('10.0.0.1', 'c.com')];
    expect(murmur2Partition('ws|10.0.0.1', 12)).not.toBe(murmur2Partition('ws|10.0.0.2', 12));
    const records = packTelemetryRecords('ws', 'dns', events, 1000, { requestId: 'req' });
    expect(records.map((r) => r.key)).toEqual(['ws|10.0.0.1', 'ws|10.0.0.2']);
    const first = JSON.parse(records[0].value.toString()) as TelemetryBatch;
    expect(first.events.map((e) => (e as DnsEvent).query)).toEqual(['a.com', 'c.com']);
    expect(first).toMatchObject({ v: 1, workspaceId: 'ws', type: 'dns', receivedAt: 1000 });
    expect(new Set(records.map((r) => (JSON.parse(r.value.toString()) as TelemetryBatch).batchId)).size).toBe(2);
  });

  it('puts every host of one partition into one record keyed to that partition', () => {
    const hosts = Array.from({ length: 2000 }, (_, i) => `10.1.${i >> 8}.${i & 255}`);
    const records = packTelemetryRecords('ws', 'dns', hosts.map((ip) => dns(ip, 'a.com')), 0, { requestId: 'req', partitions: 12 });
    expect(records).toHaveLength(12);
    for (const record of records) {
      const partition = murmur2Partition(record.key, 12);
      const batch = JSON.parse(record.value.toString()) as TelemetryBatch;
      expect(batch.events.every((e) => murmur2Partition(`ws|${e.srcIP}`, 12) === partition)).toBe(true);
    }
    expect(records.reduce((n, r) => n + (JSON.parse(r.value.toString()) as TelemetryBatch).events.length, 0)).toBe(2000);
  });

  it('splits a large group into records under the size cap without losing events', () => {
    const events = Array.from({ length: 5000 }, (_, i) => dns('10.0.0.9', `${'x'.repeat(60)}${i}.example.com`));
    const records = packTelemetryRecords('ws', 'dns', events, 0);
    expect(records.length).toBeGreaterThan(1);
    expect(records.every((r) => r.value.length < 300 * 1024)).toBe(true);
    const total = records.reduce((n, r) => n + (JSON.parse(r.value.toString()) as TelemetryBatch).events.length, 0);
    expect(total).toBe(5000);
  });

  it('writes each record as the batch JSON of its events, byte-exact across packers that reuse scratch space', () => {
    const words = ['a', 'ü', '日本', '😀', 'x'.repeat(300)];
    for (let round = 0; round < 3; round++) {
      const events = Array.from({ length: 3000 }, (_, i) => dns(`10.2.${i % 7}.${round}`, `${words[(i + round) % words.length].repeat(1 + (i % 5))}.example`));
      const records = packTelemetryRecords('ws', 'dns', events, 42 + round, { requestId: `r${round}` });
      const batches = records.map((r) => JSON.parse(r.value.toString('utf8')) as TelemetryBatch);
      for (const [i, batch] of batches.entries()) {
        expect(records[i].value.toString('utf8')).toBe(JSON.stringify(batch));
        expect(batch).toEqual({ v: 1, workspaceId: 'ws', type: 'dns', batchId: records[i].headers?.batchId, receivedAt: 42 + round, events: batch.events });
        expect(records[i].headers?.events).toBe(String(batch.events.length));
        expect(records[i].value.length).toBeLessThan(256 * 1024 + 1024);
      }
      // Every event once, each host's in order.
      const packed = batches.flatMap((b) => b.events as DnsEvent[]);
      expect(packed).toHaveLength(events.length);
      for (const host of new Set(events.map((e) => e.srcIP))) {
        expect(packed.filter((e) => e.srcIP === host)).toEqual(events.filter((e) => e.srcIP === host));
      }
    }
  });

  it('gives an event larger than the record cap a record of its own, and packs the events around it as usual', () => {
    const events = [dns('10.0.0.9', 'before.example'), dns('10.0.0.9', `${'y'.repeat(400_000)}.example`), dns('10.0.0.9', 'after.example')];
    const records = packTelemetryRecords('ws', 'dns', events, 0);
    const batches = records.map((r) => JSON.parse(r.value.toString('utf8')) as TelemetryBatch);
    expect(batches.map((b) => b.events.length)).toEqual([1, 1, 1]);
    expect(batches.flatMap((b) => b.events)).toEqual(events);
    // The scratch made for the large event is not kept: later records are written as usual.
    expect(JSON.parse(packTelemetryRecords('ws', 'dns', [dns('10.0.0.1', 'next.example')], 0)[0].value.toString()).events).toEqual([dns('10.0.0.1', 'next.example')]);
  });
});
