import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { BUS, type Bus } from '@vigil/bus';
import {
  encodeRuleSetRecord,
  TOPICS,
  type CustomerRule,
  type CustomerRuleSummary,
  type DetectionValidationError,
  type WorkspacePlaceholders,
  type WorkspaceRuleSet,
} from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { CustomerRulesRepository } from './store/customer-rules.repository';
import { RULES_MIGRATIONS } from './store/migrations';
import { PlaceholdersRepository } from './store/placeholders.repository';
import { RuleStatusBoard } from './status/rule-status-board';
import { isPlaceholdersFile } from './upload/placeholders-file';
import { screenRuleFiles } from './upload/text-screen';
import type { UploadOptions } from './upload/upload-params';
import { UploadValidator } from './upload/upload-validator';
import { readRuleZip } from './upload/zip-reader';

export interface UploadOutcome {
  /** Documents that passed validation (stored unless dry run). */
  valid: number;
  invalid: number;
  errors: DetectionValidationError[];
  /** Archive entries that are not rule files. */
  ignored: string[];
  /** The placeholders file of the archive, when it was valid (its placeholders apply, unless dry run). */
  placeholdersFile?: string;
}

/**
 * Customer Sigma rules: validates uploads, stores them per workspace (the system of record) and announces each
 * workspace's whole current rule set on the compacted `ctl.rules.v1`, keyed by workspace id, from which every
 * scoring-engine instance compiles. Uploads of one workspace are applied one after another; each upload's
 * validation runs in a worker thread under SIGMA_BUDGET.upload (see {@link UploadValidator}).
 */
@Injectable()
export class CustomerRulesService implements OnApplicationBootstrap {
  private readonly logger = new Logger(CustomerRulesService.name);
  private repository!: CustomerRulesRepository;
  private placeholders!: PlaceholdersRepository;
  private lastVersion = 0;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
    @Inject(BUS) private readonly bus: Bus,
    private readonly readiness: Readiness,
    private readonly validator: UploadValidator,
    private readonly statuses: RuleStatusBoard,
  ) {
    readiness.expect('customer-rules');
  }

  async onApplicationBootstrap(): Promise<void> {
    const store = await this.stores.open('rules', RULES_MIGRATIONS);
    this.repository = new CustomerRulesRepository(store);
    this.placeholders = new PlaceholdersRepository(store);
    this.lastVersion = Math.max(await this.repository.maxVersion(), await this.placeholders.maxVersion());
    await this.republishAll();
    this.readiness.ready('customer-rules');
  }

  /**
   * Reads, validates and (unless `dryRun`) stores an archive's rules. Valid rules of a mixed upload are stored.
   * @throws ZipRejectedError when the archive itself is refused; UploadBudgetError when its validation overran
   * its budget; UploadValidationBusyError when too many uploads wait (nothing is stored in any of these cases).
   */
  async upload(workspaceId: string, zip: Buffer, options: UploadOptions): Promise<UploadOutcome> {
    const contents = await readRuleZip(zip);
    const screened = await screenRuleFiles(contents.files);
    const ruleFiles = screened.passed.filter((f) => !isPlaceholdersFile(f.fileName));
    const placeholderFiles = screened.passed.filter((f) => isPlaceholdersFile(f.fileName));
    return this.serialised(workspaceId, async () => {
      const existing = (await this.repository.current(workspaceId)).map(withoutWorkspace);
      const existingPlaceholders = await this.placeholders.get(workspaceId);
      const evaluation = await this.validator.evaluate({ ruleFiles, placeholderFiles, mode: options.mode, existing, existingPlaceholders });
      const errors = [...screened.errors, ...evaluation.errors];
      const outcome: UploadOutcome = {
        valid: evaluation.candidates.length,
        invalid: errors.length,
        errors,
        ignored: contents.ignored,
        ...(evaluation.placeholdersFile !== undefined ? { placeholdersFile: evaluation.placeholdersFile } : {}),
      };
      if (options.dryRun) return outcome;

      const version = this.nextVersion();
      const updatedAt = new Date().toISOString();
      const stored: CustomerRule[] = evaluation.candidates.map((c) => ({ ...c, updatedAt }));
      const keptIds = new Set(evaluation.keptIds);
      const kept = existing.filter((r) => keptIds.has(r.id));
      const storedIds = new Set(stored.map((r) => r.id));
      const removed = options.mode === 'replace' ? existing.filter((r) => !storedIds.has(r.id)).map((r) => ({ ...r, updatedAt })) : [];
      await this.repository.save(workspaceId, removed, version, true);
      await this.repository.save(workspaceId, stored, version);
      const placeholdersChanged = JSON.stringify(evaluation.placeholders) !== JSON.stringify(existingPlaceholders);
      if (placeholdersChanged) await this.placeholders.save(workspaceId, evaluation.placeholders, version, updatedAt);
      await this.publish(workspaceId, [...kept, ...stored], version, evaluation.placeholders);
      this.logger.log(
        `workspace ${workspaceId}: ${options.mode} upload stored ${stored.length} rule(s), removed ${removed.length}, refused ${errors.length}` +
          (placeholdersChanged ? `, set ${Object.keys(evaluation.placeholders).length} placeholder(s)` : ''),
      );
      return outcome;
    });
  }

  async list(workspaceId: string): Promise<CustomerRuleSummary[]> {
    return (await this.repository.current(workspaceId)).map(({ id, kind, title, level, status, fileName, updatedAt }) => ({
      id,
      kind,
      title,
      level,
      status,
      fileName,
      updatedAt,
      ...this.statuses.stateOf(workspaceId, { id, updatedAt }),
    }));
  }

  /**
   * Deletes the workspace's rules with these ids (stored as deleted, then the remaining set is announced) and
   * answers the ids it deleted; unknown ids are skipped. A correlation rule that refers to a deleted rule is
   * quarantined by the scoring engines, as after any change that breaks it.
   */
  async remove(workspaceId: string, ids: readonly string[]): Promise<string[]> {
    return this.serialised(workspaceId, async () => {
      const existing = (await this.repository.current(workspaceId)).map(withoutWorkspace);
      const wanted = new Set(ids);
      const updatedAt = new Date().toISOString();
      const removed = existing.filter((r) => wanted.has(r.id)).map((r) => ({ ...r, updatedAt }));
      if (removed.length === 0) return [];
      const version = this.nextVersion();
      await this.repository.save(workspaceId, removed, version, true);
      await this.publish(workspaceId, existing.filter((r) => !wanted.has(r.id)), version, await this.placeholders.get(workspaceId));
      this.logger.log(`workspace ${workspaceId}: deleted ${removed.length} rule(s)`);
      return removed.map((r) => r.id);
    });
  }

  /** The workspace's configured `expand` placeholders ({} when none). */
  async placeholdersOf(workspaceId: string): Promise<WorkspacePlaceholders> {
    return this.placeholders.get(workspaceId);
  }

  /** The tables are the system of record; re-announcing them heals a control topic that was lost or trimmed. */
  private async republishAll(): Promise<void> {
    const rules = await this.repository.current();
    const placeholders = await this.placeholders.all();
    const byWorkspace = new Map<string, CustomerRule[]>([...(await this.repository.workspaces()), ...placeholders.keys()].map((w) => [w, []]));
    for (const { workspaceId, ...rule } of rules) byWorkspace.get(workspaceId)?.push(rule) ?? byWorkspace.set(workspaceId, [rule]);
    for (const [workspaceId, set] of byWorkspace) await this.publish(workspaceId, set, this.lastVersion, placeholders.get(workspaceId) ?? {});
  }

  private async publish(workspaceId: string, rules: CustomerRule[], version: number, placeholders: WorkspacePlaceholders): Promise<void> {
    const set: WorkspaceRuleSet = { v: 1, workspaceId, version, rules, ...(Object.keys(placeholders).length ? { placeholders } : {}) };
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
