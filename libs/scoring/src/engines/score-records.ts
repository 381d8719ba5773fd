import type { BusRecord } from '@vigil/bus';
import type { FindingRecord, TelemetryBatch } from '@vigil/contracts';
import { InvalidBatchError, type DetectionEngine } from '@vigil/detection-engine';
import { SIGMA_DETECTION_PREFIX } from '../sigma/sigma-detections';
import { decorateSigmaFinding } from '../sigma/sigma-finding';
import type { SigmaHitSource } from '../sigma/sigma-hit-source';

/** A telemetry record to score: what the events topic delivered (key, serialized batch, headers). */
export type ScoreInput = Pick<BusRecord, 'key' | 'value' | 'headers'>;

/** Outputs of one scored bus batch, published together, and what was scored (for the metrics). */
export interface ScoredBatch {
  findings: BusRecord[];
  alerts: BusRecord[];
  deadLetters: BusRecord[];
  events: number;
}

/**
 * Scores telemetry records with one partition's engine: each record's batch is parsed and run through the
 * detections; findings of customer rules get their rule's metadata; records that cannot be read become
 * dead letters (the original, with the reason and the topic it came from). Throws only on an engine failure.
 */
export function scoreTelemetryRecords(engine: DetectionEngine, sigma: SigmaHitSource | undefined, topic: string, records: readonly ScoreInput[]): ScoredBatch {
  const out: ScoredBatch = { findings: [], alerts: [], deadLetters: [], events: 0 };
  const deadLetter = (record: ScoreInput, reason: string): BusRecord => ({ key: record.key, value: record.value, headers: { ...record.headers, reason, source: topic } });
  for (const record of records) {
    let telemetry: TelemetryBatch;
    try {
      telemetry = JSON.parse(record.value.toString('utf8')) as TelemetryBatch;
    } catch (error) {
      out.deadLetters.push(deadLetter(record, `unreadable: ${String(error)}`));
      continue;
    }
    let output: ReturnType<DetectionEngine['process']>;
    try {
      output = engine.process(telemetry);
    } catch (error) {
      if (!(error instanceof InvalidBatchError)) throw error;
      out.deadLetters.push(deadLetter(record, `invalid: ${error.message}`));
      continue;
    }
    out.events += telemetry.events.length;
    for (const finding of output.findings) out.findings.push({ key: finding.workspaceId, value: Buffer.from(JSON.stringify(decorate(sigma, finding))) });
    for (const alert of output.alerts) out.alerts.push({ key: alert.workspaceId, value: Buffer.from(JSON.stringify(alert)) });
  }
  return out;
}

function decorate(sigma: SigmaHitSource | undefined, finding: FindingRecord): FindingRecord {
  const analytic = (finding.finding.finding_info as { analytic?: { uid?: string } }).analytic;
  if (sigma !== undefined && analytic?.uid?.startsWith(SIGMA_DETECTION_PREFIX)) {
    const meta = sigma.metaOf(finding.workspaceId, analytic.uid);
    if (meta !== undefined) decorateSigmaFinding(finding, meta);
  }
  return finding;
}
