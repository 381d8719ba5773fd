import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { openApiDocument } from '@vigil/contracts';

/** Checks values (API responses, generated events) against a schema of Vigil's OpenAPI document. */

const DOCUMENT_ID = 'https://vigil.invalid/openapi.json';
const OPENAPI_ROOT_KEYWORDS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'security', 'tags', 'paths', 'components'];

let ajv: Ajv2020 | undefined;

function documentAjv(): Ajv2020 {
  if (ajv) return ajv;
  // Union types are part of OpenAPI 3.1; `required` inside anyOf/if branches names members declared beside them.
  const instance = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(instance);
  // The document's top-level members are not JSON Schema keywords; declaring them lets its schemas compile in place.
  instance.addVocabulary(OPENAPI_ROOT_KEYWORDS);
  instance.addSchema(structuredClone(openApiDocument), DOCUMENT_ID);
  ajv = instance;
  return instance;
}

function validatorFor(schemaName: string): ValidateFunction {
  if (!Object.prototype.hasOwnProperty.call(openApiDocument.components.schemas, schemaName)) {
    throw new RangeError(`no schema "${schemaName}" in the OpenAPI document's components.schemas`);
  }
  const validate = documentAjv().getSchema(`${DOCUMENT_ID}#/components/schemas/${schemaName}`);
  if (!validate) throw new Error(`schema "${schemaName}" did not compile`);
  return validate;
}

/** Problems of `value` against `components.schemas[schemaName]`, one line each; empty when it matches. */
export function openApiSchemaErrors(schemaName: string, value: unknown): string[] {
  const validate = validatorFor(schemaName);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}`);
}

export function assertMatchesOpenApiSchema(schemaName: string, value: unknown): void {
  const errors = openApiSchemaErrors(schemaName, value);
  if (errors.length > 0) {
    throw new Error(`Value does not match OpenAPI schema "${schemaName}":\n${errors.map((e) => `  - ${e}`).join('\n')}`);
  }
}
