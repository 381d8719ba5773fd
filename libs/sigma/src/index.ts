export type {
  AttackRef,
  CompiledRule,
  SigmaDocument,
  SigmaDocumentKind,
  SigmaEnrichment,
  SigmaError,
  SigmaLogsource,
  SigmaMeta,
  SigmaSeverity,
} from './types';
export { loadSigmaDocuments, YAML_LIMITS, yamlExpansionError, yamlTextError, type LoadResult } from './load/yaml-loader';
export { SIGMA_BUDGET, type SigmaBudget } from './load/sigma-budget';
export { scanYamlText, type YamlTextShape } from './load/yaml-scan';
export { documentCost, ruleBudgetError, WorkspaceBudget, NO_COST, type RuleCost } from './compile/rule-cost';
export { compileRule, type CompileOptions, type CompileRuleResult } from './compile/rule-compiler';
export { readMeta } from './compile/meta';
export { compileFilter, type CompiledFilter, type CompileFilterResult } from './compile/filter-compiler';
export { KNOWN_MODIFIERS } from './compile/modifiers';
export {
  compileCorrelation,
  CORRELATION_TYPES,
  type CompiledCorrelation,
  type CompileCorrelationResult,
  type CorrelationType,
} from './correlation/correlation-compiler';
export {
  CorrelationEngine,
  type CorrelationEngineOptions,
  type CorrelationInput,
  type CorrelationMatch,
} from './correlation/correlation-engine';
export { RuleSet } from './match/rule-set';
export { SUPPORTED_LOGSOURCES } from './logsource/routing';
