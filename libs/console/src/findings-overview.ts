import type { OcsfDetectionFinding } from '@vigil/contracts';

export interface Overview {
  total: number;
  bySeverity: Record<string, number>;
  byDetection: Record<string, number>;
  byHour: { hour: string; count: number }[];
  topHosts: { host: string; count: number }[];
  /** Events the workspace sent per hour (all channels), from the telemetry archive. */
  ingestPerHour: { hour: string; events: number }[];
  truncated: boolean;
}

interface FindingShape {
  time: number;
  severity_id: number;
  finding_info: { uid: string; types?: string[] };
  device?: { ip?: string };
  enrichments?: { data?: { aggregation?: { key?: { detections?: { id: string }[] } } } }[];
}

/** The detection ids aggregated into a finding. */
export function detectionIds(finding: OcsfDetectionFinding): string[] {
  const shaped = finding as unknown as FindingShape;
  const ids = new Set<string>();
  for (const e of shaped.enrichments ?? []) for (const d of e.data?.aggregation?.key?.detections ?? []) ids.add(d.id);
  if (ids.size === 0) for (const t of shaped.finding_info.types ?? []) ids.add(t);
  return [...ids];
}

/** The latest version of each finding (updates share finding_info.uid). */
export function latestVersions(findings: OcsfDetectionFinding[]): OcsfDetectionFinding[] {
  const latest = new Map<string, OcsfDetectionFinding>();
  for (const f of findings) {
    const current = latest.get(f.finding_info.uid);
    if (!current || f.time >= current.time) latest.set(f.finding_info.uid, f);
  }
  return [...latest.values()];
}

function countInto(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

function sortedCounts(map: Map<string, number>, limit: number): [string, number][] {
  return [...map.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit);
}

/** Counts for the overview page: per severity, per detection, per hour of the finding's time, top hosts; and the ingest rate. */
export function summarise(findings: OcsfDetectionFinding[], truncated: boolean, ingestPerHour: Overview['ingestPerHour'] = []): Overview {
  const latest = latestVersions(findings);
  const severities = new Map<string, number>();
  const detections = new Map<string, number>();
  const hours = new Map<string, number>();
  const hosts = new Map<string, number>();
  for (const f of latest) {
    countInto(severities, String(f.severity_id));
    for (const id of detectionIds(f)) countInto(detections, id);
    countInto(hours, new Date(f.time * 1000).toISOString().slice(0, 13) + ':00');
    const host = (f as unknown as FindingShape).device?.ip;
    if (host) countInto(hosts, host);
  }
  return {
    total: latest.length,
    bySeverity: Object.fromEntries([...severities.entries()].sort()),
    byDetection: Object.fromEntries(sortedCounts(detections, 15)),
    byHour: [...hours.entries()].sort().map(([hour, count]) => ({ hour, count })),
    topHosts: sortedCounts(hosts, 10).map(([host, count]) => ({ host, count })),
    ingestPerHour,
    truncated,
  };
}
