import type { CustomerRule, DetectionValidationError, WorkspacePlaceholders } from '@vigil/contracts';
import { compileCorrelation, loadSigmaDocuments } from '@vigil/sigma';
import { parsePlaceholdersFile } from './placeholders-file';
import { checkCorrelations, rulesBrokenByPlaceholders, validateRuleFiles, type RuleCandidate } from './rule-validation';
import type { ImportMode } from './upload-params';
import type { ZipRuleFile } from './zip-reader';

/** Everything an upload's evaluation needs; structured-cloned into the validation worker. */
export interface UploadEvaluationInput {
  ruleFiles: ZipRuleFile[];
  /** The archive's placeholders files (only the first is used). */
  placeholderFiles: ZipRuleFile[];
  mode: ImportMode;
  /** The workspace's stored rules. */
  existing: CustomerRule[];
  existingPlaceholders: WorkspacePlaceholders;
}

/** What the upload would make of the workspace; nothing is stored yet. */
export interface UploadEvaluation {
  /** Valid documents of the upload. */
  candidates: RuleCandidate[];
  errors: DetectionValidationError[];
  /** Ids of the stored rules the upload keeps. */
  keptIds: string[];
  /** The placeholders the workspace has after the upload. */
  placeholders: WorkspacePlaceholders;
  /** The valid placeholders file whose placeholders apply (absent: carried over or cleared by the import mode). */
  placeholdersFile?: string;
}

/** What the validation worker is told while it works (see TaskContext). */
export interface EvaluationProgress {
  progress(note: string): void;
}

/**
 * Validates an upload against the workspace's stored rules and placeholders: placeholders file, rule files
 * (YAML, schemas, budgets, compilation), stored rules broken by new placeholders, correlation references. Pure
 * CPU work with no I/O: the rules service runs it in a worker thread under a time and memory budget.
 */
export function evaluateUpload(input: UploadEvaluationInput, context: EvaluationProgress = { progress: () => undefined }): UploadEvaluation {
  const { mode, existing } = input;
  const resolved = resolvePlaceholders(input.placeholderFiles, mode, input.existingPlaceholders);
  const validate = (placeholders: WorkspacePlaceholders) => validateRuleFiles(input.ruleFiles, { placeholders, existing, mode, progress: (f) => context.progress(f) });
  let validated = validate(resolved.placeholders);
  if (resolved.file !== undefined && mode === 'merge') {
    // New placeholders must still serve the rules a merge keeps; otherwise the old ones stay.
    context.progress(resolved.file);
    const broken = rulesBrokenByPlaceholders(validated.kept, resolved.placeholders);
    if (broken.length) {
      resolved.errors.push({ fileName: resolved.file, error: `placeholders not applied: ${broken.join('; ')}` });
      resolved.placeholders = input.existingPlaceholders;
      resolved.file = undefined;
      validated = validate(input.existingPlaceholders);
    }
  }
  const keptReferences = validated.candidates.some((c) => c.kind === 'correlation') ? correlationReferences(validated.kept) : new Map<string, string[]>();
  const checked = checkCorrelations(validated.candidates, validated.references, validated.kept, keptReferences);
  return {
    candidates: checked.candidates,
    errors: [...resolved.errors, ...validated.errors, ...checked.errors],
    keptIds: validated.kept.map((r) => r.id),
    placeholders: resolved.placeholders,
    ...(resolved.file !== undefined ? { placeholdersFile: resolved.file } : {}),
  };
}

interface ResolvedPlaceholders {
  placeholders: WorkspacePlaceholders;
  file?: string;
  errors: DetectionValidationError[];
}

/**
 * merge: a valid file replaces the placeholders, no file (or an invalid one) keeps them; replace: a valid file
 * sets them, otherwise there are none. Only one placeholders file per archive.
 */
function resolvePlaceholders(files: readonly ZipRuleFile[], mode: ImportMode, existing: WorkspacePlaceholders): ResolvedPlaceholders {
  const fallback = mode === 'merge' ? existing : {};
  const [file, ...extra] = files;
  const errors: DetectionValidationError[] = extra.map((f) => ({ fileName: f.fileName, error: `only one placeholders file per archive; ${file.fileName} is used` }));
  if (file === undefined) return { placeholders: fallback, errors };
  const parsed = parsePlaceholdersFile(file.text);
  if (!parsed.ok) return { placeholders: fallback, errors: [{ fileName: file.fileName, error: parsed.error }, ...errors] };
  return { placeholders: parsed.placeholders, file: file.fileName, errors };
}

/** References of the stored correlations a merge keeps, read back from their sources. */
function correlationReferences(rules: readonly CustomerRule[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const rule of rules) {
    if (rule.kind !== 'correlation') continue;
    for (const doc of loadSigmaDocuments(rule.source, rule.fileName).documents) {
      const compiled = compileCorrelation(doc);
      if (compiled.ok && compiled.correlation.id === rule.id) out.set(rule.id, compiled.correlation.rules);
    }
  }
  return out;
}
