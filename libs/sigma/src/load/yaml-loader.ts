import { parseAllDocuments } from 'yaml';
import type { SigmaDocument, SigmaDocumentKind, SigmaError } from '../types';
import { legacySyntaxError } from './legacy-syntax';
import { schemaError } from './schema-validator';

/** Limits that keep a hostile YAML file from exhausting memory or stack. */
export const YAML_LIMITS = {
  /** Alias expansions per document (an alias bomb needs thousands). */
  maxAliasCount: 100,
  /** Nesting depth of maps/lists; real rules stay under 8. */
  maxDepth: 32,
  /** Documents per file (rule collections). */
  maxDocuments: 1000,
  /** Bytes; the upload caps files at 1 MB before they get here. */
  maxBytes: 1024 * 1024,
} as const;

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
  if (Buffer.byteLength(text, 'utf8') > YAML_LIMITS.maxBytes) return fail(`file is larger than ${YAML_LIMITS.maxBytes} bytes`);
  const flowDepth = maxFlowDepth(text);
  if (flowDepth > YAML_LIMITS.maxDepth) return fail(`YAML nesting deeper than ${YAML_LIMITS.maxDepth} levels`);

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
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
    } catch (err) {
      const message = (err as Error).message;
      const reason = /alias/i.test(message) ? `too many YAML alias expansions (limit ${YAML_LIMITS.maxAliasCount}): ${message}` : message;
      result.errors.push({ fileName, document, error: `YAML cannot be converted: ${reason}` });
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

/** Nesting of flow collections (`[[[…` / `{{{…`), checked before parsing so the parser never recurses deeply. */
function maxFlowDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let quote: string | undefined;
  let comment = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (comment) {
      if (c === '\n') comment = false;
      continue;
    }
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    const previous = i === 0 ? '\n' : text[i - 1];
    const atTokenStart = /[\s:,[{\-]/.test(previous);
    if ((c === '"' || c === "'") && atTokenStart) quote = c;
    else if (c === '#' && /\s/.test(previous)) comment = true;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return max;
}
