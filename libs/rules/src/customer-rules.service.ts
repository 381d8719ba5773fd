import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BUS, type Bus } from '@vigil/bus';
import {
  encodeRuleSetRecord,
  TOPICS,
  type CustomerRule,
  type CustomerRuleSummary,
  type DetectionValidationError,
  type WorkspaceRuleSet,
} from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { compileCorrelation, loadSigmaDocuments } from '@vigil/sigma';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { CustomerRulesRepository } from './store/customer-rules.repository';
import { RULES_MIGRATIONS } from './store/migrations';
import { checkCorrelations, validateRuleFiles } from './upload/rule-validation';
import type { UploadOptions } from './upload/upload-params';
import { readRuleZip } from './upload/zip-reader';

export interface UploadOutcome {
  /** Documents that passed validation (stored unless dry run). */
  valid: number;
  invalid: number;
  errors: DetectionValidationError[];
  /** Archive entries that are not rule files. */
  ignored: string[];
}

/**
 * Customer Sigma rules: validates uploads, stores them per workspace (the system of record) and announces each
 * workspace's whole current rule set on the compacted `ctl.rules.v1`, keyed by workspace id, from which every
 * scoring-engine instance compiles. Uploads of one workspace are applied one after another.
 */
@Injectable()
export class CustomerRulesService implements OnApplicationBootstrap {
  private readonly logger = new Logger(CustomerRulesService.name);
  private repository!: CustomerRulesRepository;
  private lastVersion = 0;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
    @Inject(BUS) private readonly bus: Bus,
    private readonly readiness: Readiness,
  ) {
    readiness.expect('customer-rules');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.repository = new CustomerRulesRepository(await this.stores.open('rules', RULES_MIGRATIONS));
    this.lastVersion = await this.repository.maxVersion();
    await this.republishAll();
    this.readiness.ready('customer-rules');
  }

  /**
   * Reads, validates and (unless `dryRun`) stores an archive's rules. Valid rules of a mixed upload are stored.
   * @throws ZipRejectedError when the archive itself is refused (nothing is stored).
   */
  async upload(workspaceId: string, zip: Buffer, options: UploadOptions): Promise<UploadOutcome> {
    const contents = await readRuleZip(zip);
    return this.serialised(workspaceId, async () => {
      const validated = validateRuleFiles(contents.files);
      const existing = await this.repository.current(workspaceId);
      const uploadedIds = new Set(validated.candidates.map((c) => c.id));
      const kept = options.mode === 'replace' ? [] : existing.filter((r) => !uploadedIds.has(r.id));
      const checked = checkCorrelations(validated.candidates, validated.references, kept, correlationReferences(kept));
      const errors = [...validated.errors, ...checked.errors];
      const outcome: UploadOutcome = { valid: checked.candidates.length, invalid: errors.length, errors, ignored: contents.ignored };
      if (options.dryRun) return outcome;

      const version = this.nextVersion();
      const updatedAt = new Date().toISOString();
      const stored: CustomerRule[] = checked.candidates.map((c) => ({ ...c, updatedAt }));
      const storedIds = new Set(stored.map((r) => r.id));
      const removed = options.mode === 'replace' ? existing.filter((r) => !storedIds.has(r.id)).map((r) => ({ ...r, updatedAt })) : [];
      await this.repository.save(workspaceId, removed, version, true);
      await this.repository.save(workspaceId, stored, version);
      await this.publish(workspaceId, [...kept.map(withoutWorkspace), ...stored], version);
      this.logger.log(`workspace ${workspaceId}: ${options.mode} upload stored ${stored.length} rule(s), removed ${removed.length}, refused ${errors.length}`);
      return outcome;
    });
  }

  async list(workspaceId: string): Promise<CustomerRuleSummary[]> {
    return (await this.repository.current(workspaceId)).map(({ id, kind, title, level, status, fileName, updatedAt }) => ({ id, kind, title, level, status, fileName, updatedAt }));
  }

  /** The table is the system of record; re-announcing it heals a control topic that was lost or trimmed. */
  private async republishAll(): Promise<void> {
    const rules = await this.repository.current();
    const byWorkspace = new Map<string, CustomerRule[]>((await this.repository.workspaces()).map((w) => [w, []]));
    for (const { workspaceId, ...rule } of rules) byWorkspace.get(workspaceId)?.push(rule) ?? byWorkspace.set(workspaceId, [rule]);
    for (const [workspaceId, set] of byWorkspace) await this.publish(workspaceId, set, this.lastVersion);
  }

  private async publish(workspaceId: string, rules: CustomerRule[], version: number): Promise<void> {
    const set: WorkspaceRuleSet = { v: 1, workspaceId, version, rules };
    await this.bus.publish(TOPICS.rules.name, [{ key: workspaceId, value: encodeRuleSetRecord(set) }]);
  }

  private nextVersion(): number {
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1);
    return this.lastVersion;
  }

  private serialised<T>(workspaceId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(workspaceId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    this.queues.set(workspaceId, tail);
    void tail.then(() => {
      if (this.queues.get(workspaceId) === tail) this.queues.delete(workspaceId);
    });
    return run;
  }
}

function withoutWorkspace(rule: CustomerRule & { workspaceId?: string }): CustomerRule {
  const { workspaceId: _workspaceId, ...rest } = rule;
  return rest;
}

/** References of the stored correlations a merge keeps, read back from their sources. */
function correlationReferences(rules: readonly CustomerRule[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const rule of rules) {
    if (rule.kind !== 'correlation') continue;
    for (const doc of loadSigmaDocuments(rule.source, rule.fileName).documents) {
      const compiled = compileCorrelation(doc);
      if (compiled.ok && compiled.correlation.id === rule.id) out.set(rule.id, compiled.correlation.rules);
    }
  }
  return out;
}
