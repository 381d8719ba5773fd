import type { IntelConfig } from '@vigil/config';
import type { WorkspaceRuleSet } from '@vigil/contracts';
import type { DetectionStateUsage, SharedSeed } from '@vigil/detection-engine';

/** What a scoring thread needs to build engines; sent with every request that may create one. */
export interface ThreadSetup {
  intel: IntelConfig;
  configuredResolvers: string[];
  capacityBytes: number;
  ruleSets: WorkspaceRuleSet[];
  /** Nice value the thread takes (Linux), so HTTP and ingest threads are scheduled first when cores are busy. */
  nice: number;
  /** The intel seed already indexed by another thread (shared memory); absent: the thread indexes its own. */
  seed?: SharedSeed;
}

/** A record crossing the thread boundary (Buffers arrive as Uint8Arrays). */
export interface WireRecord {
  key: string;
  value: Uint8Array;
  headers?: Record<string, string>;
}

export type ScoringRequest =
  | { op: 'warm-up'; setup: ThreadSetup } // answered with the thread's SharedSeed
  | { op: 'score'; engineId: number; setup?: ThreadSetup; topic: string; records: WireRecord[] }
  | { op: 'restore'; engineId: number; setup?: ThreadSetup; snapshot: Uint8Array } // compressed, as stored
  | { op: 'snapshot'; engineId: number } // answered with a WireSnapshot
  | { op: 'rules'; set: WorkspaceRuleSet }
  | { op: 'drop'; engineId: number };

/** A compressed snapshot as it comes back from its thread, with the thread's own time making it. */
export interface WireSnapshot {
  data: Uint8Array;
  workMs: number;
}

export interface ScoreReply {
  findings: WireRecord[];
  alerts: WireRecord[];
  deadLetters: WireRecord[];
  events: number;
  /** The thread's state budget after the batch, at most once a second (for the metrics). */
  usage?: Record<string, DetectionStateUsage>;
  /** The thread's V8 heap, sent with `usage`. */
  heap?: { usedBytes: number; totalBytes: number };
  /** The thread's intel figures, sent with `usage`. */
  intel?: { indicators: number; failures: number };
}

/** The engine is not in the thread (the thread was replaced after a failure): the partition must be rebuilt. */
export const ENGINE_LOST = 'EngineLostError';
