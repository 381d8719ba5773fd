import type { TelemetryType } from '@vigil/contracts';
import { isTelemetryType } from '@vigil/contracts';
import { legacySyntaxError } from '../load/legacy-syntax';
import { routeLogsource } from '../logsource/routing';
import { EventView } from '../match/event-view';
import type { CompiledRule, SigmaDocument, SigmaEnrichment, SigmaLogsource } from '../types';
import { compileDetection, type CompiledDetection } from './detection';
import { readMeta } from './meta';
import { detectionPlans } from './plans';
import { detectionCost, ruleBudgetError } from './rule-cost';

export interface CompileOptions {
  /** `expand` placeholders configured for the workspace: `%name%` → values. */
  placeholders?: Readonly<Record<string, readonly string[]>>;
}

export type CompileRuleResult = { ok: true; rule: CompiledRule } | { ok: false; error: string };

function readLogsource(v: unknown): SigmaLogsource {
  const l = (v ?? {}) as Record<string, unknown>;
  const pick = (k: string) => (typeof l[k] === 'string' ? (l[k] as string) : undefined);
  return { category: pick('category'), product: pick('product'), service: pick('service') };
}

export interface CompiledBody {
  eventTypes: TelemetryType[];
  plans: Map<TelemetryType, CompiledDetection>;
  warnings: string[];
}

/** Routes a logsource and compiles a detection body once per event type it feeds on. */
export function compileBody(logsource: SigmaLogsource, detection: unknown, options: CompileOptions): CompiledBody | string {
  const routing = routeLogsource(logsource);
  if (typeof routing === 'string') return routing;
  if (detection === null || typeof detection !== 'object' || Array.isArray(detection)) return `'detection' must be a map`;
  // Counted on the data first: a rule over its budget is refused before any of it is compiled.
  const overBudget = ruleBudgetError(detectionCost(detection, routing.eventTypes.length, options.placeholders));
  if (overBudget) return overBudget;
  const plans = new Map<TelemetryType, CompiledDetection>();
  const unknownByType: Array<Set<string>> = [];
  for (const type of routing.eventTypes) {
    const unknownFields = new Set<string>();
    const compiled = compileDetection(detection as Record<string, unknown>, { type, placeholders: options.placeholders ?? {}, unknownFields });
    if (typeof compiled === 'string') return compiled;
    plans.set(type, compiled);
    unknownByType.push(unknownFields);
  }
  // A field is missing when none of the routed event types carries it.
  const missing = [...unknownByType[0]].filter((f) => unknownByType.every((set) => set.has(f)));
  const warnings: string[] = [];
  if (missing.length) {
    if (routing.networkFieldsOnly) {
      return (
        `logsource category ${logsource.category} is supported only for rules that use network fields; ` +
        `field${missing.length > 1 ? 's' : ''} ${missing.map((f) => `'${f}'`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not carried by network telemetry`
      );
    }
    for (const f of missing) warnings.push(`field '${f}' is not carried by Vigil's ${routing.eventTypes.join('/')} events: it reads as absent`);
  }
  return { eventTypes: routing.eventTypes, plans, warnings };
}

/** Validates and compiles a Sigma detection rule to closures, once. */
export function compileRule(doc: SigmaDocument | Record<string, unknown>, options: CompileOptions = {}): CompileRuleResult {
  const data = isDocument(doc) ? doc.data : doc;
  if (isDocument(doc) && doc.kind !== 'rule') return { ok: false, error: `a ${doc.kind} document is not a detection rule` };
  if (data === null || typeof data !== 'object') return { ok: false, error: 'a Sigma rule must be a map' };
  if (typeof data.title !== 'string') return { ok: false, error: "missing required attribute 'title'" };
  if (data.logsource === undefined) return { ok: false, error: "missing required attribute 'logsource'" };
  if (data.detection === undefined) return { ok: false, error: "missing required attribute 'detection'" };
  const legacy = legacySyntaxError(data);
  if (legacy) return { ok: false, error: legacy };
  const logsource = readLogsource(data.logsource);
  const body = compileBody(logsource, data.detection, options);
  if (typeof body === 'string') return { ok: false, error: body };
  const plans = body.plans;
  const rule: CompiledRule = {
    kind: 'rule',
    ...readMeta(data),
    logsource,
    eventTypes: body.eventTypes,
    warnings: body.warnings,
    matches(type: TelemetryType, event: object, enrichment?: SigmaEnrichment): boolean {
      if (!isTelemetryType(type)) return false;
      const plan = plans.get(type);
      return plan !== undefined && plan.test(new EventView(type, event as Record<string, unknown>, enrichment));
    },
  };
  detectionPlans.set(rule, plans);
  return { ok: true, rule };
}

function isDocument(doc: SigmaDocument | Record<string, unknown>): doc is SigmaDocument {
  return typeof (doc as SigmaDocument).kind === 'string' && typeof (doc as SigmaDocument).data === 'object' && 'fileName' in doc;
}
