/**
 * Scoring-state hand-over against a real Kafka broker: two ScoringConsumer replicas in one group over a
 * 4-partition events topic. Scans and a tunnel are split across time so that they cross their thresholds only
 * with the state of the part another replica scored. The findings must equal an uninterrupted run's: the same
 * record ids (so each detection fired once, with the same uids and counts) and nothing else.
 */
import { randomUUID } from 'node:crypto';
import { KafkaBus, type ConsumedRecord } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import type { FindingRecord, TopicSpec } from '@vigil/contracts';
import { IndicatorStore } from '@vigil/detection-engine';
import { Logger } from '@nestjs/common';
import { Readiness } from '@vigil/platform';
import { kafkaBrokers } from '../../../../tools/integration/servers';
import { ScoringConsumer } from '../scoring.consumer';
import { analyticIds, HANDOVER_STEPS, handoverRecords, uninterruptedFindings } from './handover-fixture';

Logger.overrideLogger(false);
jest.setTimeout(120_000);

// Port scans fire at 15 distinct ports: no phase alone is enough.
const PHASES = [
  [0, 8],
  [8, 16],
  [16, HANDOVER_STEPS],
] as const;

function spec(name: string, partitions: number, cleanup: TopicSpec['cleanup'] = 'delete'): TopicSpec {
  return { name, partitions, cleanup, ...(cleanup === 'delete' ? { retentionHours: 1 } : {}) };
}

describe('scoring state hand-over between replicas (real Kafka)', () => {
  const prefix = `it.scoring.${randomUUID().slice(0, 8)}`;
  const topics = {
    events: `${prefix}.events`,
    findings: `${prefix}.findings`,
    alerts: `${prefix}.alerts`,
    deadLetter: `${prefix}.dlq`,
    rules: `${prefix}.rules`,
    scoringState: `${prefix}.state`,
  };
  const specs = [
    spec(topics.events, 4),
    spec(topics.findings, 1),
    spec(topics.alerts, 1),
    spec(topics.deadLetter, 1),
    spec(topics.rules, 1, 'compact'),
    { ...spec(topics.scoringState, 1, 'compact'), maxMessageBytes: 8 * 1024 * 1024 },
  ];
  const buses: KafkaBus[] = [];
  const consumers: ScoringConsumer[] = [];
  let intel: IndicatorStore;

  const openBus = async () => {
    const bus = await KafkaBus.open({
      brokers: kafkaBrokers(),
      topics: specs,
      heartbeatIntervalMs: 300,
      sessionTimeoutMs: 6_000,
      maxWaitTimeMs: 200,
      retryBackoffMs: { initial: 50, max: 500 },
      log: () => undefined,
    });
    buses.push(bus);
    return bus;
  };
  const startReplica = async () => {
    const bus = await openBus();
    const consumer = new ScoringConsumer(bus, new Readiness(), loadConfig({ VIGIL_SNAPSHOT_INTERVAL_MS: '300' }), intel, {
      topics,
      group: `${prefix}.scoring`,
      scorer: { snapshotWaitMs: 10_000 },
    });
    await consumer.onApplicationBootstrap();
    consumers.push(consumer);
    return { bus, consumer };
  };

  beforeAll(() => {
    intel = new IndicatorStore({ seed: false });
  });
  afterAll(async () => {
    for (const consumer of consumers) await consumer.onModuleDestroy().catch(() => undefined);
    await Promise.allSettled(buses.map((bus) => bus.close()));
  });

  it('resumes windows on the new owner: the same findings as an uninterrupted run, none duplicated', async () => {
    const expected = uninterruptedFindings(intel);
    expect([...analyticIds(expected.values())]).toEqual(expect.arrayContaining(['port_scan_vertical', 'dns_tunnel']));

    const observer = await openBus();
    const seen: ConsumedRecord[] = [];
    await observer.subscribe({ topic: topics.findings }, async (batch) => {
      seen.push(...batch.records);
    });
    const publishSteps = (from: number, to: number) => observer.publish(topics.events, handoverRecords(from, to));
    const expectedUpTo = (to: number) => new Set(uninterruptedFindings(intel, to).keys());
    const waitForIds = async (ids: Set<string>, what: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const have = new Set(seen.map((r) => (JSON.parse(r.value.toString()) as FindingRecord).recordId));
        if ([...ids].every((id) => have.has(id))) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${[...ids].filter((id) => !have.has(id)).length} missing`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    // Phase 1: replica A alone.
    const a = await startReplica();
    await publishSteps(...PHASES[0]);
    await waitForIds(expectedUpTo(PHASES[0][1]), 'phase 1 findings');
    await new Promise((r) => setTimeout(r, 700)); // a checkpoint interval passes: A commits with snapshots

    // Phase 2: B joins; the group rebalances and B takes partitions over from A's snapshots.
    const b = await startReplica();
    await publishSteps(...PHASES[1]);
    await waitForIds(expectedUpTo(PHASES[1][1]), 'phase 2 findings');
    expect(b.consumer.stats.rebuilds).toBeGreaterThan(0);

    // Phase 3: A crashes (its bus goes away under it: nothing more is saved); B takes everything.
    const crashedAt = Date.now();
    await a.bus.close();
    await a.consumer.onModuleDestroy();
    await publishSteps(...PHASES[2]);
    await waitForIds(expectedUpTo(HANDOVER_STEPS), 'phase 3 findings');
    const takeoverMs = Date.now() - crashedAt;

    await new Promise((r) => setTimeout(r, 500)); // anything extra would have arrived by now
    const records = seen.map((r) => JSON.parse(r.value.toString()) as FindingRecord);
    const distinct = new Map(records.map((f) => [f.recordId, f]));
    expect(new Set(distinct.keys())).toEqual(new Set(expected.keys()));
    for (const [id, finding] of distinct) {
      expect(finding.findingUid).toBe(expected.get(id)?.findingUid);
      expect(finding.finding.count).toBe(expected.get(id)?.finding.count);
    }
    const last = b.consumer.stats;
    process.stdout.write(
      `hand-over: ${records.length} finding records (${distinct.size} distinct); takeover after crash ${takeoverMs} ms; ` +
        `last checkpoint ${JSON.stringify(last.lastCheckpoint)}; last rebuild ${JSON.stringify(last.lastRebuild)}\n`,
    );
  });
});
