import { ruleOf } from '../testing/compile-helpers';

describe('rule metadata', () => {
  it('maps level to severity and attack tags to tactic/technique pairs', () => {
    const rule = ruleOf({ s: { 'c-uri|contains': 'x' }, condition: 's' }, { category: 'proxy' }, {}, {
      id: '545a5da6-f103-4919-a519-e9aec1026ee4',
      level: 'high',
      author: 'Someone',
      references: ['https://example.com/a'],
      tags: ['attack.command-and-control', 'attack.t1071.004', 'attack.t1568', 'cve.2021-44228'],
    });
    expect(rule).toMatchObject({ id: '545a5da6-f103-4919-a519-e9aec1026ee4', severity: 4, author: 'Someone', references: ['https://example.com/a'] });
    expect(rule.mitreAttack).toEqual(['TA0011:T1071.004', 'TA0011:T1568']);
    expect(rule.attacks[0]).toEqual({ tactic: { uid: 'TA0011', name: 'Command and Control' }, technique: { uid: 'T1071' }, subTechnique: { uid: 'T1071.004' } });
  });
  it('defaults: medium severity, a stable digest id', () => {
    const a = ruleOf({ s: { 'c-uri': 'x' }, condition: 's' });
    const b = ruleOf({ s: { 'c-uri': 'x' }, condition: 's' });
    expect(a.severity).toBe(3);
    expect(a.id).toMatch(/^sigma-[0-9a-f]{32}$/);
    expect(a.id).toBe(b.id);
    expect(ruleOf({ s: { 'c-uri': 'y' }, condition: 's' }).id).not.toBe(a.id);
  });
});
