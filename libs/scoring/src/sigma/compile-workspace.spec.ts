import type { CustomerRule, WorkspaceRuleSet } from '@vigil/contracts';
import { SIGMA_BUDGET } from '@vigil/sigma';
import { compileWorkspace, compileWorkspaceRules } from './compile-workspace';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const dnsRule = (n: number, values: string[]) =>
  `title: Rule ${n}\nid: ${ID(n)}\nlevel: high\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|endswith:\n${values.map((v) => `      - '${v}'`).join('\n')}\n  condition: sel\n`;
const stored = (n: number, source: string, kind: CustomerRule['kind'] = 'rule'): CustomerRule => ({
  id: ID(n),
  kind,
  title: `Rule ${n}`,
  level: 'high',
  status: 'test',
  fileName: `r${n}.yml`,
  source,
  updatedAt: `2026-01-0${(n % 9) + 1}T00:00:00.000Z`,
});
const correlation = (n: number, ref: string) =>
  `title: Correlation ${n}\nid: ${ID(n)}\ncorrelation:\n  type: event_count\n  rules: [${ref}]\n  group-by: [src_ip]\n  timespan: 5m\n  condition:\n    gte: 2\n`;
const dns = (query: string) => ({ ts: '2026-03-01T10:00:00Z', srcIP: '10.0.0.1', query });

describe('compileWorkspace: a stored rule that cannot load is quarantined, the others run', () => {
  const set: WorkspaceRuleSet = {
    v: 1,
    workspaceId: 'ws-q',
    version: 7,
    rules: [
      stored(1, dnsRule(1, ['.good.test'])),
      stored(2, dnsRule(2, ['.x.test']).replace('query|endswith', 'query|nosuchmodifier')),
      stored(3, dnsRule(3, Array.from({ length: SIGMA_BUDGET.rule.maxValues + 1 }, (_, i) => `.v${i}.test`))),
      stored(4, `title: broken\n  : [`),
      stored(5, correlation(5, ID(1)), 'correlation'),
      stored(6, correlation(6, 'no-such-rule'), 'correlation'),
    ],
  };
  const compiled = compileWorkspace(set);

  it('names each quarantined version, with the cause and the reason', () => {
    expect(compiled.quarantined).toEqual([
      { id: ID(2), updatedAt: set.rules[1].updatedAt, cause: 'compile', reason: expect.stringMatching(/unknown modifier 'nosuchmodifier'/) },
      { id: ID(3), updatedAt: set.rules[2].updatedAt, cause: 'budget', reason: 'rule budget exceeded: 10001 detection values; the limit is 10000 per rule (SIGMA_BUDGET.rule.maxValues)' },
      { id: ID(4), updatedAt: set.rules[3].updatedAt, cause: 'compile', reason: expect.stringMatching(/^YAML error at line/) },
      { id: ID(6), updatedAt: set.rules[5].updatedAt, cause: 'compile', reason: "correlation 'Correlation 6': referenced rule 'no-such-rule' does not exist" },
    ]);
    expect(compiled.problems).toHaveLength(4);
  });

  it('keeps the rest working: the good rule matches and its correlation runs', () => {
    expect(compiled.ruleSet.match('dns', dns('a.good.test')).map((r) => r.id)).toEqual([ID(1)]);
    expect(compiled.correlationList.map((c) => c.id)).toEqual([ID(5)]);
    const rule = compiled.ruleSet.rules[0];
    const feed = () => compiled.correlations!.feed({ rule, type: 'dns', event: dns('a.good.test'), timeMs: Date.parse('2026-03-01T10:00:00Z') });
    expect(feed()).toEqual([]);
    expect(feed().map((m) => m.correlation.id)).toEqual([ID(5)]);
  });

  it('quarantines a document that throws while compiling, not the workspace', () => {
    const expanding = `title: e\nid: ${ID(8)}\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|expand: '%hosts%'\n  condition: sel\n`;
    // A record whose placeholders are not lists (decodeRuleSetRecord refuses these; the compiler must not crash on them).
    const odd = { v: 1, workspaceId: 'ws-x', version: 1, rules: [stored(1, dnsRule(1, ['.good.test'])), stored(8, expanding)], placeholders: { hosts: 7 } } as unknown as WorkspaceRuleSet;
    const result = compileWorkspace(odd);
    expect(result.quarantined).toEqual([{ id: ID(8), updatedAt: expect.any(String), cause: 'exception', reason: expect.stringMatching(/^compiling failed: /) }]);
    expect(result.ruleSet.match('dns', dns('b.good.test'))).toHaveLength(1);
  });

  it('quarantines the documents past the workspace budget, in record order', () => {
    const perRule = 9_000;
    const values = (n: number) => Array.from({ length: perRule }, (_, i) => `.v${i}.r${n}.test`);
    const big: WorkspaceRuleSet = { v: 1, workspaceId: 'ws-big', version: 1, rules: [1, 2, 3, 4, 5, 6].map((n) => stored(n, dnsRule(n, values(n)))) };
    const result = compileWorkspaceRules(big);
    expect(result.rules).toHaveLength(5);
    expect(result.quarantined).toEqual([
      {
        id: ID(6),
        updatedAt: big.rules[5].updatedAt,
        cause: 'budget',
        reason: "workspace budget exceeded: this document adds 9000 detection values to the 45000 the workspace's rule set already has; the limit is 50000 per workspace (SIGMA_BUDGET.workspace.maxValues)",
      },
    ]);
  });

  it('compiles a record once for every partition engine of the process; correlation windows stay per engine', () => {
    const again = compileWorkspace(set);
    expect(again.ruleSet).toBe(compiled.ruleSet);
    expect(again.correlations).not.toBe(compiled.correlations);
    expect(compileWorkspace({ ...set }).ruleSet).not.toBe(compiled.ruleSet);
  });
});
