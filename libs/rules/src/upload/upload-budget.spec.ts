import type { CustomerRule } from '@vigil/contracts';
import { SIGMA_BUDGET } from '@vigil/sigma';
import { evaluateUpload, type UploadEvaluationInput } from './upload-evaluation';
import type { ZipRuleFile } from './zip-reader';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** A DNS rule with `values` one-value-per-line `endswith` values. */
const bigRule = (n: number, values: number) =>
  `title: Rule ${n}\nid: ${ID(n)}\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|endswith:\n${Array.from({ length: values }, (_, i) => `      - .d${i}.r${n}.test`).join('\n')}\n  condition: sel\n`;
const file = (n: number, values: number): ZipRuleFile => ({ fileName: `r${n}.yml`, text: bigRule(n, values) });
const stored = (n: number, values: number): CustomerRule => ({
  id: ID(n),
  kind: 'rule',
  title: `Rule ${n}`,
  level: '',
  status: '',
  fileName: `r${n}.yml`,
  source: bigRule(n, values),
  updatedAt: '2025-01-01T00:00:00.000Z',
});
const evaluate = (input: Partial<UploadEvaluationInput>) =>
  evaluateUpload({ ruleFiles: [], placeholderFiles: [], mode: 'merge', existing: [], existingPlaceholders: {}, ...input });

describe('SIGMA_BUDGET.workspace at upload: the stored rules a merge keeps plus the upload', () => {
  jest.setTimeout(120_000);
  const perRule = 9_000;
  const storedFive = [1, 2, 3, 4, 5].map((n) => stored(n, perRule));

  it('refuses the document of an archive that would take the workspace past its value budget, naming the file and the limit', () => {
    const result = evaluate({ ruleFiles: [1, 2, 3, 4, 5, 6].map((n) => file(n, perRule)) });
    expect(result.candidates.map((c) => c.fileName)).toEqual(['r1.yml', 'r2.yml', 'r3.yml', 'r4.yml', 'r5.yml']);
    expect(result.errors).toEqual([
      {
        fileName: 'r6.yml',
        error: `workspace budget exceeded: this document adds 9000 detection values to the 45000 the workspace's rule set already has; the limit is ${SIGMA_BUDGET.workspace.maxValues} per workspace (SIGMA_BUDGET.workspace.maxValues)`,
      },
    ]);
  });

  it('counts the stored rules a merge keeps, not those a replace drops or the upload replaces', () => {
    const merge = evaluate({ existing: storedFive, ruleFiles: [file(6, 6_000)] });
    expect(merge.errors).toEqual([{ fileName: 'r6.yml', error: expect.stringMatching(/adds 6000 detection values to the 45000 .*\(SIGMA_BUDGET\.workspace\.maxValues\)$/) }]);
    expect(merge.keptIds).toEqual(storedFive.map((r) => r.id));

    expect(evaluate({ existing: storedFive, ruleFiles: [file(6, 6_000)], mode: 'replace' }).errors).toEqual([]);
    // Rule 5 comes again, smaller: it replaces the stored one, whose values no longer count.
    const replacing = evaluate({ existing: storedFive, ruleFiles: [file(5, 1_000), file(6, 6_000)] });
    expect(replacing.errors).toEqual([]);
    expect(replacing.keptIds).toEqual(storedFive.slice(0, 4).map((r) => r.id));
  });

  it('keeps the invariant when a replacement fails and the stored rule stays: candidates that no longer fit are refused', () => {
    const brokenReplacement: ZipRuleFile = { fileName: 'r5-broken.yml', text: bigRule(5, 1).replace('query|endswith', 'query|nosuchmodifier') };
    const result = evaluate({ existing: storedFive, ruleFiles: [brokenReplacement, file(6, perRule)] });
    expect(result.candidates).toEqual([]);
    expect(result.keptIds).toEqual(storedFive.map((r) => r.id));
    expect(result.errors).toEqual([
      { fileName: 'r5-broken.yml', error: expect.stringMatching(/unknown modifier 'nosuchmodifier'/) },
      { fileName: 'r6.yml', error: `workspace budget exceeded: this document adds 9000 detection values to the 45000 the workspace's rule set already has; the limit is 50000 per workspace (SIGMA_BUDGET.workspace.maxValues)` },
    ]);
  });

  it('refuses a rule over the per-rule budget without compiling it', () => {
    const result = evaluate({ ruleFiles: [file(7, SIGMA_BUDGET.rule.maxValues + 1)] });
    expect(result.errors).toEqual([{ fileName: 'r7.yml', error: 'rule budget exceeded: 10001 detection values; the limit is 10000 per rule (SIGMA_BUDGET.rule.maxValues)' }]);
  });
});
