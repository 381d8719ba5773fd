import { seededRandom } from '../../testing/fixtures';
import { detectorSnapshot } from '../../testing/snapshot-roundtrip';
import { BeaconDetector } from './beacon';
import { flow, hitsOf, T0 } from './flow-fixtures';

const C2 = '45.77.6.6';

/** A timer of `periodS` with uniform jitter of +/- `jitter` of the period, and sizes varying by +/- 10 %. */
function timer(count: number, periodS: number, jitter: number, seed = 1, destIP = C2, startMs = T0) {
  const random = seededRandom(seed);
  let t = startMs;
  return Array.from({ length: count }, () => {
    t += Math.round(periodS * 1000 * (1 - jitter + 2 * jitter * random()));
    return flow(t, { destIP, bytesOut: Math.round(400 * (0.9 + 0.2 * random())), bytesIn: 220 });
  });
}

/** The one pair of a beacon detector's snapshot: [firstSeenMs, total, times (s, deltas), sizes, lastScoredMs, verdict, unreported, events]. */
function onlyPair(detector: BeaconDetector): unknown {
  const { p } = detectorSnapshot(detector).state as { p: unknown[] };
  expect(p).toHaveLength(2);
  return p[1];
}

describe('BeaconDetector', () => {
  it('keeps a pair seen once as its first connection left it, with no object of its own until a second', () => {
    const detector = new BeaconDetector();
    const [pairs] = detector.keyedState();
    const firstS = Math.floor(T0 / 1000);
    detector.inspect(flow(T0, { destIP: C2, bytesOut: 400, bytesIn: 220 }));
    expect([...pairs.items()].map(([, pair]) => pair)).toEqual([undefined]);
    expect(pairs.extraBytesPerEntry).toBe(16);
    expect(onlyPair(detector)).toEqual([T0, 1, [firstS], [620], T0, 0, 1, []]);
    detector.inspect(flow(T0 + 20 * 60_000, { destIP: C2, bytesOut: 500, bytesIn: 220 }));
    expect(onlyPair(detector)).toEqual([T0, 2, [firstS, 1_200], [620, 720], T0 + 20 * 60_000, 0, 2, []]);
    expect([...pairs.items()][0][1]).toMatchObject({ firstSeenMs: T0, total: 2 });
  });

  it('fires on a 60 s timer with 30 % jitter, explaining the score', () => {
    const hits = hitsOf(new BeaconDetector(), timer(90, 60, 0.3));
    expect(hits.length).toBeGreaterThan(50);
    const first = hits[0];
    expect(first.key).toBe(C2);
    expect(first.detection.threat).toBe('beacon_ip');
    expect(first.weight).toBeGreaterThanOrEqual(20);
    expect(first.evidence).toHaveLength(10);
    expect(first.desc).toMatch(/^\d+ connections to 45\.77\.6\.6 over \d+ min at a median interval of 6\d s \(MAD \d+ s\), median size 6\d\d B: beacon score 0\.(8|9)\d/);
    expect(hits.reduce((s, h) => s + h.weight, 0)).toBeLessThanOrEqual(90);
  });

  it.each([
    [10, 0],
    [300, 0.3],
    [5, 0.3],
  ])('fires on a %d s timer with %d jitter', (periodS, jitter) => {
    const count = Math.max(40, Math.ceil((3 * 3_600) / periodS));
    expect(hitsOf(new BeaconDetector(), timer(Math.min(count, 400), periodS, jitter, 7)).length).toBeGreaterThan(0);
  });

  it('stays silent on irregular (Poisson) visits with varied sizes to one site over hours', () => {
    const random = seededRandom(5);
    let t = T0;
    const visits = Array.from({ length: 300 }, () => {
      t += Math.max(1_000, Math.round(-120_000 * Math.log(1 - random())));
      return flow(t, { destIP: C2, bytesOut: Math.round(300 + 3_000 * random()), bytesIn: Math.round(2_000 + 200_000 * random() ** 3) });
    });
    expect(hitsOf(new BeaconDetector(), visits)).toEqual([]);
  });

  it('stays silent on bursts of activity separated by idle hours', () => {
    const random = seededRandom(9);
    const events = [];
    for (let burst = 0; burst < 6; burst++) {
      let t = T0 + burst * 3 * 3_600_000;
      for (let i = 0; i < 30; i++) {
        t += Math.round(500 + 20_000 * random());
        events.push(flow(t, { destIP: C2, bytesOut: Math.round(500 + 5_000 * random()) }));
      }
    }
    expect(hitsOf(new BeaconDetector(), events)).toEqual([]);
  });

  it('skips private destinations, NTP and DNS, and allow-listed blocks', () => {
    const detector = new BeaconDetector({ allowDestinations: ['45.77.7.0/24'] });
    const events = [
      ...timer(60, 60, 0.1, 2, '10.1.1.1'),
      ...timer(60, 60, 0.1, 3, '45.77.7.7'),
      ...timer(60, 64, 0, 4).map((e) => flow(e.timeMs, { destIP: '45.77.8.8', destPort: 123, proto: 'udp' })),
    ];
    expect(hitsOf(detector, events)).toEqual([]);
  });

  it('needs 20 connections over 15 minutes before it judges', () => {
    expect(hitsOf(new BeaconDetector(), timer(19, 60, 0))).toEqual([]);
    expect(hitsOf(new BeaconDetector(), timer(40, 10, 0))).toEqual([]);
  });

  it('bounds its state: LRU over pairs, capped connections per pair', () => {
    const detector = new BeaconDetector({ maxKeys: 50 });
    for (let i = 0; i < 500; i++) detector.inspect(flow(T0 + i, { destIP: `45.78.${i >> 8}.${i & 255}` }));
    for (const e of timer(400, 10, 0.2)) detector.inspect(e);
    expect(detector.stateStats()).toEqual({ keys: 50, maxKeys: 50, largestKey: 128, maxEntriesPerKey: 128 });
  });

  it('under eviction pressure, keeps a beaconing pair that pairs seen once would have pushed out, with the same hits', () => {
    const beacon = timer(90, 60, 0.1, 11);
    // A host sweeping 6,000 Internet addresses once each, 5 a second from a minute before the beacon starts: 300
    // new pairs between two beacon connections, three times the map's 100 keys.
    const sweep = Array.from({ length: 6_000 }, (_, i) => flow(T0 - 60_000 + i * 200, { srcIP: '10.0.0.9', destIP: `52.${(i >> 8) & 255}.${i & 255}.7` }));
    const merged = [...sweep, ...beacon].sort((a, b) => a.timeMs - b.timeMs);
    const underPressure = hitsOf(new BeaconDetector({ maxKeys: 100 }), merged).filter((hit) => hit.key === C2);
    const alone = hitsOf(new BeaconDetector(), beacon);
    expect(alone.length).toBeGreaterThan(30);
    expect(underPressure.map((h) => [h.weight, h.desc, h.evidence.length])).toEqual(alone.map((h) => [h.weight, h.desc, h.evidence.length]));
  });

  it('rejects options that cannot work', () => {
    expect(() => new BeaconDetector({ minScore: 0 })).toThrow(RangeError);
    expect(() => new BeaconDetector({ minConnections: 50, maxConnectionsPerKey: 20 })).toThrow(RangeError);
    expect(() => new BeaconDetector({ allowDestinations: ['not-a-block'] })).toThrow(/not-a-block/);
  });
});
