import type { Alert, AlertRecord, FindingRecord, OcsfDetectionFinding, ThreatDictionary } from '@vigil/contracts';
import { THREAT_DICTIONARY } from '@vigil/detection-engine';
import { ALERTS_TABLE, FINDINGS_TABLE } from '@vigil/findings';
import type { EscalationFormat } from '../destinations/destination';

/** The body of an `alert` escalation: the shape of a `GET /v1/alerts` page without its paging fields. */
export interface AlertEscalationBody {
  alerts: [Alert];
  threats: ThreatDictionary;
}

/** One finding version or alert, ready for any transport. */
export type EscalationItem =
  | (ItemCommon & { source: 'finding'; body: OcsfDetectionFinding })
  | (ItemCommon & { source: 'alert'; body: AlertEscalationBody });

interface ItemCommon {
  workspaceId: string;
  /**
   * Stable for one finding version or alert across every delivery attempt and redelivery:
   * `<finding uid>:<revision>` (the finding's `metadata.uid`), or the alert id.
   */
  idempotencyKey: string;
  /** Orders a finding's versions onto one Kafka partition: the finding uid, or the alert id. */
  orderingKey: string;
  /** 1–5. */
  severity: number;
  /** Epoch milliseconds of the finding version or of the alert's event. */
  time: number;
  /** The delivered JSON (webhook body, Kafka value, syslog JSON message). */
  json: string;
}

/** The threat definitions an alert names, as `GET /v1/alerts` gives them. */
export function threatsOf(alert: Alert): ThreatDictionary {
  const threats: ThreatDictionary = {};
  for (const id of alert.threats) threats[id] = THREAT_DICTIONARY[id] ?? { title: id, severity: 3 };
  return threats;
}

/**
 * Reads a `tlm.findings.v1` or `tlm.alerts.v1` record value the way the findings store does (same checks), so a
 * destination receives exactly what `GET /v1/findings?schema=ocsf` or `GET /v1/alerts` serve.
 * Throws for a record the store would refuse as well.
 */
export function itemFromRecord(format: EscalationFormat, value: Buffer): EscalationItem {
  const parsed: unknown = JSON.parse(value.toString('utf8'));
  if (format === 'ocsf') {
    const stored = FINDINGS_TABLE.describe(parsed as FindingRecord);
    const finding = stored.body as OcsfDetectionFinding;
    return findingItem(stored.workspaceId, stored.recordId, String((parsed as FindingRecord).findingUid ?? finding.finding_info?.uid ?? stored.recordId), stored.severity, stored.time, finding);
  }
  const stored = ALERTS_TABLE.describe(parsed as AlertRecord);
  return alertItem(stored.workspaceId, stored.severity, stored.time, stored.body as Alert);
}

export function findingItem(workspaceId: string, recordId: string, findingUid: string, severity: number, time: number, finding: OcsfDetectionFinding): EscalationItem {
  return { source: 'finding', workspaceId, idempotencyKey: recordId, orderingKey: findingUid, severity, time, body: finding, json: JSON.stringify(finding) };
}

export function alertItem(workspaceId: string, severity: number, time: number, alert: Alert, threats: ThreatDictionary = threatsOf(alert)): EscalationItem {
  const body: AlertEscalationBody = { alerts: [alert], threats };
  return { source: 'alert', workspaceId, idempotencyKey: alert.id, orderingKey: alert.id, severity, time, body, json: JSON.stringify(body) };
}
