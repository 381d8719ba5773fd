import { parseAllDocuments } from 'yaml';
import type { SigmaDocument, SigmaDocumentKind, SigmaError } from '../types';
import { expandedSize, RecursiveAliasError } from './expanded-size';
import { legacySyntaxError } from './legacy-syntax';
import { schemaError } from './schema-validator';
import { SIGMA_BUDGET } from './sigma-budget';
import { scanYamlText } from './yaml-scan';

/** Limits that keep a hostile YAML file from exhausting memory or stack (see {@link SIGMA_BUDGET}). */
export const YAML_LIMITS = SIGMA_BUDGET.yaml;

export interface LoadResult {
  documents: SigmaDocument[];
  errors: SigmaError[];
}

/**
 * Parses a Sigma YAML file (one or several `---`-separated documents) safely and validates each
 * document against the official JSON Schema of its kind. Valid documents and precise errors are
 * both returned, so one bad document of a collection does not hide the good ones.
 */
export function loadSigmaDocuments(text: string, fileName: string): LoadResult {
  const fail = (error: string, document?: number): LoadResult => ({ documents: [], errors: [{ fileName, document, error }] });
  if (typeof text !== 'string') return fail('file content is not text');
  const refused = yamlTextError(text);
  if (refused) return fail(refused);

  let parsed: ReturnType<typeof parseAllDocuments>;
  try {
    parsed = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true, merge: false });
  } catch (err) {
    return fail(`YAML cannot be parsed: ${(err as Error).message}`);
  }
  const docs = Array.isArray(parsed) ? parsed : [];
  if (docs.length === 0) return fail('file holds no YAML document');
  if (docs.length > YAML_LIMITS.maxDocuments) return fail(`file holds more than ${YAML_LIMITS.maxDocuments} YAML documents`);

  const result: LoadResult = { documents: [], errors: [] };
  docs.forEach((doc, index) => {
    const document = docs.length > 1 ? index : undefined;
    const firstError = doc.errors[0];
    if (firstError) {
      const pos = firstError.linePos?.[0];
      const where = pos ? `line ${pos.line}, column ${pos.col}` : 'unknown position';
      result.errors.push({ fileName, document, error: `YAML error at ${where}: ${firstError.message.split(/ at line \d+/)[0]}` });
      return;
    }
    const tooLarge = yamlExpansionError(doc);
    if (tooLarge) {
      result.errors.push({ fileName, document, error: tooLarge });
      return;
    }
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliases });
    } catch (err) {
      result.errors.push({ fileName, document, error: `YAML cannot be converted: ${(err as Error).message}` });
      return;
    }
    if (data === null || data === undefined) return; // an empty document between separators
    const checked = checkDocument(data);
    if (typeof checked === 'string') result.errors.push({ fileName, document, error: checked });
    else result.documents.push({ kind: checked.kind, fileName, index, data: checked.data });
  });
  if (result.documents.length === 0 && result.errors.length === 0) return fail('file holds no Sigma document');
  return result;
}

function checkDocument(data: unknown): { kind: SigmaDocumentKind; data: Record<string, unknown> } | string {
  if (typeof data !== 'object' || Array.isArray(data)) return 'a Sigma document must be a YAML map';
  if (depthOf(data, 0) > YAML_LIMITS.maxDepth) return `YAML nesting deeper than ${YAML_LIMITS.maxDepth} levels`;
  const record = data as Record<string, unknown>;
  if ('action' in record) {
    return `legacy Sigma v1 rule collection (action: ${JSON.stringify(record.action)}) is not supported: v2 collections are plain documents separated by '---'`;
  }
  const kind: SigmaDocumentKind = 'correlation' in record ? 'correlation' : 'filter' in record ? 'filter' : 'rule';
  const legacy = kind === 'rule' ? legacySyntaxError(record) : undefined;
  if (legacy) return legacy;
  const invalid = schemaError(kind, record);
  if (invalid) return `invalid Sigma ${kind}: ${invalid}`;
  return { kind, data: record };
}

function depthOf(value: unknown, depth: number): number {
  if (value === null || typeof value !== 'object') return depth;
  if (depth > YAML_LIMITS.maxDepth) return depth;
  let max = depth + 1;
  for (const child of Object.values(value as Record<string, unknown>)) max = Math.max(max, depthOf(child, depth + 1));
  return max;
}

/**
 * Why a file's raw text is refused before parsing: too large, flow nesting too deep (the parser recurses), or
 * too many structural tokens (the parser's tree costs hundreds of bytes per node). Linear in the text.
 */
export function yamlTextError(text: string): string | undefined {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > YAML_LIMITS.maxBytes) return `file is larger than ${YAML_LIMITS.maxBytes} bytes`;
  const shape = scanYamlText(text, YAML_LIMITS.maxStructuralTokens);
  if (shape.flowDepth > YAML_LIMITS.maxDepth) return `YAML nesting deeper than ${YAML_LIMITS.maxDepth} levels`;
  if (shape.tokens > YAML_LIMITS.maxStructuralTokens) {
    return `YAML budget exceeded: the file has more than ${YAML_LIMITS.maxStructuralTokens} structural tokens (list items, keys, separators); the limit is ${YAML_LIMITS.maxStructuralTokens} per file (SIGMA_BUDGET.yaml.maxStructuralTokens)`;
  }
  return undefined;
}

/**
 * Why a parsed document is too large once its aliases are expanded (SIGMA_BUDGET.yaml: aliases, expanded nodes,
 * expanded scalar bytes), or refers to itself; checked before anything is converted to data.
 */
export function yamlExpansionError(doc: Parameters<typeof expandedSize>[0]): string | undefined {
  let size: ReturnType<typeof expandedSize>;
  try {
    size = expandedSize(doc);
  } catch (err) {
    if (err instanceof RecursiveAliasError) return `YAML cannot be converted: ${err.message}`;
    throw err;
  }
  const limits = YAML_LIMITS;
  if (size.aliases > limits.maxAliases) {
    return `YAML budget exceeded: too many YAML aliases (${size.aliases}); the limit is ${limits.maxAliases} alias references per document (SIGMA_BUDGET.yaml.maxAliases)`;
  }
  if (size.nodes > limits.maxExpandedNodes) {
    return `YAML budget exceeded: the document expands to ${describeCount(size.nodes)} nodes once its aliases are expanded; the limit is ${limits.maxExpandedNodes} per document (SIGMA_BUDGET.yaml.maxExpandedNodes)`;
  }
  if (size.scalarBytes > limits.maxExpandedScalarBytes) {
    return `YAML budget exceeded: the document expands to ${describeCount(size.scalarBytes)} bytes of values once its aliases are expanded; the limit is ${limits.maxExpandedScalarBytes} per document (SIGMA_BUDGET.yaml.maxExpandedScalarBytes)`;
  }
  return undefined;
}

/** Alias bombs reach astronomical counts: beyond exact integers, say so rather than print 1e+300. */
function describeCount(n: number): string {
  return Number.isSafeInteger(n) ? String(n) : 'more than 2^53';
}
