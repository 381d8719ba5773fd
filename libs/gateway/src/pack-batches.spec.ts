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
});
