import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { BUS, type Bus, type ConsumedRecord } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { encodeRuleSetRecord, TOPICS, type FindingRecord, type TelemetryBatch } from '@vigil/contracts';
import { PlatformModule } from '@vigil/platform';
import { assertValidOcsfFinding, makeTempDir, tunnelDnsEvents } from '@vigil/testing';
import { ScoringModule } from './scoring.module';

async function collect(bus: Bus, topic: string, count: number): Promise<ConsumedRecord[]> {
  const seen: ConsumedRecord[] = [];
  const subscription = await bus.subscribe({ topic }, async (batch) => {
    seen.push(...batch.records);
  });
  for (let i = 0; i < 250 && seen.length < count; i++) await new Promise((r) => setTimeout(r, 20));
  await subscription.close();
  return seen;
}

describe.each([
  ['in this thread', '0'],
  ['in 2 worker threads', '2'],
])('ScoringConsumer (real local bus), scoring %s', (_mode, workers) => {
  const temp = makeTempDir('vigil-scoring-');
  let app: INestApplicationContext;
  let bus: Bus;

  beforeAll(async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_SCORING_WORKERS: workers });
    app = await NestFactory.createApplicationContext(
      { module: class ScoringSpecModule {}, imports: [PlatformModule.forRoot(config, { http: false }), ScoringModule] },
      { logger: false },
    );
    await app.init();
    bus = app.get<Bus>(BUS);
  }, 60_000);

  afterAll(async () => {
    await app.close();
    temp.cleanup();
  });

  it('turns telemetry on the events topic into findings and alerts on their topics', async () => {
    const batch: TelemetryBatch = {
      v: 1,
      workspaceId: 'ws-1',
      type: 'dns',
      batchId: 'b-1',
      receivedAt: Date.now(),
      events: tunnelDnsEvents(30, { domain: 'scoring-spec.net', srcIP: '10.3.3.3', startTs: Date.now() - 20_000, intervalMs: 500 }),
    };
    await bus.publish(TOPICS.events.name, [{ key: 'ws-1|10.3.3.3', value: Buffer.from(JSON.stringify(batch)) }]);
    const findings = await collect(bus, TOPICS.findings.name, 1);
    expect(findings.length).toBeGreaterThan(0);
    const finding = JSON.parse(findings[0].value.toString()) as FindingRecord;
    expect(findings[0].key).toBe('ws-1');
    expect(finding).toMatchObject({ workspaceId: 'ws-1', severityId: 4 });
    const alerts = await collect(bus, TOPICS.alerts.name, 1);
    expect(alerts.length).toBeGreaterThan(0);
  });

  it('sends records it cannot read to the dead-letter topic and carries on', async () => {
    await bus.publish(TOPICS.events.name, [
      { key: 'ws-1|10.4.4.4', value: Buffer.from('{not json') },
      { key: 'ws-1|10.4.4.5', value: Buffer.from(JSON.stringify({ v: 99 })) },
    ]);
    const dead = await collect(bus, TOPICS.deadLetter.name, 2);
    expect(dead.map((r) => r.headers?.reason?.split(':')[0]).sort()).toEqual(['invalid', 'unreadable']);
    expect(dead.every((r) => r.headers?.source === TOPICS.events.name)).toBe(true);
  });

  it('applies customer Sigma rules from the rules topic without a restart', async () => {
    const rule = `title: Customer rule\nid: 00000000-0000-4000-8000-00000000c0de\nauthor: Spec Author\nlevel: medium\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|endswith: .customer-rule.test\n  condition: sel\n`;
    const updatedAt = new Date().toISOString();
    await bus.publish(TOPICS.rules.name, [
      {
        key: 'ws-sigma',
        value: encodeRuleSetRecord({ v: 1, workspaceId: 'ws-sigma', version: 1, rules: [{ id: '00000000-0000-4000-8000-00000000c0de', kind: 'rule', title: 'Customer rule', level: 'medium', status: '', fileName: 'r.yml', source: rule, updatedAt }] }),
      },
    ]);
    let finding: FindingRecord | undefined;
    for (let attempt = 0; attempt < 20 && finding === undefined; attempt++) {
      const batch: TelemetryBatch = { v: 1, workspaceId: 'ws-sigma', type: 'dns', batchId: `sigma-${attempt}`, receivedAt: Date.now(), events: [{ ts: new Date().toISOString(), srcIP: '10.5.5.5', query: 'x.customer-rule.test' }] };
      await bus.publish(TOPICS.events.name, [{ key: 'ws-sigma|10.5.5.5', value: Buffer.from(JSON.stringify(batch)) }]);
      const records = (await collect(bus, TOPICS.findings.name, 1)).map((r) => JSON.parse(r.value.toString()) as FindingRecord);
      finding = records.find((f) => f.workspaceId === 'ws-sigma');
      // Rules reach scoring threads asynchronously: give them a moment before the next try.
      if (finding === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    expect(finding).toBeDefined();
    assertValidOcsfFinding(finding!.finding);
    expect((finding!.finding as any).unmapped.sigma).toMatchObject({ id: '00000000-0000-4000-8000-00000000c0de', author: 'Spec Author' });
  });
});
