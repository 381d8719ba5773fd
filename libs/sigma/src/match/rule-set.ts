import type { TelemetryType } from '@vigil/contracts';
import { isTelemetryType } from '@vigil/contracts';
import type { CompiledFilter } from '../compile/filter-compiler';
import { UNKNOWN } from '../compile/field-item';
import { plansOf } from '../compile/plans';
import { logsourceCovers } from '../logsource/routing';
import type { CompiledRule, SigmaEnrichment } from '../types';
import { isScreenable, Prefilter } from './prefilter';
import { EventView } from './event-view';

interface TypeIndex {
  rules: CompiledRule[];
  tests: Array<(view: EventView) => boolean>;
  /** Rules the pre-filter cannot vouch for: always evaluated. */
  always: number[];
  prefilter?: Prefilter;
}

/**
 * Many compiled rules evaluated together: per event type, field values are extracted once into a
 * shared view, and an Aho-Corasick scan over the literals the rules require selects the few rules
 * worth evaluating, so the cost per event grows slowly with the number of rules.
 */
export class RuleSet {
  private readonly byType = new Map<TelemetryType, TypeIndex>();

  private constructor(readonly rules: readonly CompiledRule[], readonly filters: readonly CompiledFilter[]) {
    for (const rule of rules) {
      for (const [type, plan] of plansOf(rule)) {
        let index = this.byType.get(type);
        if (!index) {
          index = { rules: [], tests: [], always: [] };
          this.byType.set(type, index);
        }
        const exclusions = filters
          .filter((f) => (f.rules.includes(rule.id) || (rule.name !== undefined && f.rules.includes(rule.name))) && logsourceCovers(f.logsource, rule.logsource))
          .map((f) => plansOf(f).get(type)?.test)
          .filter((t): t is (view: EventView) => boolean => t !== undefined);
        const test = plan.test;
        index.tests.push(exclusions.length === 0 ? test : (view) => test(view) && !exclusions.some((x) => x(view)));
        index.rules.push(rule);
      }
    }
    for (const [type, index] of this.byType) this.buildPrefilter(type, index);
  }

  static compile(rules: readonly CompiledRule[], filters: readonly CompiledFilter[] = []): RuleSet {
    return new RuleSet(rules, filters);
  }

  private buildPrefilter(type: TelemetryType, index: TypeIndex): void {
    const guards = index.rules.map((rule, position) => {
      const plan = plansOf(rule).get(type);
      if (plan === undefined || plan === UNKNOWN) return undefined; // reads a field Vigil lacks in a way that can never match
      if (isScreenable(plan.guard)) return plan.guard;
      index.always.push(position);
      return undefined;
    });
    if (guards.some((g) => g !== undefined)) index.prefilter = new Prefilter(guards);
  }

  /** The rules that match one event, in the order they were given. */
  match(type: TelemetryType, event: object, enrichment?: SigmaEnrichment): CompiledRule[] {
    if (!isTelemetryType(type) || event === null || typeof event !== 'object') return [];
    const index = this.byType.get(type);
    if (!index) return [];
    const view = new EventView(type, event as Record<string, unknown>, enrichment);
    const candidates: number[] = index.always.slice();
    index.prefilter?.screen(view, candidates);
    if (candidates.length > 1) candidates.sort((a, b) => a - b);
    const matched: CompiledRule[] = [];
    for (const p of candidates) if (index.tests[p](view)) matched.push(index.rules[p]);
    return matched;
  }
}
