import { LocalBus, type Bus } from '@vigil/bus';
import { ALL_TOPICS, decodeRuleStatusRecord, encodeRuleSetRecord, TOPICS, type CustomerRule, type WorkspaceRuleStatus } from '@vigil/contracts';
import { metricsRegistry } from '@vigil/platform';
import { makeTempDir, waitUntil } from '@vigil/testing';
import { RuleStatusReporter } from './rule-status-reporter';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const rule = (n: number, source: string): CustomerRule => ({ id: ID(n), kind: 'rule', title: `R${n}`, level: 'high', status: 'test', fileName: `r${n}.yml`, source, updatedAt: '2026-01-01T00:00:00.000Z' });
const good = (n: number) => rule(n, `title: R${n}\nid: ${ID(n)}\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|endswith: .r${n}.test\n  condition: sel\n`);
const bad = (n: number) => rule(n, good(n).source.replace('category: dns', 'product: cisco'));

async function metric(name: string, labels = ''): Promise<number> {
  const line = (await metricsRegistry.metrics()).split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

describe('RuleStatusReporter: scoring engines tell the rules service what they quarantined', () => {
  const temp = makeTempDir('vigil-rule-status-');
  let bus: Bus;
  let reporter: RuleStatusReporter;
  const statuses: WorkspaceRuleStatus[] = [];

  beforeAll(async () => {
    bus = await LocalBus.open({ dir: temp.path, topics: ALL_TOPICS, log: () => undefined });
    await bus.subscribe({ topic: TOPICS.ruleStatus.name }, async (batch) => {
      for (const record of batch.records) statuses.push(decodeRuleStatusRecord(record.value));
    });
    reporter = new RuleStatusReporter(bus);
    await reporter.onApplicationBootstrap();
  });

  afterAll(async () => {
    await reporter.onModuleDestroy();
    await bus.close();
    temp.cleanup();
  });

  const publish = (version: number, rules: CustomerRule[]) => bus.publish(TOPICS.rules.name, [{ key: 'ws-r', value: encodeRuleSetRecord({ v: 1, workspaceId: 'ws-r', version, rules }) }]);

  it('publishes the quarantined versions of a workspace, counts them and keeps the gauge', async () => {
    const before = await metric('vigil_sigma_rule_quarantines_total', '{cause="compile"}');
    await publish(1, [good(1), bad(2)]);
    await waitUntil(() => statuses.length === 1, 'the first status record', 10_000);
    expect(statuses[0]).toEqual({ v: 1, workspaceId: 'ws-r', version: 1, quarantined: [{ id: ID(2), updatedAt: '2026-01-01T00:00:00.000Z', reason: expect.stringMatching(/^unsupported logsource/) }] });
    expect(await metric('vigil_sigma_rule_quarantines_total', '{cause="compile"}')).toBe(before + 1);
    expect(await metric('vigil_sigma_rules_quarantined')).toBe(1);
  });

  it('writes again only when the quarantine changes', async () => {
    await publish(2, [good(1), bad(2), good(3)]);
    await publish(3, [good(1), good(3)]);
    await waitUntil(() => statuses.length === 2, 'the second status record', 10_000);
    expect(statuses[1]).toMatchObject({ version: 3, quarantined: [] });
    expect(await metric('vigil_sigma_rules_quarantined')).toBe(0);
    await publish(4, [good(1)]);
    await new Promise((r) => setTimeout(r, 500));
    expect(statuses).toHaveLength(2);
    expect(reporter.quarantinedOf('ws-r')).toEqual([]);
  });
});
