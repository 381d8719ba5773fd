import { dnsEvent } from '../../testing/fixtures';
import { detectorSnapshot, hitsWithAndWithoutRestore } from '../../testing/snapshot-roundtrip';
import { EventTableReader } from '../../state/event-table';
import { SnapshotError } from '../../state/snapshot';
import type { Detector, ObservedEvent } from '../detection';
import { BeaconDetector } from './beacon';
import { flow, observe, T0, unanswered } from './flow-fixtures';
import { IcmpTunnelDetector } from './icmp-tunnel';
import { LargeTransferDetector } from './large-transfer';
import { StrobeDetector } from './long-connection';
import { PortScanDetector } from './port-scan';
import { DirectSmtpDetector, MxLookupDetector } from './spambot';
import { UnusualPortVolumeDetector } from './unusual-port';

const verticalScan = Array.from({ length: 40 }, (_, i) => unanswered(T0 + i * 1_500, { destIP: '45.77.1.9', destPort: 1_000 + (i % 30) }));
const horizontalScan = Array.from({ length: 40 }, (_, i) => unanswered(T0 + i * 1_000, { destIP: `45.77.2.${i % 33}`, destPort: 445 }));
const icmp = Array.from({ length: 70 }, (_, i) => flow(T0 + i * 1_000, { proto: 'icmp', destPort: undefined, destIP: '45.77.3.3', bytesOut: 1_400, packetsOut: 1 }));
const ssh = Array.from({ length: 8 }, (_, i) => flow(T0 + i * 300_000, { destIP: '45.77.4.4', destPort: 22, app: 'ssh', bytesOut: 15_000_000 }));
const smtp = Array.from({ length: 20 }, (_, i) => flow(T0 + i * 20_000, { destIP: `45.77.5.${i % 12}`, destPort: 25 }));
const mx = Array.from({ length: 20 }, (_, i) => observe('dns', dnsEvent(`d${i % 11}.example${i % 11}.org`, T0 + i * 3_000, '10.0.0.5', { qtype: 'MX' })));
const unusual = Array.from({ length: 25 }, (_, i) => flow(T0 + i * 20_000, { destIP: '45.77.6.6', destPort: 4444 }));
const strobe = Array.from({ length: 60 }, (_, i) => flow(T0 + i * 1_000, { destIP: '45.77.7.7', destPort: 8080 }));
const beacon = Array.from({ length: 60 }, (_, i) => flow(T0 + i * 60_000 + ((i * 7919) % 9_000), { destIP: '45.77.8.8', bytesOut: 400, bytesIn: 220 }));

const cases: [string, () => Detector, ObservedEvent[]][] = [
  ['vertical port scan', () => new PortScanDetector('vertical'), verticalScan],
  ['horizontal port scan', () => new PortScanDetector('horizontal'), horizontalScan],
  ['ICMP tunnel', () => new IcmpTunnelDetector(), icmp],
  ['large SSH transfer', () => new LargeTransferDetector('ssh'), ssh],
  ['direct SMTP', () => new DirectSmtpDetector(), smtp],
  ['MX lookups', () => new MxLookupDetector(), mx],
  ['unusual port volume', () => new UnusualPortVolumeDetector(), unusual],
  ['strobe', () => new StrobeDetector({ minConnections: 30 }), strobe],
  ['beacon', () => new BeaconDetector(), beacon],
];

describe('network detectors: snapshot and restore', () => {
  it.each(cases)('%s: the same hits whether or not the state went through a snapshot', (_name, create, events) => {
    const fired = hitsWithAndWithoutRestore(create, events, events.length).straight.filter(Boolean).length;
    expect(fired).toBeGreaterThan(0);
    for (const split of [1, Math.floor(events.length / 3), Math.floor(events.length / 2), events.length - 1]) {
      const { straight, resumed } = hitsWithAndWithoutRestore(create, events, split);
      expect(resumed).toEqual(straight);
    }
  });

  it('keeps the most recently used keys and the per-key bound when restored into a smaller detector', () => {
    const big = new PortScanDetector('vertical');
    // 6 scanned hosts, 20 ports each; the host scanned last is the most recently used key.
    for (let h = 0; h < 6; h++) for (let p = 0; p < 20; p++) big.inspect(unanswered(T0 + h * 100 + p, { destIP: `45.77.9.${h}`, destPort: 2_000 + p }));
    const { state, events } = detectorSnapshot(big);
    const small = new PortScanDetector('vertical', { maxKeys: 2, maxItemsPerKey: 16 });
    small.restore(state, events);
    expect(small.stateStats()).toEqual({ keys: 2, maxKeys: 2, largestKey: 16, maxEntriesPerKey: 16 });
    // Host 4's window survived (a new port fires there at once); host 0's did not.
    expect(small.inspect(unanswered(T0 + 1_000, { destIP: '45.77.9.4', destPort: 3_000 }))).toBeDefined();
    expect(small.inspect(unanswered(T0 + 1_000, { destIP: '45.77.9.0', destPort: 3_000 }))).toBeUndefined();
  });

  it('rejects a malformed state with a SnapshotError and keeps what it held', () => {
    const detector = new IcmpTunnelDetector();
    icmp.slice(0, 10).forEach((e) => detector.inspect(e));
    const before = detector.stateStats();
    const { state, events } = detectorSnapshot(detector);
    const broken = JSON.parse(JSON.stringify(state)) as unknown[];
    (broken[1] as unknown[])[1] = ['not-a-number', [1], 0, []];
    expect(() => detector.restore(broken, events)).toThrow(SnapshotError);
    expect(() => detector.restore({ not: 'a list' }, events)).toThrow(/icmp_tunnel: expected an array/);
    expect(() => detector.restore(state, new EventTableReader(undefined))).toThrow(/icmp_tunnel\[0\]: expected a string reference/);
    expect(detector.stateStats()).toEqual(before);
    detector.restore(undefined, events);
    expect(detector.stateStats().keys).toBe(0);
  });

  it('writes compact state: keys and events once in the shared table, windows as flat tuples', () => {
    const detector = new PortScanDetector('vertical');
    verticalScan.slice(0, 10).forEach((e) => detector.inspect(e));
    const { state, events } = detectorSnapshot(detector);
    expect(state).toEqual([0, [expect.any(Number), expect.any(Array)]]);
    expect(events.string(0, 'key')).toBe('ws-test\u000010.0.0.5\u000045.77.1.9');
    const [, [, items]] = state as [string, [number, unknown[]]];
    expect(items).toHaveLength(10 * 4);
    expect(items.slice(0, 4)).toEqual(['1000', 13_500, 1, expect.any(Number)]);
  });
});
