import type { TelemetryType } from '@vigil/contracts';
import type { SigmaDocument, SigmaLogsource } from '../types';
import { readMeta } from './meta';
import { detectionPlans } from './plans';
import { compileBody, type CompileOptions } from './rule-compiler';

/** A meta filter: excludes what its condition matches from the rules it names, where the logsources agree. */
export interface CompiledFilter {
  kind: 'filter';
  id: string;
  title: string;
  description?: string;
  logsource: SigmaLogsource;
  /** Rule ids or names the filter applies to. */
  rules: string[];
  eventTypes: TelemetryType[];
  warnings: string[];
}

export type CompileFilterResult = { ok: true; filter: CompiledFilter } | { ok: false; error: string };

export function compileFilter(doc: SigmaDocument | Record<string, unknown>, options: CompileOptions = {}): CompileFilterResult {
  const data = 'kind' in doc && 'data' in doc ? (doc as SigmaDocument).data : (doc as Record<string, unknown>);
  const body = data.filter as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, error: "missing required attribute 'filter'" };
  const rules = Array.isArray(body.rules) ? body.rules.filter((r): r is string => typeof r === 'string') : [];
  if (rules.length === 0) return { ok: false, error: "filter: 'rules' must list at least one rule id or name" };
  const { rules: _rules, ...detection } = body;
  const l = (data.logsource ?? {}) as Record<string, string | undefined>;
  const logsource: SigmaLogsource = { category: l.category, product: l.product, service: l.service };
  const compiled = compileBody(logsource, detection, options);
  if (typeof compiled === 'string') return { ok: false, error: `filter: ${compiled}` };
  const meta = readMeta(data);
  const filter: CompiledFilter = {
    kind: 'filter',
    id: meta.id,
    title: meta.title,
    description: meta.description,
    logsource,
    rules,
    eventTypes: compiled.eventTypes,
    warnings: compiled.warnings,
  };
  detectionPlans.set(filter, compiled.plans);
  return { ok: true, filter };
}
