import { isTelemetryType, type TelemetryType } from '@vigil/contracts';
import { resolveField } from '../logsource/field-map';
import { EventView } from '../match/event-view';
import type { CompiledRule, SigmaEnrichment } from '../types';
import type { CompiledCorrelation, ConditionOp } from './correlation-compiler';
import { CorrelationWindow, type WindowEntry } from './correlation-window';
import { stateArray, stateFail, stateString } from './correlation-state';

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

function decodeObject(value: unknown, what: string): object {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) stateFail(what, 'an object', value);
  return value;
}

function decodeEnrichment(value: unknown, what: string): SigmaEnrichment {
  const e = decodeObject(value, what) as Record<string, unknown>;
  const strings = (v: unknown, at: string): string[] => stateArray(v, at).map((s) => stateString(s, at));
  const out: SigmaEnrichment = {};
  if (e.flags !== undefined) out.flags = strings(e.flags, `${what}.flags`);
  if (e.labels !== undefined) out.labels = strings(e.labels, `${what}.labels`);
  if (e.domain !== undefined) out.domain = stateString(e.domain, `${what}.domain`);
  return out;
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
  /** Rules and correlations by id, to resolve the inputs of a restored window. */
  private readonly inputRules = new Map<string, CompiledRule | CompiledCorrelation>();

  private constructor(correlations: CompiledCorrelation[], rules: readonly CompiledRule[], options: CorrelationEngineOptions) {
    this.wirings = correlations.map((correlation) => ({ correlation, groups: new Map() }));
    for (const r of [...rules, ...correlations]) this.inputRules.set(r.id, r);
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
    return { ok: true, engine: new CorrelationEngine([...correlations], rules, options) };
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

  /**
   * The windows as plain JSON data: per correlation `[id, [groupKey, window, ...]]`, groups least recently fed
   * first. A window's inputs are `[rule id, type, event, enrichment]`; `encodeEvent` may replace the event
   * object by a reference into a shared table.
   */
  snapshot(encodeEvent: (event: object) => unknown = (event) => event): unknown[] {
    const encodeSample = (sample: unknown): unknown => {
      const input = sample as CorrelationInput;
      return [input.rule.id, input.type, encodeEvent(input.event), input.enrichment ?? null];
    };
    return this.wirings.map((w) => [w.correlation.id, [...w.groups].flatMap(([key, window]) => [key, window.snapshot(encodeSample)])]);
  }

  /**
   * Replaces the windows with a {@link snapshot} (undefined: empties them); windows of correlations this
   * engine does not have are dropped. Throws a CorrelationStateError on malformed data, changing nothing.
   */
  restore(state: unknown, decodeEvent: (encoded: unknown, what: string) => object = (event, what) => decodeObject(event, what)): void {
    const restored = new Map<string, Map<string, CorrelationWindow>>();
    for (const [i, item] of (state === undefined ? [] : stateArray(state, 'correlations')).entries()) {
      const [id, flat] = stateArray(item, `correlations[${i}]`);
      const wiring = this.wirings.find((w) => w.correlation.id === id);
      if (wiring === undefined) continue;
      const c = wiring.correlation;
      const groups = stateArray(flat, `correlations[${i}].groups`);
      if (groups.length % 2 !== 0) stateFail(`correlations[${i}].groups`, 'a flat list of [key, window] pairs', `length ${groups.length}`);
      const windows = new Map<string, CorrelationWindow>();
      for (let g = Math.max(0, groups.length - 2 * this.maxGroups); g < groups.length; g += 2) {
        const what = `correlations[${i}].groups[${g}]`;
        const key = stateString(groups[g], what);
        windows.set(key, CorrelationWindow.restore(c.timespanMs, this.maxEvents, c.rules.length, groups[g + 1], (e, at, timeMs) => this.decodeInput(e, at, timeMs, decodeEvent), what));
      }
      restored.set(c.id, windows);
    }
    for (const wiring of this.wirings) wiring.groups = restored.get(wiring.correlation.id) ?? new Map();
  }

  private decodeInput(encoded: unknown, what: string, timeMs: number, decodeEvent: (encoded: unknown, what: string) => object): CorrelationInput {
    const [ruleId, type, event, enrichment] = stateArray(encoded, what);
    const rule = this.inputRules.get(stateString(ruleId, `${what}.rule`));
    if (rule === undefined) stateFail(`${what}.rule`, 'the id of a rule of this engine', ruleId);
    if (typeof type !== 'string' || !isTelemetryType(type)) stateFail(`${what}.type`, 'a telemetry type', type);
    const input: CorrelationInput = { rule, type, event: decodeEvent(event, `${what}.event`), timeMs };
    if (enrichment !== null) input.enrichment = decodeEnrichment(enrichment, `${what}.enrichment`);
    return input;
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
