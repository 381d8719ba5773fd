import { loadSigmaDocuments } from './yaml-loader';

const rule = `title: Test
id: 0e95725d-7320-415d-80f7-004da920fc11
logsource:
    category: proxy
detection:
    sel:
        c-uri|contains: /x
    condition: sel
level: high
`;

describe('loadSigmaDocuments', () => {
  it('loads a valid rule', () => {
    const r = loadSigmaDocuments(rule, 'a.yml');
    expect(r.errors).toEqual([]);
    expect(r.documents).toHaveLength(1);
    expect(r.documents[0]).toMatchObject({ kind: 'rule', fileName: 'a.yml', index: 0 });
  });
  it('loads multi-document collections and reports each bad document by position', () => {
    const corr = `title: C\ncorrelation:\n  type: event_count\n  rules: [x1]\n  group-by: [src_ip]\n  timespan: 5m\n  condition: {gte: 3}\n`;
    const r = loadSigmaDocuments(`${rule}---\n${corr}---\ntitle: broken\n`, 'c.yml');
    expect(r.documents.map((d) => d.kind)).toEqual(['rule', 'correlation']);
    expect(r.errors).toEqual([{ fileName: 'c.yml', document: 2, error: "invalid Sigma rule: missing required attribute 'logsource' at /" }]);
  });
  it('rejects duplicate keys with line and column', () => {
    const r = loadSigmaDocuments('title: a\ntitle: b\nlogsource: {}\n', 'd.yml');
    expect(r.errors[0].error).toMatch(/^YAML error at line 2, column 1: Map keys must be unique/);
  });
  it('reports YAML syntax errors with line and column', () => {
    const r = loadSigmaDocuments('title: a\ndetection:\n  sel: [a, b\n', 'e.yml');
    expect(r.errors[0].error).toMatch(/^YAML error at line \d+, column \d+/);
  });
  it('stops alias bombs quickly', () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)},*${String.fromCharCode(96 + i)}]`);
    const start = Date.now();
    const r = loadSigmaDocuments(lines.join('\n'), 'bomb.yml');
    expect(Date.now() - start).toBeLessThan(2000);
    expect(r.errors[0].error).toBe(
      'YAML budget exceeded: the document expands to 357449882119 nodes once its aliases are expanded; the limit is 32000 per document (SIGMA_BUDGET.yaml.maxExpandedNodes)',
    );
  });
  it('refuses deep nesting before parsing', () => {
    const r = loadSigmaDocuments(`title: ${'['.repeat(100_000)}`, 'deep.yml');
    expect(r.errors[0].error).toMatch(/nesting deeper than 32 levels/);
    const block = Array.from({ length: 40 }, (_, i) => `${' '.repeat(i * 2)}k${i}:`).join('\n') + ' 1';
    expect(loadSigmaDocuments(block, 'deep2.yml').errors[0].error).toMatch(/nesting deeper than 32 levels/);
  });
  it('validates against the JSON Schema with the path and what is wrong', () => {
    expect(loadSigmaDocuments(rule.replace('level: high', 'level: severe'), 'f.yml').errors[0].error).toBe(
      'invalid Sigma rule: /level: "severe" is not allowed (one of "informational", "low", "medium", "high", "critical")',
    );
    expect(loadSigmaDocuments(rule.replace('id: 0e95725d-7320-415d-80f7-004da920fc11', 'id: nope'), 'g.yml').errors[0].error).toBe(
      'invalid Sigma rule: /id: "nope" must be a uuid',
    );
    expect(loadSigmaDocuments(`${rule}tags:\n  - Attack.T1000\n`, 'h.yml').errors[0].error).toMatch(/^invalid Sigma rule: \/tags\/0: "Attack.T1000" must match pattern/);
  });
  it('explains legacy v1 syntax', () => {
    const legacy = rule.replace('condition: sel', 'condition: sel | count() by src_ip > 10');
    expect(loadSigmaDocuments(legacy, 'i.yml').errors[0].error).toMatch(/legacy Sigma v1 aggregation in the condition/);
    const timeframe = rule.replace('condition: sel', 'timeframe: 1m\n    condition: sel');
    expect(loadSigmaDocuments(timeframe, 'j.yml').errors[0].error).toMatch(/legacy Sigma v1 'timeframe'/);
    expect(loadSigmaDocuments(`${rule}date: 2019/01/02\n`, 'k.yml').errors[0].error).toMatch(/v1 form YYYY\/MM\/DD is obsolete/);
  });
  it('refuses non-map documents and oversized files', () => {
    expect(loadSigmaDocuments('- a\n- b\n', 'l.yml').errors[0].error).toBe('a Sigma document must be a YAML map');
    expect(loadSigmaDocuments('#'.repeat(1024 * 1024 + 1), 'm.yml').errors[0].error).toMatch(/larger than/);
  });
});
