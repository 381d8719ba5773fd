import { stringify } from 'yaml';
import type { CustomerRule, DetectionValidationError, WorkspacePlaceholders } from '@vigil/contracts';
import { compileCorrelation, compileFilter, compileRule, loadSigmaDocuments, type CompileOptions, type SigmaDocument } from '@vigil/sigma';
import type { ZipRuleFile } from './zip-reader';

/** A document that passed validation, ready to be stored (without its upload time). */
export type RuleCandidate = Omit<CustomerRule, 'updatedAt'>;

export interface ValidationOutcome {
  candidates: RuleCandidate[];
  errors: DetectionValidationError[];
}

interface CompiledMeta {
  id: string;
  name?: string;
  title: string;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function compileDocument(doc: SigmaDocument, options: CompileOptions): { ok: true; meta: CompiledMeta; references: string[] } | { ok: false; error: string } {
  if (doc.kind === 'rule') {
    const r = compileRule(doc, options);
    return r.ok ? { ok: true, meta: r.rule, references: [] } : r;
  }
  if (doc.kind === 'filter') {
    const f = compileFilter(doc, options);
    // A filter may name rules that arrive later: its references are not checked.
    return f.ok ? { ok: true, meta: { id: f.filter.id, title: f.filter.title }, references: [] } : f;
  }
  const c = compileCorrelation(doc);
  return c.ok ? { ok: true, meta: c.correlation, references: c.correlation.rules } : c;
}

/**
 * Validates every document of every rule file: YAML safety, the official schemas and compilation (all in
 * @vigil/sigma). Each valid document becomes a candidate identified by its Sigma id; a second document with
 * an id already taken in the same upload is an error. Errors of a document of a multi-document file name it.
 * `expand` modifiers are compiled with the workspace's `placeholders`.
 */
export function validateRuleFiles(files: readonly ZipRuleFile[], placeholders: WorkspacePlaceholders = {}): ValidationOutcome & { references: Map<string, string[]> } {
  const candidates: RuleCandidate[] = [];
  const errors: DetectionValidationError[] = [];
  const references = new Map<string, string[]>();
  const seen = new Map<string, string>();
  for (const file of files) {
    const loaded = loadSigmaDocuments(file.text, file.fileName);
    const multi = loaded.documents.length + loaded.errors.length > 1 || loaded.documents.some((d) => d.index > 0);
    const where = (index: number | undefined) => (multi && index !== undefined ? `document ${index + 1}: ` : '');
    for (const e of loaded.errors) errors.push({ fileName: file.fileName, error: where(e.document) + e.error });
    for (const doc of loaded.documents) {
      const compiled = compileDocument(doc, { placeholders });
      if (!compiled.ok) {
        errors.push({ fileName: file.fileName, error: where(doc.index) + compiled.error });
        continue;
      }
      const { id, name, title } = compiled.meta;
      const previous = seen.get(id);
      if (previous !== undefined) {
        errors.push({ fileName: file.fileName, error: `${where(doc.index)}rule id '${id}' is already used by ${previous} in this archive` });
        continue;
      }
      seen.set(id, file.fileName);
      if (compiled.references.length) references.set(id, compiled.references);
      candidates.push({
        id,
        ...(name !== undefined ? { name } : {}),
        kind: doc.kind,
        title,
        level: text(doc.data.level),
        status: text(doc.data.status),
        fileName: file.fileName,
        source: multi ? stringify(doc.data) : file.text,
      });
    }
  }
  return { candidates, errors, references };
}

/**
 * Errors of stored rules that would no longer compile with `placeholders` (an `expand` placeholder they use is
 * gone), one per rule. Only rules whose source mentions `expand` are compiled again.
 */
export function rulesBrokenByPlaceholders(rules: readonly CustomerRule[], placeholders: WorkspacePlaceholders): string[] {
  const broken: string[] = [];
  for (const rule of rules) {
    if (rule.kind === 'correlation' || !rule.source.includes('expand')) continue;
    for (const doc of loadSigmaDocuments(rule.source, rule.fileName).documents) {
      const compiled = compileDocument(doc, { placeholders });
      if (!compiled.ok) broken.push(`stored rule '${rule.id}' (${rule.fileName}): ${compiled.error}`);
    }
  }
  return broken;
}

/**
 * Correlations must refer to rules or correlations of the workspace's resulting set, without cycles. Returns
 * the candidates that pass and an error for each correlation that does not.
 */
export function checkCorrelations(
  candidates: readonly RuleCandidate[],
  references: ReadonlyMap<string, string[]>,
  kept: readonly Pick<CustomerRule, 'id' | 'name' | 'kind'>[],
  keptReferences: ReadonlyMap<string, string[]>,
): ValidationOutcome {
  const all = [...kept, ...candidates];
  const byRef = new Map<string, Pick<CustomerRule, 'id' | 'kind'>>();
  for (const r of all) {
    byRef.set(r.id, r);
    if (r.name !== undefined) byRef.set(r.name, r);
  }
  const refsOf = (id: string) => references.get(id) ?? keptReferences.get(id) ?? [];
  const errors: DetectionValidationError[] = [];
  const passed: RuleCandidate[] = [];
  for (const c of candidates) {
    if (c.kind !== 'correlation') {
      passed.push(c);
      continue;
    }
    const missing = refsOf(c.id).filter((ref) => !byRef.has(ref) || byRef.get(ref)!.kind === 'filter' || byRef.get(ref)!.id === c.id);
    if (missing.length) {
      errors.push({ fileName: c.fileName, error: `correlation '${c.title}': referenced rule${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} not found among the workspace's rules` });
      continue;
    }
    const cycle = findCycle(c.id, (id) => refsOf(id).map((ref) => byRef.get(ref)!).filter((r) => r?.kind === 'correlation').map((r) => r.id));
    if (cycle) {
      errors.push({ fileName: c.fileName, error: `correlation '${c.title}': reference cycle ${cycle.join(' → ')}` });
      continue;
    }
    passed.push(c);
  }
  return { candidates: passed, errors };
}

function findCycle(start: string, next: (id: string) => string[]): string[] | undefined {
  const path: string[] = [];
  const onPath = new Set<string>();
  const done = new Set<string>();
  const visit = (id: string): string[] | undefined => {
    if (onPath.has(id)) return [...path.slice(path.indexOf(id)), id];
    if (done.has(id)) return undefined;
    onPath.add(id);
    path.push(id);
    for (const n of next(id)) {
      const found = visit(n);
      if (found) return found;
    }
    path.pop();
    onPath.delete(id);
    done.add(id);
    return undefined;
  };
  return visit(start);
}
