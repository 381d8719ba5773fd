import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type Subscription } from '@vigil/bus';
import { decodeRuleSetRecord, decodeRuleStatusRecord, encodeRuleStatusRecord, TOPICS, type WorkspaceRuleSet, type WorkspaceRuleStatus } from '@vigil/contracts';
import { sigmaRuleMetrics } from '../scoring-metrics';
import { compileWorkspaceRules, type Quarantine } from './compile-workspace';

/**
 * Tells the rules service (which may be another process) which customer rules the scoring engines quarantined:
 * follows `ctl.rules.v1` like the engines do, compiles each workspace's newest rule set with the same code, and
 * publishes what it quarantined on the compacted `ctl.rule-status.v1` (keyed by workspace id) when that differs
 * from what the topic already says (so replicas and restarts add records only when a quarantine changes). Also
 * logs each quarantine and keeps the quarantine metrics.
 */
@Injectable()
export class RuleStatusReporter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RuleStatusReporter.name);
  /** The status each workspace has on the topic (as JSON), so an unchanged status is not written again. */
  private readonly announced = new Map<string, string>();
  /** The quarantine this process found for each workspace's newest rule set. */
  private readonly found = new Map<string, { version: number; quarantined: readonly Quarantine[] }>();
  private statusSubscription?: Subscription;
  private rulesSubscription?: Subscription;

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async onApplicationBootstrap(): Promise<void> {
    this.statusSubscription = await this.bus.subscribe({ topic: TOPICS.ruleStatus.name }, async (batch) => {
      for (const record of batch.records) this.announced.set(record.key, record.value.toString('utf8'));
    });
    await this.statusSubscription.caughtUp;
    this.rulesSubscription = await this.bus.subscribe({ topic: TOPICS.rules.name }, async (batch) => this.applyRules(batch));
  }

  async onModuleDestroy(): Promise<void> {
    await this.rulesSubscription?.close();
    await this.statusSubscription?.close();
  }

  /** The quarantined documents of a workspace's newest rule set seen here (tests, diagnostics). */
  quarantinedOf(workspaceId: string): readonly Quarantine[] {
    return this.found.get(workspaceId)?.quarantined ?? [];
  }

  private async applyRules(batch: BusBatch): Promise<void> {
    for (const record of batch.records) {
      let set: WorkspaceRuleSet;
      try {
        set = decodeRuleSetRecord(record.value);
      } catch {
        continue; // the scoring consumer logs unreadable records
      }
      const held = this.found.get(set.workspaceId);
      if (held !== undefined && held.version > set.version) continue;
      await this.report(set, compileWorkspaceRules(set).quarantined);
    }
  }

  private async report(set: WorkspaceRuleSet, quarantined: readonly Quarantine[]): Promise<void> {
    const before = new Set((this.found.get(set.workspaceId)?.quarantined ?? []).map(quarantineKey));
    this.found.set(set.workspaceId, { version: set.version, quarantined });
    for (const q of quarantined) {
      if (before.has(quarantineKey(q))) continue;
      sigmaRuleMetrics.quarantined(q.cause);
      this.logger.warn(`workspace ${set.workspaceId}: customer rule ${q.id} quarantined (${q.cause}): ${q.reason}`);
    }
    let total = 0;
    for (const entry of this.found.values()) total += entry.quarantined.length;
    sigmaRuleMetrics.quarantinedNow(total);

    const status: WorkspaceRuleStatus = {
      v: 1,
      workspaceId: set.workspaceId,
      version: set.version,
      quarantined: quarantined.map(({ id, updatedAt, reason }) => ({ id, updatedAt, reason })),
    };
    const value = encodeRuleStatusRecord(status);
    if (this.sameAsAnnounced(set.workspaceId, status)) return;
    this.announced.set(set.workspaceId, value.toString('utf8'));
    try {
      await this.bus.publish(TOPICS.ruleStatus.name, [{ key: set.workspaceId, value }]);
    } catch (error) {
      this.announced.delete(set.workspaceId);
      this.logger.warn(`workspace ${set.workspaceId}: could not publish the rule status, retried with the next rule set: ${String(error)}`);
    }
  }

  /** Unchanged when the topic holds the same quarantine (no record at all means none). */
  private sameAsAnnounced(workspaceId: string, status: WorkspaceRuleStatus): boolean {
    const raw = this.announced.get(workspaceId);
    if (raw === undefined) return status.quarantined.length === 0;
    try {
      return JSON.stringify(decodeRuleStatusRecord(Buffer.from(raw, 'utf8')).quarantined) === JSON.stringify(status.quarantined);
    } catch {
      return false;
    }
  }
}

function quarantineKey(q: Quarantine): string {
  return `${q.id}\u0000${q.updatedAt}\u0000${q.reason}`;
}
