import { gzipSync } from 'node:zlib';
import type { TelemetryBatch } from '@vigil/contracts';
import { DetectionEngine, type DetectionEngineOptions, type DetectionResult } from '../engine';
import { MIXED_TRAFFIC_START, mixedTrafficBatches } from '../testing/mixed-traffic';
import { SnapshotError, type EngineSnapshot } from './snapshot';

const options: DetectionEngineOptions = { clock: () => MIXED_TRAFFIC_START + 86_400_000 };
const batches = mixedTrafficBatches({ steps: 20, hosts: 20 });

const wire = (snapshot: EngineSnapshot): EngineSnapshot => JSON.parse(JSON.stringify(snapshot)) as EngineSnapshot;

function run(engine: DetectionEngine, list: readonly TelemetryBatch[]): DetectionResult[] {
  return list.map((b) => engine.process(b));
}

/** Batches 0..k-1 in one engine, then k..N-1 in a fresh one restored from its snapshot. */
function resumedAt(k: number, restoreOptions: DetectionEngineOptions = options): { results: DetectionResult[]; snapshot: EngineSnapshot } {
  const first = new DetectionEngine(options);
  const results = run(first, batches.slice(0, k));
  const snapshot = wire(first.snapshot());
  const second = new DetectionEngine(restoreOptions);
  second.restore(snapshot);
  results.push(...run(second, batches.slice(k)));
  return { results, snapshot };
}

const detectionIds = (results: DetectionResult[]) => new Set(results.flatMap((r) => r.findings.map((f) => (f.finding.finding_info as unknown as { analytic: { uid: string } }).analytic.uid)));

describe('DetectionEngine: snapshot and restore', () => {
  const straight = run(new DetectionEngine(options), batches);

  it('the mixed traffic raises every windowed detection, with findings updated across many batches', () => {
    expect([...detectionIds(straight)]).toEqual(
      expect.arrayContaining(['dns_tunnel', 'dga_volume', 'mx_lookup_volume', 'port_scan_vertical', 'port_scan_horizontal', 'beacon_ip', 'icmp_tunnel', 'large_ssh_transfer', 'spambot_smtp', 'unusual_port_volume']),
    );
    const revisions = straight.flatMap((r) => r.findings.map((f) => f.recordId.split(':')[1])).map(Number);
    expect(Math.max(...revisions)).toBeGreaterThan(5);
  });

  it.each([1, 23, 48, 80])('gives exactly the same findings and alerts when restored after batch %d', (k) => {
    expect(k).toBeLessThan(batches.length);
    const { results } = resumedAt(k);
    expect(results).toEqual(straight);
  });

  it('would not without the snapshot (the comparison above sees the state)', () => {
    const k = 48;
    const fresh = [...straight.slice(0, k), ...run(new DetectionEngine(options), batches.slice(k))];
    expect(fresh).not.toEqual(straight);
  });

  it('rejects an unknown version or a malformed part with a SnapshotError and is then empty and usable', () => {
    const { snapshot } = resumedAt(40);
    const engine = new DetectionEngine(options);
    expect(() => engine.restore({ ...snapshot, v: 2 } as unknown as EngineSnapshot)).toThrow(/unsupported snapshot version 2/);
    expect(() => engine.restore(null as unknown as EngineSnapshot)).toThrow(SnapshotError);

    const malformed = [
      (s: EngineSnapshot) => ((s.parts.port_scan_vertical as unknown[])[1] = 'oops'),
      (s: EngineSnapshot) => ((s.parts.findings as { f: unknown[] }).f[0] = 42),
      (s: EngineSnapshot) => ((s.parts.events as { o: unknown[] }).o[0] = 'oops'),
      (s: EngineSnapshot) => (s.parts.leases = { not: 'a list' }),
      (s: EngineSnapshot) => (s.parts.beacon_ip = { p: [1, 2, 3] }),
    ];
    for (const spoil of malformed) {
      const loaded = new DetectionEngine(options);
      loaded.restore(wire(snapshot));
      expect(loaded.stateStats().openFindings).toBeGreaterThan(0);
      const broken = wire(snapshot);
      spoil(broken);
      expect(() => loaded.restore(broken)).toThrow(SnapshotError);
      const stats = loaded.stateStats();
      expect(stats.openFindings).toBe(0);
      expect(Object.values(stats.detections).every((d) => d.keys === 0)).toBe(true);
      // Usable: from here on it behaves as a fresh engine.
      expect(run(loaded, batches.slice(40, 50))).toEqual(run(new DetectionEngine(options), batches.slice(40, 50)));
    }
  });

  it('keeps the bounds of an engine built with smaller ones', () => {
    const { snapshot } = resumedAt(60);
    const small = new DetectionEngine({ ...options, maxKeys: 3 });
    small.restore(snapshot);
    const stats = small.stateStats();
    expect(stats.openFindings).toBeLessThanOrEqual(3);
    for (const d of Object.values(stats.detections)) {
      expect(d.keys).toBeLessThanOrEqual(d.maxKeys);
      expect(d.largestKey).toBeLessThanOrEqual(d.maxEntriesPerKey);
    }
    expect(Object.values(stats.detections).some((d) => d.keys === 3)).toBe(true);
    expect(() => run(small, batches.slice(60))).not.toThrow();
  });

  it('is plain JSON of modest size: each event once, in a shared table', () => {
    const { snapshot } = resumedAt(batches.length);
    expect(wire(snapshot)).toEqual(snapshot);
    const json = JSON.stringify(snapshot);
    const events = snapshot.parts.events as { k: unknown[]; e: unknown[]; o: unknown[] };
    expect(events.o.length).toBeGreaterThan(100);
    expect(events.e.length).toBe(events.o.length);
    expect(events.k.length).toBeLessThan(20);
    // 20 ordinary hosts and 10 attackers after 20 minutes: far below a megabyte even before gzip.
    expect(json.length).toBeLessThan(600_000);
    expect(gzipSync(json).length).toBeLessThan(json.length / 3);
  });
});
