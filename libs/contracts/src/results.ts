import type { TelemetryEvent, TelemetryType } from './events';
import type { Wisdom, Severity } from './detections';

/** A legacy alert (GET /v1/alerts), one per scored event that raised at least one threat. */
export interface Alert {
  id: string;
  eventType: Exclude<TelemetryType, 'lease'>;
  threats: string[];
  wisdom: Wisdom;
  event: TelemetryEvent;
  detections: { id: string; key: string; severity: Severity }[];
  mitreAttack: string[];
}

/** OCSF 1.2.0 Detection Finding. Typed loosely: the JSON Schema in tests is the authority. */
export type OcsfDetectionFinding = Record<string, unknown> & {
  class_uid: 2004;
  activity_id: number;
  severity_id: number;
  time: number;
  finding_info: { uid: string; title: string; desc?: string; [k: string]: unknown };
};

/** Value of a record on `tlm.findings.v1`: one version (Create or Update) of a finding. */
export interface FindingRecord {
  workspaceId: string;
  /** Unique per version: `${findingUid}:${revision}`. Used for de-duplication downstream. */
  recordId: string;
  findingUid: string;
  severityId: number;
  /** Epoch milliseconds of this version. */
  time: number;
  finding: OcsfDetectionFinding;
}

/** Value of a record on `tlm.alerts.v1`. */
export interface AlertRecord {
  workspaceId: string;
  severity: Severity;
  /** Epoch milliseconds of the event that raised it. */
  time: number;
  alert: Alert;
}
