import type { TelemetryType, Wisdom, WorkspaceRuleSet } from '@vigil/contracts';
import type { DetectionEngineOptions, DetectionHit, ObservedEvent } from '@vigil/detection-engine';
import { mergeWisdom } from '@vigil/detection-engine';
import type { SigmaEnrichment, SigmaMeta } from '@vigil/sigma';
import { compileWorkspace, type CompiledWorkspace } from './compile-workspace';
import { correlationHit, ruleHit, SIGMA_DETECTION_PREFIX } from './sigma-detections';

type ExtraHitSource = NonNullable<DetectionEngineOptions['extraHits']>;
type SnapshotEventWriter = Parameters<NonNullable<ExtraHitSource['snapshot']>>[0];
type SnapshotEventReader = Parameters<NonNullable<ExtraHitSource['restore']>>[1];

/** Correlation windows of a workspace waiting for its rule set of that version. */
interface PendingState {
  version: number;
  restore(engine: NonNullable<CompiledWorkspace['correlations']>): void;
}

/**
 * Customer Sigma rules as extra detections of the scoring engine: one compiled rule set per workspace,
 * swapped whole when a new version arrives on `ctl.rules.v1` (correlation windows start afresh then).
 */
export class SigmaHitSource implements ExtraHitSource {
  private readonly workspaces = new Map<string, CompiledWorkspace>();
  /** Metadata of every rule and correlation by detection id, per workspace, for decorating findings. */
  private readonly metas = new Map<string, Map<string, SigmaMeta>>();
  private readonly pending = new Map<string, PendingState>();

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
    this.resumePending(set.workspaceId, compiled);
    return compiled.problems;
  }

  /** The rule behind a `sigma:` detection id of a workspace. */
  metaOf(workspaceId: string, detectionId: string): SigmaMeta | undefined {
    return this.metas.get(workspaceId)?.get(detectionId);
  }

  ruleCount(workspaceId: string): number {
    return this.workspaces.get(workspaceId)?.ruleSet.rules.length ?? 0;
  }

  /**
   * Per workspace with correlations `[rule-set version, windows]`; events go to the engine's shared table.
   * Windows still waiting for their rule set (see {@link restore}) are not included.
   */
  snapshot(events: SnapshotEventWriter): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [workspaceId, compiled] of this.workspaces) {
      if (compiled.correlations !== undefined) out[workspaceId] = [compiled.version, compiled.correlations.snapshot((event) => events.event(event))];
    }
    return out;
  }

  /**
   * Replaces the correlation windows with a {@link snapshot} (undefined: empties them). A workspace whose rule
   * set is older or not loaded yet gets its windows when that version is applied; a newer one starts afresh,
   * as on every rule change.
   */
  restore(state: unknown, events: SnapshotEventReader): void {
    const held = new Map<string, PendingState>();
    for (const [workspaceId, value] of Object.entries(state === undefined ? {} : checkedObject(state))) {
      if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'number') throw new TypeError(`extra.${workspaceId}: expected [version, windows]`);
      const [version, windows] = value as [number, unknown];
      held.set(workspaceId, { version, restore: (engine) => engine.restore(windows, (ref, what) => events.event(ref, what)) });
    }
    this.pending.clear();
    for (const [workspaceId, compiled] of this.workspaces) {
      const own = held.get(workspaceId);
      if (compiled.correlations === undefined) continue;
      if (own?.version === compiled.version) own.restore(compiled.correlations);
      else compiled.correlations.restore(undefined);
    }
    for (const [workspaceId, own] of held) {
      if (own.version > (this.workspaces.get(workspaceId)?.version ?? -Infinity)) this.pending.set(workspaceId, own);
    }
  }

  private resumePending(workspaceId: string, compiled: CompiledWorkspace): void {
    const held = this.pending.get(workspaceId);
    if (held === undefined || held.version > compiled.version) return;
    this.pending.delete(workspaceId);
    if (held.version !== compiled.version || compiled.correlations === undefined) return;
    try {
      held.restore(compiled.correlations);
    } catch {
      // Windows that no longer fit the rules start afresh, as after any rule change.
    }
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


function checkedObject(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError('extra: expected an object of workspaces');
  return value as Record<string, unknown>;
}
