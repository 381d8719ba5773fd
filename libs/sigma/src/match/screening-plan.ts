import type { Guard, GuardClause } from '../compile/field-item';
import { AhoCorasick } from './aho-corasick';
import { ALWAYS, partsOf, sliceOf, type FieldSlice } from './field-registry';
import { screenedGuard } from './screened-guard';

/** The clauses one atom (a lower-cased string) satisfies, by where it must occur in a field value. */
export interface AtomUses {
  contains: number[];
  exact: number[];
  prefixes: number[];
  suffixes: number[];
}

export const NO_CLAUSES: number[] = [];

function hasAtom(c: GuardClause): boolean {
  return c.literals.length + (c.exact?.length ?? 0) + (c.prefixes?.length ?? 0) + (c.suffixes?.length ?? 0) > 0;
}

/** Whether the pre-filter can screen a rule with this guard (otherwise the rule is always evaluated). */
export function isScreenable(guard: Guard): guard is GuardClause[] {
  return guard !== null && guard.length > 0 && guard.every((c) => hasAtom(c) && c.fields.length > 0);
}

function addClause(list: number[], clause: number): void {
  if (list[list.length - 1] !== clause) list.push(clause);
}

/**
 * What the pre-filter screens for, built once from the rules' guards: every atom of every clause —
 * contained literals, whole values, prefixes and suffixes — is one literal of a single Aho-Corasick
 * automaton that folds ASCII case; each clause knows its rule and the fields (bits) it accepts its
 * atoms in.
 */
export class ScreeningPlan {
  /** Field ids screened; field i has bit min(i, 31): past 31 fields the rest share a bit, which may wake a clause needlessly but never misses one. */
  readonly fields: number[] = [];
  /**
   * What is read per event: a field, the bit its values count for, and how it lies in its parent
   * when it is a slice. A field made of other fields (keyword search) is read as those fields, with
   * its own bit, so its list of values is never built.
   */
  readonly readField: number[] = [];
  readonly readBit: number[] = [];
  readonly readSlice: Array<FieldSlice | undefined> = [];
  readonly automaton?: AhoCorasick;
  /** Atom texts by id (lower-cased). */
  readonly atoms: string[];
  readonly atomLength: Int32Array;
  readonly uses: AtomUses[];
  /** Whether an atom is used as a whole value, prefix or suffix (its position matters). */
  readonly anchored: Uint8Array;
  /** Clauses an empty value satisfies (the empty whole value, which no automaton can find). */
  readonly emptyExact: number[] = [];
  /** Clauses any value of their fields satisfies (an empty literal, prefix or suffix). */
  readonly anywhere: number[];
  /** Per clause: the rule it belongs to and the fields (bit mask) it accepts its atoms in. */
  readonly clauseRule: Int32Array;
  readonly clauseFields: Int32Array;
  /** Per rule: how many clauses must hold. */
  readonly clausesNeeded: Uint8Array;
  readonly ruleCount: number;
  /** Rules whose every clause a constant field decides in their favour: candidates on every event. */
  readonly alwaysRules: number[] = [];
  /** Fields (bits) some clause checks with a quiet prefix / a quiet suffix or whole value: only those are walked / read at their ends. */
  readonly prefixFields: number;
  readonly suffixFields: number;

  /** @param guards per rule position, a screenable guard, or undefined for rules screened elsewhere. */
  constructor(guards: ReadonlyArray<GuardClause[] | undefined>) {
    const positions = new Map<number, number>();
    const bitOf = (field: number): number => {
      let position = positions.get(field);
      if (position === undefined) {
        positions.set(field, (position = this.fields.length));
        this.fields.push(field);
      }
      return 1 << Math.min(position, 31);
    };
    const atoms = new Map<string, AtomUses>();
    const usesOf = (atom: string): AtomUses => {
      const key = atom.toLowerCase();
      let uses = atoms.get(key);
      if (!uses) atoms.set(key, (uses = { contains: [], exact: [], prefixes: [], suffixes: [] }));
      return uses;
    };
    const clauseRule: number[] = [];
    const clauseFields: number[] = [];
    this.ruleCount = guards.length;
    this.clausesNeeded = new Uint8Array(guards.length);
    guards.forEach((given, rule) => {
      if (!given) return;
      const guard = screenedGuard(given);
      if (guard === ALWAYS) {
        this.alwaysRules.push(rule);
        return;
      }
      this.clausesNeeded[rule] = guard.length;
      for (const clause of guard) {
        const id = clauseRule.length;
        clauseRule.push(rule);
        clauseFields.push(clause.fields.reduce((mask, field) => mask | bitOf(field), 0));
        for (const literal of clause.literals) addClause(usesOf(literal).contains, id);
        for (const value of clause.exact ?? []) addClause(value === '' ? this.emptyExact : usesOf(value).exact, id);
        for (const p of clause.prefixes ?? []) addClause(p === '' ? usesOf('').contains : usesOf(p).prefixes, id);
        for (const s of clause.suffixes ?? []) addClause(s === '' ? usesOf('').contains : usesOf(s).suffixes, id);
      }
    });
    this.fields.forEach((field, position) => {
      const bit = 1 << Math.min(position, 31);
      for (const read of partsOf(field) ?? [field]) {
        this.readField.push(read);
        this.readBit.push(bit);
        this.readSlice.push(sliceOf(read));
      }
    });
    // An empty literal, prefix or suffix holds on any value, empty ones included.
    this.anywhere = atoms.get('')?.contains ?? NO_CLAUSES;
    atoms.delete('');
    const texts = (this.atoms = [...atoms.keys()]);
    this.uses = [...atoms.values()].map((u) => ({
      contains: u.contains.length ? u.contains : NO_CLAUSES,
      exact: u.exact.length ? u.exact : NO_CLAUSES,
      prefixes: u.prefixes.length ? u.prefixes : NO_CLAUSES,
      suffixes: u.suffixes.length ? u.suffixes : NO_CLAUSES,
    }));
    this.atomLength = Int32Array.from(texts, (t) => t.length);
    this.anchored = Uint8Array.from(this.uses, (u) => (u.exact.length + u.prefixes.length + u.suffixes.length > 0 ? 1 : 0));
    this.clauseRule = Int32Array.from(clauseRule);
    this.clauseFields = Int32Array.from(clauseFields);
    // Atoms no clause needs contained anywhere are quiet: found only at the ends of values.
    const quiet = new Set<number>();
    let prefixFields = 0;
    let suffixFields = 0;
    this.uses.forEach((u, atom) => {
      if (u.contains.length) return;
      quiet.add(atom);
      for (const clause of u.prefixes) prefixFields |= this.clauseFields[clause];
      for (const clause of u.exact) suffixFields |= this.clauseFields[clause];
      for (const clause of u.suffixes) suffixFields |= this.clauseFields[clause];
    });
    this.prefixFields = prefixFields;
    this.suffixFields = suffixFields;
    if (texts.length) this.automaton = new AhoCorasick(texts, { foldAsciiCase: true, quiet });
  }
}
