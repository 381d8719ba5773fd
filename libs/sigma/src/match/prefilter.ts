import type { Guard, GuardClause } from '../compile/field-item';
import { AhoCorasick } from './aho-corasick';
import type { EventView } from './event-view';

/** What one screened field is checked for besides contained literals. */
interface FieldChecks {
  field: number;
  /** Whole lower-cased value → clauses it satisfies. */
  exact: Map<string, number[]>;
  /** Short prefixes and suffixes (few) → clauses they satisfy. */
  prefixes: Array<[string, number[]]>;
  suffixes: Array<[string, number[]]>;
}

function addAtom(atoms: Map<string, number[]>, atom: string, clause: number): void {
  const clauses = atoms.get(atom);
  if (!clauses) atoms.set(atom, [clause]);
  else if (clauses[clauses.length - 1] !== clause) clauses.push(clause);
}

function atomsAt(byPosition: Map<number, Map<string, number[]>>, position: number): Map<string, number[]> {
  let atoms = byPosition.get(position);
  if (!atoms) byPosition.set(position, (atoms = new Map()));
  return atoms;
}

function hasAtom(c: GuardClause): boolean {
  return c.literals.length + (c.exact?.length ?? 0) + (c.prefixes?.length ?? 0) + (c.suffixes?.length ?? 0) > 0;
}

/** Whether the pre-filter can screen a rule with this guard (otherwise the rule is always evaluated). */
export function isScreenable(guard: Guard): guard is GuardClause[] {
  return guard !== null && guard.length > 0 && guard.every((c) => hasAtom(c) && c.fields.length > 0);
}

/**
 * Selects, per event, the rules whose every guard clause holds: each distinct lower-cased value of
 * the screened fields is scanned once by one Aho-Corasick automaton (a value shared by several
 * fields, like the URL in a keyword field, is not scanned twice), and a literal found counts for a
 * clause only when the value belongs to one of the clause's fields. Whole values, short prefixes
 * and suffixes are checked per field.
 */
export class Prefilter {
  /** Field i has bit min(i, 31); past 31 fields the rest share a bit, which may wake a clause needlessly but never misses one. */
  private readonly fields: FieldChecks[] = [];
  private readonly automaton?: AhoCorasick;
  private readonly literalClauses: number[][] = [];
  /** Per clause: the rule it belongs to and the fields (bit mask) it accepts its literals in. */
  private readonly clauseRule: Int32Array;
  private readonly clauseFields: Int32Array;
  private readonly clausesNeeded: Uint8Array;
  /** Per clause and per rule: the last screen() that touched it; per rule the clauses satisfied in that call. */
  private readonly clauseStamp: Uint32Array;
  private readonly ruleStamp: Uint32Array;
  private readonly ruleSatisfied: Uint8Array;
  private generation = 0;

  /** @param guards per rule position, a screenable guard, or undefined for rules screened elsewhere. */
  constructor(guards: ReadonlyArray<GuardClause[] | undefined>) {
    const positions = new Map<number, number>();
    const positionOf = (field: number): number => {
      let position = positions.get(field);
      if (position === undefined) {
        positions.set(field, (position = this.fields.length));
        this.fields.push({ field, exact: new Map(), prefixes: [], suffixes: [] });
      }
      return position;
    };
    const literals = new Map<string, number[]>();
    const prefixes = new Map<number, Map<string, number[]>>();
    const suffixes = new Map<number, Map<string, number[]>>();
    const clauseRule: number[] = [];
    const clauseFields: number[] = [];
    this.clausesNeeded = new Uint8Array(guards.length);
    guards.forEach((guard, rule) => {
      if (!guard) return;
      this.clausesNeeded[rule] = guard.length;
      for (const clause of guard) {
        const id = clauseRule.length;
        clauseRule.push(rule);
        let mask = 0;
        for (const field of clause.fields) {
          const position = positionOf(field);
          mask |= 1 << Math.min(position, 31);
          for (const value of clause.exact ?? []) addAtom(this.fields[position].exact, value, id);
          for (const p of clause.prefixes ?? []) addAtom(atomsAt(prefixes, position), p, id);
          for (const s of clause.suffixes ?? []) addAtom(atomsAt(suffixes, position), s, id);
        }
        clauseFields.push(mask);
        for (const literal of clause.literals) addAtom(literals, literal, id);
      }
    });
    for (const [position, atoms] of prefixes) this.fields[position].prefixes = [...atoms];
    for (const [position, atoms] of suffixes) this.fields[position].suffixes = [...atoms];
    this.clauseRule = Int32Array.from(clauseRule);
    this.clauseFields = Int32Array.from(clauseFields);
    this.clauseStamp = new Uint32Array(clauseRule.length);
    this.ruleStamp = new Uint32Array(guards.length);
    this.ruleSatisfied = new Uint8Array(guards.length);
    if (literals.size) {
      this.automaton = new AhoCorasick([...literals.keys()]);
      this.literalClauses = [...literals.values()];
    }
  }

  /** Appends to `candidates` every rule all of whose clauses hold on the event. */
  screen(view: EventView, candidates: number[]): void {
    if (this.fields.length === 0) return;
    const generation = (this.generation = (this.generation + 1) >>> 0 || 1);
    const { clauseRule, clauseFields, clausesNeeded, clauseStamp, ruleStamp, ruleSatisfied, literalClauses, fields } = this;
    const satisfy = (clauses: number[], mask: number): void => {
      for (let k = 0; k < clauses.length; k++) {
        const clause = clauses[k];
        if (clauseStamp[clause] === generation || (clauseFields[clause] & mask) === 0) continue;
        clauseStamp[clause] = generation;
        const rule = clauseRule[clause];
        if (ruleStamp[rule] !== generation) {
          ruleStamp[rule] = generation;
          ruleSatisfied[rule] = 0;
        }
        if (++ruleSatisfied[rule] === clausesNeeded[rule]) candidates.push(rule);
      }
    };
    // Distinct values (by identity: the view lower-cases each string once) and the fields holding each.
    const distinct: string[] = [];
    const holders: number[] = [];
    for (let i = 0; i < fields.length; i++) {
      const checks = fields[i];
      const values = view.lowerStrings(checks.field);
      if (values === null) continue;
      const bit = 1 << Math.min(i, 31);
      for (let v = 0; v < values.length; v++) {
        const value = values[v];
        let d = 0;
        while (d < distinct.length && distinct[d] !== value) d++;
        if (d === distinct.length) {
          distinct.push(value);
          holders.push(bit);
        } else holders[d] |= bit;
        if (checks.exact.size) {
          const clauses = checks.exact.get(value);
          if (clauses) satisfy(clauses, bit);
        }
        for (const [prefix, clauses] of checks.prefixes) if (value.startsWith(prefix)) satisfy(clauses, bit);
        for (const [suffix, clauses] of checks.suffixes) if (value.endsWith(suffix)) satisfy(clauses, bit);
      }
    }
    if (!this.automaton) return;
    let valueFields = 0;
    const found = (literal: number): void => satisfy(literalClauses[literal], valueFields);
    for (let d = 0; d < distinct.length; d++) {
      valueFields = holders[d];
      this.automaton.scan(distinct[d], found);
    }
  }
}
