import type { Finding } from '../api/types';

export interface FindingFilters {
  minSeverity: number;
  detection: string;
  host: string;
  text: string;
}

export const EMPTY_FILTERS: FindingFilters = { minSeverity: 0, detection: '', host: '', text: '' };

export function findingUid(finding: Finding): string {
  return finding.finding_info.uid;
}

/** The detection ids aggregated into a finding. */
export function detectionsOf(finding: Finding): string[] {
  const ids = new Set<string>();
  for (const enrichment of finding.enrichments ?? []) {
    for (const detection of enrichment.data?.aggregation?.key?.detections ?? []) ids.add(detection.id);
  }
  for (const type of finding.finding_info.types ?? []) ids.add(type);
  return [...ids];
}

/** The host (source address) a finding is about. */
export function hostOf(finding: Finding): string {
  return finding.device?.ip ?? finding.evidences?.[0]?.src_endpoint?.ip ?? '';
}

export function matches(finding: Finding, filters: FindingFilters): boolean {
  if (filters.minSeverity > 0 && finding.severity_id < filters.minSeverity) return false;
  if (filters.host && !hostOf(finding).includes(filters.host.trim())) return false;
  if (filters.detection && !detectionsOf(finding).some((d) => d.toLowerCase().includes(filters.detection.trim().toLowerCase()))) return false;
  if (filters.text && !JSON.stringify(finding).toLowerCase().includes(filters.text.trim().toLowerCase())) return false;
  return true;
}

/** Keeps the latest version of each finding (updates share finding_info.uid), newest first. */
export function mergeFindings(known: Map<string, Finding>, page: Finding[]): Map<string, Finding> {
  const next = new Map(known);
  for (const finding of page) {
    const current = next.get(findingUid(finding));
    if (!current || finding.time >= current.time) next.set(findingUid(finding), finding);
  }
  return next;
}

export function newestFirst(findings: Iterable<Finding>): Finding[] {
  return [...findings].sort((a, b) => b.time - a.time || findingUid(b).localeCompare(findingUid(a)));
}
