import { flow, hitsOf, T0 } from './flow-fixtures';
import { IcmpTunnelDetector } from './icmp-tunnel';

function echo(timeMs: number, bytes: number, fields: Record<string, unknown> = {}) {
  return flow(timeMs, { proto: 'icmp', destPort: 0, destIP: '203.0.114.20', bytesOut: bytes, packetsOut: 1, bytesIn: bytes, packetsIn: 1, ...fields });
}

describe('IcmpTunnelDetector', () => {
  it('fires on the flightsim shape: 80 echoes of 1,400 bytes', () => {
    const detector = new IcmpTunnelDetector();
    const hits = hitsOf(detector, Array.from({ length: 80 }, (_, i) => echo(T0 + i * 500, 1_400)));
    expect(hits).toHaveLength(41);
    expect(hits[0].key).toBe('203.0.114.20');
    expect(hits[0].weight).toBe(40);
    expect(hits[0].detection.threat).toBe('icmp_tunneling');
    expect(hits[0].desc).toMatch(/^40 ICMP packets \(40 over 1000 bytes\) carrying 56\.0 KB to 203\.0\.114\.20 within 2 min, 1400 bytes per packet/);
  });

  it('fires on one flow record that aggregates the whole exchange', () => {
    const detector = new IcmpTunnelDetector();
    const [hit] = hitsOf(detector, [echo(T0, 112_000, { packetsOut: 80 })]);
    expect(hit.weight).toBe(1);
    expect(hit.observations).toEqual(['80 ICMP packets in 2 min', '1400 bytes per packet', '112.0 KB sent']);
  });

  it('fires on volume even when the packets are small', () => {
    const detector = new IcmpTunnelDetector();
    const hits = hitsOf(detector, Array.from({ length: 2_100 }, (_, i) => echo(T0 + i * 50, 500)));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0].weight).toBe(2_000);
  });

  it('stays silent on pings, path-MTU probes and internal traffic', () => {
    const detector = new IcmpTunnelDetector();
    const pings = Array.from({ length: 600 }, (_, i) => echo(T0 + i * 1_000, 84));
    const mtuProbes = Array.from({ length: 5 }, (_, i) => echo(T0 + i * 1_000, 1_472));
    const internal = Array.from({ length: 200 }, (_, i) => echo(T0 + i * 100, 1_400, { destIP: '10.1.1.1' }));
    expect(hitsOf(detector, [...pings, ...mtuProbes, ...internal])).toEqual([]);
  });

  it('stays silent when the large echoes are spread out (a slow manual ping -s 1400)', () => {
    const detector = new IcmpTunnelDetector();
    expect(hitsOf(detector, Array.from({ length: 200 }, (_, i) => echo(T0 + i * 4_000, 1_400)))).toEqual([]);
  });

  it('bounds its state', () => {
    const detector = new IcmpTunnelDetector({ maxKeys: 30 });
    for (let i = 0; i < 300; i++) detector.inspect(echo(T0 + i * 1_000, 100, { destIP: `203.0.114.${i % 250}`, srcIP: `10.0.${i >> 8}.${i & 255}` }));
    const stats = detector.stateStats();
    expect(stats.keys).toBe(30);
    expect(stats.largestKey).toBeLessThanOrEqual(stats.maxEntriesPerKey);
  });

  it('rejects options that cannot work', () => {
    expect(() => new IcmpTunnelDetector({ minLargePackets: 0 })).toThrow(RangeError);
    expect(() => new IcmpTunnelDetector({ windowMs: -1 })).toThrow(RangeError);
  });
});
