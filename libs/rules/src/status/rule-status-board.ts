import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type Subscription } from '@vigil/bus';
import { decodeRuleStatusRecord, TOPICS, type CustomerRule, type CustomerRuleState, type QuarantinedRule } from '@vigil/contracts';

/**
 * What the scoring engines made of each workspace's rules, from `ctl.rule-status.v1` (scoring engines write it;
 * they may run in other processes). A stored rule is `quarantined` when the newest status names that version of
 * it (same id and `updatedAt`); otherwise it is `active`.
 */
@Injectable()
export class RuleStatusBoard implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RuleStatusBoard.name);
  private readonly quarantined = new Map<string, Map<string, QuarantinedRule>>();
  private subscription?: Subscription;

  constructor(@Inject(BUS) private readonly bus: Bus) {}

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe({ topic: TOPICS.ruleStatus.name }, async (batch) => {
      for (const record of batch.records) {
        try {
          const status = decodeRuleStatusRecord(record.value);
          this.quarantined.set(status.workspaceId, new Map(status.quarantined.map((q) => [q.id, q])));
        } catch (error) {
          this.logger.warn(`unreadable record on ${TOPICS.ruleStatus.name} (key ${record.key}) ignored: ${String(error)}`);
        }
      }
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  stateOf(workspaceId: string, rule: Pick<CustomerRule, 'id' | 'updatedAt'>): { state: CustomerRuleState; reason?: string } {
    const entry = this.quarantined.get(workspaceId)?.get(rule.id);
    return entry !== undefined && entry.updatedAt === rule.updatedAt ? { state: 'quarantined', reason: entry.reason } : { state: 'active' };
  }
}
