/**
 * Partitioned scoring with state hand-over. One engine per events partition; its state is checkpointed to the
 * state topic and only then is the partition's offset committed, so the group's committed offset always has a
 * durable snapshot at or past it. An engine is (re)built from the latest snapshot whenever a batch does not
 * continue where the partition's engine stopped — a first batch, a partition taken over from another replica,
 * a partition given back after a rebalance, a restart — without relying on rebalance callbacks. Records below
 * the snapshot's offset were already scored by whoever made it and are skipped, so windows neither double-count
 * nor miss; records between the snapshot and a crash are scored again from the same state, giving the same ids.
 */
import { randomUUID } from 'node:crypto';
import type { BusBatch, BusRecord, ConsumedRecord } from '@vigil/bus';
import type { ScoringEngine } from './scoring-engine';
import type { SnapshotDirectory } from './snapshot-directory';
import { snapshotRecords, type Slot, type StoredSnapshot } from './snapshot-records';

export interface PartitionScorerOptions {
  /** Checkpoint a partition whose engine moved on at most this often (VIGIL_SNAPSHOT_INTERVAL_MS). */
  snapshotIntervalMs: number;
  /** How long a rebuild waits for a snapshot at or past the batch's first offset before using what it has. */
  snapshotWaitMs: number;
  /** Largest state record value; bigger compressed snapshots are split. */
  chunkBytes: number;
  /** An engine with no batch for this long (and nothing unsaved) is dropped; a later batch restores it. */
  idleEvictMs: number;
  /**
   * Bounds the time spent checkpointing to 1/factor of the total: a partition is checkpointed at most once per
   * factor × (its last checkpoint's cost) × (partitions this replica scores), when that exceeds the interval.
   * Default 10.
   */
  checkpointCostFactor?: number;
}

export interface PartitionScorerDeps<Outputs> {
  createEngine(partition: number): ScoringEngine;
  /** Scores records with the partition's engine (its state moves on before the next batch is handed to it). */
  score(engine: ScoringEngine, batch: BusBatch, records: ConsumedRecord[]): Outputs | Promise<Outputs>;
  /** Publishes what score() produced; resolves once durable. A failure is retried with the same outputs. */
  publish(outputs: Outputs): Promise<void>;
  publishState(records: BusRecord[]): Promise<void>;
  /** Commits the events offset; false when the partition is no longer this member's. */
  commit(partition: number, nextOffset: string): Promise<boolean>;
  directory: SnapshotDirectory;
  log: (level: 'log' | 'warn', message: string) => void;
  clock?: () => number;
  /** Told of every checkpoint and rebuild (metrics). */
  observe?: (event: { kind: 'checkpoint'; bytes: number; ms: number } | { kind: 'rebuild'; from: 'snapshot' | 'empty'; ms: number }) => void;
}

/** Timings of the latest checkpoint and rebuild, for metrics and the report. */
export interface ScorerStats {
  checkpoints: number;
  rebuilds: number;
  /** snapshotMs is the engine's own work; queuedMs the wait for its thread before that (not counted as cost). */
  lastCheckpoint?: { partition: number; bytes: number; chunks: number; snapshotMs: number; queuedMs: number; publishMs: number };
  lastRebuild?: { partition: number; bytes: number; restoreMs: number; waitedMs: number; from: 'snapshot' | 'empty' };
}

interface PartitionState<Outputs> {
  engine: ScoringEngine;
  /** Outputs of records the engine has taken in whose publication failed: published first on the retry. */
  unpublished?: Outputs;
  /** Every record below it is reflected in the engine. */
  engineNext: number;
  /** The offset after the last record the bus delivered to this engine: a batch starting elsewhere breaks continuity. */
  deliveredNext: number;
  /** engineNext of the last checkpoint or restore. */
  savedNext: number;
  savedAt: number;
  lastBatchAt: number;
  /** Slot the next checkpoint goes to. */
  slot: Slot;
  /** Milliseconds of work the last checkpoint cost (the engine's snapshot and compression, then publication). */
  checkpointCostMs: number;
}

export class PartitionScorer<Outputs> {
  private readonly partitions = new Map<number, PartitionState<Outputs>>();
  private readonly lanes = new Map<number, Promise<unknown>>();
  private readonly clock: () => number;
  readonly stats: ScorerStats = { checkpoints: 0, rebuilds: 0 };

  constructor(
    private readonly deps: PartitionScorerDeps<Outputs>,
    private readonly options: PartitionScorerOptions,
  ) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Partitions with a live engine. */
  get activePartitions(): number[] {
    return [...this.partitions.keys()].sort((a, b) => a - b);
  }

  /** The handler of the events subscription. */
  handle(batch: BusBatch): Promise<void> {
    return this.inLane(batch.partition, () => this.handleInLane(batch));
  }

  /**
   * Checkpoints partitions whose unsaved progress is older than the interval (idle ones included, so their
   * offsets get committed) and drops engines idle past `idleEvictMs`. Called on a timer.
   */
  async tick(): Promise<void> {
    const now = this.clock();
    await Promise.all(
      [...this.partitions.keys()].map((partition) =>
        this.inLane(partition, async () => {
          const state = this.partitions.get(partition);
          if (state === undefined) return;
          if (state.unpublished !== undefined) return;
          if (this.checkpointDue(state, now)) {
            await this.checkpoint(partition, state);
          }
          if (state.engineNext === state.savedNext && now - state.lastBatchAt >= this.options.idleEvictMs) {
            this.partitions.delete(partition);
          }
        }),
      ),
    );
  }

  /** Checkpoints every partition with unsaved progress (clean shut-down). */
  async flush(): Promise<void> {
    await Promise.all(
      [...this.partitions.keys()].map((partition) =>
        this.inLane(partition, async () => {
          const state = this.partitions.get(partition);
          if (state !== undefined && state.unpublished === undefined && state.engineNext > state.savedNext) await this.checkpoint(partition, state);
        }),
      ),
    );
  }

  private inLane<T>(partition: number, work: () => Promise<T>): Promise<T> {
    const previous = this.lanes.get(partition) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.lanes.set(partition, settled);
    void settled.then(() => {
      if (this.lanes.get(partition) === settled) this.lanes.delete(partition);
    });
    return next;
  }

  private async handleInLane(batch: BusBatch): Promise<void> {
    if (batch.records.length === 0) return;
    const { partition } = batch;
    const first = Number(batch.records[0].offset);
    let state = this.partitions.get(partition);
    if (state === undefined || state.deliveredNext !== first) state = await this.rebuild(partition, first, state);
    if (state.unpublished !== undefined) {
      await this.deps.publish(state.unpublished);
      state.unpublished = undefined;
    }
    const engineNext = state.engineNext;
    const fresh = batch.records.filter((record) => Number(record.offset) >= engineNext);
    const after = Number(batch.records[batch.records.length - 1].offset) + 1;
    if (fresh.length > 0) {
      let outputs: Outputs;
      try {
        outputs = await this.deps.score(state.engine, batch, fresh);
      } catch (error) {
        // The engine may have taken part of the batch in: it matches no offset any more, so the retry rebuilds.
        this.partitions.delete(partition);
        throw error;
      }
      state.engineNext = Math.max(engineNext, after);
      state.unpublished = outputs;
      await this.deps.publish(outputs);
      state.unpublished = undefined;
    }
    state.deliveredNext = after;
    state.lastBatchAt = this.clock();
    if (this.checkpointDue(state, this.clock())) await this.checkpoint(partition, state);
  }

  private checkpointDue(state: PartitionState<Outputs>, now: number): boolean {
    if (state.engineNext <= state.savedNext) return false;
    const costBound = state.checkpointCostMs * (this.options.checkpointCostFactor ?? 10) * this.partitions.size;
    const interval = Math.max(this.options.snapshotIntervalMs, costBound);
    return now - state.savedAt >= interval;
  }

  private async rebuild(partition: number, first: number, previous: PartitionState<Outputs> | undefined): Promise<PartitionState<Outputs>> {
    const started = this.clock();
    const known = this.deps.directory.latestOf(partition);
    // The snapshot behind a committed offset was durable before the commit, but this replica may not have read it yet.
    const needsWait = (known === undefined && first > 0) || (known !== undefined && known.offset < first);
    const snapshot = needsWait ? await this.deps.directory.waitFor(partition, first, this.options.snapshotWaitMs) : known;
    const waitedMs = this.clock() - started;
    let engine = this.deps.createEngine(partition);
    let engineNext = first;
    let restoreMs = 0;
    let restored = false;
    if (snapshot !== undefined) {
      const restoreStarted = this.clock();
      try {
        await engine.restore(snapshot.data);
        restored = true;
      } catch (error) {
        // A snapshot this code cannot read must not stop scoring: start empty, loudly.
        this.deps.log('warn', `partition ${partition}: snapshot ${snapshot.id} at offset ${snapshot.offset} unusable, starting empty: ${String(error)}`);
        engine = this.deps.createEngine(partition);
      }
      restoreMs = this.clock() - restoreStarted;
      if (restored && snapshot.offset >= first) engineNext = snapshot.offset;
      else if (restored) this.deps.log('warn', `partition ${partition}: newest snapshot is at offset ${snapshot.offset}, behind ${first}; records in between are missing from the state`);
    } else if (first > 0) {
      this.deps.log('warn', `partition ${partition}: no snapshot within ${this.options.snapshotWaitMs} ms; scoring from offset ${first} with empty state`);
    }
    const now = this.clock();
    const state: PartitionState<Outputs> = {
      engine,
      engineNext,
      deliveredNext: first,
      savedNext: engineNext,
      savedAt: now,
      lastBatchAt: now,
      // Write to the slot that does not hold the snapshot just restored, so a torn write cannot destroy it.
      slot: snapshot !== undefined ? (snapshot.slot === 0 ? 1 : 0) : (previous?.slot ?? 0),
      checkpointCostMs: 0,
    };
    this.partitions.set(partition, state);
    const bytes = restored && snapshot !== undefined ? snapshot.data.length : 0;
    this.stats.rebuilds += 1;
    this.stats.lastRebuild = { partition, bytes, restoreMs, waitedMs, from: restored ? 'snapshot' : 'empty' };
    this.deps.observe?.({ kind: 'rebuild', from: restored ? 'snapshot' : 'empty', ms: now - started });
    this.deps.log(
      'log',
      `partition ${partition}: engine ${restored ? `restored from a ${bytes}-byte snapshot in ${restoreMs} ms` : 'started empty'} for offset ${first} (state at ${engineNext}, waited ${waitedMs} ms)`,
    );
    return state;
  }

  /** Snapshot → durable on the state topic → commit. The commit never runs ahead of a published snapshot. */
  private async checkpoint(partition: number, state: PartitionState<Outputs>): Promise<void> {
    const started = this.clock();
    const offset = state.engineNext;
    const { data, workMs } = await state.engine.snapshot();
    const answeredAt = this.clock();
    const snapshotMs = Math.round(workMs);
    const queuedMs = Math.max(0, answeredAt - started - snapshotMs);
    const stored: StoredSnapshot = { partition, offset, slot: state.slot, id: randomUUID(), data };
    const records = snapshotRecords(stored, this.options.chunkBytes);
    await this.deps.publishState(records);
    const publishMs = this.clock() - answeredAt;
    this.deps.directory.offer(stored);
    state.slot = state.slot === 0 ? 1 : 0;
    state.savedNext = offset;
    state.savedAt = this.clock();
    state.checkpointCostMs = snapshotMs + publishMs;
    this.stats.checkpoints += 1;
    this.stats.lastCheckpoint = { partition, bytes: data.length, chunks: records.length, snapshotMs, queuedMs, publishMs };
    this.deps.observe?.({ kind: 'checkpoint', bytes: data.length, ms: snapshotMs + publishMs });
    if (!(await this.deps.commit(partition, String(offset)))) {
      // Another member owns the partition now: this engine is stale and must not be continued.
      this.partitions.delete(partition);
    }
  }
}
