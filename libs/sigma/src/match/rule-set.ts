import type { TelemetryType } from '@vigil/contracts';
import { isTelemetryType } from '@vigil/contracts';
import type { CompiledFilter } from '../compile/filter-compiler';
import { plansOf } from '../compile/plans';
import { logsourceCovers } from '../logsource/routing';
import type { CompiledRule, SigmaEnrichment } from '../types';
import { AhoCorasick } from './aho-corasick';
import { EventView } from './event-view';

interface TypeIndex {
  rules: CompiledRule[];
  tests: Array<(view: EventView) => boolean>;
  /** Rules the pre-filter cannot vouch for: always evaluated. */
  always: number[];
  automaton?: AhoCorasick;
  /** Literal id → rule positions needing it. */
  literalRules: number[][];
  /** Fields whose lower-cased values form the text the automaton scans. */
  haystackFields: number[];
  /** Per rule, the last match() call that marked it a candidate. */
  stamp: Uint32Array;
  generation: number;
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
          index = { rules: [], tests: [], always: [], literalRules: [], haystackFields: [], stamp: new Uint32Array(0), generation: 0 };
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
    const literalIds = new Map<string, number>();
    const fields = new Set<number>();
    index.rules.forEach((rule, position) => {
      const plan = plansOf(rule).get(type);
      if (!plan?.literals || plan.literals.length === 0 || plan.fields.length === 0) {
        index.always.push(position);
        return;
      }
      for (const f of plan.fields) fields.add(f);
      for (const literal of plan.literals) {
        let id = literalIds.get(literal);
        if (id === undefined) {
          id = literalIds.size;
          literalIds.set(literal, id);
          index.literalRules.push([]);
        }
        index.literalRules[id].push(position);
      }
    });
    index.stamp = new Uint32Array(index.rules.length);
    index.haystackFields = [...fields];
    if (literalIds.size) index.automaton = new AhoCorasick([...literalIds.keys()]);
  }

  /** The rules that match one event, in the order they were given. */
  match(type: TelemetryType, event: object, enrichment?: SigmaEnrichment): CompiledRule[] {
    if (!isTelemetryType(type) || event === null || typeof event !== 'object') return [];
    const index = this.byType.get(type);
    if (!index) return [];
    const view = new EventView(type, event as Record<string, unknown>, enrichment);
    const candidates: number[] = index.always.slice();
    if (index.automaton) {
      const generation = (index.generation = (index.generation + 1) >>> 0 || 1);
      const { stamp, literalRules } = index;
      index.automaton.scan(this.haystack(view, index.haystackFields), (id) => {
        const positions = literalRules[id];
        for (let k = 0; k < positions.length; k++) {
          const p = positions[k];
          if (stamp[p] !== generation) {
            stamp[p] = generation;
            candidates.push(p);
          }
        }
      });
    }
    if (candidates.length > 1) candidates.sort((a, b) => a - b);
    const matched: CompiledRule[] = [];
    for (const p of candidates) if (index.tests[p](view)) matched.push(index.rules[p]);
    return matched;
  }

  private haystack(view: EventView, fields: number[]): string {
    let text = '';
    for (const f of fields) {
      const values = view.lowerStrings(f);
      if (values) for (const v of values) text += v + '\u0000';
    }
    return text;
  }
}
