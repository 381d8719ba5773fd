import { NO_CLAUSES, type ScreeningPlan } from './screening-plan';

/**
 * Counts, for the event being screened, the clauses that hold, and appends a rule to the
 * candidates once all its clauses do. Stamps per clause and per rule mark which screen last touched
 * them, so nothing is cleared between events. While recording (for the value memo), the clause
 * lists are kept instead of counted.
 */
export class ClauseTally {
  private readonly clauseRule: Int32Array;
  private readonly clauseFields: Int32Array;
  private readonly clausesNeeded: Uint8Array;
  /** Per clause and per rule: the last event that touched it; per rule the clauses satisfied on that event. */
  private readonly clauseStamp: Uint32Array;
  private readonly ruleStamp: Uint32Array;
  private readonly ruleSatisfied: Uint8Array;
  private generation = 0;
  private candidates: number[] = NO_CLAUSES;
  private recording: number[][] | null = null;

  constructor(plan: ScreeningPlan) {
    this.clauseRule = plan.clauseRule;
    this.clauseFields = plan.clauseFields;
    this.clausesNeeded = plan.clausesNeeded;
    this.clauseStamp = new Uint32Array(plan.clauseRule.length);
    this.ruleStamp = new Uint32Array(plan.ruleCount);
    this.ruleSatisfied = new Uint8Array(plan.ruleCount);
  }

  /** Starts a new event whose candidate rules go to `candidates`. */
  begin(candidates: number[]): void {
    this.generation = (this.generation + 1) >>> 0 || 1;
    this.candidates = candidates;
  }

  end(): void {
    this.candidates = NO_CLAUSES;
  }

  /** From now until stopRecording(), satisfy() appends its clause lists to the returned array. */
  startRecording(): number[][] {
    const recorded: number[][] = [];
    this.recording = recorded;
    return recorded;
  }

  stopRecording(): void {
    this.recording = null;
  }

  /** Marks as holding the clauses of `clauses` that accept a field of `mask`. */
  satisfy(clauses: number[], mask: number): void {
    if (this.recording !== null) {
      this.recording.push(clauses);
      return;
    }
    const { clauseRule, clauseFields, clausesNeeded, clauseStamp, ruleStamp, ruleSatisfied, generation } = this;
    for (let k = 0; k < clauses.length; k++) {
      const clause = clauses[k];
      if (clauseStamp[clause] === generation || (clauseFields[clause] & mask) === 0) continue;
      clauseStamp[clause] = generation;
      const rule = clauseRule[clause];
      if (ruleStamp[rule] !== generation) {
        ruleStamp[rule] = generation;
        ruleSatisfied[rule] = 0;
      }
      if (++ruleSatisfied[rule] === clausesNeeded[rule]) this.candidates.push(rule);
    }
  }
}
