import type { DnsEvent, TelemetryBatch } from '@vigil/contracts';
import { packTelemetryRecords } from './pack-batches';

const dns = (srcIP: string, query: string): DnsEvent => ({ ts: '2026-01-01T00:00:00.000Z', srcIP, query });

describe('packTelemetryRecords', () => {
  it('groups events by workspace and source IP, keeping their order', () => {
    const events = [dns('10.0.0.1', 'a.com'), dns('10.0.0.2', 'b.com'), dns('10.0.0.1', 'c.com')];
    const records = packTelemetryRecords('ws', 'dns', events, 1000, 'req');
    expect(records.map((r) => r.key)).toEqual(['ws|10.0.0.1', 'ws|10.0.0.2']);
    const first = JSON.parse(records[0].value.toString()) as TelemetryBatch;
    expect(first.events.map((e) => (e as DnsEvent).query)).toEqual(['a.com', 'c.com']);
    expect(first).toMatchObject({ v: 1, workspaceId: 'ws', type: 'dns', receivedAt: 1000 });
    expect(new Set(records.map((r) => (JSON.parse(r.value.toString()) as TelemetryBatch).batchId)).size).toBe(2);
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
