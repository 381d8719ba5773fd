import type { DetectionResult } from '@vigil/detection-engine';
import type { TelemetryBatch } from '@vigil/contracts';

/**
 * What the partitioned scorer needs of a detection engine: `DetectionEngine` satisfies it. `snapshot()` returns
 * plain JSON data; `restore()` is called on a freshly created engine and throws on a snapshot it cannot read.
 */
export interface ScoringEngine {
  process(batch: TelemetryBatch): DetectionResult;
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}
