import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { CustomerRule, DetectionValidationError, WorkspacePlaceholders } from '@vigil/contracts';
import {
  compileCorrelation,
  compileFilter,
  compileRule,
  documentCost,
  loadSigmaDocuments,
  NO_COST,
  readMeta,
  ruleBudgetError,
  WorkspaceBudget,
  type CompileOptions,
  type RuleCost,
  type SigmaDocument,
} from '@vigil/sigma';
import type { ImportMode } from './upload-params';
import type { ZipRuleFile } from './zip-reader';

/** A document that passed validation, ready to be stored (without its upload time). */
export type RuleCandidate = Omit<CustomerRule, 'updatedAt'>;

export interface ValidationOutcome {
  candidates: RuleCandidate[];
  errors: DetectionValidationError[];
}

export interface ValidationOptions {
  /** The workspace's `expand` placeholders the rules are compiled with. */
  placeholders?: WorkspacePlaceholders;
  /** The workspace's stored rules: those the upload keeps count against the workspace budget. */
  existing?: readonly CustomerRule[];
  /** `replace` keeps no stored rule; `merge` (default) keeps those whose id the upload does not bring. */
  mode?: ImportMode;
  /** Told which file is being worked on (the worker's progress note). */
  progress?: (fileName: string) => void;
}

interface CompiledMeta {
  id: string;
  name?: string;
  title: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function compileDocument(doc: SigmaDocument, options: CompileOptions): { ok: true; meta: CompiledMeta; references: string[] } | { ok: false; error: string } {
  if (doc.kind === 'rule') {
    const r = compileRule(doc, options);
    return r.ok ? { ok: true, meta: r.rule, references: [] } : r;
  }
  if (doc.kind === 'filter') {
    const f = compileFilter(doc, options);
    // A filter may name rules that arrive later: its references are not checked.
    return f.ok ? { ok: true, meta: { id: f.filter.id, title: f.filter.title }, references: [] } : f;
  }
  const c = compileCorrelation(doc);
  return c.ok ? { ok: true, meta: c.correlation, references: c.correlation.rules } : c;
}

/** One loaded document of an uploaded file. */
interface UploadedDocument {
  file: ZipRuleFile;
  doc: SigmaDocument;
  /** Its identity (as compiling would give it), known before compiling. */
  id: string;
  /** Prefix of its errors: which document of a multi-document file. */
  where: string;
  multi: boolean;
}

/**
 * Validates every document of every rule file: YAML safety, the official schemas, the rule and workspace
 * budgets (SIGMA_BUDGET) and compilation (all in @vigil/sigma). Each valid document becomes a candidate
 * identified by its Sigma id; a second document with an id already taken in the same upload is an error. Errors
 * of a document of a multi-document file name it. `expand` modifiers are compiled with the workspace's
 * `placeholders`.
 *
 * The workspace budget is checked before a document is compiled, against the stored rules the upload keeps plus
 * the documents admitted before it (in archive order); a document that would take the workspace over it is
 * refused with an error naming the limit. The result's `kept` are the stored rules the upload keeps.
 */
export function validateRuleFiles(files: readonly ZipRuleFile[], options: ValidationOptions = {}): ValidationOutcome & { references: Map<string, string[]>; kept: CustomerRule[] } {
  const placeholders = options.placeholders ?? {};
  const candidates: RuleCandidate[] = [];
  const errors: DetectionValidationError[] = [];
  const references = new Map<string, string[]>();
  const seen = new Map<string, string>();
  const costs = new Map<string, RuleCost>();

  const uploaded: UploadedDocument[] = [];
  for (const file of files) {
    options.progress?.(file.fileName);
    const loaded = loadSigmaDocuments(file.text, file.fileName);
    const multi = loaded.documents.length + loaded.errors.length > 1 || loaded.documents.some((d) => d.index > 0);
    const where = (index: number | undefined) => (multi && index !== undefined ? `document ${index + 1}: ` : '');
    for (const e of loaded.errors) errors.push({ fileName: file.fileName, error: where(e.document) + e.error });
    for (const doc of loaded.documents) uploaded.push({ file, doc, id: readMeta(doc.data).id, where: where(doc.index), multi });
  }

  // Stored rules stay unless a document of the upload replaces them; they are in the workspace's budget first.
  const uploadedIds = new Set(uploaded.map((u) => u.id));
  const existing = options.mode === 'replace' ? [] : (options.existing ?? []);
  const budget = new WorkspaceBudget();
  if (uploaded.length > 0) for (const rule of existing) if (!uploadedIds.has(rule.id)) budget.add(storedRuleCost(rule, placeholders));

  for (const { file, doc, id, where, multi } of uploaded) {
    options.progress?.(file.fileName);
    const previous = seen.get(id);
    if (previous !== undefined) {
      errors.push({ fileName: file.fileName, error: `${where}rule id '${id}' is already used by ${previous} in this archive` });
      continue;
    }
    const cost = documentCost(doc, placeholders);
    const overBudget = ruleBudgetError(cost) ?? budget.admit(cost);
    if (overBudget) {
      errors.push({ fileName: file.fileName, error: where + overBudget });
      continue;
    }
    const compiled = compileDocument(doc, { placeholders });
    if (!compiled.ok) {
      errors.push({ fileName: file.fileName, error: where + compiled.error });
      continue;
    }
    const { name, title } = compiled.meta;
    seen.set(id, file.fileName);
    costs.set(id, cost);
    if (compiled.references.length) references.set(id, compiled.references);
    candidates.push({
      id,
      ...(name !== undefined ? { name } : {}),
      kind: doc.kind,
      title,
      level: text(doc.data.level),
      status: text(doc.data.status),
      fileName: file.fileName,
      source: multi ? stringify(doc.data) : file.text,
    });
  }

  const candidateIds = new Set(candidates.map((c) => c.id));
  const kept = existing.filter((r) => !candidateIds.has(r.id));
  if (candidates.length > 0) refuseBeyondBudget(candidates, kept, costs, placeholders, errors);
  return { candidates, errors, references, kept };
}

/**
 * A stored rule whose replacement failed to validate stays, and was not in the budget the replacement was
 * admitted against: the candidates are admitted again, in order, against the stored rules finally kept, and those
 * that no longer fit are refused.
 */
function refuseBeyondBudget(candidates: RuleCandidate[], kept: readonly CustomerRule[], costs: ReadonlyMap<string, RuleCost>, placeholders: WorkspacePlaceholders, errors: DetectionValidationError[]): void {
  const budget = new WorkspaceBudget();
  for (const rule of kept) budget.add(storedRuleCost(rule, placeholders));
  const fitting = candidates.filter((c) => {
    const refused = budget.admit(costs.get(c.id) ?? NO_COST);
    if (refused) errors.push({ fileName: c.fileName, error: refused });
    return refused === undefined;
  });
  candidates.splice(0, candidates.length, ...fitting);
}

/** What a stored rule costs, memoised by its source (and, for `expand` rules, the placeholders). */
const storedCosts = new Map<string, RuleCost>();
const STORED_COSTS_KEPT = 20_000;

export function storedRuleCost(rule: Pick<CustomerRule, 'source' | 'fileName'>, placeholders: WorkspacePlaceholders): RuleCost {
  const digest = createHash('sha256').update(rule.source);
  if (rule.source.includes('expand')) digest.update(JSON.stringify(placeholders));
  const key = digest.digest('hex');
  let cost = storedCosts.get(key);
  if (cost === undefined) {
    cost = { values: 0, patterns: 0, patternBytes: 0 };
    for (const doc of loadSigmaDocuments(rule.source, rule.fileName).documents) {
      const one = documentCost(doc, placeholders);
      cost.values += one.values;
      cost.patterns += one.patterns;
      cost.patternBytes += one.patternBytes;
    }
    if (storedCosts.size >= STORED_COSTS_KEPT) storedCosts.clear();
    storedCosts.set(key, cost);
  }
  return cost;
}

/**
 * Errors of stored rules that would no longer compile with `placeholders` (an `expand` placeholder they use is
 * gone), one per rule. Only rules whose source mentions `expand` are compiled again.
 */
export function rulesBrokenByPlaceholders(rules: readonly CustomerRule[], placeholders: WorkspacePlaceholders): string[] {
  const broken: string[] = [];
  for (const rule of rules) {
    if (rule.kind === 'correlation' || !rule.source.includes('expand')) continue;
    for (const doc of loadSigmaDocuments(rule.source, rule.fileName).documents) {
      const compiled = compileDocument(doc, { placeholders });
      if (!compiled.ok) broken.push(`stored rule '${rule.id}' (${rule.fileName}): ${compiled.error}`);
    }
  }
  return broken;
}

/**
 * Correlations must refer to rules or correlations of the workspace's resulting set, without cycles. Returns
 * the candidates that pass and an error for each correlation that does not.
 */
export function checkCorrelations(
  candidates: readonly RuleCandidate[],
  references: ReadonlyMap<string, string[]>,
  kept: readonly Pick<CustomerRule, 'id' | 'name' | 'kind'>[],
  keptReferences: ReadonlyMap<string, string[]>,
): ValidationOutcome {
  const all = [...kept, ...candidates];
  const byRef = new Map<string, Pick<CustomerRule, 'id' | 'kind'>>();
  for (const r of all) {
    byRef.set(r.id, r);
    if (r.name !== undefined) byRef.set(r.name, r);
  }
  const refsOf = (id: string) => references.get(id) ?? keptReferences.get(id) ?? [];
  const errors: DetectionValidationError[] = [];
  const passed: RuleCandidate[] = [];
  for (const c of candidates) {
    if (c.kind !== 'correlation') {
      passed.push(c);
      continue;
    }
    const missing = refsOf(c.id).filter((ref) => !byRef.has(ref) || byRef.get(ref)!.kind === 'filter' || byRef.get(ref)!.id === c.id);
    if (missing.length) {
      errors.push({ fileName: c.fileName, error: `correlation '${c.title}': referenced rule${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} not found among the workspace's rules` });
      continue;
    }
    const cycle = findCycle(c.id, (id) => refsOf(id).map((ref) => byRef.get(ref)!).filter((r) => r?.kind === 'correlation').map((r) => r.id));
    if (cycle) {
      errors.push({ fileName: c.fileName, error: `correlation '${c.title}': reference cycle ${cycle.join(' → ')}` });
      continue;
    }
    passed.push(c);
  }
  return { candidates: passed, errors };
}

function findCycle(start: string, next: (id: string) => string[]): string[] | undefined {
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (id: string): string[] | undefined => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return undefined;
    onPath.add(id);
    path.push(id);
    for (const n of next(id)) {
      const found = visit(n);
      if (found) return found;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return undefined;
  };
  return visit(start);
}
