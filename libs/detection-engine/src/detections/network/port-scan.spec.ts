import { ipEvents } from '@vigil/testing';
import { observeEvent } from '../../observed-event';
import { batch } from '../../testing/fixtures';
import { flightsimScan, flow, hitsOf, T0, unanswered } from './flow-fixtures';
import { PortScanDetector } from './port-scan';

describe('PortScanDetector (vertical)', () => {
  it('fires on the flightsim-shaped scan: 10 hosts x 21 service ports in 30 s', () => {
    const detector = new PortScanDetector('vertical');
    const hits = hitsOf(detector, flightsimScan(T0));
    // each of the 10 hosts crosses 15 ports, then 6 more ports each are single-event updates
    expect(new Set(hits.map((h) => h.key)).size).toBe(10);
    const first = hits[0];
    expect(first.key).toBe('198.51.100.10');
    expect(first.weight).toBe(15);
    expect(first.evidence).toHaveLength(10);
    expect(first.detection.threat).toBe('outbound_port_scan');
    expect(first.desc).toMatch(/^15 distinct TCP ports of 198\.51\.100\.10 tried within 1 min without an answer \(ports 21, 22, 23,/);
    expect(hits.reduce((sum, h) => sum + h.weight, 0)).toBe(210);
  });

  it('counts denied connections even when the sensor reports no counters', () => {
    const detector = new PortScanDetector('vertical');
    const events = Array.from({ length: 20 }, (_, i) =>
      flow(T0 + i * 100, { destIP: '203.0.113.9', destPort: 1000 + i, action: 'denied', bytesIn: undefined, bytesOut: undefined, packetsIn: undefined, packetsOut: undefined }),
    );
    expect(hitsOf(detector, events).length).toBe(6);
  });

  it('ignores answered connections, zero-counter flows and UDP', () => {
    const detector = new PortScanDetector('vertical');
    const events = Array.from({ length: 40 }, (_, i) => [
      flow(T0 + i * 100, { destIP: '203.0.113.9', destPort: 2000 + i }),
      flow(T0 + i * 100, { destIP: '203.0.113.9', destPort: 3000 + i, bytesIn: 0, bytesOut: 0, packetsIn: 0, packetsOut: 0 }),
      unanswered(T0 + i * 100, { destIP: '203.0.113.9', destPort: 4000 + i, proto: 'udp' }),
    ]).flat();
    expect(hitsOf(detector, events)).toEqual([]);
  });

  it('stays silent when the same ports are spread over more than the window', () => {
    const detector = new PortScanDetector('vertical');
    const events = Array.from({ length: 40 }, (_, i) => unanswered(T0 + i * 5_000, { destIP: '203.0.113.9', destPort: 1000 + i }));
    expect(hitsOf(detector, events)).toEqual([]);
  });

  it('stays silent on retries of a few ports to a dead server', () => {
    const detector = new PortScanDetector('vertical');
    const events = Array.from({ length: 300 }, (_, i) => unanswered(T0 + i * 200, { destIP: '203.0.113.9', destPort: [443, 80, 8443][i % 3] }));
    expect(hitsOf(detector, events)).toEqual([]);
  });
});

describe('PortScanDetector (horizontal)', () => {
  it('fires on one port swept across 20 hosts within a minute', () => {
    const detector = new PortScanDetector('horizontal');
    const events = Array.from({ length: 30 }, (_, i) => unanswered(T0 + i * 1_000, { destIP: `198.51.100.${i + 1}`, destPort: 445 }));
    const hits = hitsOf(detector, events);
    expect(hits).toHaveLength(11);
    expect(hits[0].key).toBe('tcp/445');
    expect(hits[0].weight).toBe(20);
    expect(hits[0].desc).toMatch(/^20 distinct hosts tried on TCP port 445 within 1 min without an answer/);
  });

  it('keeps source hosts apart', () => {
    const detector = new PortScanDetector('horizontal');
    const events = Array.from({ length: 30 }, (_, i) =>
      unanswered(T0 + i * 1_000, { destIP: `198.51.100.${i + 1}`, destPort: 445, srcIP: i % 2 === 0 ? '10.0.0.1' : '10.0.0.2' }),
    );
    expect(hitsOf(detector, events)).toEqual([]);
  });
});

describe('PortScanDetector on ordinary traffic', () => {
  it('stays silent on 50,000 generated flows of 25 hosts (3 % of them denied)', () => {
    const vertical = new PortScanDetector('vertical');
    const horizontal = new PortScanDetector('horizontal');
    const events = ipEvents(50_000, { seed: 5 });
    const observed = events.map((e, i) => observeEvent(batch(`benign-${i}`, 'ip', [e]), 0)!);
    expect(hitsOf(vertical, observed)).toEqual([]);
    expect(hitsOf(horizontal, observed)).toEqual([]);
  });
});

describe('PortScanDetector state', () => {
  it('is bounded by the key LRU and the per-key cap', () => {
    const detector = new PortScanDetector('vertical', { maxKeys: 40, maxItemsPerKey: 20, minDistinct: 15 });
    for (let h = 0; h < 200; h++) detector.inspect(unanswered(T0 + h, { destIP: `198.51.${h >> 8}.${h & 255}`, destPort: 1 }));
    for (let p = 0; p < 1000; p++) detector.inspect(unanswered(T0 + 300, { destIP: '203.0.113.1', destPort: p + 1 }));
    expect(detector.stateStats()).toEqual({ keys: 40, maxKeys: 40, largestKey: 20, maxEntriesPerKey: 20 });
  });

  it('rejects options that cannot work', () => {
    expect(() => new PortScanDetector('vertical', { minDistinct: 1 })).toThrow(RangeError);
    expect(() => new PortScanDetector('vertical', { minDistinct: 30, maxItemsPerKey: 20 })).toThrow(RangeError);
    expect(() => new PortScanDetector('horizontal', { windowMs: 0 })).toThrow(RangeError);
    expect(() => new PortScanDetector('horizontal', { maxKeys: 0 })).toThrow(RangeError);
  });
});
