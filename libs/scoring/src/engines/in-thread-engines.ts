import type { ConsumedRecord } from '@vigil/bus';
import type { WorkspaceRuleSet } from '@vigil/contracts';
import { DetectionEngine, StateBudget, type DetectionStateUsage, type IndicatorStore } from '@vigil/detection-engine';
import type { ScoringEngine } from '../partitioned/scoring-engine';
import { compressSnapshot, decompressSnapshot } from '../partitioned/snapshot-records';
import { SigmaHitSource } from '../sigma/sigma-hit-source';
import { isNewerRuleSet, type EngineSet, type ThreadHeap } from './engine-set';
import { scoreTelemetryRecords, type ScoredBatch } from './score-records';

export interface EngineOptions {
  intel: IndicatorStore;
  configuredResolvers: readonly string[];
  /** The detection-state budget shared by this set's engines. */
  capacityBytes: number;
}

/** A partition's engine in this thread, with its own Sigma source (correlation windows are partition state). */
class InThreadEngine implements ScoringEngine {
  constructor(
    readonly detection: DetectionEngine,
    readonly sigma: SigmaHitSource,
  ) {}

  snapshot(): Promise<Buffer> {
    return compressSnapshot(this.detection.snapshot());
  }

  async restore(data: Buffer): Promise<void> {
    this.detection.restore((await decompressSnapshot(data)) as Parameters<DetectionEngine['restore']>[0]);
  }
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
    const sigma = new SigmaHitSource();
    for (const set of this.ruleSets.values()) sigma.apply(set);
    const detection = new DetectionEngine({ intel: this.options.intel, configuredResolvers: this.options.configuredResolvers, extraHits: sigma, stateBudget: this.budget });
    this.sigmaSources.add(new WeakRef(sigma));
    return new InThreadEngine(detection, sigma);
  }

  score(engine: ScoringEngine, topic: string, records: ConsumedRecord[]): ScoredBatch {
    const { detection, sigma } = engine as InThreadEngine;
    return scoreTelemetryRecords(detection, sigma, topic, records);
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
