import { readMeta } from '../compile/meta';
import type { SigmaDocument, SigmaMeta } from '../types';

export const CORRELATION_TYPES = ['event_count', 'value_count', 'temporal', 'temporal_ordered', 'value_sum', 'value_avg', 'value_percentile'] as const;
export type CorrelationType = (typeof CORRELATION_TYPES)[number];
export const CONDITION_OPS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

export interface CorrelationCondition {
  /** Every comparison must hold (e.g. `gte: 10, lt: 20` is a range). */
  comparisons: Array<{ op: ConditionOp; value: number }>;
  /** The field value_* types aggregate. */
  field?: string;
}

/** A correlation rule, validated; the engine resolves its references. */
export interface CompiledCorrelation extends SigmaMeta {
  kind: 'correlation';
  type: CorrelationType;
  /** Referenced rule or correlation ids/names, in order (temporal_ordered). */
  rules: string[];
  groupBy: string[];
  timespanMs: number;
  condition: CorrelationCondition;
  /** alias → (rule id/name → field name on that rule's events). */
  aliases: Record<string, Record<string, string>>;
  /** Whether the referenced rules also report on their own. */
  generate: boolean;
}

export type CompileCorrelationResult = { ok: true; correlation: CompiledCorrelation } | { ok: false; error: string };

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export function parseTimespan(text: unknown): number | string {
  const m = typeof text === 'string' ? /^(\d+)([smhdw])$/.exec(text) : null;
  if (!m) return `timespan ${JSON.stringify(text)} must be a number followed by s, m, h, d or w (e.g. 5m)`;
  const ms = Number(m[1]) * UNIT_MS[m[2]];
  if (ms <= 0) return `timespan ${JSON.stringify(text)} must be longer than zero`;
  return ms;
}

export function compileCorrelation(doc: SigmaDocument | Record<string, unknown>): CompileCorrelationResult {
  const data = 'kind' in doc && 'data' in doc ? (doc as SigmaDocument).data : (doc as Record<string, unknown>);
  const fail = (error: string): CompileCorrelationResult => ({ ok: false, error: `correlation: ${error}` });
  const body = data.correlation as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return fail("missing required attribute 'correlation'");
  const type = body.type as CorrelationType;
  if (!CORRELATION_TYPES.includes(type)) return fail(`type ${JSON.stringify(body.type)} is not one of ${CORRELATION_TYPES.join(', ')}`);
  const rules = Array.isArray(body.rules) ? body.rules.filter((r): r is string => typeof r === 'string') : [];
  if (rules.length === 0) return fail("'rules' must list at least one rule id or name");
  if (new Set(rules).size !== rules.length) return fail("'rules' lists a rule twice");
  if ((type === 'temporal' || type === 'temporal_ordered') && rules.length < 2) return fail(`${type} needs at least two rules`);
  const groupBy = body['group-by'] === undefined ? [] : body['group-by'];
  if (!Array.isArray(groupBy) || groupBy.some((g) => typeof g !== 'string')) return fail("'group-by' must be a list of field names");
  const timespanMs = parseTimespan(body.timespan);
  if (typeof timespanMs === 'string') return fail(timespanMs);

  const condition: CorrelationCondition = { comparisons: [] };
  const rawCondition = body.condition;
  if (rawCondition !== undefined) {
    if (rawCondition === null || typeof rawCondition !== 'object' || Array.isArray(rawCondition)) return fail("'condition' must be a map such as {gte: 10}");
    for (const [key, value] of Object.entries(rawCondition as Record<string, unknown>)) {
      if (key === 'field') {
        if (typeof value !== 'string' || value === '') return fail("condition 'field' must be a field name");
        condition.field = value;
      } else if ((CONDITION_OPS as readonly string[]).includes(key)) {
        if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`condition ${key} needs a number, got ${JSON.stringify(value)}`);
        condition.comparisons.push({ op: key as ConditionOp, value });
      } else {
        return fail(`unknown condition operator '${key}' (known: ${CONDITION_OPS.join(', ')}, field)`);
      }
    }
  }
  const temporal = type === 'temporal' || type === 'temporal_ordered';
  if (!temporal && condition.comparisons.length === 0) return fail(`${type} needs a condition with a comparison (gt, gte, lt, lte, eq, neq)`);
  if (type.startsWith('value_') && !condition.field) return fail(`${type} needs condition 'field'`);

  const aliases: Record<string, Record<string, string>> = {};
  if (body.aliases !== undefined) {
    if (body.aliases === null || typeof body.aliases !== 'object') return fail("'aliases' must be a map");
    for (const [alias, mapping] of Object.entries(body.aliases as Record<string, unknown>)) {
      if (mapping === null || typeof mapping !== 'object' || Array.isArray(mapping)) return fail(`alias '${alias}' must map rule names to field names`);
      for (const [ruleRef, field] of Object.entries(mapping as Record<string, unknown>)) {
        if (typeof field !== 'string') return fail(`alias '${alias}': field for '${ruleRef}' must be a string`);
        if (!rules.includes(ruleRef)) return fail(`alias '${alias}' names '${ruleRef}', which the correlation does not reference`);
      }
      aliases[alias] = mapping as Record<string, string>;
    }
  }
  return {
    ok: true,
    correlation: {
      kind: 'correlation',
      ...readMeta(data),
      type,
      rules,
      groupBy: groupBy as string[],
      timespanMs,
      condition,
      aliases,
      generate: body.generate === true || data.generate === true,
    },
  };
}
