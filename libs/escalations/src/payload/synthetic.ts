import { randomUUID } from 'node:crypto';
import type { Alert, OcsfDetectionFinding } from '@vigil/contracts';
import type { EscalationDestination } from '../destinations/destination';
import { alertItem, findingItem, type EscalationItem } from './escalation-item';

export const SYNTHETIC_DETECTION_ID = 'vigil:escalation_test';
/** A documentation address (RFC 5737): a synthetic finding never names a real host. */
const TEST_DEVICE_IP = '192.0.2.1';

/**
 * What `vigil escalations test` sends: a finding (or alert) of the destination's format and workspace that says
 * it is a test, at the destination's minimum severity so the filter a receiver sets up is exercised too.
 */
export function syntheticItem(destination: EscalationDestination, now = Date.now()): EscalationItem {
  const uid = `vigil-test-${randomUUID()}`;
  const severity = Math.max(1, destination.minSeverity);
  if (destination.format === 'alert') {
    const alert: Alert = {
      id: uid,
      eventType: 'dns',
      threats: ['escalation_test'],
      wisdom: { flags: ['test'] },
      event: { ts: new Date(now).toISOString(), srcIP: TEST_DEVICE_IP, query: 'escalation-test.invalid' },
      detections: [{ id: SYNTHETIC_DETECTION_ID, key: 'escalation-test.invalid', severity: severity as Alert['detections'][number]['severity'] }],
      mitreAttack: [],
    };
    const threats = { escalation_test: { title: 'Vigil escalation test (not a threat)', severity: severity as Alert['detections'][number]['severity'] } };
    return alertItem(destination.workspaceId, severity, now, alert, threats);
  }
  const seconds = Math.floor(now / 1000);
  const iso = new Date(seconds * 1000).toISOString();
  const title = 'Vigil escalation test (not a threat)';
  const finding: OcsfDetectionFinding = {
    activity_id: 1,
    activity_name: 'Create',
    category_uid: 2,
    category_name: 'Findings',
    class_uid: 2004,
    class_name: 'DetectionFinding',
    type_uid: 200401,
    type_name: 'DetectionFinding: Create',
    severity_id: severity,
    severity: ['Informational', 'Low', 'Medium', 'High', 'Critical'][severity - 1],
    status_id: 1,
    status: 'New',
    count: 1,
    message: `A synthetic finding sent by "vigil escalations test" to destination ${destination.name}`,
    time: seconds,
    time_dt: iso,
    metadata: {
      version: '1.2.0',
      uid: `${uid}:1`,
      product: { name: 'Vigil', vendor_name: 'Vigil' },
      profiles: ['datetime', 'host'],
      labels: ['test'],
      processed_time: seconds,
      processed_time_dt: iso,
    },
    finding_info: {
      uid,
      title,
      desc: 'Sent on request to check the destination; no telemetry raised it.',
      types: ['Test'],
      created_time: seconds,
      created_time_dt: iso,
      analytic: { type_id: 1, type: 'Rule', uid: SYNTHETIC_DETECTION_ID, name: title },
    },
    device: { type_id: 0, type: 'Unknown', ip: TEST_DEVICE_IP },
  };
  return findingItem(destination.workspaceId, `${uid}:1`, uid, severity, now, finding);
}
