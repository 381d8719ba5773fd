import { flow, hitsOf, T0 } from './flow-fixtures';
import { LargeTransferDetector } from './large-transfer';
import { SshNonStandardPortDetector } from './ssh-port';

/** The flightsim ssh-exfil shape: 200 MB over SSH to port 443, reported in 10 s flow slices. */
function sshExfil(startMs: number) {
  return Array.from({ length: 20 }, (_, i) =>
    flow(startMs + i * 10_000, { destIP: '45.77.1.2', destPort: 443, app: 'ssh', bytesOut: 10_000_000, packetsOut: 7_000, bytesIn: 200_000, packetsIn: 3_000, duration: 10 }),
  );
}

describe('SshNonStandardPortDetector', () => {
  const detector = new SshNonStandardPortDetector();

  it('fires on SSH to port 443 of an Internet host, naming the masqueraded service', () => {
    const [hit] = hitsOf(detector, [flow(T0, { app: 'ssh', destIP: '45.77.1.2', destPort: 443 })]);
    expect(hit.key).toBe('45.77.1.2:443');
    expect(hit.detection.threat).toBe('ssh_mask');
    expect(hit.desc).toBe('SSH session to 45.77.1.2:443, the port of https, not the SSH port 22: a tunnel or remote shell hidden from port-based rules');
  });

  it('fires on SSH to an Internet host on any other port, and internally only on another service\'s port', () => {
    expect(hitsOf(detector, [flow(T0, { app: 'SSH', destIP: '45.77.1.2', destPort: 2222 })])).toHaveLength(1);
    expect(hitsOf(detector, [flow(T0, { app: 'ssh', destIP: '10.1.1.1', destPort: 53 })])).toHaveLength(1);
    expect(hitsOf(detector, [flow(T0, { app: 'ssh', destIP: '10.1.1.1', destPort: 2222 })])).toEqual([]);
  });

  it('stays silent on SSH to port 22, on other protocols on port 443 and on blocked sessions', () => {
    expect(
      hitsOf(detector, [
        flow(T0, { app: 'ssh', destIP: '45.77.1.2', destPort: 22 }),
        flow(T0, { app: 'https', destIP: '45.77.1.2', destPort: 443 }),
        flow(T0, { destIP: '45.77.1.2', destPort: 443 }),
        flow(T0, { app: 'ssh', destIP: '45.77.1.2', destPort: 443, action: 'denied' }),
      ]),
    ).toEqual([]);
  });
});

describe('LargeTransferDetector', () => {
  it('fires on 200 MB over SSH to port 443 once 50 MB have left, with the build-up', () => {
    const hits = hitsOf(new LargeTransferDetector('ssh'), sshExfil(T0));
    expect(hits).toHaveLength(16);
    expect(hits[0].weight).toBe(5);
    expect(hits[0].key).toBe('45.77.1.2');
    expect(hits[0].desc).toBe(
      '50.0 MB sent over SSH to 45.77.1.2 port 443 within 1 h, 50 times what came back (threshold 50.0 MB): bulk data leaving the network',
    );
    expect(hits.reduce((s, h) => s + h.weight, 0)).toBe(20);
  });

  it('fires on one flow record of a 200 MB SSH session', () => {
    const [hit] = hitsOf(new LargeTransferDetector('ssh'), [flow(T0, { app: 'ssh', destIP: '45.77.1.2', destPort: 22, bytesOut: 200_000_000 })]);
    expect(hit.observations[0]).toBe('200.0 MB sent in 1 h');
  });

  it('fires on high-volume FTP uploads, including passive-mode data connections', () => {
    const events = Array.from({ length: 12 }, (_, i) => flow(T0 + i * 60_000, { app: 'ftp-data', destIP: '45.77.1.3', destPort: 40_000 + i, bytesOut: 5_000_000 }));
    const hits = hitsOf(new LargeTransferDetector('ftp'), events);
    expect(hits).toHaveLength(3);
    expect(hits[0].detection.threat).toBe('high_volume_ftp');
  });

  it('fires on 1 GB to one host over any protocol, not on 900 MB', () => {
    const big = Array.from({ length: 10 }, (_, i) => flow(T0 + i * 60_000, { destIP: '45.77.1.4', bytesOut: 100_000_000 }));
    expect(hitsOf(new LargeTransferDetector('any'), big)).toHaveLength(1);
    expect(hitsOf(new LargeTransferDetector('any'), big.slice(0, 9))).toEqual([]);
  });

  it('under eviction pressure, sums a pair that pairs seen once would have pushed out, with the same hit', () => {
    // 250 MB every 10 minutes to one host: 1 GB with the fourth flow. Between two of them, 3,000 new pairs.
    const transfer = [0, 1, 2, 3, 4].map((n) => flow(T0 + n * 600_000, { destIP: '45.77.9.9', bytesOut: 250_000_000 }));
    const sweep = Array.from({ length: 15_000 }, (_, i) => flow(T0 - 60_000 + i * 200, { srcIP: '10.0.0.9', destIP: `52.${(i >> 8) & 255}.${i & 255}.7` }));
    const merged = [...sweep, ...transfer].sort((a, b) => a.timeMs - b.timeMs);
    const underPressure = hitsOf(new LargeTransferDetector('any', { maxKeys: 100 }), merged);
    const alone = hitsOf(new LargeTransferDetector('any'), transfer);
    expect(alone).toHaveLength(2);
    expect(underPressure.map((h) => [h.key, h.weight, h.desc, h.evidence.map((e) => e.event.timeMs)])).toEqual(
      alone.map((h) => [h.key, h.weight, h.desc, h.evidence.map((e) => e.event.timeMs)]),
    );
  });

  it('forgets the build-up of an evicted pair: back after eviction, its evidence is only what came since', () => {
    const detector = new LargeTransferDetector('ssh', { maxKeys: 2 });
    // 30 MB (over half the 50 MB threshold, so kept as evidence), then two other pairs push the pair out.
    detector.inspect(flow(T0, { app: 'ssh', destIP: '45.77.1.2', destPort: 22, bytesOut: 30_000_000 }));
    detector.inspect(flow(T0 + 1_000, { app: 'ssh', destIP: '45.77.1.3', destPort: 22, bytesOut: 1_000 }));
    detector.inspect(flow(T0 + 2_000, { app: 'ssh', destIP: '45.77.1.4', destPort: 22, bytesOut: 1_000 }));
    expect(detector.inspect(flow(T0 + 3_000, { app: 'ssh', destIP: '45.77.1.2', destPort: 22, bytesOut: 30_000_000 }))).toBeUndefined();
    const hit = detector.inspect(flow(T0 + 4_000, { app: 'ssh', destIP: '45.77.1.2', destPort: 22, bytesOut: 30_000_000 }));
    expect(hit?.evidence.map((e) => e.event.timeMs)).toEqual([T0 + 3_000, T0 + 4_000]);
    expect(hit?.weight).toBe(2);
  });

  it('stays silent on interactive SSH, downloads, internal copies and transfers spread over more than the window', () => {
    const ssh = new LargeTransferDetector('ssh');
    const interactive = Array.from({ length: 500 }, (_, i) => flow(T0 + i * 5_000, { app: 'ssh', destIP: '45.77.1.2', destPort: 22, bytesOut: 20_000, bytesIn: 400_000 }));
    const download = [flow(T0, { app: 'ssh', destIP: '45.77.1.2', destPort: 22, bytesOut: 1_000_000, bytesIn: 900_000_000 })];
    const internal = [flow(T0, { app: 'ssh', destIP: '10.9.9.9', destPort: 22, bytesOut: 900_000_000 })];
    const slow = Array.from({ length: 30 }, (_, i) => flow(T0 + i * 600_000, { app: 'ssh', destIP: '45.77.1.5', destPort: 22, bytesOut: 5_000_000 }));
    expect(hitsOf(ssh, [...interactive, ...download, ...internal, ...slow])).toEqual([]);
  });

  it('bounds its state', () => {
    const detector = new LargeTransferDetector('any', { maxKeys: 25 });
    for (let i = 0; i < 500; i++) detector.inspect(flow(T0 + i * 60_000, { destIP: `45.77.${i >> 8}.${i & 255}` }));
    for (let i = 0; i < 500; i++) detector.inspect(flow(T0 + 30_000_000 + i * 60_000, { destIP: '45.77.9.9' }));
    const stats = detector.stateStats();
    expect(stats.keys).toBe(25);
    expect(stats.largestKey).toBeLessThanOrEqual(13);
    expect(stats.maxEntriesPerKey).toBe(13);
  });

  it('rejects a threshold that cannot work', () => {
    expect(() => new LargeTransferDetector('ssh', { minBytesOut: 0 })).toThrow(RangeError);
  });
});
