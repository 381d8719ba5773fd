/**
 * What the partitioned scorer needs of a partition's detection engine: its state as a compressed snapshot
 * (snapshot-records.ts: gzip of the JSON) and back. The engine's side does the serializing and compressing, so
 * an engine in a worker thread never makes the serving thread stringify megabytes of state.
 * `restore()` is called on a freshly created engine and rejects on a snapshot it cannot read.
 */
export interface ScoringEngine {
  snapshot(): Promise<EngineSnapshot>;
  restore(data: Buffer): Promise<void>;
}

/** A compressed snapshot and what making it cost the engine. */
export interface EngineSnapshot {
  data: Buffer;
  /**
   * Milliseconds the engine spent serializing and compressing, without any wait for its thread: an engine in a
   * busy scoring thread answers after the batches queued before the request, and that wait is not the
   * checkpoint's cost (counting it stretched the checkpoint interval to minutes under load).
   */
  workMs: number;
}
