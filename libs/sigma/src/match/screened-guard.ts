import type { GuardClause } from '../compile/field-item';
import { ALWAYS, screenOf, type ScreenAtom } from './field-registry';

function atomsOf(clause: GuardClause): ScreenAtom[] {
  return [
    ...clause.literals.map((text): ScreenAtom => ({ kind: 'contains', text })),
    ...(clause.exact ?? []).map((text): ScreenAtom => ({ kind: 'exact', text })),
    ...(clause.prefixes ?? []).map((text): ScreenAtom => ({ kind: 'prefix', text })),
    ...(clause.suffixes ?? []).map((text): ScreenAtom => ({ kind: 'suffix', text })),
  ];
}

function clauseOf(atoms: ScreenAtom[], fields: Set<number>): GuardClause {
  const texts = (kind: ScreenAtom['kind']) => [...new Set(atoms.filter((a) => a.kind === kind).map((a) => a.text))];
  return { literals: texts('contains'), exact: texts('exact'), prefixes: texts('prefix'), suffixes: texts('suffix'), fields: [...fields] };
}

/**
 * A clause with its screened-through fields (see `FieldScreen`) replaced by their sources and its
 * atoms translated for them; ALWAYS when a constant field decides it. The atoms of one clause apply
 * to all its fields, so merging translated and original atoms may wake a clause on a field it does
 * not ask about — a needless evaluation, never a missed rule.
 */
function screenedClause(clause: GuardClause): GuardClause | typeof ALWAYS {
  if (!clause.fields.some((f) => screenOf(f) !== undefined)) return clause;
  const original = atomsOf(clause);
  const fields = new Set<number>();
  const atoms: ScreenAtom[] = [];
  let readAsIs = false;
  for (const field of clause.fields) {
    const screen = screenOf(field);
    if (screen === undefined) {
      fields.add(field);
      readAsIs = true;
      continue;
    }
    const translated: ScreenAtom[] = [];
    for (const atom of original) {
      const t = screen.translate(atom);
      if (t === ALWAYS) return ALWAYS;
      translated.push(...t);
    }
    if (screen.source !== undefined && translated.length) {
      fields.add(screen.source);
      atoms.push(...translated);
    }
  }
  // Fields read as they are keep the original atoms. A clause left with no atom or field can never hold.
  if (readAsIs) atoms.push(...original);
  return clauseOf(atoms, fields);
}

/** A guard as the pre-filter screens it: clauses a constant field decides are dropped; ALWAYS when none is left. */
export function screenedGuard(guard: readonly GuardClause[]): GuardClause[] | typeof ALWAYS {
  const out: GuardClause[] = [];
  for (const clause of guard) {
    const screened = screenedClause(clause);
    if (screened !== ALWAYS) out.push(screened);
  }
  return out.length ? out : ALWAYS;
}
