import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type BusRecord, type ConsumedRecord, type Subscription } from '@vigil/bus';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { decodeRuleSetRecord, TOPICS, type FindingRecord, type TelemetryBatch, type WorkspaceRuleSet } from '@vigil/contracts';
import { DetectionEngine, IndicatorStore, InvalidBatchError, StateBudget } from '@vigil/detection-engine';
import { Readiness } from '@vigil/platform';
import { PartitionScorer, type PartitionScorerOptions } from './partitioned/partition-scorer';
import type { ScoringEngine } from './partitioned/scoring-engine';
import { SnapshotDirectory } from './partitioned/snapshot-directory';
import { reportStateBudget, scoringMetrics, stateMetrics } from './scoring-metrics';
import { SIGMA_DETECTION_PREFIX } from './sigma/sigma-detections';
import { decorateSigmaFinding } from './sigma/sigma-finding';
import { SigmaHitSource } from './sigma/sigma-hit-source';

export const SCORING_GROUP = 'scoring-engine';

/** Outputs of one scored bus batch, published together. */
interface ScoredBatch {
  findings: BusRecord[];
  alerts: BusRecord[];
  deadLetters: BusRecord[];
}

type ScoringTopic = 'events' | 'findings' | 'alerts' | 'deadLetter' | 'rules' | 'scoringState';

/** Optional overrides (tests and tools): scorer tunables, topic names, consumer group. Nest token: SCORING_OPTIONS. */
export interface ScoringOptions {
  scorer?: Partial<PartitionScorerOptions>;
  topics?: Partial<Record<ScoringTopic, string>>;
  group?: string;
}
export const SCORING_OPTIONS = Symbol('SCORING_OPTIONS');

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
  /** The latest customer Sigma rule set per workspace, from `ctl.rules.v1`. */
  private readonly ruleSets = new Map<string, WorkspaceRuleSet>();
  /** Each partition's engine has its own Sigma source: correlation windows are partition state. */
  private readonly sigmaByPartition = new Map<number, SigmaHitSource>();
  private readonly sigmaByEngine = new WeakMap<ScoringEngine, SigmaHitSource>();
  private readonly intel: IndicatorStore;
  /** The organisation's own resolvers (VIGIL_DNS_RESOLVERS): DNS to them is not resolver bypass. */
  private readonly configuredResolvers: readonly string[];
  /** One memory budget for the detection state of every partition's engine in this process. */
  private readonly stateBudget: StateBudget;
  private readonly directory = new SnapshotDirectory((message) => this.logger.warn(message));
  private readonly scorer: PartitionScorer<ScoredBatch>;
  private subscription?: Subscription;
  private rulesSubscription?: Subscription;
  private stateSubscription?: Subscription;
  private timer?: NodeJS.Timeout;
  private readonly tickMs: number;
  private readonly topics: Record<ScoringTopic, string>;
  private readonly group: string;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly readiness: Readiness,
    @Inject(VIGIL_CONFIG) config: VigilConfig,
    @Optional() @Inject(IndicatorStore) intel?: IndicatorStore,
    @Optional() @Inject(SCORING_OPTIONS) overrides: ScoringOptions = {},
  ) {
    readiness.expect('scoring-engine');
    this.intel = intel ?? new IndicatorStore();
    this.configuredResolvers = config.dnsResolvers;
    this.stateBudget = new StateBudget({ capacityBytes: config.scoringMemoryBytes });
    reportStateBudget(this.stateBudget);
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
    this.scorer = new PartitionScorer<ScoredBatch>(
      {
        createEngine: (partition) => this.createEngine(partition),
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
  get stats(): PartitionScorer<ScoredBatch>['stats'] {
    return this.scorer.stats;
  }

  async onApplicationBootstrap(): Promise<void> {
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
    this.readiness.ready('scoring-engine');
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    // A clean stop saves every partition's progress, so the next owner does not re-score it.
    await this.scorer.flush().catch((error: unknown) => this.logger.warn(`final state checkpoint failed: ${String(error)}`));
    await this.subscription?.close();
    await this.stateSubscription?.close();
    await this.rulesSubscription?.close();
  }

  private createEngine(partition: number): ScoringEngine {
    const sigma = new SigmaHitSource();
    for (const set of this.ruleSets.values()) sigma.apply(set);
    this.sigmaByPartition.set(partition, sigma);
    const engine = new DetectionEngine({ intel: this.intel, configuredResolvers: this.configuredResolvers, extraHits: sigma, stateBudget: this.stateBudget });
    this.sigmaByEngine.set(engine, sigma);
    return engine;
  }

  private async applyRules(batch: BusBatch): Promise<void> {
    for (const record of batch.records) {
      try {
        const set = decodeRuleSetRecord(record.value);
        const held = this.ruleSets.get(set.workspaceId);
        if (held !== undefined && held.version > set.version) continue;
        const probe = new SigmaHitSource();
        const problems = probe.apply(set);
        this.ruleSets.set(set.workspaceId, set);
        for (const sigma of this.sigmaByPartition.values()) sigma.apply(set);
        this.logger.log(`workspace ${set.workspaceId}: ${probe.ruleCount(set.workspaceId)} customer Sigma rule(s) active (version ${set.version})`);
        if (problems.length) this.logger.warn(`workspace ${set.workspaceId}: ${problems.length} customer rule document(s) skipped: ${problems.slice(0, 5).join('; ')}`);
      } catch (error) {
        this.logger.error(`unreadable record on ${this.topics.rules} (key ${record.key ?? ''}) ignored: ${String(error)}`);
      }
    }
  }

  private decorate(engine: ScoringEngine, finding: FindingRecord): FindingRecord {
    const analytic = (finding.finding.finding_info as { analytic?: { uid?: string } }).analytic;
    if (analytic?.uid?.startsWith(SIGMA_DETECTION_PREFIX)) {
      const meta = this.sigmaByEngine.get(engine)?.metaOf(finding.workspaceId, analytic.uid);
      if (meta !== undefined) decorateSigmaFinding(finding, meta);
    }
    return finding;
  }

  private scoreRecords(engine: ScoringEngine, batch: BusBatch, records: ConsumedRecord[]): ScoredBatch {
    const out: ScoredBatch = { findings: [], alerts: [], deadLetters: [] };
    for (const record of records) {
      let telemetry: TelemetryBatch;
      try {
        telemetry = JSON.parse(record.value.toString('utf8')) as TelemetryBatch;
      } catch (error) {
        out.deadLetters.push(deadLetter(batch, record, `unreadable: ${String(error)}`));
        continue;
      }
      let output: ReturnType<DetectionEngine['process']>;
      try {
        output = engine.process(telemetry);
      } catch (error) {
        if (!(error instanceof InvalidBatchError)) throw error;
        out.deadLetters.push(deadLetter(batch, record, `invalid: ${error.message}`));
        continue;
      }
      scoringMetrics.record(telemetry.events.length, output.findings.length, output.alerts.length);
      for (const finding of output.findings) out.findings.push({ key: finding.workspaceId, value: Buffer.from(JSON.stringify(this.decorate(engine, finding))) });
      for (const alert of output.alerts) out.alerts.push({ key: alert.workspaceId, value: Buffer.from(JSON.stringify(alert)) });
    }
    return out;
  }

  private async publish(outputs: ScoredBatch): Promise<void> {
    if (outputs.deadLetters.length) {
      this.logger.warn(`${outputs.deadLetters.length} unreadable telemetry record(s) sent to ${this.topics.deadLetter}`);
      await this.bus.publish(this.topics.deadLetter, outputs.deadLetters);
    }
    await Promise.all([this.bus.publish(this.topics.findings, outputs.findings), this.bus.publish(this.topics.alerts, outputs.alerts)]);
  }
}

/** A record that can never be scored, for the dead-letter topic: the original, with why and where from. */
function deadLetter(batch: BusBatch, record: ConsumedRecord, reason: string): BusRecord {
  return { key: record.key, value: record.value, headers: { ...record.headers, reason, source: batch.topic } };
}
