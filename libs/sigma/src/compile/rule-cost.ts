import { routeLogsource } from '../logsource/routing';
import { SIGMA_BUDGET } from '../load/sigma-budget';
import type { SigmaDocument } from '../types';

/** What compiling a document will cost, counted on its data before it is compiled. */
export interface RuleCost {
  /** Detection values as written (after alias expansion), keywords included. */
  values: number;
  /** Compiled patterns: values times their variants times the event types the logsource feeds (upper bound). */
  patterns: number;
  /** Characters of those patterns (upper bound). */
  patternBytes: number;
}

export const NO_COST: RuleCost = Object.freeze({ values: 0, patterns: 0, patternBytes: 0 });

type Placeholders = Readonly<Record<string, readonly string[]>>;

/** Matches compile's own cap on `expand` variants of one value (beyond it the value is refused). */
const MAX_EXPAND_VARIANTS = 1024;
/** `windash` writes an option dash five ways besides the original. */
const WINDASH_VARIANTS = 6;
const OPTION_DASH = /(^|\s)[-/\u2013\u2014\u2015](?=\S)/;

/**
 * The cost of a detection section (a rule's `detection`, or a filter's `filter` without `rules`), fed to
 * `eventTypes` event types. Linear in the number of values; never builds a pattern.
 */
export function detectionCost(detection: unknown, eventTypes: number, placeholders: Placeholders = {}): RuleCost {
  const cost = { values: 0, patterns: 0, patternBytes: 0 };
  if (detection === null || typeof detection !== 'object' || Array.isArray(detection)) return cost;
  const countValue = (modifiers: readonly string[], value: unknown) => {
    cost.values++;
    const [variants, bytes] = valueVariants(modifiers, value, placeholders);
    cost.patterns += variants * eventTypes;
    cost.patternBytes += bytes * eventTypes;
  };
  const countField = (spec: string, raw: unknown) => {
    const modifiers = spec.split('|').slice(1);
    for (const value of Array.isArray(raw) ? raw : [raw]) countValue(modifiers, value);
  };
  for (const [identifier, body] of Object.entries(detection as Record<string, unknown>)) {
    if (identifier === 'condition') continue;
    for (const item of Array.isArray(body) ? body : [body]) {
      if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
        for (const [spec, raw] of Object.entries(item as Record<string, unknown>)) countField(spec, raw);
      } else {
        countValue(['contains'], item); // a keyword
      }
    }
  }
  return cost;
}

/** How many patterns one value compiles to, and their characters (both upper bounds). */
function valueVariants(modifiers: readonly string[], value: unknown, placeholders: Placeholders): [number, number] {
  const text = typeof value === 'string' ? value : String(value);
  let variants = 1;
  let length = text.length;
  if (typeof value === 'string' && modifiers.includes('expand')) {
    for (const name of new Set([...text.matchAll(/%([A-Za-z0-9_.-]+)%/g)].map((m) => m[1]))) {
      const replacements = placeholders[name] ?? [];
      if (replacements.length === 0) continue;
      variants = Math.min(variants * replacements.length, MAX_EXPAND_VARIANTS + 1);
      const occurrences = text.split(`%${name}%`).length - 1;
      length += occurrences * Math.max(...replacements.map((r) => r.length));
    }
  }
  if (modifiers.includes('windash') && OPTION_DASH.test(text)) variants *= WINDASH_VARIANTS;
  if (modifiers.includes('base64offset')) {
    variants *= 3;
    length = Math.ceil((length * 4) / 3) + 4;
  } else if (modifiers.includes('base64')) {
    length = Math.ceil((length * 4) / 3) + 4;
  }
  return [variants, variants * length];
}

/**
 * The cost of a rule or filter document (correlations compile no pattern: {@link NO_COST}). A logsource Vigil
 * does not support costs nothing: compiling refuses it first.
 */
export function documentCost(doc: Pick<SigmaDocument, 'kind' | 'data'>, placeholders: Placeholders = {}): RuleCost {
  if (doc.kind === 'correlation') return NO_COST;
  const data = doc.data;
  const logsource = (data.logsource ?? {}) as Record<string, unknown>;
  const pick = (k: string) => (typeof logsource[k] === 'string' ? (logsource[k] as string) : undefined);
  const routing = routeLogsource({ category: pick('category'), product: pick('product'), service: pick('service') });
  const eventTypes = typeof routing === 'string' ? 0 : routing.eventTypes.length;
  if (doc.kind === 'rule') return detectionCost(data.detection, eventTypes, placeholders);
  const filter = data.filter;
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return NO_COST;
  const { rules: _rules, ...detection } = filter as Record<string, unknown>;
  return detectionCost(detection, eventTypes, placeholders);
}

/** Why one document's cost is over the per-rule budget (SIGMA_BUDGET.rule), or undefined. */
export function ruleBudgetError(cost: RuleCost): string | undefined {
  const limits = SIGMA_BUDGET.rule;
  if (cost.values > limits.maxValues) {
    return `rule budget exceeded: ${cost.values} detection values; the limit is ${limits.maxValues} per rule (SIGMA_BUDGET.rule.maxValues)`;
  }
  if (cost.patterns > limits.maxPatterns) {
    return `rule budget exceeded: ${cost.patterns} compiled patterns (values times their expand/windash/base64offset variants and event types); the limit is ${limits.maxPatterns} per rule (SIGMA_BUDGET.rule.maxPatterns)`;
  }
  if (cost.patternBytes > limits.maxPatternBytes) {
    return `rule budget exceeded: ${cost.patternBytes} characters of compiled patterns; the limit is ${limits.maxPatternBytes} per rule (SIGMA_BUDGET.rule.maxPatternBytes)`;
  }
  return undefined;
}

const WORKSPACE_LIMITS = [
  ['documents', 'documents', 'maxDocuments'],
  ['values', 'detection values', 'maxValues'],
  ['patterns', 'compiled patterns', 'maxPatterns'],
  ['patternBytes', 'characters of compiled patterns', 'maxPatternBytes'],
] as const;

/** Running totals of a workspace's rule set, checked document by document against SIGMA_BUDGET.workspace. */
export class WorkspaceBudget {
  private readonly used = { documents: 0, values: 0, patterns: 0, patternBytes: 0 };

  /** What the documents counted so far cost in all. */
  get totals(): Readonly<RuleCost & { documents: number }> {
    return { ...this.used };
  }

  /** Counts a document whatever the totals (a rule already in the set). */
  add(cost: RuleCost): void {
    this.used.documents++;
    this.used.values += cost.values;
    this.used.patterns += cost.patterns;
    this.used.patternBytes += cost.patternBytes;
  }

  /** Counts a document and returns undefined, or returns why it would take the workspace over its budget (and counts nothing). */
  admit(cost: RuleCost): string | undefined {
    const adds = { documents: 1, ...cost };
    for (const [key, what, limit] of WORKSPACE_LIMITS) {
      const max = SIGMA_BUDGET.workspace[limit];
      if (this.used[key] + adds[key] > max) {
        return `workspace budget exceeded: this document adds ${adds[key]} ${what} to the ${this.used[key]} the workspace's rule set already has; the limit is ${max} per workspace (SIGMA_BUDGET.workspace.${limit})`;
      }
    }
    this.add(cost);
    return undefined;
  }
}
