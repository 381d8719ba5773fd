import { NestFactory } from '@nestjs/core';
import { BUS, type Bus, type ConsumedRecord } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { TOPICS, telemetryKey, type TelemetryBatch, type TelemetryEvent, type TelemetryType } from '@vigil/contracts';
import { PlatformModule } from '@vigil/platform';
import { benignDnsEvents, ipEvents, makeTempDir, oastDnsEvents, tunnelDnsEvents } from '@vigil/testing';
import { ScoringModule } from '../scoring.module';

const T0 = Date.parse('2026-05-04T08:00:00Z');

/** A fixed day of telemetry across many hosts (so across partitions): tunnels, OAST lookups, flows, browsing. */
function workload(): TelemetryBatch[] {
  const parts: [TelemetryType, TelemetryEvent[]][] = [
    ['dns', benignDnsEvents(3000, { hosts: 300, seed: 3, startTs: T0, intervalMs: 20 })],
    ['ip', ipEvents(3000, { hosts: 300, seed: 3, startTs: T0, intervalMs: 20 })],
    ...[1, 2, 3, 4, 5].map((i): [TelemetryType, TelemetryEvent[]] => ['dns', tunnelDnsEvents(40, { domain: `equivalence-${i}.net`, srcIP: `10.9.${i}.${i}`, startTs: T0 + i * 1000, intervalMs: 400 })]),
    ['dns', oastDnsEvents(20, { srcIP: '10.9.9.9', startTs: T0 })],
  ];
  const batches: TelemetryBatch[] = [];
  for (const [type, events] of parts) {
    // One batch per host and slice, as the gateway packs them, keyed so each host stays on its partition.
    for (let i = 0; i < events.length; i += 50) {
      const slice = events.slice(i, i + 50);
      for (const srcIP of new Set(slice.map((e) => e.srcIP))) {
        batches.push({ v: 1, workspaceId: 'ws-eq', type, batchId: `${type}-${i}-${srcIP}`, receivedAt: T0 + i, events: slice.filter((e) => e.srcIP === srcIP) });
      }
    }
  }
  return batches;
}

async function readAll(bus: Bus, topic: string): Promise<ConsumedRecord[]> {
  const seen: ConsumedRecord[] = [];
  const subscription = await bus.subscribe({ topic }, async (batch) => void seen.push(...batch.records));
  let last = -1;
  // Until nothing new arrives for a second.
  for (let quiet = 0; quiet < 5; ) {
    await new Promise((r) => setTimeout(r, 200));
    quiet = seen.length === last ? quiet + 1 : 0;
    last = seen.length;
  }
  await subscription.close();
  return seen;
}

/** Records as comparable text: the wall-clock processing time is the only field allowed to differ. */
function normalised(records: ConsumedRecord[]): string[] {
  return records
    .map((r) => JSON.stringify(JSON.parse(r.value.toString()), (key, value) => (key === 'processed_time' || key === 'processed_time_dt' ? undefined : value)))
    .sort();
}

async function score(workers: string): Promise<{ findings: string[]; alerts: string[] }> {
  const temp = makeTempDir('vigil-equivalence-');
  const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_SCORING_WORKERS: workers });
  const app = await NestFactory.createApplicationContext({ module: class EquivalenceModule {}, imports: [PlatformModule.forRoot(config, { http: false }), ScoringModule] }, { logger: false });
  try {
    await app.init();
    const bus = app.get<Bus>(BUS);
    for (const batch of workload()) {
      await bus.publish(TOPICS.events.name, [{ key: telemetryKey(batch.workspaceId, batch.events[0].srcIP), value: Buffer.from(JSON.stringify(batch)) }]);
    }
    const [findings, alerts] = await Promise.all([readAll(bus, TOPICS.findings.name), readAll(bus, TOPICS.alerts.name)]);
    return { findings: normalised(findings), alerts: normalised(alerts) };
  } finally {
    await app.close();
    temp.cleanup();
  }
}

describe('scoring in worker threads', () => {
  it('yields exactly the findings and alerts of scoring in one thread, on the same input', async () => {
    const single = await score('0');
    const threaded = await score('2');
    expect(single.findings.length).toBeGreaterThanOrEqual(6);
    expect(single.alerts.length).toBeGreaterThan(0);
    expect(threaded.findings).toEqual(single.findings);
    expect(threaded.alerts).toEqual(single.alerts);
  }, 120_000);
});
