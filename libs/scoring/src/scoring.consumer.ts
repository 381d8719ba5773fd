import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type BusRecord, type ConsumedRecord, type Subscription } from '@vigil/bus';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { decodeRuleSetRecord, TOPICS } from '@vigil/contracts';
import { IndicatorStore } from '@vigil/detection-engine';
import { Readiness, scoringBacklog } from '@vigil/platform';
import { PartitionScorer, type PartitionScorerOptions } from './partitioned/partition-scorer';
import type { ScoringEngine } from './partitioned/scoring-engine';
import type { EngineSet } from './engines/engine-set';
import { InThreadEngines } from './engines/in-thread-engines';
import type { ScoredBatch } from './engines/score-records';

/** A scored batch, with when each of its telemetry records was appended to the events topic (epoch ms). */
type ScoringOutputs = ScoredBatch & { appendedMs: number[] };
import { WorkerEngines } from './engines/worker-engines';
import { SnapshotDirectory } from './partitioned/snapshot-directory';
import { reportStateBudget, scoringMetrics, stateMetrics } from './scoring-metrics';
import { IntelRuntime } from './intel/intel-runtime';
import { reportIntel } from './intel/intel-metrics';
import { SigmaHitSource } from './sigma/sigma-hit-source';

export const SCORING_GROUP = 'scoring-engine';

type ScoringTopic = 'events' | 'findings' | 'alerts' | 'deadLetter' | 'rules' | 'scoringState';

/** Optional overrides (tests and tools): scorer tunables, topic names, consumer group. Nest token: SCORING_OPTIONS. */
export interface ScoringOptions {
  scorer?: Partial<PartitionScorerOptions>;
  topics?: Partial<Record<ScoringTopic, string>>;
  group?: string;
}
export const SCORING_OPTIONS = Symbol('SCORING_OPTIONS');

/** Backlog always admitted, whatever the scoring rate (e.g. before one is measured); any body is admitted below the limit. */
const BACKLOG_FLOOR_EVENTS = 20_000;

const DEFAULT_TUNING: Omit<PartitionScorerOptions, 'snapshotIntervalMs'> = {
  snapshotWaitMs: 10_000,
  // Well under the default broker limits, whatever the topic's max.message.bytes ended up being.
  chunkBytes: 768 * 1024,
  idleEvictMs: 15 * 60_000,
};

/**
 * The scoring engine's hot path: consumes telemetry batches, runs the detections and publishes findings and
 * alerts; records that cannot be read go to the dead-letter topic. One detection engine per events partition
 * (a host's events all land on one), its state checkpointed to `scoring.state.v1` every snapshot interval and
 * the partition's offset committed only after that, so whichever replica owns the partition next — or this one
 * after a restart — resumes the windows from the snapshot (see {@link PartitionScorer}).
 */
@Injectable()
export class ScoringConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ScoringConsumer.name);
  /** The partitions' engines: in this thread, or over VIGIL_SCORING_WORKERS threads; one state budget in all. */
  private readonly engines: EngineSet;
  /** The newest rule-set version seen per workspace (records can be re-read). */
  private readonly ruleVersions = new Map<string, number>();
  private readonly directory = new SnapshotDirectory((message) => this.logger.warn(message));
  private readonly scorer: PartitionScorer<ScoringOutputs>;
  private subscription?: Subscription;
  private rulesSubscription?: Subscription;
  private stateSubscription?: Subscription;
  private timer?: NodeJS.Timeout;
  private readonly tickMs: number;
  private readonly backlogMs: number;
  private readonly admissionWaitMs: number;
  private readonly topics: Record<ScoringTopic, string>;
  private readonly group: string;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly readiness: Readiness,
    @Inject(VIGIL_CONFIG) config: VigilConfig,
    @Optional() @Inject(IndicatorStore) intel?: IndicatorStore | null,
    @Optional() @Inject(SCORING_OPTIONS) overrides: ScoringOptions = {},
    @Optional() @Inject(IntelRuntime) intelRuntime?: IntelRuntime | null,
  ) {
    readiness.expect('scoring-engine');
    this.backlogMs = config.scoringBacklogMs;
    this.admissionWaitMs = config.scoringAdmissionWaitMs;
    const threads = config.scoringWorkers ?? 0;
    this.engines =
      threads > 0
        ? new WorkerEngines({ threads, intel: config.intel, configuredResolvers: config.dnsResolvers, capacityBytes: config.scoringMemoryBytes, nice: config.scoringNice })
        : new InThreadEngines({ intel: intel ?? new IndicatorStore(), configuredResolvers: config.dnsResolvers, capacityBytes: config.scoringMemoryBytes });
    reportStateBudget(this.engines);
    const engines = this.engines;
    reportIntel(() => engines.intelFigures() ?? intelRuntime?.figures());
    this.topics = {
      events: TOPICS.events.name,
      findings: TOPICS.findings.name,
      alerts: TOPICS.alerts.name,
      deadLetter: TOPICS.deadLetter.name,
      rules: TOPICS.rules.name,
      scoringState: TOPICS.scoringState.name,
      ...overrides.topics,
    };
    this.group = overrides.group ?? SCORING_GROUP;
    const options: PartitionScorerOptions = { snapshotIntervalMs: config.snapshotIntervalMs, ...DEFAULT_TUNING, ...overrides.scorer };
    this.tickMs = Math.max(50, Math.min(5_000, Math.floor(options.snapshotIntervalMs / 2)));
    this.scorer = new PartitionScorer<ScoringOutputs>(
      {
        createEngine: (partition) => this.engines.create(partition),
        score: (engine, batch, records) => this.scoreRecords(engine, batch, records),
        publish: (outputs) => this.publish(outputs),
        publishState: (records) => this.bus.publish(this.topics.scoringState, records),
        commit: (partition, offset) => (this.subscription ? this.subscription.commit(partition, offset) : Promise.resolve(false)),
        directory: this.directory,
        log: (level, message) => (level === 'warn' ? this.logger.warn(message) : this.logger.log(message)),
        observe: (event) => (event.kind === 'checkpoint' ? stateMetrics.checkpoint(event.bytes, event.ms) : stateMetrics.rebuild(event.from)),
      },
      options,
    );
  }

  /** Checkpoint and rebuild figures (tests, diagnostics). */
  get stats(): PartitionScorer<ScoringOutputs>['stats'] {
    return this.scorer.stats;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.engines.start();
    if (this.engines.threads > 0) this.logger.log(`scoring in ${this.engines.threads} worker thread(s)`);
    // Broadcast: every instance reads every workspace's rules, from the start, and follows changes.
    this.rulesSubscription = await this.bus.subscribe({ topic: this.topics.rules }, async (batch) => this.applyRules(batch));
    await this.rulesSubscription.caughtUp;
    // Every instance also follows every partition's snapshots, so it can take any partition over at once.
    this.stateSubscription = await this.bus.subscribe({ topic: this.topics.scoringState }, async (batch) => this.directory.apply(batch));
    await this.stateSubscription.caughtUp;
    this.subscription = await this.bus.subscribe(
      { topic: this.topics.events, group: this.group, fromBeginning: true, commit: 'manual' },
      (batch) => this.scorer.handle(batch),
    );
    this.timer = setInterval(() => {
      this.scorer.tick().catch((error: unknown) => this.logger.warn(`state checkpoint failed, retried next time: ${String(error)}`));
    }, this.tickMs);
    this.timer.unref();
    scoringBacklog.arm({ maxDelayMs: this.backlogMs, floorEvents: BACKLOG_FLOOR_EVENTS, admissionWaitMs: this.admissionWaitMs });
    this.readiness.ready('scoring-engine');
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    scoringBacklog.stopWaiting();
    // A clean stop saves every partition's progress, so the next owner does not re-score it.
    await this.scorer.flush().catch((error: unknown) => this.logger.warn(`final state checkpoint failed: ${String(error)}`));
    await this.subscription?.close();
    await this.stateSubscription?.close();
    await this.rulesSubscription?.close();
    await this.engines.close();
  }

  private async applyRules(batch: BusBatch): Promise<void> {
    for (const record of batch.records) {
      try {
        const set = decodeRuleSetRecord(record.value);
        const held = this.ruleVersions.get(set.workspaceId);
        if (held !== undefined && held > set.version) continue;
        const probe = new SigmaHitSource();
        const problems = probe.apply(set);
        this.ruleVersions.set(set.workspaceId, set.version);
        this.engines.applyRules(set);
        this.logger.log(`workspace ${set.workspaceId}: ${probe.ruleCount(set.workspaceId)} customer Sigma rule(s) active (version ${set.version})`);
        if (problems.length) this.logger.warn(`workspace ${set.workspaceId}: ${problems.length} customer rule document(s) skipped: ${problems.slice(0, 5).join('; ')}`);
      } catch (error) {
        this.logger.error(`unreadable record on ${this.topics.rules} (key ${record.key ?? ''}) ignored: ${String(error)}`);
      }
    }
  }

  private async scoreRecords(engine: ScoringEngine, batch: BusBatch, records: ConsumedRecord[]): Promise<ScoringOutputs> {
    const scored = await this.engines.score(engine, batch.topic, records);
    scoringMetrics.record(scored.events, scored.findings.length, scored.alerts.length);
    scoringBacklog.scored(scored.events);
    return { ...scored, appendedMs: records.map((record) => record.timestamp) };
  }

  private async publish(outputs: ScoringOutputs): Promise<void> {
    if (outputs.deadLetters.length) {
      this.logger.warn(`${outputs.deadLetters.length} unreadable telemetry record(s) sent to ${this.topics.deadLetter}`);
      await this.bus.publish(this.topics.deadLetter, outputs.deadLetters);
    }
    await Promise.all([this.bus.publish(this.topics.findings, outputs.findings), this.bus.publish(this.topics.alerts, outputs.alerts)]);
    scoringMetrics.delays(outputs.appendedMs);
  }
}
