import { LocalBus, type Bus } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { ALL_TOPICS, TOPICS, type FindingRecord } from '@vigil/contracts';
import { IndicatorStore } from '@vigil/detection-engine';
import { Logger } from '@nestjs/common';
import { Readiness } from '@vigil/platform';
import { makeTempDir } from '@vigil/testing';
import { ScoringConsumer } from '../scoring.consumer';
import { analyticIds, HANDOVER_STEPS, handoverRecords, uninterruptedFindings } from './handover-fixture';

Logger.overrideLogger(false);
// Two consumer start-ups and their scoring took 24 s alone on a slow 2-core machine, more under a full test run.
// Each wait below has its own deadline, so a hang still fails early.
jest.setTimeout(90_000);

async function findingsOn(bus: Bus): Promise<FindingRecord[]> {
  const seen: FindingRecord[] = [];
  const reader = await bus.subscribe({ topic: TOPICS.findings.name }, async (batch) => {
    for (const r of batch.records) seen.push(JSON.parse(r.value.toString()) as FindingRecord);
  });
  await reader.caughtUp;
  await reader.close();
  return seen;
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('ScoringConsumer restart on the embedded bus', () => {
  const temp = makeTempDir('vigil-scoring-restart-');
  const intel = new IndicatorStore({ seed: false });
  const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_SNAPSHOT_INTERVAL_MS: '200' });
  afterAll(() => temp.cleanup());

  const start = async () => {
    const bus = await LocalBus.open({ dir: config.bus.kind === 'local' ? config.bus.dir : '', topics: ALL_TOPICS, log: () => undefined });
    const consumer = new ScoringConsumer(bus, new Readiness(), config, intel);
    await consumer.onApplicationBootstrap();
    return { bus, consumer };
  };
  const hasAll = async (bus: Bus, ids: Iterable<string>) => {
    const have = new Set((await findingsOn(bus)).map((f) => f.recordId));
    return [...ids].every((id) => have.has(id));
  };

  it('continues windows across a crash mid-window: the findings are those of an uninterrupted run', async () => {
    const expected = uninterruptedFindings(intel);
    expect([...analyticIds(expected.values())]).toEqual(expect.arrayContaining(['port_scan_vertical', 'dns_tunnel']));

    const first = await start();
    await first.bus.publish(TOPICS.events.name, handoverRecords(0, 8));
    await until(() => hasAll(first.bus, uninterruptedFindings(intel, 8).keys()), 'findings of the first part');
    await until(async () => first.consumer.stats.checkpoints > 0, 'a checkpoint');
    await first.bus.publish(TOPICS.events.name, handoverRecords(8, 12));
    await until(() => hasAll(first.bus, uninterruptedFindings(intel, 12).keys()), 'findings of the second part');
    // Crash: the bus goes away under the consumer, so whatever was scored since the last checkpoint is not saved.
    await first.bus.close();
    await first.consumer.onModuleDestroy();

    const second = await start();
    await second.bus.publish(TOPICS.events.name, handoverRecords(12, HANDOVER_STEPS));
    await until(() => hasAll(second.bus, expected.keys()), 'every finding of the uninterrupted run');
    expect(second.consumer.stats.lastRebuild?.from).toBe('snapshot');
    await new Promise((r) => setTimeout(r, 300));
    const all = await findingsOn(second.bus);
    const distinct = new Map(all.map((f) => [f.recordId, f]));
    expect(new Set(distinct.keys())).toEqual(new Set(expected.keys()));
    for (const [id, f] of distinct) expect(f.finding.count).toBe(expected.get(id)?.finding.count);
    await second.consumer.onModuleDestroy();
    await second.bus.close();
  });
});
