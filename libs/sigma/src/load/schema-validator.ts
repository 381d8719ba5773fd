import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { SigmaDocumentKind } from '../types';

const SCHEMA_FILES: Record<SigmaDocumentKind, string> = {
  rule: 'sigma-detection-rule-schema.json',
  correlation: 'sigma-correlation-rules-schema.json',
  filter: 'sigma-filters-schema.json',
};

let validators: Record<SigmaDocumentKind, ValidateFunction> | undefined;

function compileValidators(): Record<SigmaDocumentKind, ValidateFunction> {
  // The official schemas carry keywords that do nothing where they stand (`items` on objects); strict mode would refuse them.
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  const compile = (kind: SigmaDocumentKind): ValidateFunction => {
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'schemas', SCHEMA_FILES[kind]), 'utf8'));
    // Some files name the meta-schema with a trailing '#', which ajv does not know: the draft is fixed by Ajv2020 anyway.
    delete schema.$schema;
    return ajv.compile(schema);
  };
  return { rule: compile('rule'), correlation: compile('correlation'), filter: compile('filter') };
}

/** Validates a document against the official Sigma JSON Schema of its kind; returns a precise error or undefined. */
export function schemaError(kind: SigmaDocumentKind, data: unknown): string | undefined {
  validators ??= compileValidators();
  const validate = validators[kind];
  if (validate(data)) return undefined;
  const errors = validate.errors ?? [];
  const picked = pickError(errors);
  if (picked?.keyword === 'const') {
    const allowed = errors
      .filter((e) => e.keyword === 'const' && e.instancePath === picked.instancePath)
      .map((e) => JSON.stringify((e.params as { allowedValue: unknown }).allowedValue));
    return `${picked.instancePath}: ${JSON.stringify(valueAt(data, picked.instancePath))} is not allowed (one of ${allowed.join(', ')})`;
  }
  return describe(picked, data);
}

/** The most specific error: combinators (anyOf/oneOf/if) only summarise their branches. */
function pickError(errors: ErrorObject[]): ErrorObject | undefined {
  const specific = errors.filter((e) => !['anyOf', 'oneOf', 'if', 'allOf'].includes(e.keyword));
  return specific.sort((a, b) => b.instancePath.length - a.instancePath.length)[0] ?? errors[0];
}

function valueAt(data: unknown, pointer: string): unknown {
  let current: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function describe(error: ErrorObject | undefined, data: unknown): string {
  if (!error) return 'does not match the Sigma JSON Schema';
  const where = error.instancePath || '/';
  const value = valueAt(data, error.instancePath);
  switch (error.keyword) {
    case 'required':
      return `missing required attribute '${(error.params as { missingProperty: string }).missingProperty}' at ${where}`;
    case 'pattern': {
      const isDate = /\/(date|modified)$/.test(error.instancePath);
      const hint = isDate ? ' (Sigma v2 dates are YYYY-MM-DD; the v1 form YYYY/MM/DD is obsolete)' : '';
      return `${where}: ${JSON.stringify(value)} must match pattern ${(error.params as { pattern: string }).pattern}${hint}`;
    }
    case 'const':
    case 'enum':
      return `${where}: ${JSON.stringify(value)} is not an allowed value`;
    case 'format':
      return `${where}: ${JSON.stringify(value)} must be a ${(error.params as { format: string }).format}`;
    default:
      return `${where}: ${error.message ?? 'is invalid'}${value !== undefined && typeof value !== 'object' ? ` (got ${JSON.stringify(value)})` : ''}`;
  }
}
