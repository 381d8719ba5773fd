/**
 * What the partitioned scorer needs of a partition's detection engine: its state as plain JSON data and back.
 * `DetectionEngine` satisfies it in this thread; an engine in a worker thread answers asynchronously.
 * `restore()` is called on a freshly created engine and throws (or rejects) on a snapshot it cannot read.
 */
export interface ScoringEngine {
  snapshot(): unknown;
  restore(snapshot: unknown): void | Promise<void>;
}
