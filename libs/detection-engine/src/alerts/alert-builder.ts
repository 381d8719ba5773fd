import type { AlertRecord, Severity, Wisdom } from '@vigil/contracts';
import type { DetectionHit, ObservedEvent } from '../detections/detection';
import { domainContextFlags } from '../enrichment/domain-context';
import { uuidV5 } from '../uuid';

/** Stable across re-delivery: the same (batch, event index) always gives the same alert id. */
export function alertId(batchId: string, index: number): string {
  return uuidV5(['alert', batchId, String(index)].join('\u0000'));
}

/** The union of several detections' wisdom about one event (flags, labels, the first domain named). */
export function mergeWisdom(hits: readonly DetectionHit[]): Wisdom {
  const flags = new Set<string>();
  const labels = new Set<string>();
  let domain: string | undefined;
  for (const hit of hits) {
    hit.wisdom.flags.forEach((f) => flags.add(f));
    hit.wisdom.labels?.forEach((l) => labels.add(l));
    domain ??= hit.wisdom.domain;
  }
  const wisdom: Wisdom = { flags: [...flags] };
  if (labels.size > 0) wisdom.labels = [...labels];
  if (domain !== undefined) wisdom.domain = domain;
  return wisdom;
}

/**
 * One legacy alert for an event that raised at least one detection; several detections on one event
 * share the alert. Returns undefined for event types the legacy API has no alerts for (lease).
 */
export function buildAlert(observed: ObservedEvent, hits: DetectionHit[]): AlertRecord | undefined {
  if (hits.length === 0 || observed.type === 'lease') return undefined;
  const wisdom = withDomainContext(mergeWisdom(hits), observed);

  const severity = Math.max(...hits.map((h) => h.detection.severity)) as Severity;
  return {
    workspaceId: observed.workspaceId,
    severity,
    time: observed.timeMs,
    alert: {
      id: alertId(observed.batchId, observed.index),
      eventType: observed.type,
      threats: [...new Set(hits.map((h) => h.detection.threat))],
      wisdom,
      event: observed.event,
      detections: hits.map((h) => ({ id: h.detection.id, key: h.key, severity: h.detection.severity })),
      mitreAttack: [...new Set(hits.flatMap((h) => h.detection.mitreAttack))],
    },
  };
}

/** Adds the destination-name context flags (abused TLD, unranked domain) to an alert's wisdom. */
function withDomainContext(wisdom: Wisdom, observed: ObservedEvent): Wisdom {
  const extra = domainContextFlags(wisdom.domain ?? observed.hostname).filter((flag) => !wisdom.flags.includes(flag));
  return extra.length === 0 ? wisdom : { ...wisdom, flags: [...wisdom.flags, ...extra] };
}
