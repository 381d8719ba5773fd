import type { TelemetryType, Wisdom, WorkspaceRuleSet } from '@vigil/contracts';
import type { DetectionEngineOptions, DetectionHit, ObservedEvent } from '@vigil/detection-engine';
import { mergeWisdom } from '@vigil/detection-engine';
import type { SigmaEnrichment, SigmaMeta } from '@vigil/sigma';
import { compileWorkspace, type CompiledWorkspace } from './compile-workspace';
import { correlationHit, ruleHit, SIGMA_DETECTION_PREFIX } from './sigma-detections';

type ExtraHitSource = NonNullable<DetectionEngineOptions['extraHits']>;

/**
 * Customer Sigma rules as extra detections of the scoring engine: one compiled rule set per workspace,
 * swapped whole when a new version arrives on `ctl.rules.v1` (correlation windows start afresh then).
 */
export class SigmaHitSource implements ExtraHitSource {
  private readonly workspaces = new Map<string, CompiledWorkspace>();
  /** Metadata of every rule and correlation by detection id, per workspace, for decorating findings. */
  private readonly metas = new Map<string, Map<string, SigmaMeta>>();

  /** Installs a workspace's rule set; returns the documents that could not be compiled. Older versions are ignored. */
  apply(set: WorkspaceRuleSet): string[] {
    const held = this.workspaces.get(set.workspaceId);
    if (held !== undefined && held.version > set.version) return [];
    const compiled = compileWorkspace(set);
    const metas = new Map<string, SigmaMeta>();
    for (const rule of compiled.ruleSet.rules) metas.set(SIGMA_DETECTION_PREFIX + rule.id, rule);
    for (const c of compiled.correlationList) metas.set(SIGMA_DETECTION_PREFIX + c.id, c);
    this.workspaces.set(set.workspaceId, compiled);
    this.metas.set(set.workspaceId, metas);
    return compiled.problems;
  }

  /** The rule behind a `sigma:` detection id of a workspace. */
  metaOf(workspaceId: string, detectionId: string): SigmaMeta | undefined {
    return this.metas.get(workspaceId)?.get(detectionId);
  }

  ruleCount(workspaceId: string): number {
    return this.workspaces.get(workspaceId)?.ruleSet.rules.length ?? 0;
  }

  covers(workspaceId: string, type: TelemetryType): boolean {
    return this.workspaces.get(workspaceId)?.types.has(type) ?? false;
  }

  inspect(observed: ObservedEvent, builtInHits: readonly DetectionHit[]): DetectionHit[] {
    const compiled = this.workspaces.get(observed.workspaceId);
    if (compiled === undefined) return [];
    const wisdom = mergeWisdom(builtInHits);
    const enrichment: SigmaEnrichment = { flags: wisdom.flags, labels: wisdom.labels, domain: wisdom.domain };
    const matched = compiled.ruleSet.match(observed.type, observed.event, enrichment);
    const hits: DetectionHit[] = [];
    for (const rule of matched) {
      if (!compiled.suppressed.has(rule.id)) hits.push(ruleHit(rule, observed, wisdom));
      if (compiled.correlations === undefined) continue;
      const matches = compiled.correlations.feed({ rule, type: observed.type, event: observed.event, timeMs: observed.timeMs, enrichment });
      for (const match of matches) hits.push(correlationHit(match, observed, wisdom));
    }
    return hits;
  }
}

