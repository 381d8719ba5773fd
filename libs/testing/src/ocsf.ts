import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OcsfDetectionFinding } from '@vigil/contracts';

/** Folder of the OCSF 1.2.0 fixtures (schema, synthetic example, NOTICE.md). */
export const OCSF_FIXTURES_DIR = join(__dirname, '..', 'fixtures', 'ocsf-1.2.0');
export const OCSF_SCHEMA_PATH = join(OCSF_FIXTURES_DIR, 'detection_finding.schema.json');
export const OCSF_SYNTHETIC_DNS_FINDING_PATH = join(OCSF_FIXTURES_DIR, 'synthetic-detection-finding-dns.json');

type JsonObject = Record<string, unknown>;

interface CompiledOcsfSchema {
  schema: JsonObject;
  validate: ValidateFunction;
}

let compiled: CompiledOcsfSchema | undefined;

/** The generator of the schema annotates attributes with `x-ocsf-*` keys; ajv must know them to stay strict. */
function annotationKeywords(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) annotationKeywords(item, found);
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-')) found.add(key);
      annotationKeywords(value, found);
    }
  }
  return found;
}

function compiledSchema(): CompiledOcsfSchema {
  if (compiled) return compiled;
  const schema = JSON.parse(readFileSync(OCSF_SCHEMA_PATH, 'utf8')) as JsonObject;
  // strictTypes/strictRequired off: the profile gates (`if metadata.profiles contains ...`) are written without
  // `type`, as the generator emits them. Unknown keywords are still refused.
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv);
  ajv.addVocabulary([...annotationKeywords(schema)]);
  compiled = { schema, validate: ajv.compile(schema) };
  return compiled;
}

function resolvePointer(root: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#')) return undefined;
  let node = root;
  for (const raw of pointer.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

function valueAt(data: unknown, instancePath: string): unknown {
  return resolvePointer(data, `#${instancePath}`);
}

/**
 * The schema forbids profile attributes (e.g. `time_dt`) unless `metadata.profiles` names the profile, as
 * `if profiles contains P … else not anyOf [required a, required b]`. ajv reports that as "must NOT be valid";
 * this names the attributes and the missing profile instead.
 */
function describeProfileGate(error: ErrorObject, schema: JsonObject, data: unknown): string | undefined {
  const match = /^(.*)\/else\/not$/.exec(error.schemaPath);
  if (error.keyword !== 'not' || !match) return undefined;
  const ifNode = resolvePointer(schema, `${match[1]}/if`) as JsonObject | undefined;
  const notNode = resolvePointer(schema, error.schemaPath) as { anyOf?: { required?: string[] }[] } | undefined;
  const profile = resolvePointer(ifNode, '#/properties/metadata/properties/profiles/contains/const');
  if (typeof profile !== 'string' || !Array.isArray(notNode?.anyOf)) return undefined;
  const target = valueAt(data, error.instancePath);
  const present = notNode.anyOf
    .flatMap((branch) => branch.required ?? [])
    .filter((name) => target !== null && typeof target === 'object' && name in target);
  const where = error.instancePath || '(root)';
  return `${where}: ${present.join(', ')} only allowed when metadata.profiles includes "${profile}"`;
}

function describe(error: ErrorObject, schema: JsonObject, data: unknown): string | undefined {
  // The failing then/else branch is reported by its own errors; the "must match else schema" line adds nothing.
  if (error.keyword === 'if') return undefined;
  const gate = describeProfileGate(error, schema, data);
  if (gate) return gate;
  const where = error.instancePath || '(root)';
  const params = error.params as Record<string, unknown>;
  let detail = '';
  if ('allowedValue' in params) detail = ` ${JSON.stringify(params.allowedValue)}`;
  else if ('allowedValues' in params) detail = `: ${JSON.stringify(params.allowedValues)}`;
  else if ('additionalProperty' in params) detail = ` (${JSON.stringify(params.additionalProperty)})`;
  return `${where}: ${error.message ?? error.keyword}${detail}`;
}

/**
 * Why `finding` is not a valid OCSF 1.2.0 Detection Finding, one readable line per problem; empty when valid.
 */
export function ocsfErrors(finding: unknown): string[] {
  const { schema, validate } = compiledSchema();
  if (validate(finding)) return [];
  const lines = (validate.errors ?? [])
    .map((error) => describe(error, schema, finding))
    .filter((line): line is string => line !== undefined);
  return [...new Set(lines)];
}

export class OcsfValidationError extends Error {
  constructor(readonly errors: string[]) {
    super(`Not a valid OCSF 1.2.0 Detection Finding:\n${errors.map((e) => `  - ${e}`).join('\n')}`);
    this.name = 'OcsfValidationError';
  }
}

/** Throws an {@link OcsfValidationError} listing every problem unless `finding` is a valid Detection Finding. */
export function assertValidOcsfFinding(finding: unknown): asserts finding is OcsfDetectionFinding {
  const errors = ocsfErrors(finding);
  if (errors.length > 0) throw new OcsfValidationError(errors);
}

/** A fresh copy of the synthetic DNS Detection Finding fixture (valid against the schema). */
export function loadSyntheticDnsFinding(): JsonObject {
  return JSON.parse(readFileSync(OCSF_SYNTHETIC_DNS_FINDING_PATH, 'utf8')) as JsonObject;
}
