/* Test fixtures of this lib (not exported from the lib). */
import type { BusRecord } from '@vigil/bus';
import type { AlertRecord, FindingRecord, OcsfDetectionFinding, Severity } from '@vigil/contracts';
import type { EscalationDestination, EscalationTarget } from '../destinations/destination';

/** A finding version as the scoring engine publishes it on `tlm.findings.v1`. */
export function findingRecord(workspaceId: string, uid: string, options: { revision?: number; severity?: number; ip?: string; time?: number } = {}): FindingRecord {
  const revision = options.revision ?? 1;
  const severity = options.severity ?? 4;
  const time = options.time ?? Date.now();
  const seconds = Math.floor(time / 1000);
  const finding: OcsfDetectionFinding = {
    activity_id: revision === 1 ? 1 : 2,
    activity_name: revision === 1 ? 'Create' : 'Update',
    category_uid: 2,
    class_uid: 2004,
    type_uid: revision === 1 ? 200401 : 200402,
    severity_id: severity,
    time: seconds,
    start_time: seconds - 60,
    end_time: seconds,
    count: 3,
    message: 'DNS tunnelling | exfil=yes\\path',
    metadata: { version: '1.2.0', uid: `${uid}:${revision}`, product: { name: 'Vigil', vendor_name: 'Vigil' } },
    finding_info: {
      uid,
      title: 'DNS tunnelling to tunnel.example',
      types: ['dns_tunnel'],
      analytic: { type_id: 1, type: 'Rule', uid: 'dns_tunnel', name: 'DNS tunnelling' },
      attacks: [{ technique: { uid: 'T1071.004' }, tactic: { uid: 'TA0011' } }],
    },
    device: { type_id: 0, ip: options.ip ?? '10.0.0.5', hostname: 'wks-5' },
    evidences: [{ query: { hostname: 'a1b2.tunnel.example' }, dst_endpoint: { ip: '198.51.100.53', port: 53 } }],
  };
  return { workspaceId, recordId: `${uid}:${revision}`, findingUid: uid, severityId: severity, time, finding };
}

export function alertRecord(workspaceId: string, id: string, severity: Severity = 4): AlertRecord {
  return {
    workspaceId,
    severity,
    time: Date.now(),
    alert: {
      id,
      eventType: 'dns',
      threats: ['multiple_long_hostnames'],
      wisdom: { flags: ['tunnel'] },
      event: { ts: new Date().toISOString(), srcIP: '10.0.0.7', query: 'x.tunnel.example' },
      detections: [{ id: 'dns_tunnel', key: 'tunnel.example', severity }],
      mitreAttack: ['TA0011:T1071.004'],
    },
  };
}

export function busRecord(record: FindingRecord | AlertRecord): BusRecord {
  return { key: record.workspaceId, value: Buffer.from(JSON.stringify(record)) };
}

/** A complete destination (as the registry would create it), for transport and worker tests. */
export function destinationFor(target: EscalationTarget, overrides: Partial<EscalationDestination> = {}): EscalationDestination {
  return {
    id: '00000000-0000-4000-8000-00000000e5c1',
    workspaceId: 'ws-1',
    name: 'test-destination',
    format: 'ocsf',
    minSeverity: 1,
    createdAt: new Date(0).toISOString(),
    retry: { maxAttempts: 5, initialBackoffMs: 20, maxBackoffMs: 200 },
    target,
    ...overrides,
  };
}
