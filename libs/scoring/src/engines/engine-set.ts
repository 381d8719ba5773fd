import type { ConsumedRecord } from '@vigil/bus';
import type { WorkspaceRuleSet } from '@vigil/contracts';
import type { DetectionStateUsage } from '@vigil/detection-engine';
import type { ScoringEngine } from '../partitioned/scoring-engine';
import type { ScoredBatch } from './score-records';
import type { IntelFigures } from '../intel/intel-metrics';

/** What the state metrics read: the budget's capacity and its use per detection. */
export interface StateUsageSource {
  readonly capacityBytes: number;
  usage(): Record<string, DetectionStateUsage>;
  /** V8 heap of each scoring worker thread (empty when scoring runs in this thread, whose heap Node reports). */
  threadHeaps(): ThreadHeap[];
  /** Worker threads: the intel figures the threads last reported (each thread loads the same lists). */
  intelFigures(): IntelFigures | undefined;
}

export interface ThreadHeap {
  usedBytes: number;
  totalBytes: number;
}

/**
 * Where a scoring process keeps its partitions' detection engines: in its own thread, or spread over worker
 * threads (one engine set per thread, so every core scores). The partitioned scorer drives either the same way.
 */
export interface EngineSet extends StateUsageSource {
  /** Threads scoring (0: this one). */
  readonly threads: number;
  /** Starts what must run before the first batch (worker threads, their intel); resolves once ready. */
  start(): Promise<void>;
  create(partition: number): ScoringEngine;
  score(engine: ScoringEngine, topic: string, records: ConsumedRecord[]): ScoredBatch | Promise<ScoredBatch>;
  /** A workspace's newest customer rule set, for every engine now and later. */
  applyRules(set: WorkspaceRuleSet): void;
  close(): Promise<void>;
}

/** A customer rule set replaces the held one only when newer (records can be re-read). */
export function isNewerRuleSet(held: WorkspaceRuleSet | undefined, set: WorkspaceRuleSet): boolean {
  return held === undefined || held.version <= set.version;
}
