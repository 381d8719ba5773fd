/**
 * Bus topics. Names, partitioning and cleanup follow docs/architecture (README): one events topic for all
 * five types keyed by `${workspaceId}|${srcIP}` so that a host's events stay in order on one consumer.
 */
export interface TopicSpec {
  name: string;
  partitions: number;
  /** `compact` keeps the latest record per key forever; `delete` drops records past retention. */
  cleanup: 'delete' | 'compact';
  retentionHours?: number;
  /** Largest record batch the broker accepts for this topic (Kafka max.message.bytes); default the bus's. */
  maxMessageBytes?: number;
}

export const TOPICS = {
  events: { name: 'tlm.events.v1', partitions: 12, cleanup: 'delete', retentionHours: 72 },
  findings: { name: 'tlm.findings.v1', partitions: 6, cleanup: 'delete', retentionHours: 168 },
  alerts: { name: 'tlm.alerts.v1', partitions: 6, cleanup: 'delete', retentionHours: 168 },
  deadLetter: { name: 'tlm.dlq.v1', partitions: 1, cleanup: 'delete', retentionHours: 168 },
  apiKeys: { name: 'ctl.api-keys.v1', partitions: 1, cleanup: 'compact' },
  workspaces: { name: 'ctl.workspaces.v1', partitions: 1, cleanup: 'compact' },
  rules: { name: 'ctl.rules.v1', partitions: 1, cleanup: 'compact' },
  /**
   * What the scoring engines made of each workspace's rule set (keyed by workspace id): the documents they
   * quarantined and why; written by scoring engines, read by the rules service for GET /v1/detections.
   */
  ruleStatus: { name: 'ctl.rule-status.v1', partitions: 1, cleanup: 'compact' },
  /** Escalation destinations (keyed by destination id), followed by every replica that delivers findings. */
  escalations: { name: 'ctl.escalations.v1', partitions: 1, cleanup: 'compact' },
  /** SFTP ingest public keys (keyed by key id), followed by every ingest gateway that runs the SFTP endpoint. */
  sftpKeys: { name: 'ctl.sftp-keys.v1', partitions: 1, cleanup: 'compact' },
  /**
   * Detection state of the scoring engine per events partition (gzip'd snapshots, chunked when large), keyed
   * `<events partition>/<slot>/<chunk>`; read by every scoring replica, so a partition's new owner resumes it.
   */
  scoringState: { name: 'scoring.state.v1', partitions: 1, cleanup: 'compact', maxMessageBytes: 8 * 1024 * 1024 },
} as const satisfies Record<string, TopicSpec>;

export const ALL_TOPICS: TopicSpec[] = Object.values(TOPICS);

export function telemetryKey(workspaceId: string, srcIP: string | undefined): string {
  return `${workspaceId}|${srcIP ?? ''}`;
}
