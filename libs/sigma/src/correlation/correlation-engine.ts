import type { TelemetryType } from '@vigil/contracts';
import { resolveField } from '../logsource/field-map';
import { EventView } from '../match/event-view';
import type { CompiledRule, SigmaEnrichment } from '../types';
import type { CompiledCorrelation, ConditionOp } from './correlation-compiler';
import { CorrelationWindow, type WindowEntry } from './correlation-window';

/** A base-rule match (or a correlation match, when correlations chain) fed to the engine. */
export interface CorrelationInput {
  rule: CompiledRule | CompiledCorrelation;
  type: TelemetryType;
  event: object;
  /** Event time, epoch ms. Windows follow event time, not arrival. */
  timeMs: number;
  enrichment?: SigmaEnrichment;
}

export interface CorrelationMatch {
  correlation: CompiledCorrelation;
  /** group-by field → value on the group's events (null when absent). */
  group: Record<string, string | null>;
  firstTimeMs: number;
  lastTimeMs: number;
  eventCount: number;
  /** What the condition compared: the count, distinct count, sum, average or share (percent). */
  value: number;
  /** The contributing inputs still in the window (at most `sampleSize`, newest last). */
  inputs: CorrelationInput[];
  /** The input whose arrival completed the correlation. */
  trigger: CorrelationInput;
}

export interface CorrelationEngineOptions {
  /** Events kept per group (oldest dropped beyond it). */
  maxEventsPerGroup?: number;
  /** Groups kept per correlation (least recently fed dropped beyond it). */
  maxGroups?: number;
  /** Contributing inputs reported per match. */
  sampleSize?: number;
}

interface Wiring {
  correlation: CompiledCorrelation;
  groups: Map<string, CorrelationWindow>;
}

const compare: Record<ConditionOp, (a: number, b: number) => boolean> = {
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
  eq: (a, b) => a === b,
  neq: (a, b) => a !== b,
};

/** Conditions that only become true as a window fills: after firing, the group starts afresh. */
const GROWING: ConditionOp[] = ['gt', 'gte', 'eq'];

function refersTo(ref: string, target: CompiledRule | CompiledCorrelation): boolean {
  return ref === target.id || (target.name !== undefined && ref === target.name);
}

/**
 * Stateful evaluation of correlation rules over the stream of rule matches, with windows bounded
 * in time (the timespan, by event time) and in size (events per group, groups per correlation).
 */
export class CorrelationEngine {
  private readonly wirings: Wiring[];
  private readonly maxEvents: number;
  private readonly maxGroups: number;
  private readonly sampleSize: number;

  private constructor(correlations: CompiledCorrelation[], options: CorrelationEngineOptions) {
    this.wirings = correlations.map((correlation) => ({ correlation, groups: new Map() }));
    this.maxEvents = options.maxEventsPerGroup ?? 10_000;
    this.maxGroups = options.maxGroups ?? 50_000;
    this.sampleSize = options.sampleSize ?? 20;
  }

  /** Checks every reference resolves (to a rule or another correlation) and no correlation refers to itself in a cycle. */
  static create(
    correlations: readonly CompiledCorrelation[],
    rules: readonly CompiledRule[],
    options: CorrelationEngineOptions = {},
  ): { ok: true; engine: CorrelationEngine } | { ok: false; errors: string[] } {
    const errors: string[] = [];
    for (const c of correlations) {
      for (const ref of c.rules) {
        if (!rules.some((r) => refersTo(ref, r)) && !correlations.some((o) => o !== c && refersTo(ref, o))) {
          errors.push(`correlation '${c.title}': referenced rule '${ref}' does not exist`);
        }
      }
    }
    const visiting = new Set<CompiledCorrelation>();
    const done = new Set<CompiledCorrelation>();
    const visit = (c: CompiledCorrelation, path: string[]): void => {
      if (done.has(c)) return;
      if (visiting.has(c)) {
        errors.push(`correlation '${c.title}': reference cycle ${[...path, c.title].join(' → ')}`);
        return;
      }
      visiting.add(c);
      for (const ref of c.rules) for (const o of correlations) if (refersTo(ref, o)) visit(o, [...path, c.title]);
      visiting.delete(c);
      done.add(c);
    };
    correlations.forEach((c) => visit(c, []));
    if (errors.length) return { ok: false, errors: [...new Set(errors)] };
    return { ok: true, engine: new CorrelationEngine([...correlations], options) };
  }

  /** Ids of rules that only feed correlations with `generate: false` and so should not report on their own. */
  suppressedRuleIds(rules: readonly CompiledRule[]): Set<string> {
    const out = new Set<string>();
    for (const rule of rules) {
      const users = this.wirings.filter((w) => w.correlation.rules.some((ref) => refersTo(ref, rule)));
      if (users.length && users.every((w) => !w.correlation.generate)) out.add(rule.id);
    }
    return out;
  }

  /** Feeds one match; returns the correlation matches it completes (including chained correlations). */
  feed(input: CorrelationInput): CorrelationMatch[] {
    if (!Number.isFinite(input.timeMs)) return [];
    const out: CorrelationMatch[] = [];
    for (const wiring of this.wirings) {
      const source = wiring.correlation.rules.findIndex((ref) => refersTo(ref, input.rule));
      if (source === -1) continue;
      const match = this.accept(wiring, source, input);
      if (match) {
        out.push(match);
        out.push(...this.feed({ rule: match.correlation, type: input.type, event: input.event, timeMs: match.lastTimeMs, enrichment: input.enrichment }));
      }
    }
    return out;
  }

  private fieldValue(c: CompiledCorrelation, source: number, field: string, view: EventView): string | null {
    const alias = c.aliases[field]?.[c.rules[source]];
    const id = resolveField(view.type, alias ?? field);
    return id === undefined ? null : (view.strings(id)?.[0] ?? null);
  }

  private accept(wiring: Wiring, source: number, input: CorrelationInput): CorrelationMatch | undefined {
    const c = wiring.correlation;
    const view = new EventView(input.type, input.event as Record<string, unknown>, input.enrichment);
    const group: Record<string, string | null> = {};
    for (const field of c.groupBy) group[field] = this.fieldValue(c, source, field, view);
    const key = JSON.stringify(c.groupBy.map((f) => group[f]));
    let window = wiring.groups.get(key);
    if (window) wiring.groups.delete(key); // re-inserted below: Map order is recency order
    else window = new CorrelationWindow(c.timespanMs, this.maxEvents);
    wiring.groups.set(key, window);
    if (wiring.groups.size > this.maxGroups) wiring.groups.delete(wiring.groups.keys().next().value as string);

    const entry: WindowEntry = { timeMs: input.timeMs, source, sample: input };
    let current: string | undefined;
    if (c.condition.field) {
      const raw = this.fieldValue(c, source, c.condition.field, view);
      if (c.type === 'value_sum' || c.type === 'value_avg') {
        const n = raw === null ? NaN : Number(raw);
        if (Number.isFinite(n)) entry.value = n;
      } else if (raw !== null) {
        entry.value = current = raw;
      }
    }
    if (!window.add(entry)) return undefined;

    let value: number;
    let fired: boolean;
    switch (c.type) {
      case 'temporal':
        value = window.sources().size;
        fired = value === c.rules.length && this.holds(c, window.size);
        break;
      case 'temporal_ordered':
        value = window.size;
        fired = window.inOrder(c.rules.length) && this.holds(c, window.size);
        break;
      case 'event_count':
        value = window.size;
        fired = this.holds(c, value);
        break;
      case 'value_count':
        value = window.distinct;
        fired = this.holds(c, value);
        break;
      case 'value_sum':
        value = window.total;
        fired = this.holds(c, value);
        break;
      case 'value_avg':
        value = window.average;
        fired = this.holds(c, value);
        break;
      case 'value_percentile':
        if (current === undefined) return undefined;
        value = window.sharePercent(current);
        fired = this.holds(c, value);
        break;
    }
    if (!fired) return undefined;
    const entries = window.entries;
    const match: CorrelationMatch = {
      correlation: c,
      group,
      firstTimeMs: entries[0].timeMs,
      lastTimeMs: entries[entries.length - 1].timeMs,
      eventCount: entries.length,
      value,
      inputs: entries.slice(-this.sampleSize).map((e) => e.sample as CorrelationInput),
      trigger: input,
    };
    const temporal = c.type === 'temporal' || c.type === 'temporal_ordered';
    if (temporal || c.condition.comparisons.some((k) => GROWING.includes(k.op))) window.clear();
    return match;
  }

  private holds(c: CompiledCorrelation, value: number): boolean {
    return c.condition.comparisons.every((k) => compare[k.op](value, k.value));
  }
}
