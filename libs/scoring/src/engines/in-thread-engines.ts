import type { ConsumedRecord } from '@vigil/bus';
import type { WorkspaceRuleSet } from '@vigil/contracts';
import { DetectionEngine, StateBudget, type DetectionStateUsage, type IndicatorStore } from '@vigil/detection-engine';
import type { ScoringEngine } from '../partitioned/scoring-engine';
import { SigmaHitSource } from '../sigma/sigma-hit-source';
import { isNewerRuleSet, type EngineSet, type ThreadHeap } from './engine-set';
import { scoreTelemetryRecords, type ScoredBatch } from './score-records';

export interface EngineOptions {
  intel: IndicatorStore;
  configuredResolvers: readonly string[];
  /** The detection-state budget shared by this set's engines. */
  capacityBytes: number;
}

/** Every partition's engine in the calling thread, under one state budget (and the rules of every workspace). */
export class InThreadEngines implements EngineSet {
  readonly threads = 0;
  private readonly budget: StateBudget;
  private readonly ruleSets = new Map<string, WorkspaceRuleSet>();
  /** Each engine has its own Sigma source: correlation windows are partition state. */
  private readonly sigmaOf = new WeakMap<ScoringEngine, SigmaHitSource>();
  private readonly sigmaSources = new Set<WeakRef<SigmaHitSource>>();

  constructor(private readonly options: EngineOptions) {
    this.budget = new StateBudget({ capacityBytes: options.capacityBytes });
  }

  get capacityBytes(): number {
    return this.budget.capacityBytes;
  }

  usage(): Record<string, DetectionStateUsage> {
    return this.budget.usage();
  }

  threadHeaps(): ThreadHeap[] {
    return [];
  }

  intelFigures(): undefined {
    return undefined;
  }

  async start(): Promise<void> {}

  create(): ScoringEngine {
    const sigma = new SigmaHitSource();
    for (const set of this.ruleSets.values()) sigma.apply(set);
    const engine = new DetectionEngine({ intel: this.options.intel, configuredResolvers: this.options.configuredResolvers, extraHits: sigma, stateBudget: this.budget });
    this.sigmaOf.set(engine, sigma);
    this.sigmaSources.add(new WeakRef(sigma));
    return engine;
  }

  score(engine: ScoringEngine, topic: string, records: ConsumedRecord[]): ScoredBatch {
    return scoreTelemetryRecords(engine as DetectionEngine, this.sigmaOf.get(engine), topic, records);
  }

  applyRules(set: WorkspaceRuleSet): void {
    if (!isNewerRuleSet(this.ruleSets.get(set.workspaceId), set)) return;
    this.ruleSets.set(set.workspaceId, set);
    for (const ref of this.sigmaSources) {
      const sigma = ref.deref();
      if (sigma === undefined) this.sigmaSources.delete(ref);
      else sigma.apply(set);
    }
  }

  async close(): Promise<void> {}
}
