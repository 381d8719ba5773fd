import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type BusRecord, type ConsumedRecord, type Subscription } from '@vigil/bus';
import { decodeRuleSetRecord, TOPICS, type FindingRecord, type TelemetryBatch } from '@vigil/contracts';
import { DetectionEngine, IndicatorStore, InvalidBatchError } from '@vigil/detection-engine';
import { Readiness } from '@vigil/platform';
import { scoringMetrics } from './scoring-metrics';
import { SIGMA_DETECTION_PREFIX } from './sigma/sigma-detections';
import { decorateSigmaFinding } from './sigma/sigma-finding';
import { SigmaHitSource } from './sigma/sigma-hit-source';

export const SCORING_GROUP = 'scoring-engine';

/**
 * The scoring engine's hot path: consumes telemetry batches, runs the detections and publishes findings and
 * alerts. The events offset is committed only after the results are on the bus, so a crash re-scores (ids are
 * deterministic, stores de-duplicate). Records that cannot be read go to the dead-letter topic.
 */
@Injectable()
export class ScoringConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ScoringConsumer.name);
  /** Customer Sigma rules per workspace, fed from `ctl.rules.v1`; the engine asks it for extra hits per event. */
  private readonly sigma = new SigmaHitSource();
  /** One engine per process: state is keyed by (workspace, endpoint), and a host's events arrive on one partition. */
  private readonly engine = new DetectionEngine({ intel: new IndicatorStore(), extraHits: this.sigma });
  private subscription?: Subscription;
  private rulesSubscription?: Subscription;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly readiness: Readiness,
  ) {
    readiness.expect('scoring-engine');
  }

  async onApplicationBootstrap(): Promise<void> {
    // Broadcast: every instance reads every workspace's rules, from the start, and follows changes.
    this.rulesSubscription = await this.bus.subscribe({ topic: TOPICS.rules.name }, async (batch) => this.applyRules(batch));
    await this.rulesSubscription.caughtUp;
    this.subscription = await this.bus.subscribe({ topic: TOPICS.events.name, group: SCORING_GROUP, fromBeginning: true }, (batch) =>
      this.score(batch),
    );
    this.readiness.ready('scoring-engine');
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
    await this.rulesSubscription?.close();
  }

  private async applyRules(batch: BusBatch): Promise<void> {
    for (const record of batch.records) {
      try {
        const set = decodeRuleSetRecord(record.value);
        const problems = this.sigma.apply(set);
        this.logger.log(`workspace ${set.workspaceId}: ${this.sigma.ruleCount(set.workspaceId)} customer Sigma rule(s) active (version ${set.version})`);
        if (problems.length) this.logger.warn(`workspace ${set.workspaceId}: ${problems.length} customer rule document(s) skipped: ${problems.slice(0, 5).join('; ')}`);
      } catch (error) {
        this.logger.error(`unreadable record on ${TOPICS.rules.name} (key ${record.key ?? ''}) ignored: ${String(error)}`);
      }
    }
  }

  private decorate(finding: FindingRecord): FindingRecord {
    const analytic = (finding.finding.finding_info as { analytic?: { uid?: string } }).analytic;
    if (analytic?.uid?.startsWith(SIGMA_DETECTION_PREFIX)) {
      const meta = this.sigma.metaOf(finding.workspaceId, analytic.uid);
      if (meta !== undefined) decorateSigmaFinding(finding, meta);
    }
    return finding;
  }

  private async score(batch: BusBatch): Promise<void> {
    const findings: BusRecord[] = [];
    const alerts: BusRecord[] = [];
    const deadLetters: BusRecord[] = [];
    for (const record of batch.records) {
      let telemetry: TelemetryBatch;
      try {
        telemetry = JSON.parse(record.value.toString('utf8')) as TelemetryBatch;
      } catch (error) {
        deadLetters.push(deadLetter(batch, record, `unreadable: ${String(error)}`));
        continue;
      }
      let output: ReturnType<DetectionEngine['process']>;
      try {
        output = this.engine.process(telemetry);
      } catch (error) {
        if (!(error instanceof InvalidBatchError)) throw error;
        deadLetters.push(deadLetter(batch, record, `invalid: ${error.message}`));
        continue;
      }
      scoringMetrics.record(telemetry.events.length, output.findings.length, output.alerts.length);
      for (const finding of output.findings) findings.push({ key: finding.workspaceId, value: Buffer.from(JSON.stringify(this.decorate(finding))) });
      for (const alert of output.alerts) alerts.push({ key: alert.workspaceId, value: Buffer.from(JSON.stringify(alert)) });
    }
    if (deadLetters.length) {
      this.logger.warn(`${deadLetters.length} unreadable telemetry record(s) sent to ${TOPICS.deadLetter.name}`);
      await this.bus.publish(TOPICS.deadLetter.name, deadLetters);
    }
    await Promise.all([this.bus.publish(TOPICS.findings.name, findings), this.bus.publish(TOPICS.alerts.name, alerts)]);
  }
}

/** A record that can never be scored, for the dead-letter topic: the original, with why and where from. */
function deadLetter(batch: BusBatch, record: ConsumedRecord, reason: string): BusRecord {
  return { key: record.key, value: record.value, headers: { ...record.headers, reason, source: batch.topic } };
}
