import type { ConsumedRecord } from '@vigil/bus';
import type { WorkspaceRuleSet } from '@vigil/contracts';
import { StateBudget, type DetectionStateUsage, type IndicatorStore } from '@vigil/detection-engine';
import type { ScoringEngine } from '../partitioned/scoring-engine';
import type { SigmaHitSource } from '../sigma/sigma-hit-source';
import { isNewerRuleSet, type EngineSet, type ThreadHeap } from './engine-set';
import { LocalEngine } from './local-engine';
import type { ScoredBatch } from './score-records';

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
    const context = { intel: this.options.intel, configuredResolvers: this.options.configuredResolvers, budget: this.budget };
    const engine = LocalEngine.create(context, this.ruleSets.values());
    this.sigmaSources.add(new WeakRef(engine.sigma));
    return engine;
  }

  score(engine: ScoringEngine, topic: string, records: ConsumedRecord[]): ScoredBatch {
    return (engine as LocalEngine).score(topic, records);
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
