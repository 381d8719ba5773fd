import { SIGMA_BUDGET } from '../load/sigma-budget';
import { loadSigmaDocuments } from '../load/yaml-loader';
import { compileFilter } from './filter-compiler';
import { compileRule } from './rule-compiler';
import { documentCost, ruleBudgetError, WorkspaceBudget } from './rule-cost';

const doc = (text: string) => {
  const loaded = loadSigmaDocuments(text, 'r.yml');
  if (loaded.errors.length) throw new Error(loaded.errors[0].error);
  return loaded.documents[0];
};
const rule = (category: string, detection: string) => `title: t\nid: 00000000-0000-4000-8000-000000000001\nlogsource:\n  category: ${category}\ndetection:\n${detection}\n`;

describe('documentCost', () => {
  it('counts each value of every selection, keywords and lists of maps included', () => {
    const text = rule('proxy', "  sel:\n    c-uri|contains: [a1, a2, a3]\n    cs-method: GET\n  alt:\n    - c-useragent: x\n    - c-useragent: [y, z]\n  words:\n    - evil\n    - bad\n  condition: sel or alt or words");
    expect(documentCost(doc(text))).toEqual({ values: 9, patterns: 9, patternBytes: 'a1a2a3GETxyzevilbad'.length });
  });

  it('counts aliases as the copies they expand to', () => {
    const text = rule('dns', '  a:\n    query|contains: &l [x1, x2]\n  b:\n    query|endswith: *l\n  condition: a or b');
    expect(documentCost(doc(text)).values).toBe(4);
  });

  it('multiplies by the variants a value compiles to and the event types the logsource feeds', () => {
    const windash = rule('proxy', "  sel:\n    c-uri|windash|contains: ' -enc '\n  condition: sel");
    expect(documentCost(doc(windash))).toMatchObject({ values: 1, patterns: 6 });
    const offsets = rule('proxy', '  sel:\n    c-uri|base64offset|contains: abc\n  condition: sel');
    expect(documentCost(doc(offsets))).toMatchObject({ values: 1, patterns: 3 });
    const expand = rule('dns', "  sel:\n    query|expand: '%hosts%.%zones%'\n  condition: sel");
    expect(documentCost(doc(expand), { hosts: ['a', 'b', 'c'], zones: ['x.test', 'y.test'] })).toEqual({ values: 1, patterns: 6, patternBytes: 6 * ('%hosts%.%zones%'.length + 1 + 6) });
    const everywhere = rule('network_connection', '  sel:\n    DestinationHostname|endswith: .evil.test\n  condition: sel');
    expect(documentCost(doc(everywhere))).toEqual({ values: 1, patterns: 3, patternBytes: 3 * '.evil.test'.length });
  });

  it('costs nothing for correlations and counts a filter by its own selections', () => {
    const correlation = doc('title: c\ncorrelation:\n  type: event_count\n  rules: [ab]\n  group-by: [src_ip]\n  timespan: 5m\n  condition: {gte: 3}\n');
    expect(documentCost(correlation)).toEqual({ values: 0, patterns: 0, patternBytes: 0 });
    const filter = doc('title: f\nlogsource:\n  category: dns\nfilter:\n  rules: [xy]\n  selection:\n    query: [a, b]\n  condition: selection\n');
    expect(documentCost(filter)).toEqual({ values: 2, patterns: 2, patternBytes: 2 });
  });
});

describe('SIGMA_BUDGET.rule: a rule over its budget is refused before it is compiled', () => {
  const manyValues = (n: number, modifiers = '') => rule('dns', `  sel:\n    query${modifiers}:\n${Array.from({ length: n }, (_, i) => `      - v${i}.test`).join('\n')}\n  condition: sel`);

  it('accepts the largest rule the budget allows and refuses one more value, naming the limit', () => {
    expect(compileRule(doc(manyValues(SIGMA_BUDGET.rule.maxValues))).ok).toBe(true);
    expect(compileRule(doc(manyValues(SIGMA_BUDGET.rule.maxValues + 1)))).toEqual({
      ok: false,
      error: 'rule budget exceeded: 10001 detection values; the limit is 10000 per rule (SIGMA_BUDGET.rule.maxValues)',
    });
  });

  it('refuses patterns beyond the budget (variants times event types), in rules and filters alike', () => {
    const result = compileRule(doc(manyValues(7000, '|base64offset|contains')));
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^rule budget exceeded: 21000 compiled patterns .*; the limit is 20000 per rule \(SIGMA_BUDGET\.rule\.maxPatterns\)$/) });
    const expand = rule('dns', "  sel:\n    query|expand: '%a%%b%'\n  condition: sel");
    const placeholders = { a: Array.from({ length: 30 }, (_, i) => `a${i}`), b: Array.from({ length: 30 }, (_, i) => `b${i}`) };
    expect(compileRule(doc(expand), { placeholders }).ok).toBe(true);
    const filterText = `title: f\nlogsource:\n  category: dns\nfilter:\n  rules: [xy]\n  selection:\n    query:\n${Array.from({ length: 10_001 }, (_, i) => `      - f${i}`).join('\n')}\n  condition: selection\n`;
    expect(compileFilter(doc(filterText))).toEqual({ ok: false, error: 'filter: rule budget exceeded: 10001 detection values; the limit is 10000 per rule (SIGMA_BUDGET.rule.maxValues)' });
  });

  it('names each limit in ruleBudgetError', () => {
    expect(ruleBudgetError({ values: 1, patterns: 1, patternBytes: SIGMA_BUDGET.rule.maxPatternBytes + 1 })).toMatch(/SIGMA_BUDGET\.rule\.maxPatternBytes/);
    expect(ruleBudgetError({ values: 1, patterns: 1, patternBytes: 1 })).toBeUndefined();
  });
});

describe('WorkspaceBudget', () => {
  it('admits documents while the totals stay within SIGMA_BUDGET.workspace and names the limit that would be passed', () => {
    const budget = new WorkspaceBudget();
    const big = { values: 9_000, patterns: 18_000, patternBytes: 100_000 };
    for (let i = 0; i < 5; i++) expect(budget.admit(big)).toBeUndefined();
    expect(budget.admit(big)).toBe(
      'workspace budget exceeded: this document adds 9000 detection values to the 45000 the workspace\'s rule set already has; the limit is 50000 per workspace (SIGMA_BUDGET.workspace.maxValues)',
    );
    expect(budget.totals).toEqual({ documents: 5, values: 45_000, patterns: 90_000, patternBytes: 500_000 });
    expect(budget.admit({ values: 1, patterns: 1, patternBytes: 1 })).toBeUndefined();
    expect(budget.totals.documents).toBe(6);
  });

  it('counts stored documents whatever the totals; nothing more is admitted once they are at the limit', () => {
    const budget = new WorkspaceBudget();
    for (let i = 0; i < SIGMA_BUDGET.workspace.maxDocuments; i++) budget.add({ values: 0, patterns: 0, patternBytes: 0 });
    expect(budget.admit({ values: 0, patterns: 0, patternBytes: 0 })).toMatch(/adds 1 documents to the 10000 .* \(SIGMA_BUDGET\.workspace\.maxDocuments\)$/);
    budget.add({ values: 60_000, patterns: 0, patternBytes: 0 });
    expect(budget.totals).toMatchObject({ documents: 10_001, values: 60_000 });
  });
});
