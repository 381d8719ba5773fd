import { FindingAggregator, type FindingVersion } from '../aggregation/finding-aggregator';
import { OastDomainDetector } from '../detections/oast/oast-domain';
import { observeEvent } from '../observed-event';
import { assertValidOcsfFinding as assertValidOcsf } from '@vigil/testing';
import { batch, dnsEvent, httpEvent, T0 } from '../testing/fixtures';
import { buildDetectionFinding } from './finding-builder';

const oast = new OastDomainDetector();

function versionsFor(events: ReturnType<typeof observeEvent>[], batchId = 'batch-1', receivedAt = T0 + 60_000): FindingVersion[] {
  const aggregator = new FindingAggregator(100);
  for (const observed of events) {
    const hit = oast.inspect(observed!);
    if (hit) aggregator.add(observed!.workspaceId, observed!.endpoint, hit, batchId);
  }
  return aggregator.flush(receivedAt);
}

describe('buildDetectionFinding', () => {
  const dnsBatch = batch('batch-1', 'dns', [
    dnsEvent('a1.oast.fun', T0 + 1500, '10.1.1.1', { srcHost: 'build-07', qtype: 'TXT' }),
    dnsEvent('a2.oast.fun', T0 + 9999, '10.1.1.1', { srcHost: 'build-07' }),
  ]);
  const [version] = versionsFor([observeEvent(dnsBatch, 0), observeEvent(dnsBatch, 1)]);
  const finding = buildDetectionFinding(version, { processedMs: T0 + 61_234 });

  it('is a valid OCSF 1.2.0 Detection Finding', () => {
    assertValidOcsf(finding);
  });

  it('fills the class, activity and severity fields', () => {
    expect(finding).toMatchObject({
      category_uid: 2,
      category_name: 'Findings',
      class_uid: 2004,
      class_name: 'DetectionFinding',
      activity_id: 1,
      activity_name: 'Create',
      type_uid: 200401,
      type_name: 'DetectionFinding: Create',
      severity_id: 4,
      severity: 'High',
      status_id: 1,
      count: 2,
    });
  });

  it('writes times as integer epoch seconds with ISO siblings and declares the datetime profile', () => {
    expect(finding.time).toBe(Math.floor((T0 + 60_000) / 1000));
    expect(finding.start_time).toBe(Math.floor((T0 + 1500) / 1000));
    expect(finding.end_time).toBe(Math.floor((T0 + 9999) / 1000));
    expect(finding.end_time_dt).toBe('2026-11-21T10:00:09.000Z');
    expect(finding.time_dt).toBe('2026-11-21T10:01:00.000Z');
    const metadata = finding.metadata as Record<string, unknown>;
    expect(metadata).toMatchObject({
      version: '1.2.0',
      product: { name: 'Vigil', vendor_name: 'Vigil' },
      processed_time: Math.floor((T0 + 61_234) / 1000),
      log_name: 'dns',
      uid: `${version.uid}:1`,
    });
    expect(metadata.profiles).toEqual(expect.arrayContaining(['datetime', 'host']));
    expect(finding.finding_info.created_time).toBe(finding.time);
    for (const key of ['time', 'start_time', 'end_time']) expect(Number.isInteger(finding[key])).toBe(true);
  });

  it('describes the device, the observables, the attacks and the aggregation', () => {
    expect(finding.device).toEqual({ type_id: 0, type: 'Unknown', ip: '10.1.1.1', hostname: 'build-07' });
    expect(finding.observables).toEqual([
      { name: 'device.ip', type_id: 2, type: 'IP Address', value: '10.1.1.1' },
      { name: 'device.hostname', type_id: 1, type: 'Hostname', value: 'build-07' },
      { name: 'evidences[0].query.hostname', type_id: 1, type: 'Hostname', value: 'a1.oast.fun' },
      { name: 'evidences[1].query.hostname', type_id: 1, type: 'Hostname', value: 'a2.oast.fun' },
    ]);
    expect(finding.finding_info.attacks).toEqual([
      { tactic: { uid: 'TA0001', name: 'Initial Access' }, technique: { uid: 'T1190', name: 'Exploit Public-Facing Application' }, version: 'v17' },
      { tactic: { uid: 'TA0011', name: 'Command and Control' }, technique: { uid: 'T1071', name: 'Application Layer Protocol' }, version: 'v17' },
    ]);
    const [enrichment] = finding.enrichments as Record<string, any>[];
    expect(enrichment).toMatchObject({ name: 'aggregation', type: 'vigil.aggregation', value: version.keyHash });
    expect(enrichment.value).toMatch(/^[0-9a-f]{64}$/);
    expect(enrichment.data.aggregation).toEqual({
      key: {
        workspaceID: 'ws-test',
        srcIP: '10.1.1.1',
        detections: [
          {
            id: 'oast_domain',
            key: 'oast.fun',
            severity: 4,
            observations: ['service interactsh', 'dns a2.oast.fun'],
            mitreAttack: ['TA0001:T1190', 'TA0011:T1071'],
            threat: 'oast_interaction',
          },
        ],
      },
      keyHash: version.keyHash,
      batchIDs: ['batch-1'],
    });
  });

  it('shapes DNS evidence', () => {
    expect((finding.evidences as unknown[])[0]).toEqual({
      data: {
        type: 'dns',
        ts: '2026-11-21T10:00:01.500Z',
        srcIP: '10.1.1.1',
        srcPort: 53000,
        srcHost: 'build-07',
        body: { fqdn: 'a1.oast.fun', qtype: 'TXT' },
        wisdom: { flags: ['oast'], labels: ['oast:interactsh'], domain: 'oast.fun' },
      },
      query: { hostname: 'a1.oast.fun', type: 'TXT' },
      src_endpoint: { ip: '10.1.1.1', port: 53000, hostname: 'build-07' },
    });
  });

  it('shapes HTTP evidence and stays valid without a source IP or port', () => {
    const httpBatch = batch('batch-h', 'http', [
      httpEvent('https://x.oastify.com/cb?id=1', T0, undefined, { srcIP: undefined, srcPort: 70000, srcHost: 'web-1', status: 200, userAgent: 'curl/8' }),
    ]);
    const [v] = versionsFor([observeEvent(httpBatch, 0)], 'batch-h');
    const f = buildDetectionFinding(v, { processedMs: T0 });
    assertValidOcsf(f);
    expect(f.device).toEqual({ type_id: 0, type: 'Unknown', hostname: 'web-1' });
    expect((f.evidences as unknown[])[0]).toEqual({
      data: {
        type: 'http',
        ts: '2026-11-21T10:00:00.000Z',
        srcHost: 'web-1',
        body: { url: 'https://x.oastify.com/cb?id=1', host: 'x.oastify.com', method: 'GET', status: 200, userAgent: 'curl/8' },
        wisdom: { flags: ['oast'], labels: ['oast:burp-collaborator'], domain: 'oastify.com' },
      },
      src_endpoint: { hostname: 'web-1' },
      dst_endpoint: { hostname: 'x.oastify.com' },
    });
    expect(f.observables).toEqual([
      { name: 'device.hostname', type_id: 1, type: 'Hostname', value: 'web-1' },
      { name: 'evidences[0].dst_endpoint.hostname', type_id: 1, type: 'Hostname', value: 'x.oastify.com' },
    ]);
  });

  it('omits the device when the endpoint is unknown', () => {
    const anonymous = batch('batch-a', 'dns', [{ ts: new Date(T0).toISOString(), query: 'z.oast.me' }]);
    const [v] = versionsFor([observeEvent(anonymous, 0)], 'batch-a');
    const f = buildDetectionFinding(v, { processedMs: T0 });
    assertValidOcsf(f);
    expect(f.device).toBeUndefined();
    expect(f.observables).toEqual([{ name: 'evidences[0].query.hostname', type_id: 1, type: 'Hostname', value: 'z.oast.me' }]);
  });
});

describe('assertValidOcsf', () => {
  it('rejects findings that break the schema (so passing means something)', () => {
    const dnsBatch = batch('batch-x', 'dns', [dnsEvent('q.oast.site', T0)]);
    const [v] = versionsFor([observeEvent(dnsBatch, 0)], 'batch-x');
    const good = buildDetectionFinding(v, { processedMs: T0 });
    const noDatetimeProfile = { ...good, metadata: { ...(good.metadata as object), profiles: ['host'] } };
    expect(() => assertValidOcsf(noDatetimeProfile)).toThrow(/valid OCSF/);
    expect(() => assertValidOcsf({ ...good, type_uid: 200402 })).toThrow(/valid OCSF/);
    expect(() => assertValidOcsf({ ...good, time: '2026-01-01' })).toThrow(/time/);
    expect(() => assertValidOcsf({ ...good, unknown_field: 1 })).toThrow(/additional/);
  });
});
