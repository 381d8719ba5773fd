import type { ConsumedRecord } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { TOPICS, telemetryKey, type TelemetryBatch } from '@vigil/contracts';
import { makeTempDir, tunnelDnsEvents } from '@vigil/testing';
import { decompressSnapshot } from '../partitioned/snapshot-records';
import { WorkerEngines } from './worker-engines';

const T0 = Date.parse('2026-05-04T08:00:00Z');

function recordsOf(batch: TelemetryBatch): ConsumedRecord[] {
  return [{ key: telemetryKey(batch.workspaceId, batch.events[0].srcIP), value: Buffer.from(JSON.stringify(batch)), partition: 0, offset: '0', timestamp: T0 }];
}

describe('a scoring thread engine snapshot', () => {
  const temp = makeTempDir('vigil-worker-snapshot-');
  const config = loadConfig({ VIGIL_DATA_DIR: temp.path });
  const engines = new WorkerEngines({ threads: 1, intel: config.intel, configuredResolvers: [], capacityBytes: 64 * 1024 * 1024 });

  beforeAll(() => engines.start(), 60_000);
  afterAll(async () => {
    await engines.close();
    temp.cleanup();
  });

  it("comes back with the thread's own work time, and restores to the same state", async () => {
    const engine = engines.create(0);
    const events = tunnelDnsEvents(30, { domain: 'snapshot-time.net', srcIP: '10.7.0.1', startTs: T0, intervalMs: 500 });
    await engines.score(engine, TOPICS.events.name, recordsOf({ v: 1, workspaceId: 'ws-snap', type: 'dns', batchId: 'b1', receivedAt: T0, events }));

    const started = performance.now();
    const taken = await engine.snapshot();
    const elapsedMs = performance.now() - started;
    expect(taken.workMs).toBeGreaterThan(0);
    expect(taken.workMs).toBeLessThanOrEqual(elapsedMs);
    const state = await decompressSnapshot(taken.data);
    expect(JSON.stringify(state)).toContain('snapshot-time.net');

    const copy = engines.create(2);
    await copy.restore(taken.data);
    expect(await decompressSnapshot((await copy.snapshot()).data)).toEqual(state);
  }, 60_000);
});
