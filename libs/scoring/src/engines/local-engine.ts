import type { WorkspaceRuleSet } from '@vigil/contracts';
import { DetectionEngine, type IndicatorStore, type StateBudget } from '@vigil/detection-engine';
import type { EngineSnapshot, ScoringEngine } from '../partitioned/scoring-engine';
import { compressSnapshot, decompressSnapshot } from '../partitioned/snapshot-records';
import { SigmaHitSource } from '../sigma/sigma-hit-source';
import { scoreTelemetryRecords, type ScoredBatch, type ScoreInput } from './score-records';

/** What every engine of one thread shares. */
export interface LocalEngineContext {
  intel: IndicatorStore;
  configuredResolvers: readonly string[];
  budget: StateBudget;
}

/**
 * A partition's engine in the calling thread (the main thread, or a scoring thread for its partitions), with its
 * own Sigma source: correlation windows are partition state. Snapshots leave it serialized and compressed.
 */
export class LocalEngine implements ScoringEngine {
  private constructor(
    private readonly detection: DetectionEngine,
    readonly sigma: SigmaHitSource,
  ) {}

  static create(context: LocalEngineContext, ruleSets: Iterable<WorkspaceRuleSet>): LocalEngine {
    const sigma = new SigmaHitSource();
    for (const set of ruleSets) sigma.apply(set);
    const detection = new DetectionEngine({ intel: context.intel, configuredResolvers: context.configuredResolvers, extraHits: sigma, stateBudget: context.budget });
    return new LocalEngine(detection, sigma);
  }

  score(topic: string, records: readonly ScoreInput[]): ScoredBatch {
    return scoreTelemetryRecords(this.detection, this.sigma, topic, records);
  }

  async snapshot(): Promise<EngineSnapshot> {
    const started = performance.now();
    const data = await compressSnapshot(this.detection.snapshot());
    return { data, workMs: performance.now() - started };
  }

  async restore(data: Buffer): Promise<void> {
    this.detection.restore((await decompressSnapshot(data)) as Parameters<DetectionEngine['restore']>[0]);
  }
}
