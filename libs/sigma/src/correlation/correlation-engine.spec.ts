import { ruleOf } from '../testing/compile-helpers';
import type { CompiledRule } from '../types';
import { compileCorrelation, type CompiledCorrelation } from './correlation-compiler';
import { CorrelationEngine, type CorrelationMatch } from './correlation-engine';

const fw = { category: 'firewall' };
const denied = ruleOf({ sel: { action: 'deny' }, condition: 'sel' }, fw, {}, { name: 'denied_flow' });
const allowed = ruleOf({ sel: { action: 'allow' }, condition: 'sel' }, fw, {}, { name: 'allowed_flow' });
const login = ruleOf({ sel: { dst_port: 22 }, condition: 'sel' }, fw, {}, { name: 'ssh_flow' });

function correlation(body: Record<string, unknown>): CompiledCorrelation {
  const r = compileCorrelation({ title: `corr ${String(body.type)}`, name: `c_${String(body.type)}`, correlation: body });
  if (!r.ok) throw new Error(r.error);
  return r.correlation;
}

function engineOf(c: CompiledCorrelation[], rules: CompiledRule[] = [denied, allowed, login]): CorrelationEngine {
  const r = CorrelationEngine.create(c, rules);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.engine;
}

const flow = (srcIP: string, extra: Record<string, unknown> = {}) => ({ ts: 't', srcIP, destIP: '10.0.0.1', action: 'deny', ...extra });
const feed = (e: CorrelationEngine, rule: CompiledRule, event: object, timeMs: number): CorrelationMatch[] => e.feed({ rule, type: 'ip', event, timeMs });

describe('correlation rules', () => {
  it('event_count: fires when a group reaches the count within the timespan', () => {
    const e = engineOf([correlation({ type: 'event_count', rules: ['denied_flow'], 'group-by': ['src_ip'], timespan: '1m', condition: { gte: 3 } })]);
    expect(feed(e, denied, flow('1.1.1.1'), 0)).toEqual([]);
    expect(feed(e, denied, flow('2.2.2.2'), 1000)).toEqual([]); // another group
    expect(feed(e, denied, flow('1.1.1.1'), 2000)).toEqual([]);
    const [m] = feed(e, denied, flow('1.1.1.1'), 3000);
    expect(m).toMatchObject({ group: { src_ip: '1.1.1.1' }, eventCount: 3, value: 3, firstTimeMs: 0, lastTimeMs: 3000 });
    // too slow: the first event leaves the window before the third arrives
    expect(feed(e, denied, flow('3.3.3.3'), 0)).toEqual([]);
    expect(feed(e, denied, flow('3.3.3.3'), 30_000)).toEqual([]);
    expect(feed(e, denied, flow('3.3.3.3'), 61_000)).toEqual([]);
  });

  it('value_count: distinct values of a field', () => {
    const e = engineOf([correlation({ type: 'value_count', rules: ['denied_flow'], 'group-by': ['src_ip'], timespan: '5m', condition: { field: 'dst_port', gt: 2 } })]);
    expect(feed(e, denied, flow('1.1.1.1', { destPort: 22 }), 0)).toEqual([]);
    expect(feed(e, denied, flow('1.1.1.1', { destPort: 22 }), 1)).toEqual([]);
    expect(feed(e, denied, flow('1.1.1.1', { destPort: 23 }), 2)).toEqual([]);
    expect(feed(e, denied, flow('1.1.1.1', { destPort: 23 }), 3)).toEqual([]);
    expect(feed(e, denied, flow('1.1.1.1', { destPort: 25 }), 4)[0]).toMatchObject({ value: 3 });
  });

  it('value_sum and value_avg over a numeric field', () => {
    const sum = engineOf([correlation({ type: 'value_sum', rules: ['allowed_flow'], 'group-by': ['src_ip'], timespan: '1h', condition: { field: 'source.bytes', gt: 1000 } })]);
    expect(feed(sum, allowed, flow('1.1.1.1', { action: 'allow', bytesOut: 600 }), 0)).toEqual([]);
    expect(feed(sum, allowed, flow('1.1.1.1', { action: 'allow', bytesOut: 400 }), 1)).toEqual([]);
    expect(feed(sum, allowed, flow('1.1.1.1', { action: 'allow', bytesOut: 1 }), 2)[0]).toMatchObject({ value: 1001 });
    const avg = engineOf([correlation({ type: 'value_avg', rules: ['allowed_flow'], 'group-by': ['src_ip'], timespan: '1h', condition: { field: 'source.bytes', gte: 500 } })]);
    expect(feed(avg, allowed, flow('1.1.1.1', { action: 'allow', bytesOut: 100 }), 0)).toEqual([]);
    expect(feed(avg, allowed, flow('1.1.1.1', { action: 'allow', bytesOut: 800 }), 1)).toEqual([]);
    expect(feed(avg, allowed, flow('1.1.1.1', { action: 'allow', bytesOut: 700 }), 2)[0]).toMatchObject({ value: 1600 / 3 });
  });

  it('value_percentile: the share of the event value among the group values', () => {
    const e = engineOf([correlation({ type: 'value_percentile', rules: ['allowed_flow'], 'group-by': ['src_ip'], timespan: '1d', condition: { field: 'dst_ip', lte: 10 } })]);
    for (let i = 0; i < 20; i++) expect(feed(e, allowed, flow('1.1.1.1', { action: 'allow', destIP: '8.8.8.8' }), i)).toEqual([]);
    const [rare] = feed(e, allowed, flow('1.1.1.1', { action: 'allow', destIP: '6.6.6.6' }), 21);
    expect(rare.value).toBeCloseTo(100 / 21);
    expect(feed(e, allowed, flow('1.1.1.1', { action: 'allow', destIP: '8.8.8.8' }), 22)).toEqual([]);
  });

  it('temporal: all rules within the timespan, any order', () => {
    const e = engineOf([correlation({ type: 'temporal', rules: ['ssh_flow', 'denied_flow'], 'group-by': ['src_ip'], timespan: '10s' })]);
    expect(feed(e, denied, flow('1.1.1.1'), 0)).toEqual([]);
    expect(feed(e, denied, flow('1.1.1.1'), 1)).toEqual([]);
    expect(feed(e, login, flow('1.1.1.1', { destPort: 22 }), 5000)).toHaveLength(1);
    expect(feed(e, login, flow('2.2.2.2', { destPort: 22 }), 0)).toEqual([]);
    expect(feed(e, denied, flow('2.2.2.2'), 20_000)).toEqual([]); // outside the timespan
  });

  it('temporal_ordered: the rules in the given order', () => {
    const e = engineOf([correlation({ type: 'temporal_ordered', rules: ['denied_flow', 'ssh_flow'], 'group-by': ['src_ip'], timespan: '10s' })]);
    expect(feed(e, login, flow('1.1.1.1', { destPort: 22 }), 0)).toEqual([]);
    expect(feed(e, denied, flow('1.1.1.1'), 1000)).toEqual([]); // wrong order so far
    expect(feed(e, login, flow('1.1.1.1', { destPort: 22 }), 2000)).toHaveLength(1);
  });

  it('chains correlations and reports suppressed base rules', () => {
    const inner = correlation({ type: 'event_count', rules: ['denied_flow'], 'group-by': ['src_ip'], timespan: '1m', condition: { gte: 2 } });
    const outer = compileCorrelation({
      title: 'outer',
      correlation: { type: 'event_count', rules: ['c_event_count'], 'group-by': ['src_ip'], timespan: '1h', condition: { gte: 2 } },
    });
    if (!outer.ok) throw new Error(outer.error);
    const e = engineOf([inner, outer.correlation]);
    const results = [0, 1, 2, 3].flatMap((t) => feed(e, denied, flow('1.1.1.1'), t));
    expect(results.map((m) => m.correlation.title)).toEqual(['corr event_count', 'corr event_count', 'outer']);
    expect([...e.suppressedRuleIds([denied, allowed])]).toEqual([denied.id]);
  });

  it('rejects dangling references, cycles and malformed correlations', () => {
    const a = compileCorrelation({ title: 'a', name: 'a', correlation: { type: 'event_count', rules: ['b'], 'group-by': ['x'], timespan: '1m', condition: { gte: 1 } } });
    const b = compileCorrelation({ title: 'b', name: 'b', correlation: { type: 'event_count', rules: ['a'], 'group-by': ['x'], timespan: '1m', condition: { gte: 1 } } });
    if (!a.ok || !b.ok) throw new Error('compile');
    const cycle = CorrelationEngine.create([a.correlation, b.correlation], []);
    expect(cycle.ok ? [] : cycle.errors.join()).toMatch(/reference cycle/);
    const dangling = CorrelationEngine.create([correlation({ type: 'event_count', rules: ['ghost'], 'group-by': ['x'], timespan: '1m', condition: { gte: 1 } })], [denied]);
    expect(dangling.ok ? [] : dangling.errors).toEqual(["correlation 'corr event_count': referenced rule 'ghost' does not exist"]);
    const bad = (body: Record<string, unknown>) => {
      const r = compileCorrelation({ title: 't', correlation: body });
      return r.ok ? '' : r.error;
    };
    expect(bad({ type: 'event_count', rules: ['x'], timespan: '5 minutes', condition: { gte: 1 } })).toMatch(/timespan "5 minutes" must be/);
    expect(bad({ type: 'value_count', rules: ['x'], timespan: '5m', condition: { gte: 1 } })).toMatch(/value_count needs condition 'field'/);
    expect(bad({ type: 'temporal', rules: ['x'], timespan: '5m' })).toMatch(/needs at least two rules/);
    expect(bad({ type: 'event_count', rules: ['x'], timespan: '5m', condition: { above: 1 } })).toMatch(/unknown condition operator 'above'/);
    expect(bad({ type: 'sequence', rules: ['x'], timespan: '5m' })).toMatch(/type "sequence" is not one of/);
  });

  it('keeps windows bounded', () => {
    const r = CorrelationEngine.create([correlation({ type: 'event_count', rules: ['denied_flow'], 'group-by': ['src_ip'], timespan: '1d', condition: { gte: 1_000_000 } })], [denied], { maxEventsPerGroup: 100, maxGroups: 10 });
    if (!r.ok) throw new Error('create');
    for (let i = 0; i < 5000; i++) r.engine.feed({ rule: denied, type: 'ip', event: flow(`10.0.${i % 50}.1`), timeMs: i });
    const groups = (r.engine as unknown as { wirings: Array<{ groups: Map<string, { size: number }> }> }).wirings[0].groups;
    expect(groups.size).toBeLessThanOrEqual(10);
    for (const w of groups.values()) expect(w.size).toBeLessThanOrEqual(100);
  });
});
