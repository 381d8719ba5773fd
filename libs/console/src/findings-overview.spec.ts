import type { OcsfDetectionFinding } from '@vigil/contracts';
import { detectionIds, latestVersions, summarise } from './findings-overview';

function finding(uid: string, time: number, severity: number, ip: string, detections: string[]): OcsfDetectionFinding {
  return {
    class_uid: 2004,
    activity_id: 1,
    severity_id: severity,
    time,
    finding_info: { uid, title: uid },
    device: { ip },
    enrichments: [{ data: { aggregation: { key: { detections: detections.map((id) => ({ id, key: ip, severity })) } } } }],
  };
}

describe('findings overview', () => {
  const hour = Date.parse('2026-01-01T10:00:00Z') / 1000;
  const findings = [
    finding('a', hour + 10, 3, '10.0.0.1', ['dns_tunnel']),
    finding('a', hour + 20, 4, '10.0.0.1', ['dns_tunnel', 'dga']),
    finding('b', hour + 3700, 2, '10.0.0.2', ['dga']),
    finding('c', hour + 3800, 4, '10.0.0.1', ['oast']),
  ];

  it('keeps the latest version of each finding', () => {
    expect(latestVersions(findings).map((f) => [f.finding_info.uid, f.severity_id])).toEqual([
      ['a', 4],
      ['b', 2],
      ['c', 4],
    ]);
    expect(detectionIds(findings[1])).toEqual(['dns_tunnel', 'dga']);
  });

  it('counts per severity, detection, hour and host, next to the ingest rate it is given', () => {
    const ingest = [{ hour: '2026-01-01T10:00', events: 1200 }];
    expect(summarise(findings, true, ingest)).toEqual({
      total: 3,
      bySeverity: { '2': 1, '4': 2 },
      byDetection: { dga: 2, dns_tunnel: 1, oast: 1 },
      byHour: [
        { hour: '2026-01-01T10:00', count: 1 },
        { hour: '2026-01-01T11:00', count: 2 },
      ],
      topHosts: [
        { host: '10.0.0.1', count: 2 },
        { host: '10.0.0.2', count: 1 },
      ],
      ingestPerHour: ingest,
      truncated: true,
    });
  });
});
