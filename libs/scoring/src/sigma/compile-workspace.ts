import type { CustomerRule, QuarantinedRule, TelemetryType, WorkspacePlaceholders, WorkspaceRuleSet } from '@vigil/contracts';
import {
  compileCorrelation,
  compileFilter,
  compileRule,
  CorrelationEngine,
  documentCost,
  loadSigmaDocuments,
  ruleBudgetError,
  RuleSet,
  WorkspaceBudget,
  type CompiledCorrelation,
  type CompiledFilter,
  type CompiledRule,
} from '@vigil/sigma';

/** Why a stored document was quarantined, in the few words a metric label may hold. */
export type QuarantineCause = 'compile' | 'budget' | 'exception';

/** A quarantined document with the cause of its quarantine. */
export interface Quarantine extends QuarantinedRule {
  cause: QuarantineCause;
}

/**
 * What one rule-set record compiles to, shared by every partition's engine: compiled rules and filters with
 * their pre-filter, the correlations that can run, and the documents that could not be loaded. Immutable.
 */
export interface CompiledRules {
  version: number;
  ruleSet: RuleSet;
  rules: readonly CompiledRule[];
  /** Correlations whose references all resolve (the others are quarantined). */
  correlationList: readonly CompiledCorrelation[];
  types: ReadonlySet<TelemetryType>;
  /** Documents that could not be loaded: compile errors, budgets exceeded, exceptions. The others still run. */
  quarantined: readonly Quarantine[];
}

/** One workspace's customer rules as one partition's engine holds them: the shared rules and its own correlation windows. */
export interface CompiledWorkspace extends CompiledRules {
  /** Absent when the workspace has no (usable) correlation. */
  correlations?: CorrelationEngine;
  /** Rules that only feed `generate: false` correlations: they do not report on their own. */
  suppressed: ReadonlySet<string>;
  /** The quarantined documents as log lines (`<id>: <reason>`). */
  problems: string[];
}

interface Sources {
  rules: CompiledRule[];
  filters: CompiledFilter[];
  correlations: Array<{ correlation: CompiledCorrelation; stored: CustomerRule }>;
  quarantined: Quarantine[];
}

/**
 * Loads and compiles each stored document on its own: one that fails (a compile error after an engine change,
 * SIGMA_BUDGET.rule or SIGMA_BUDGET.workspace exceeded, or an exception) is quarantined and the others load.
 * Budgets are checked before a document is compiled; the workspace budget counts documents in record order.
 */
function compileSources(stored: readonly CustomerRule[], placeholders: WorkspacePlaceholders): Sources {
  const out: Sources = { rules: [], filters: [], correlations: [], quarantined: [] };
  const budget = new WorkspaceBudget();
  const quarantine = (rule: CustomerRule, cause: QuarantineCause, reason: string) => out.quarantined.push({ id: rule.id, updatedAt: rule.updatedAt, reason, cause });
  for (const rule of stored) {
    try {
      const loaded = loadSigmaDocuments(rule.source, rule.fileName);
      if (loaded.errors.length) {
        const budgetError = loaded.errors.find((e) => e.error.startsWith('YAML budget exceeded'));
        quarantine(rule, budgetError ? 'budget' : 'compile', (budgetError ?? loaded.errors[0]).error);
        continue;
      }
      const costs = loaded.documents.map((doc) => documentCost(doc, placeholders));
      const overBudget = costs.map((cost) => ruleBudgetError(cost)).find((e) => e !== undefined) ?? admitAll(budget, costs);
      if (overBudget) {
        quarantine(rule, 'budget', overBudget);
        continue;
      }
      const compiled = compileDocuments(loaded.documents, rule, placeholders);
      if (typeof compiled === 'string') quarantine(rule, 'compile', compiled);
      else {
        out.rules.push(...compiled.rules);
        out.filters.push(...compiled.filters);
        out.correlations.push(...compiled.correlations.map((correlation) => ({ correlation, stored: rule })));
      }
    } catch (error) {
      quarantine(rule, 'exception', `compiling failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return out;
}

function admitAll(budget: WorkspaceBudget, costs: ReturnType<typeof documentCost>[]): string | undefined {
  for (const cost of costs) {
    const refused = budget.admit(cost);
    if (refused) return refused;
  }
  return undefined;
}

/** All documents of one stored rule compile, or the first error. */
function compileDocuments(documents: ReturnType<typeof loadSigmaDocuments>['documents'], stored: CustomerRule, placeholders: WorkspacePlaceholders) {
  const out = { rules: [] as CompiledRule[], filters: [] as CompiledFilter[], correlations: [] as CompiledCorrelation[] };
  for (const doc of documents) {
    if (doc.kind === 'rule') {
      const r = compileRule(doc, { placeholders });
      if (!r.ok) return r.error;
      out.rules.push(r.rule);
    } else if (doc.kind === 'filter') {
      const f = compileFilter(doc, { placeholders });
      if (!f.ok) return f.error;
      out.filters.push(f.filter);
    } else {
      const c = compileCorrelation(doc);
      if (!c.ok) return c.error;
      out.correlations.push(c.correlation);
    }
  }
  if (documents.length === 0) return `stored rule ${stored.id} holds no Sigma document`;
  return out;
}

/**
 * Correlations whose references do not resolve (or form a cycle) are quarantined one by one, with the engine's
 * own error, until the rest make a valid engine.
 */
function usableCorrelations(candidates: Sources['correlations'], rules: readonly CompiledRule[], quarantined: Quarantine[]): CompiledCorrelation[] {
  let remaining = [...candidates];
  while (remaining.length > 0) {
    const created = CorrelationEngine.create(
      remaining.map((c) => c.correlation),
      rules,
    );
    if (created.ok) break;
    const broken = remaining.filter(({ correlation }) => created.errors.some((e) => e.startsWith(`correlation '${correlation.title}':`)));
    // An error that names no remaining correlation cannot be pinned on one: none of them runs.
    const dropped = broken.length ? broken : remaining;
    for (const { correlation, stored } of dropped) {
      const reason = created.errors.filter((e) => e.startsWith(`correlation '${correlation.title}':`)).join('; ') || created.errors.join('; ');
      quarantined.push({ id: stored.id, updatedAt: stored.updatedAt, reason, cause: 'compile' });
    }
    remaining = remaining.filter((c) => !dropped.includes(c));
  }
  return remaining.map((c) => c.correlation);
}

/** Compiled rules per rule-set record: every partition's engine of this process applies the same record object. */
const compiledRecords = new WeakMap<WorkspaceRuleSet, CompiledRules>();

/**
 * Compiles a workspace's rule set from its sources, once per record: rules with their filters (`expand` with the
 * workspace's placeholders), the correlations over them, and the quarantine of what cannot be loaded.
 */
export function compileWorkspaceRules(set: WorkspaceRuleSet): CompiledRules {
  const cached = compiledRecords.get(set);
  if (cached !== undefined) return cached;
  const sources = compileSources(set.rules, set.placeholders ?? {});
  const correlationList = usableCorrelations(sources.correlations, sources.rules, sources.quarantined);
  const compiled: CompiledRules = {
    version: set.version,
    ruleSet: RuleSet.compile(sources.rules, sources.filters),
    rules: sources.rules,
    correlationList,
    types: new Set(sources.rules.flatMap((r) => r.eventTypes)),
    quarantined: sources.quarantined,
  };
  compiledRecords.set(set, compiled);
  return compiled;
}

/** A workspace's rule set for one partition's engine: the shared compiled rules and correlation windows of its own. */
export function compileWorkspace(set: WorkspaceRuleSet): CompiledWorkspace {
  const shared = compileWorkspaceRules(set);
  let engine: CorrelationEngine | undefined;
  if (shared.correlationList.length > 0) {
    const created = CorrelationEngine.create(shared.correlationList, shared.rules);
    if (created.ok) engine = created.engine;
  }
  return {
    ...shared,
    correlations: engine,
    correlationList: engine ? shared.correlationList : [],
    suppressed: engine?.suppressedRuleIds([...shared.rules]) ?? new Set(),
    problems: shared.quarantined.map((q) => `${q.id}: ${q.reason}`),
  };
}
