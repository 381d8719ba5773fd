/**
 * Test support for the hand-over specs: telemetry whose detections need state from earlier steps (port scans
 * crossing 15 distinct ports, a DNS tunnel window), and the findings of an uninterrupted run over it.
 */
import type { FindingRecord, IpEvent, TelemetryBatch } from '@vigil/contracts';
import { DetectionEngine, type IndicatorStore } from '@vigil/detection-engine';
import { tunnelDnsEvents } from '@vigil/testing';

export const HANDOVER_WORKSPACE = 'ws-handover';
export const HANDOVER_STEPS = 24;
const BASE = Date.parse('2026-01-01T10:00:00Z');
const SCANNERS = ['10.20.0.1', '10.20.0.2', '10.20.0.3', '10.20.0.4', '10.20.0.5', '10.20.0.6'];
const TUNNEL_HOST = '10.30.0.1';

export interface KeyedTelemetry {
  key: string;
  batch: TelemetryBatch;
}

/** Step i: each scanner's probe of port 1000+i (unanswered), and one tunnel query; one record per host. */
export function handoverStep(step: number): KeyedTelemetry[] {
  const ws = HANDOVER_WORKSPACE;
  const at = BASE + step * 1000;
  const out: KeyedTelemetry[] = SCANNERS.map((srcIP) => {
    const event: IpEvent = { ts: new Date(at).toISOString(), srcIP, destIP: '192.0.2.10', destPort: 1000 + step, proto: 'tcp', bytesOut: 60, packetsOut: 1, bytesIn: 0, packetsIn: 0 };
    return { key: `${ws}|${srcIP}`, batch: { v: 1, workspaceId: ws, type: 'ip', batchId: `scan-${srcIP}-${step}`, receivedAt: at + 500, events: [event] } };
  });
  const tunnel = tunnelDnsEvents(1, { domain: 'handover-tunnel.net', srcIP: TUNNEL_HOST, startTs: at, intervalMs: 1000, seed: step });
  out.push({ key: `${ws}|${TUNNEL_HOST}`, batch: { v: 1, workspaceId: ws, type: 'dns', batchId: `tunnel-${step}`, receivedAt: at + 500, events: tunnel } });
  return out;
}

export function handoverRecords(from: number, to: number): { key: string; value: Buffer }[] {
  const records: { key: string; value: Buffer }[] = [];
  for (let step = from; step < to; step++) for (const { key, batch } of handoverStep(step)) records.push({ key, value: Buffer.from(JSON.stringify(batch)) });
  return records;
}

/** Findings (by record id) of one engine over steps [0, to) in order: what any partitioning must reproduce. */
export function uninterruptedFindings(intel: IndicatorStore, to = HANDOVER_STEPS): Map<string, FindingRecord> {
  const engine = new DetectionEngine({ intel });
  const found = new Map<string, FindingRecord>();
  for (let step = 0; step < to; step++) for (const { batch } of handoverStep(step)) for (const f of engine.process(batch).findings) found.set(f.recordId, f);
  return found;
}

/** Analytic ids of findings, for asserting which detections fired. */
export function analyticIds(findings: Iterable<FindingRecord>): Set<string> {
  const ids = new Set<string>();
  for (const f of findings) {
    const uid = (f.finding.finding_info as { analytic?: { uid?: string } }).analytic?.uid;
    if (uid) ids.add(uid);
  }
  return ids;
}
