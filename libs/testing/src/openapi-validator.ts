import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '@vigil/contracts';

/**
 * Checks values against Vigil's OpenAPI document: single values against a component schema of the in-process
 * document ({@link openApiSchemaErrors}), and whole HTTP responses against the operations of any document —
 * typically the one a server serves at /openapi.json ({@link OpenApiResponseChecker}).
 */

const DOCUMENT_ID = 'https://vigil.invalid/openapi.json';
const OPENAPI_ROOT_KEYWORDS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'security', 'tags', 'paths', 'components'];

/** Strict ajv holding `document`, so that any JSON pointer into it compiles in place (its `$ref`s resolve). */
function ajvWithDocument(document: object, id: string): Ajv2020 {
  // Union types are part of OpenAPI 3.1; `required` inside anyOf/if branches names members declared beside them.
  const instance = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(instance);
  // The document's top-level members are not JSON Schema keywords; declaring them lets its schemas compile in place.
  instance.addVocabulary(OPENAPI_ROOT_KEYWORDS);
  instance.addSchema(structuredClone(document), id);
  return instance;
}

let ajv: Ajv2020 | undefined;

function validatorFor(schemaName: string): ValidateFunction {
  if (!Object.prototype.hasOwnProperty.call(openApiDocument.components.schemas, schemaName)) {
    throw new RangeError(`no schema "${schemaName}" in the OpenAPI document's components.schemas`);
  }
  ajv ??= ajvWithDocument(openApiDocument, DOCUMENT_ID);
  const validate = ajv.getSchema(`${DOCUMENT_ID}#/components/schemas/${schemaName}`);
  if (!validate) throw new Error(`schema "${schemaName}" did not compile`);
  return validate;
}

function describeErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}`);
}

/** Problems of `value` against `components.schemas[schemaName]`, one line each; empty when it matches. */
export function openApiSchemaErrors(schemaName: string, value: unknown): string[] {
  const validate = validatorFor(schemaName);
  return validate(value) ? [] : describeErrors(validate);
}

export function assertMatchesOpenApiSchema(schemaName: string, value: unknown): void {
  const errors = openApiSchemaErrors(schemaName, value);
  if (errors.length > 0) {
    throw new Error(`Value does not match OpenAPI schema "${schemaName}":\n${errors.map((e) => `  - ${e}`).join('\n')}`);
  }
}

/** What a response checker needs of a real HTTP response. */
export interface ObservedResponse {
  status: number;
  headers: Headers;
  text: string;
}

type Json = Record<string, unknown>;

const SERVED_DOCUMENT_ID = 'https://vigil.invalid/served/openapi.json';

/**
 * Checks real responses against the operations of an OpenAPI 3.1 document (`paths` with literal path names, as
 * Vigil's): the status is declared for the operation (or a `NXX`/`default` entry covers it), the content type is
 * one the response declares, the body validates against the schema of that content type (JSON: the body;
 * NDJSON: each line; text: the text), and every declared header that is required is present and valid.
 */
export class OpenApiResponseChecker {
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = ajvWithDocument(document, SERVED_DOCUMENT_ID);
  }

  /** Every `[path, method]` the document declares (methods lower-case). */
  operations(): [path: string, method: string][] {
    const paths = this.document.paths as Record<string, Json>;
    return Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'].includes(key))
        .map((method): [string, string] => [path, method]),
    );
  }

  /** The status codes (and ranges) declared for an operation. */
  declaredStatuses(method: string, path: string): string[] {
    return Object.keys(this.operation(method, path)?.responses ?? {});
  }

  /** Problems of `response` as an answer to `method path`, one line each; empty when it conforms. */
  problems(method: string, path: string, response: ObservedResponse): string[] {
    const operation = this.operation(method, path);
    if (!operation) return [`${method.toUpperCase()} ${path} is not an operation of the document`];
    const responses = operation.responses as Json;
    const key = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find((k) => k in responses);
    if (key === undefined) return [`status ${response.status} is not declared (declared: ${Object.keys(responses).join(', ')})`];
    const responsePointer = this.resolvedPointer(`#/paths/${escapePointer(path)}/${method.toLowerCase()}/responses/${key}`);
    const declared = this.at(responsePointer);
    return [...this.headerProblems(declared, responsePointer, response.headers), ...this.bodyProblems(declared, responsePointer, response)];
  }

  private operation(method: string, path: string): Json | undefined {
    const item = (this.document.paths as Record<string, Json | undefined>)[path];
    return item?.[method.toLowerCase()] as Json | undefined;
  }

  private headerProblems(declared: Json, pointer: string, headers: Headers): string[] {
    const problems: string[] = [];
    for (const name of Object.keys((declared.headers as Json | undefined) ?? {})) {
      const headerPointer = this.resolvedPointer(`${pointer}/headers/${escapePointer(name)}`);
      const header = this.at(headerPointer);
      const value = headers.get(name);
      if (value === null) {
        if (header.required === true) problems.push(`required header ${name} is missing`);
        continue;
      }
      const validate = this.validator(`${headerPointer}/schema`);
      const schemaType = (this.at(`${headerPointer}/schema`) as Json).type;
      if (!validate(headerValue(value, schemaType))) problems.push(...describeErrors(validate).map((e) => `header ${name} ${JSON.stringify(value)}: ${e}`));
    }
    return problems;
  }

  private bodyProblems(declared: Json, pointer: string, response: ObservedResponse): string[] {
    const content = declared.content as Json | undefined;
    if (content === undefined) return response.text === '' ? [] : ['a body was sent where the document declares none'];
    const received = mediaType(response.headers.get('content-type') ?? '');
    const documented = Object.keys(content).find((type) => mediaType(type) === received);
    if (documented === undefined) return [`content type ${JSON.stringify(received)} is not declared (declared: ${Object.keys(content).join(', ')})`];
    const schemaPointer = `${pointer}/content/${escapePointer(documented)}/schema`;
    if (!('schema' in (content[documented] as Json))) return [];
    const validate = this.validator(schemaPointer);
    const values = bodyValues(received, response.text);
    if (typeof values === 'string') return [values];
    const problems: string[] = [];
    values.forEach((value, i) => {
      if (!validate(value)) problems.push(...describeErrors(validate).map((e) => (values.length > 1 ? `line ${i + 1} ${e}` : e)));
    });
    return problems;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${SERVED_DOCUMENT_ID}${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  /** Follows `$ref`s (within the document) from `pointer` to the object it stands for; returns that object's pointer. */
  private resolvedPointer(pointer: string): string {
    let current = pointer;
    for (let hops = 0; hops < 10; hops++) {
      const node = this.at(current);
      if (typeof node.$ref !== 'string') return current;
      current = node.$ref;
    }
    throw new Error(`$ref chain too long at ${pointer}`);
  }

  private at(pointer: string): Json {
    let node: unknown = this.document;
    for (const raw of pointer.replace(/^#\//, '').split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (node === null || typeof node !== 'object' || !(key in node)) throw new Error(`no ${pointer} in the document`);
      node = (node as Json)[key];
    }
    return node as Json;
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `application/json; charset=utf-8` → `application/json`. */
function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** The values a body holds for validation: one JSON value, one per NDJSON line, or the text; a string is a problem. */
function bodyValues(type: string, text: string): unknown[] | string {
  try {
    if (type === 'application/json') return [JSON.parse(text)];
    if (type === 'application/x-ndjson') return text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
  } catch (error) {
    return `the ${type} body does not parse: ${String(error)}`;
  }
  return [text];
}

/** A header's text as the JSON value its schema describes (`"5"` → 5 for an integer, `"true"` → true). */
function headerValue(value: string, type: unknown): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}
