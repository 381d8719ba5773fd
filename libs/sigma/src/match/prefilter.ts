import type { GuardClause } from '../compile/field-item';
import { ClauseTally } from './clause-tally';
import type { EventView } from './event-view';
import { EventValues } from './event-values';
import { ScreeningPlan } from './screening-plan';
import { ValueScanner } from './value-scanner';

export { isScreenable } from './screening-plan';

/**
 * Selects, per event, the rules whose every guard clause holds: the plan (built once from the
 * guards) says which fields to read and which atoms to look for; per event the screened fields'
 * distinct values are gathered, each scanned once with the plan's automaton, and the hits tallied
 * per clause and rule.
 */
export class Prefilter {
  private readonly plan: ScreeningPlan;
  private readonly values = new EventValues();
  private readonly tally: ClauseTally;
  private readonly scanner: ValueScanner;

  /** @param guards per rule position, a screenable guard, or undefined for rules screened elsewhere. */
  constructor(guards: ReadonlyArray<GuardClause[] | undefined>) {
    this.plan = new ScreeningPlan(guards);
    this.tally = new ClauseTally(this.plan);
    this.scanner = new ValueScanner(this.plan, this.values, this.tally);
  }

  /** Appends to `candidates` every rule all of whose clauses hold on the event. */
  screen(view: EventView, candidates: number[]): void {
    const { plan, values, scanner } = this;
    const always = plan.alwaysRules;
    for (let k = 0; k < always.length; k++) candidates.push(always[k]);
    if (plan.fields.length === 0) return;
    this.tally.begin(candidates);
    values.gather(plan, view);
    const count = values.distinct.length;
    for (let d = 0; d < count; d++) scanner.scan(view, d);
    this.tally.end();
  }
}
