import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

/** The shared OCSF 1.2.0 Detection Finding schema (draft 2020-12), compiled once per test file. */
export const OCSF_SCHEMA_PATH = '/work/shared/ocsf-1.2.0/json-schema/detection_finding.schema.json';

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (validate === undefined) {
    // Strict mode stays on except strictTypes (the generated schema puts `required` in `if` branches
    // without `type`); the OCSF annotation keywords are declared so that typos in real keywords still fail.
    const ajv = new Ajv2020({ allErrors: true, strictTypes: false });
    addFormats(ajv);
    for (const keyword of ['x-ocsf-requirement', 'x-ocsf-type', 'x-ocsf-profiles']) ajv.addKeyword(keyword);
    validate = ajv.compile(JSON.parse(readFileSync(OCSF_SCHEMA_PATH, 'utf8')) as object);
  }
  return validate;
}

/** Throws with every schema violation listed when `finding` is not a valid OCSF 1.2.0 Detection Finding. */
export function assertValidOcsf(finding: unknown): void {
  const check = validator();
  if (!check(finding)) {
    const problems = (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    throw new Error(`invalid OCSF Detection Finding:\n  ${problems.join('\n  ')}`);
  }
}
