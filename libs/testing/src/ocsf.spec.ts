import {
  assertValidOcsfFinding,
  loadSyntheticDnsFinding,
  OcsfValidationError,
  ocsfErrors,
} from './ocsf';
import { openApiSchemaErrors } from './openapi-validator';

describe('OCSF 1.2.0 Detection Finding validation', () => {
  it('accepts the synthetic DNS finding fixture', () => {
    const finding = loadSyntheticDnsFinding();
    expect(ocsfErrors(finding)).toEqual([]);
    expect(() => assertValidOcsfFinding(finding)).not.toThrow();
  });

  it('rejects a finding without class_uid', () => {
    const { class_uid: _dropped, ...finding } = loadSyntheticDnsFinding();
    expect(ocsfErrors(finding)).toContain("(root): must have required property 'class_uid'");
  });

  it('rejects a type_uid that does not match activity_id', () => {
    const finding = { ...loadSyntheticDnsFinding(), type_uid: 200402 };
    expect(ocsfErrors(finding)).toContain('/type_uid: must be equal to constant 200401');
  });

  it('rejects a type_uid of another class', () => {
    const finding = { ...loadSyntheticDnsFinding(), type_uid: 200101 };
    const errors = ocsfErrors(finding);
    expect(errors.some((e) => e.startsWith('/type_uid: must be equal to one of the allowed values'))).toBe(true);
  });

  it('rejects time_dt unless the datetime profile is declared', () => {
    const finding: Record<string, unknown> = { ...loadSyntheticDnsFinding(), time_dt: '2024-06-10T06:13:20Z' };
    expect(ocsfErrors(finding)).toEqual(['(root): time_dt only allowed when metadata.profiles includes "datetime"']);

    const metadata = finding.metadata as { profiles: string[] };
    const withProfile = { ...finding, metadata: { ...metadata, profiles: [...metadata.profiles, 'datetime'] } };
    expect(ocsfErrors(withProfile)).toEqual([]);
  });

  it('names unknown top-level attributes', () => {
    const finding = { ...loadSyntheticDnsFinding(), bogus: 1 };
    expect(ocsfErrors(finding)).toContain('(root): must NOT have additional properties ("bogus")');
  });

  it('rejects a metadata.version other than 1.2.0', () => {
    const finding = loadSyntheticDnsFinding();
    (finding.metadata as Record<string, unknown>).version = '1.1.0';
    expect(ocsfErrors(finding)).toContain('/metadata/version: must be equal to constant "1.2.0"');
  });

  it.each([null, 'finding', 42, [], {}])('reports errors for %p instead of crashing', (value) => {
    expect(ocsfErrors(value).length).toBeGreaterThan(0);
  });

  it('throws an OcsfValidationError that lists every problem', () => {
    const { class_uid: _c, time: _t, ...finding } = loadSyntheticDnsFinding();
    let thrown: unknown;
    try {
      assertValidOcsfFinding(finding);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(OcsfValidationError);
    const error = thrown as OcsfValidationError;
    expect(error.errors).toEqual(
      expect.arrayContaining(["(root): must have required property 'class_uid'", "(root): must have required property 'time'"]),
    );
    expect(error.message).toContain("  - (root): must have required property 'time'");
  });

  it('hands out independent copies of the fixture', () => {
    const a = loadSyntheticDnsFinding();
    a.class_uid = 1;
    expect(loadSyntheticDnsFinding().class_uid).toBe(2004);
  });
});

describe('the OpenAPI finding schema', () => {
  it('accepts the OCSF fixture and rejects it without finding_info', () => {
    expect(openApiSchemaErrors('finding', loadSyntheticDnsFinding())).toEqual([]);
    const { finding_info: _dropped, ...finding } = loadSyntheticDnsFinding();
    expect(openApiSchemaErrors('finding', finding)).toContain("(root): must have required property 'finding_info'");
  });

  it('refuses an unknown schema name clearly', () => {
    expect(() => openApiSchemaErrors('nope', {})).toThrow(/no schema "nope"/);
  });
});
