import type { Wisdom } from '@vigil/contracts';
import type { DetectionDefinition, DetectionHit, ObservedEvent } from '@vigil/detection-engine';
import type { CorrelationMatch, SigmaMeta } from '@vigil/sigma';

/** The one threat every customer Sigma rule raises in legacy alerts (the rule itself is in `detections`). */
export const CUSTOMER_SIGMA_THREAT = 'customer_sigma_rule';
/** Detection ids of customer rules: `sigma:<rule id>`; the finding's aggregation key is the rule id. */
export const SIGMA_DETECTION_PREFIX = 'sigma:';

const definitions = new WeakMap<SigmaMeta, DetectionDefinition>();

/** The detection definition of a customer rule (memoised per compiled rule). */
export function sigmaDefinition(meta: SigmaMeta & { kind: 'rule' | 'correlation' }): DetectionDefinition {
  let definition = definitions.get(meta);
  if (definition === undefined) {
    definition = {
      id: SIGMA_DETECTION_PREFIX + meta.id,
      threat: CUSTOMER_SIGMA_THREAT,
      title: meta.title,
      severity: meta.severity,
      flags: [],
      mitreAttack: meta.mitreAttack,
      analytic: { id: 1, name: 'Rule' },
      findingType: meta.kind === 'correlation' ? 'Customer Sigma correlation' : 'Customer Sigma rule',
      keyDescription: 'Sigma rule id',
    };
    definitions.set(meta, definition);
  }
  return definition;
}

export function ruleHit(meta: SigmaMeta & { kind: 'rule' }, observed: ObservedEvent, wisdom: Wisdom): DetectionHit {
  return {
    detection: sigmaDefinition(meta),
    key: meta.id,
    weight: 1,
    evidence: [{ event: observed, wisdom }],
    wisdom,
    observations: [`sigma rule ${meta.id}`],
    desc: meta.description ?? meta.title,
  };
}

export function correlationHit(match: CorrelationMatch, observed: ObservedEvent, wisdom: Wisdom): DetectionHit {
  const c = match.correlation;
  const group = Object.entries(match.group)
    .map(([field, value]) => `${field}=${value ?? '(none)'}`)
    .join(', ');
  const what = `${c.type} ${match.value} over ${match.eventCount} event(s)${group ? ` for ${group}` : ''}`;
  return {
    detection: sigmaDefinition(c),
    key: c.id,
    weight: match.eventCount,
    evidence: [{ event: observed, wisdom }],
    wisdom,
    observations: [`sigma correlation ${c.id}`, what],
    desc: `${c.description ?? c.title} (${what})`,
  };
}
