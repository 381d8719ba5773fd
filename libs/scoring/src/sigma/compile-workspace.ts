import type { CustomerRule, TelemetryType, WorkspacePlaceholders, WorkspaceRuleSet } from '@vigil/contracts';
import {
  compileCorrelation,
  compileFilter,
  compileRule,
  CorrelationEngine,
  loadSigmaDocuments,
  RuleSet,
  type CompiledCorrelation,
  type CompiledFilter,
  type CompiledRule,
} from '@vigil/sigma';

/** One workspace's customer rules, compiled once per rule-set version. */
export interface CompiledWorkspace {
  version: number;
  ruleSet: RuleSet;
  /** Absent when the workspace has no (usable) correlation. */
  correlations?: CorrelationEngine;
  correlationList: CompiledCorrelation[];
  /** Rules that only feed `generate: false` correlations: they do not report on their own. */
  suppressed: ReadonlySet<string>;
  types: ReadonlySet<TelemetryType>;
  /** Documents that no longer compile (validated at upload, so only after an engine change): skipped. */
  problems: string[];
}

function compileSources(rules: readonly CustomerRule[], placeholders: WorkspacePlaceholders) {
  const compiled = { rules: [] as CompiledRule[], filters: [] as CompiledFilter[], correlations: [] as CompiledCorrelation[], problems: [] as string[] };
  for (const stored of rules) {
    const loaded = loadSigmaDocuments(stored.source, stored.fileName);
    compiled.problems.push(...loaded.errors.map((e) => `${stored.id}: ${e.error}`));
    for (const doc of loaded.documents) {
      if (doc.kind === 'rule') {
        const r = compileRule(doc, { placeholders });
        if (r.ok) compiled.rules.push(r.rule);
        else compiled.problems.push(`${stored.id}: ${r.error}`);
      } else if (doc.kind === 'filter') {
        const f = compileFilter(doc, { placeholders });
        if (f.ok) compiled.filters.push(f.filter);
        else compiled.problems.push(`${stored.id}: ${f.error}`);
      } else {
        const c = compileCorrelation(doc);
        if (c.ok) compiled.correlations.push(c.correlation);
        else compiled.problems.push(`${stored.id}: ${c.error}`);
      }
    }
  }
  return compiled;
}

/**
 * Compiles a workspace's rule set from its sources: rules with their filters (`expand` with the workspace's
 * placeholders), and the correlations over them.
 */
export function compileWorkspace(set: WorkspaceRuleSet): CompiledWorkspace {
  const { rules, filters, correlations, problems } = compileSources(set.rules, set.placeholders ?? {});
  let engine: CorrelationEngine | undefined;
  if (correlations.length > 0) {
    const created = CorrelationEngine.create(correlations, rules);
    if (created.ok) engine = created.engine;
    else problems.push(...created.errors);
  }
  return {
    version: set.version,
    ruleSet: RuleSet.compile(rules, filters),
    correlations: engine,
    correlationList: engine ? correlations : [],
    suppressed: engine?.suppressedRuleIds(rules) ?? new Set(),
    types: new Set(rules.flatMap((r) => r.eventTypes)),
    problems,
  };
}
