import type { ConsumedRecord } from '@vigil/bus';
import type { IntelConfig } from '@vigil/config';
import type { WorkspaceRuleSet } from '@vigil/contracts';
import type { DetectionStateUsage, SharedSeed } from '@vigil/detection-engine';
import { siblingModule, WorkerPool } from '@vigil/platform';
import type { EngineSnapshot, ScoringEngine } from '../partitioned/scoring-engine';
import { isNewerRuleSet, type EngineSet, type ThreadHeap } from './engine-set';
import type { ScoredBatch } from './score-records';
import type { IntelFigures } from '../intel/intel-metrics';
import type { handleScoringRequest } from './scoring-thread.task';
import type { ScoreReply, ScoringRequest, ThreadSetup, WireRecord, WireSnapshot } from './worker-protocol';

export interface WorkerEnginesOptions {
  threads: number;
  intel: IntelConfig;
  configuredResolvers: readonly string[];
  /** The whole process's detection-state budget, split evenly over the threads. */
  capacityBytes: number;
  /** Nice value of the scoring threads (0: as the process). */
  nice?: number;
}

// Keeps the task module in the compiled program (threads load it by path).
export type ScoringTaskHandler = typeof handleScoringRequest;
const TASK_MODULE = siblingModule(__filename, 'scoring-thread.task');

/** A partition's engine living in one scoring thread; the thread answers for it. */
class WorkerEngine implements ScoringEngine {
  /** The thread has not built this engine yet: the next request carries what it needs to. */
  private fresh = true;

  constructor(
    readonly id: number,
    readonly thread: number,
    private readonly pool: WorkerPool<ScoringRequest, unknown>,
    private readonly setup: () => ThreadSetup,
  ) {}

  async snapshot(): Promise<EngineSnapshot> {
    const { data, workMs } = (await this.pool.run({ op: 'snapshot', engineId: this.id })) as WireSnapshot;
    return { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), workMs };
  }

  async restore(data: Buffer): Promise<void> {
    await this.pool.run({ op: 'restore', engineId: this.id, setup: this.takeSetup(), snapshot: data });
  }

  async score(topic: string, records: WireRecord[]): Promise<ScoreReply> {
    return (await this.pool.run({ op: 'score', engineId: this.id, setup: this.takeSetup(), topic, records })) as ScoreReply;
  }

  private takeSetup(): ThreadSetup | undefined {
    if (!this.fresh) return undefined;
    this.fresh = false;
    return this.setup();
  }
}

/**
 * Partitions' engines spread over worker threads (partition p on thread p mod n), so scoring uses every core
 * while this thread keeps serving HTTP and the bus. Requests to one thread are answered in order, and the
 * partitioned scorer sends a partition's next batch only after the previous one is scored, so each engine sees
 * its batches exactly as in one thread: the same findings and alerts. A thread that fails takes its engines
 * with it; their partitions are rebuilt from their snapshots as after a hand-over.
 */
export class WorkerEngines implements EngineSet {
  private readonly pools: WorkerPool<ScoringRequest, unknown>[];
  private readonly ruleSets = new Map<string, WorkspaceRuleSet>();
  private readonly usageByThread: Record<string, DetectionStateUsage>[];
  private readonly heapByThread: ThreadHeap[];
  private intel: IntelFigures | undefined;
  /** The intel seed as the first thread indexed it; the other threads read the same shared table. */
  private seed: SharedSeed | undefined;
  private nextEngineId = 1;
  private readonly dropped = new FinalizationRegistry<{ id: number; thread: number }>(({ id, thread }) => {
    this.pools[thread].run({ op: 'drop', engineId: id }).catch(() => undefined);
  });

  constructor(private readonly options: WorkerEnginesOptions) {
    const perThreadMb = Math.ceil(options.capacityBytes / options.threads / (1024 * 1024));
    this.pools = Array.from(
      { length: options.threads },
      (_, i) =>
        new WorkerPool<ScoringRequest, unknown>({
          name: `scoring thread ${i + 1}`,
          module: TASK_MODULE,
          exportName: 'handleScoringRequest',
          maxThreads: 1,
          // A thread holds its partitions' state: it must never be retired for being idle.
          idleTimeoutMs: 2 ** 31 - 1,
          maxQueued: 100_000,
          timeoutMs: 300_000,
          // Room for the state (its live heap runs about 1.6x the budget's estimate), the models (the intel seed
          // is shared memory, outside this heap) and the batches in flight. V8 lets garbage pile up towards this
          // limit before it collects, so a generous one shows as resident memory; this one leaves about twice the
          // live heap. Young generation: 24 MB scored as fast as 48 in the sustained bench with about 100 MB less
          // resident memory; 16 scored about 8 % slower.
          resourceLimits: { maxOldGenerationSizeMb: perThreadMb * 2 + 512, maxYoungGenerationSizeMb: 24 },
        }),
    );
    this.usageByThread = this.pools.map(() => ({}));
    this.heapByThread = this.pools.map(() => ({ usedBytes: 0, totalBytes: 0 }));
  }

  get threads(): number {
    return this.pools.length;
  }

  get capacityBytes(): number {
    return this.options.capacityBytes;
  }

  usage(): Record<string, DetectionStateUsage> {
    const total: Record<string, DetectionStateUsage> = {};
    for (const usage of this.usageByThread) {
      for (const [part, u] of Object.entries(usage)) {
        const t = (total[part] ??= { keys: 0, bytes: 0, evictions: 0 });
        t.keys += u.keys;
        t.bytes += u.bytes;
        t.evictions += u.evictions;
      }
    }
    return total;
  }

  threadHeaps(): ThreadHeap[] {
    return this.heapByThread;
  }

  intelFigures(): IntelFigures | undefined {
    return this.intel;
  }

  /** Warms up the first thread, which indexes the intel seed, then the others with that seed (one copy in all). */
  async start(): Promise<void> {
    const [first, ...others] = this.pools;
    this.seed = (await first.run({ op: 'warm-up', setup: this.setup() })) as SharedSeed | undefined;
    await Promise.all(others.map((pool) => pool.run({ op: 'warm-up', setup: this.setup() })));
  }

  create(partition: number): ScoringEngine {
    const thread = partition % this.pools.length;
    const engine = new WorkerEngine(this.nextEngineId++, thread, this.pools[thread], () => this.setup());
    this.dropped.register(engine, { id: engine.id, thread });
    return engine;
  }

  async score(engine: ScoringEngine, topic: string, records: ConsumedRecord[]): Promise<ScoredBatch> {
    const worker = engine as WorkerEngine;
    const wire: WireRecord[] = records.map((r) => ({ key: r.key, value: r.value, headers: r.headers }));
    const reply = await worker.score(topic, wire);
    if (reply.usage !== undefined) this.usageByThread[worker.thread] = reply.usage;
    if (reply.heap !== undefined) this.heapByThread[worker.thread] = reply.heap;
    if (reply.intel !== undefined) this.intel = reply.intel;
    const fromWire = (list: WireRecord[]) => list.map((r) => ({ key: r.key, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength), headers: r.headers }));
    return { findings: fromWire(reply.findings), alerts: fromWire(reply.alerts), deadLetters: fromWire(reply.deadLetters), events: reply.events };
  }

  applyRules(set: WorkspaceRuleSet): void {
    if (!isNewerRuleSet(this.ruleSets.get(set.workspaceId), set)) return;
    this.ruleSets.set(set.workspaceId, set);
    for (const pool of this.pools) pool.run({ op: 'rules', set }).catch(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }

  private setup(): ThreadSetup {
    return {
      intel: this.options.intel,
      configuredResolvers: [...this.options.configuredResolvers],
      capacityBytes: Math.floor(this.options.capacityBytes / this.pools.length),
      ruleSets: [...this.ruleSets.values()],
      nice: this.options.nice ?? 0,
      seed: this.seed,
    };
  }
}
