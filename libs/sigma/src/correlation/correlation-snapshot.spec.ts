import { ruleOf } from '../testing/compile-helpers';
import type { CompiledRule } from '../types';
import { compileCorrelation, type CompiledCorrelation } from './correlation-compiler';
import { CorrelationEngine, type CorrelationInput } from './correlation-engine';
import { CorrelationStateError } from './correlation-state';

const fw = { category: 'firewall' };
const denied = ruleOf({ sel: { action: 'deny' }, condition: 'sel' }, fw, {}, { name: 'denied_flow' });
const allowed = ruleOf({ sel: { action: 'allow' }, condition: 'sel' }, fw, {}, { name: 'allowed_flow' });

function correlation(name: string, body: Record<string, unknown>): CompiledCorrelation {
  const r = compileCorrelation({ title: name, name, correlation: body });
  if (!r.ok) throw new Error(r.error);
  return r.correlation;
}

const correlations = [
  correlation('burst', { type: 'event_count', rules: ['denied_flow'], 'group-by': ['src_ip'], timespan: '1m', condition: { gte: 5 } }),
  correlation('fanout', { type: 'value_count', rules: ['denied_flow'], 'group-by': ['src_ip'], timespan: '5m', condition: { field: 'dst_port', gte: 4 } }),
  correlation('volume', { type: 'value_sum', rules: ['allowed_flow'], 'group-by': ['src_ip'], timespan: '10m', condition: { field: 'source.bytes', gt: 10_000 } }),
  correlation('mean', { type: 'value_avg', rules: ['allowed_flow'], 'group-by': ['src_ip'], timespan: '10m', condition: { field: 'source.bytes', gte: 1_200 } }),
  correlation('deny_then_allow', { type: 'temporal_ordered', rules: ['denied_flow', 'allowed_flow'], 'group-by': ['src_ip'], timespan: '2m' }),
  // Chained: a correlation of correlation matches.
  correlation('repeated_burst', { type: 'event_count', rules: ['burst'], 'group-by': ['src_ip'], timespan: '10m', condition: { gte: 2 } }),
];

function engine(options = {}): CorrelationEngine {
  const r = CorrelationEngine.create(correlations, [denied, allowed], options);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.engine;
}

/** Flows of a few hosts; odd-looking byte counts make the running sums inexact in floating point. */
function inputs(n: number): CorrelationInput[] {
  return Array.from({ length: n }, (_, i) => {
    const deny = i % 3 !== 0;
    const event = { ts: 't', srcIP: `10.0.0.${i % 4}`, destIP: '10.9.9.9', destPort: 20 + (i % 7), action: deny ? 'deny' : 'allow', bytesOut: 1_000.1 + ((i * 37) % 1_500) / 3 };
    return { rule: deny ? denied : allowed, type: 'ip' as const, event, timeMs: i * 1_000, enrichment: { flags: i % 5 === 0 ? ['x'] : [] } };
  });
}

const summary = (m: ReturnType<CorrelationEngine['feed']>) => m.map((x) => ({ id: x.correlation.id, group: x.group, value: x.value, n: x.eventCount, first: x.firstTimeMs, last: x.lastTimeMs, inputs: x.inputs.map((i) => [i.rule.id, i.event, i.timeMs, i.enrichment]) }));

describe('CorrelationEngine: snapshot and restore', () => {
  const all = inputs(200);
  const straight = (() => {
    const e = engine();
    return all.map((input) => summary(e.feed(input)));
  })();

  it('the matches do not depend on a snapshot taken in between', () => {
    expect(straight.flat().map((m) => m.id)).toEqual(expect.arrayContaining(correlations.map((c) => c.id)));
    for (const split of [1, 17, 60, 133, 199]) {
      const first = engine();
      const resumed = all.slice(0, split).map((input) => summary(first.feed(input)));
      const second = engine();
      second.restore(JSON.parse(JSON.stringify(first.snapshot())));
      resumed.push(...all.slice(split).map((input) => summary(second.feed(input))));
      expect(resumed).toEqual(straight);
    }
  });

  it('stores events through the given encoder and resolves them on restore', () => {
    const first = engine();
    all.slice(0, 30).forEach((input) => first.feed(input));
    const table: object[] = [];
    const intern = (event: object) => (table.includes(event) ? table.indexOf(event) : table.push(event) - 1);
    const state = JSON.parse(JSON.stringify(first.snapshot(intern)));
    const second = engine();
    second.restore(state, (ref) => table[ref as number]);
    const restored = JSON.parse(JSON.stringify(second.snapshot((event) => table.indexOf(event))));
    expect(restored).toEqual(state);
  });

  it('keeps the group bound of a smaller engine, most recently fed groups first', () => {
    const first = engine();
    all.slice(0, 40).forEach((input) => first.feed(input));
    const small = engine({ maxGroups: 1, maxEventsPerGroup: 2 });
    small.restore(first.snapshot());
    const state = small.snapshot() as [string, unknown[]][];
    for (const [, groups] of state) {
      expect(groups.length).toBeLessThanOrEqual(2);
      for (let g = 1; g < groups.length; g += 2) expect(((groups[g] as unknown[])[0] as unknown[]).length).toBeLessThanOrEqual(2 * 4);
    }
    const lastDenied = all.slice(0, 40).filter((input) => input.rule === denied).pop()!;
    expect(state.find(([id]) => id === correlations[0].id)![1][0]).toBe(JSON.stringify([(lastDenied.event as { srcIP: string }).srcIP]));
  });

  it('rejects malformed state without changing the windows', () => {
    const e = engine();
    all.slice(0, 30).forEach((input) => e.feed(input));
    const before = JSON.stringify(e.snapshot());
    const bad = JSON.parse(before) as [string, unknown[]][];
    const window = bad[0][1][1] as unknown[];
    ((window[0] as unknown[])[3] as unknown[])[0] = 'no-such-rule';
    expect(() => e.restore(bad)).toThrow(CorrelationStateError);
    expect(() => e.restore([[correlations[0].id, ['k', [[0, 9, null, ['x', 'ip', {}, null]], 0]]]])).toThrow(/rule position below 1/);
    expect(() => e.restore('nope')).toThrow(CorrelationStateError);
    expect(JSON.stringify(e.snapshot())).toBe(before);
    e.restore(undefined);
    expect(e.snapshot()).toEqual(correlations.map((c) => [c.id, []]));
  });
});
