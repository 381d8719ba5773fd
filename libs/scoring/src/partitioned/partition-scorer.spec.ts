import type { BusBatch, BusRecord, ConsumedRecord } from '@vigil/bus';
import type { DetectionResult } from '@vigil/detection-engine';
import { waitUntil } from '@vigil/testing';
import { PartitionScorer, type PartitionScorerOptions } from './partition-scorer';
import type { EngineSnapshot, ScoringEngine } from './scoring-engine';
import { SnapshotDirectory } from './snapshot-directory';
import { compressSnapshot, decompressSnapshot, snapshotRecords } from './snapshot-records';

/** A stand-in engine with one window: the events it has counted and the offsets it saw. */
class CountingEngine implements ScoringEngine {
  total = 0;
  restoredFrom?: number;
  /** What the engine reports its snapshot work cost. */
  snapshotWorkMs = 0;
  /** Holds the snapshot's answer back, as a busy scoring thread does. */
  snapshotHold?: Promise<void>;
  process(): DetectionResult {
    throw new Error('not used: the spec scores through score()');
  }
  add(n: number): number {
    this.total += n;
    return this.total;
  }
  async snapshot(): Promise<EngineSnapshot> {
    await this.snapshotHold;
    return { data: await compressSnapshot({ total: this.total }), workMs: this.snapshotWorkMs };
  }
  async restore(data: Buffer): Promise<void> {
    const total = ((await decompressSnapshot(data)) as { total?: unknown }).total;
    if (typeof total !== 'number') throw new Error('bad snapshot');
    this.total = total;
    this.restoredFrom = total;
  }
}

const batchOf = (partition: number, from: number, count: number): BusBatch => ({
  topic: 'events',
  partition,
  records: Array.from({ length: count }, (_, i): ConsumedRecord => ({ key: 'k', value: Buffer.from('1'), partition, offset: String(from + i), timestamp: 0 })),
});

interface Harness {
  scorer: PartitionScorer<number[]>;
  directory: SnapshotDirectory;
  engines: CountingEngine[];
  published: number[];
  stateRecords: BusRecord[];
  commits: { partition: number; offset: string }[];
  events: string[];
  logs: string[];
  now: { t: number };
  publishGate: { hold?: Promise<void>; fail?: Error };
  stateGate: { hold?: Promise<void>; fail?: Error };
  owns: { value: boolean };
}

function harness(options: Partial<PartitionScorerOptions> = {}): Harness {
  const h = {
    directory: new SnapshotDirectory(),
    engines: [] as CountingEngine[],
    published: [] as number[],
    stateRecords: [] as BusRecord[],
    commits: [] as { partition: number; offset: string }[],
    events: [] as string[],
    logs: [] as string[],
    now: { t: 1_000_000 },
    publishGate: {} as Harness['publishGate'],
    stateGate: {} as Harness['stateGate'],
    owns: { value: true },
  };
  const scorer = new PartitionScorer<number[]>(
    {
      createEngine: () => {
        const engine = new CountingEngine();
        h.engines.push(engine);
        return engine;
      },
      score: (engine, _batch, records) => records.map(() => (engine as CountingEngine).add(1)),
      publish: async (outputs) => {
        await h.publishGate.hold;
        if (h.publishGate.fail) throw h.publishGate.fail;
        h.published.push(...outputs);
      },
      publishState: async (records) => {
        h.events.push('state-publish-start');
        await h.stateGate.hold;
        if (h.stateGate.fail) throw h.stateGate.fail;
        h.stateRecords.push(...records);
        h.events.push('state-durable');
      },
      commit: async (partition, offset) => {
        h.events.push(`commit ${partition}@${offset}`);
        if (!h.owns.value) return false;
        h.commits.push({ partition, offset });
        return true;
      },
      directory: h.directory,
      log: (_level, message) => h.logs.push(message),
      clock: () => h.now.t,
    },
    { snapshotIntervalMs: 10_000, snapshotWaitMs: 200, chunkBytes: 1 << 20, idleEvictMs: 60_000, ...options },
  );
  return { scorer, ...h };
}

async function putSnapshot(directory: SnapshotDirectory, partition: number, offset: number, total: number): Promise<void> {
  directory.offer({ partition, offset, slot: 0, id: `s${offset}`, data: await compressSnapshot({ total }) });
}

describe('PartitionScorer', () => {
  it('keeps one engine while batches continue, and rebuilds from the snapshot when a batch starts elsewhere', async () => {
    const h = harness();
    await h.scorer.handle(batchOf(3, 0, 5));
    await h.scorer.handle(batchOf(3, 5, 5));
    expect(h.engines).toHaveLength(1);
    expect(h.published).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

    // The partition went away and came back at offset 4 (say, another member committed there with its snapshot).
    await putSnapshot(h.directory, 3, 4, 4);
    await h.scorer.handle(batchOf(3, 4, 3));
    expect(h.engines).toHaveLength(2);
    expect(h.engines[1].restoredFrom).toBe(4);
    expect(h.published.slice(10)).toEqual([5, 6, 7]);
    expect(h.scorer.stats.lastRebuild).toMatchObject({ partition: 3, from: 'snapshot' });
  });

  it('skips records below the snapshot offset: they were scored by whoever made the snapshot', async () => {
    const h = harness();
    await putSnapshot(h.directory, 1, 7, 7);
    await h.scorer.handle(batchOf(1, 5, 5)); // offsets 5..9; 5 and 6 are in the snapshot already
    expect(h.published).toEqual([8, 9, 10]);
    // A batch wholly below the snapshot is skipped too, and delivery continuity is kept past it.
    const g = harness();
    await putSnapshot(g.directory, 1, 20, 20);
    await g.scorer.handle(batchOf(1, 10, 5));
    await g.scorer.handle(batchOf(1, 15, 10));
    expect(g.engines).toHaveLength(1);
    expect(g.published).toEqual([21, 22, 23, 24, 25]);
  });

  it('waits a bounded time for a snapshot the commit implies, and uses it when it arrives', async () => {
    const h = harness({ snapshotWaitMs: 5_000 });
    const handled = h.scorer.handle(batchOf(0, 50, 2));
    await new Promise((r) => setTimeout(r, 30));
    expect(h.published).toEqual([]);
    await putSnapshot(h.directory, 0, 50, 40);
    await handled;
    expect(h.published).toEqual([41, 42]);

    const late = harness({ snapshotWaitMs: 50 });
    await late.scorer.handle(batchOf(0, 50, 2));
    expect(late.published).toEqual([1, 2]);
    expect(late.logs.some((l) => l.includes('no snapshot within 50 ms'))).toBe(true);
  });

  it('does not wait on a fresh partition (offset 0, no snapshot)', async () => {
    const h = harness({ snapshotWaitMs: 60_000 });
    await h.scorer.handle(batchOf(0, 0, 1));
    expect(h.published).toEqual([1]);
  });

  it('checkpoints at the interval (on batches and when idle) and commits the snapshot offset only after it is durable', async () => {
    const h = harness();
    await h.scorer.handle(batchOf(2, 0, 3));
    h.now.t += 5_000;
    await h.scorer.handle(batchOf(2, 3, 3));
    await h.scorer.tick();
    expect(h.commits).toEqual([]);

    h.now.t += 5_000;
    let release!: () => void;
    h.stateGate.hold = new Promise<void>((resolve) => (release = resolve));
    const handled = h.scorer.handle(batchOf(2, 6, 2));
    // Polled, not a fixed sleep: on a loaded machine the publish can take longer than any short sleep to start.
    await waitUntil(() => h.events.length > 0, 'the snapshot publish to start', 10_000, 5);
    expect(h.events).toEqual(['state-publish-start']);
    release();
    await handled;
    expect(h.events).toEqual(['state-publish-start', 'state-durable', 'commit 2@8']);
    expect(h.stateRecords.map((r) => r.headers?.offset)).toEqual(['8']);

    // Idle: the next progress is checkpointed by tick() once the interval has passed, not before.
    await h.scorer.handle(batchOf(2, 8, 1));
    await h.scorer.tick();
    expect(h.commits).toHaveLength(1);
    h.now.t += 10_000;
    await h.scorer.tick();
    expect(h.commits.map((c) => c.offset)).toEqual(['8', '9']);
    // Alternating slots: a torn write of the newer snapshot cannot overwrite the older complete one.
    expect(h.stateRecords.map((r) => r.key)).toEqual(['2/0/0', '2/1/0']);
    expect(h.directory.latestOf(2)?.offset).toBe(9);
  });

  it('spaces out checkpoints of an engine whose snapshots are expensive', async () => {
    const h = harness({ snapshotIntervalMs: 1_000, checkpointCostFactor: 10 });
    let release!: () => void;
    await h.scorer.handle(batchOf(0, 0, 1));
    h.now.t += 1_000;
    h.stateGate.hold = new Promise<void>((resolve) => (release = resolve));
    const slow = h.scorer.handle(batchOf(0, 1, 1));
    await new Promise((r) => setTimeout(r, 10));
    h.now.t += 500; // the checkpoint's publication takes 500 ms
    release();
    await slow;
    expect(h.commits).toHaveLength(1);
    h.stateGate.hold = undefined;
    await h.scorer.handle(batchOf(0, 2, 1));
    h.now.t += 2_000; // past the configured interval, but not 10 x 500 ms
    await h.scorer.tick();
    expect(h.commits).toHaveLength(1);
    h.now.t += 3_000;
    await h.scorer.tick();
    expect(h.commits).toHaveLength(2);
  });

  it("spaces out checkpoints by the engine's own snapshot work", async () => {
    const h = harness({ snapshotIntervalMs: 1_000, checkpointCostFactor: 10 });
    await h.scorer.handle(batchOf(0, 0, 1));
    h.engines[0].snapshotWorkMs = 400;
    h.now.t += 1_000;
    await h.scorer.handle(batchOf(0, 1, 1));
    expect(h.commits).toHaveLength(1);
    expect(h.scorer.stats.lastCheckpoint).toMatchObject({ snapshotMs: 400, queuedMs: 0 });
    await h.scorer.handle(batchOf(0, 2, 1));
    h.now.t += 3_500; // past the interval, not past 10 x 400 ms
    await h.scorer.tick();
    expect(h.commits).toHaveLength(1);
    h.now.t += 600;
    await h.scorer.tick();
    expect(h.commits).toHaveLength(2);
  });

  it("does not count the wait for a busy scoring thread as the checkpoint's cost", async () => {
    const h = harness({ snapshotIntervalMs: 1_000, checkpointCostFactor: 10 });
    await h.scorer.handle(batchOf(0, 0, 1));
    const engine = h.engines[0];
    engine.snapshotWorkMs = 20;
    let release!: () => void;
    engine.snapshotHold = new Promise<void>((resolve) => (release = resolve));
    h.now.t += 1_000;
    const queued = h.scorer.handle(batchOf(0, 1, 1));
    await new Promise((r) => setTimeout(r, 10));
    h.now.t += 5_000; // the snapshot request waits behind the thread's batches
    release();
    await queued;
    expect(h.commits).toHaveLength(1);
    expect(h.scorer.stats.lastCheckpoint).toMatchObject({ snapshotMs: 20, queuedMs: 4_980, publishMs: 0 });
    engine.snapshotHold = undefined;
    await h.scorer.handle(batchOf(0, 2, 1));
    h.now.t += 1_000; // the configured interval holds: 10 x 20 ms of work is less
    await h.scorer.tick();
    expect(h.commits).toHaveLength(2);
  });

  it('never commits when the snapshot could not be published', async () => {
    const h = harness({ snapshotIntervalMs: 1 });
    await h.scorer.handle(batchOf(0, 0, 2));
    expect(h.commits).toEqual([]); // the interval counts from the engine's start
    h.stateGate.fail = new Error('broker down');
    h.now.t += 10;
    await expect(h.scorer.handle(batchOf(0, 2, 2))).rejects.toThrow('broker down');
    expect(h.events).toEqual(['state-publish-start']);
    expect(h.commits).toEqual([]);
    h.stateGate.fail = undefined;
    await h.scorer.tick();
    expect(h.commits).toEqual([{ partition: 0, offset: '4' }]);
  });

  it('re-publishes the same outputs after a failed publish without scoring the records twice', async () => {
    const h = harness();
    h.publishGate.fail = new Error('503');
    await expect(h.scorer.handle(batchOf(0, 0, 3))).rejects.toThrow('503');
    h.publishGate.fail = undefined;
    await h.scorer.handle(batchOf(0, 0, 3)); // the bus redelivers the same batch
    expect(h.published).toEqual([1, 2, 3]);
    expect(h.engines).toHaveLength(1);
    expect(h.engines[0].total).toBe(3);
  });

  it('drops the engine of a partition it can no longer commit, and evicts idle clean engines', async () => {
    const h = harness({ snapshotIntervalMs: 1, idleEvictMs: 30_000 });
    h.owns.value = false;
    await h.scorer.handle(batchOf(5, 0, 1));
    expect(h.scorer.activePartitions).toEqual([5]);
    h.now.t += 10;
    await h.scorer.handle(batchOf(5, 1, 1));
    expect(h.events).toEqual(['state-publish-start', 'state-durable', 'commit 5@2']);
    expect(h.scorer.activePartitions).toEqual([]);
    h.owns.value = true;
    h.now.t += 10;
    await h.scorer.handle(batchOf(6, 0, 1));
    expect(h.scorer.activePartitions).toEqual([6]);
    h.now.t += 30_000;
    await h.scorer.tick();
    expect(h.scorer.activePartitions).toEqual([]);
  });

  it('starts empty, loudly, when the snapshot cannot be restored', async () => {
    const h = harness();
    h.directory.offer({ partition: 0, offset: 3, slot: 0, id: 'bad', data: await compressSnapshot({ nope: true }) });
    await h.scorer.handle(batchOf(0, 3, 1));
    expect(h.published).toEqual([1]);
    expect(h.logs.some((l) => l.includes('unusable'))).toBe(true);
  });

  it('flush() checkpoints unsaved progress of every partition', async () => {
    const h = harness();
    await h.scorer.handle(batchOf(0, 0, 2));
    await h.scorer.handle(batchOf(1, 0, 3));
    await h.scorer.flush();
    expect(h.commits.sort((a, b) => a.partition - b.partition)).toEqual([
      { partition: 0, offset: '2' },
      { partition: 1, offset: '3' },
    ]);
    expect(snapshotRecords).toBeDefined();
  });
});
