/**
 * What the partitioned scorer needs of a partition's detection engine: its state as a compressed snapshot
 * (snapshot-records.ts: gzip of the JSON) and back. The engine's side does the serializing and compressing, so
 * an engine in a worker thread never makes the serving thread stringify megabytes of state.
 * `restore()` is called on a freshly created engine and rejects on a snapshot it cannot read.
 */
export interface ScoringEngine {
  snapshot(): Promise<Buffer>;
  restore(data: Buffer): Promise<void>;
}
