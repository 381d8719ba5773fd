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
import { compileCorrelation, loadSigmaDocuments } from '@vigil/sigma';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { CustomerRulesRepository } from './store/customer-rules.repository';
import { RULES_MIGRATIONS } from './store/migrations';
import { PlaceholdersRepository } from './store/placeholders.repository';
import { isPlaceholdersFile, parsePlaceholdersFile } from './upload/placeholders-file';
import { checkCorrelations, rulesBrokenByPlaceholders, validateRuleFiles } from './upload/rule-validation';
import type { ImportMode, UploadOptions } from './upload/upload-params';
import { readRuleZip, type ZipRuleFile } from './upload/zip-reader';

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

/** The placeholders an upload applies, and the errors of its placeholders file. */
interface ResolvedPlaceholders {
  placeholders: WorkspacePlaceholders;
  /** Name of the valid placeholders file that set them (absent: carried over or cleared by the import mode). */
  file?: string;
  errors: DetectionValidationError[];
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
  private placeholders!: PlaceholdersRepository;
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
    const store = await this.stores.open('rules', RULES_MIGRATIONS);
    this.repository = new CustomerRulesRepository(store);
    this.placeholders = new PlaceholdersRepository(store);
    this.lastVersion = Math.max(await this.repository.maxVersion(), await this.placeholders.maxVersion());
    await this.republishAll();
    this.readiness.ready('customer-rules');
  }

  /**
   * Reads, validates and (unless `dryRun`) stores an archive's rules. Valid rules of a mixed upload are stored.
   * @throws ZipRejectedError when the archive itself is refused (nothing is stored).
   */
  async upload(workspaceId: string, zip: Buffer, options: UploadOptions): Promise<UploadOutcome> {
    const contents = await readRuleZip(zip);
    const ruleFiles = contents.files.filter((f) => !isPlaceholdersFile(f.fileName));
    const placeholderFiles = contents.files.filter((f) => isPlaceholdersFile(f.fileName));
    return this.serialised(workspaceId, async () => {
      const existing = await this.repository.current(workspaceId);
      const existingPlaceholders = await this.placeholders.get(workspaceId);
      const resolved = resolvePlaceholders(placeholderFiles, options.mode, existingPlaceholders);
      const validate = (placeholders: WorkspacePlaceholders) => {
        const validated = validateRuleFiles(ruleFiles, placeholders);
        const uploadedIds = new Set(validated.candidates.map((c) => c.id));
        return { validated, kept: options.mode === 'replace' ? [] : existing.filter((r) => !uploadedIds.has(r.id)) };
      };
      let { validated, kept } = validate(resolved.placeholders);
      if (resolved.file !== undefined && options.mode === 'merge') {
        // New placeholders must still serve the rules a merge keeps; otherwise the old ones stay.
        const broken = rulesBrokenByPlaceholders(kept, resolved.placeholders);
        if (broken.length) {
          resolved.errors.push({ fileName: resolved.file, error: `placeholders not applied: ${broken.join('; ')}` });
          resolved.placeholders = existingPlaceholders;
          resolved.file = undefined;
          ({ validated, kept } = validate(existingPlaceholders));
        }
      }
      const checked = checkCorrelations(validated.candidates, validated.references, kept, correlationReferences(kept));
      const errors = [...resolved.errors, ...validated.errors, ...checked.errors];
      const outcome: UploadOutcome = {
        valid: checked.candidates.length,
        invalid: errors.length,
        errors,
        ignored: contents.ignored,
        ...(resolved.file !== undefined ? { placeholdersFile: resolved.file } : {}),
      };
      if (options.dryRun) return outcome;

      const version = this.nextVersion();
      const updatedAt = new Date().toISOString();
      const stored: CustomerRule[] = checked.candidates.map((c) => ({ ...c, updatedAt }));
      const storedIds = new Set(stored.map((r) => r.id));
      const removed = options.mode === 'replace' ? existing.filter((r) => !storedIds.has(r.id)).map((r) => ({ ...r, updatedAt })) : [];
      await this.repository.save(workspaceId, removed, version, true);
      await this.repository.save(workspaceId, stored, version);
      const placeholdersChanged = JSON.stringify(resolved.placeholders) !== JSON.stringify(existingPlaceholders);
      if (placeholdersChanged) await this.placeholders.save(workspaceId, resolved.placeholders, version, updatedAt);
      await this.publish(workspaceId, [...kept.map(withoutWorkspace), ...stored], version, resolved.placeholders);
      this.logger.log(
        `workspace ${workspaceId}: ${options.mode} upload stored ${stored.length} rule(s), removed ${removed.length}, refused ${errors.length}` +
          (placeholdersChanged ? `, set ${Object.keys(resolved.placeholders).length} placeholder(s)` : ''),
      );
      return outcome;
    });
  }

  async list(workspaceId: string): Promise<CustomerRuleSummary[]> {
    return (await this.repository.current(workspaceId)).map(({ id, kind, title, level, status, fileName, updatedAt }) => ({ id, kind, title, level, status, fileName, updatedAt }));
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

/**
 * merge: a valid file replaces the placeholders, no file (or an invalid one) keeps them; replace: a valid file
 * sets them, otherwise there are none. Only one placeholders file per archive.
 */
function resolvePlaceholders(files: readonly ZipRuleFile[], mode: ImportMode, existing: WorkspacePlaceholders): ResolvedPlaceholders {
  const fallback = mode === 'merge' ? existing : {};
  const [file, ...extra] = files;
  const errors: DetectionValidationError[] = extra.map((f) => ({ fileName: f.fileName, error: `only one placeholders file per archive; ${file.fileName} is used` }));
  if (file === undefined) return { placeholders: fallback, errors };
  const parsed = parsePlaceholdersFile(file.text);
  if (!parsed.ok) return { placeholders: fallback, errors: [{ fileName: file.fileName, error: parsed.error }, ...errors] };
  return { placeholders: parsed.placeholders, file: file.fileName, errors };
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
