import { SnapshotError } from '../state/snapshot';
import { LeaseTracker } from './lease-tracker';

const T = Date.parse('2026-02-01T00:00:00Z');

describe('LeaseTracker: snapshot and restore', () => {
  it('answers the same after a trip through JSON, open-ended leases included', () => {
    const tracker = new LeaseTracker();
    tracker.record('ws', { ts: 't', srcIP: '10.0.0.1', srcHost: 'alpha', srcMac: 'AA:BB:CC:00:00:01', type: 'assign', duration: 3_600 }, T);
    tracker.record('ws', { ts: 't', srcIP: '10.0.0.1', srcHost: 'beta', type: 'assign', duration: 1e308 }, T + 600_000);
    tracker.record('ws', { ts: 't', srcIP: '10.0.0.2', srcHost: 'gamma', type: 'assign' }, T);
    const copy = new LeaseTracker();
    copy.restore(JSON.parse(JSON.stringify(tracker.snapshot())));
    for (const [ip, at] of [['10.0.0.1', T + 1], ['10.0.0.1', T + 700_000], ['10.0.0.1', T + 1e12], ['10.0.0.2', T + 1], ['10.0.0.2', T + 2 * 86_400_000], ['10.0.0.3', T]] as const) {
      expect(copy.holderAt('ws', ip, at)).toEqual(tracker.holderAt('ws', ip, at));
    }
    expect(copy.holderAt('ws', '10.0.0.1', T + 1e12)).toEqual({ host: 'beta' });
    expect(copy.holderAt('ws', '10.0.0.1', T + 1)).toEqual({ host: 'alpha', mac: 'aa:bb:cc:00:00:01' });
  });

  it('keeps the most recently used addresses within a smaller bound, and rejects malformed leases', () => {
    const tracker = new LeaseTracker();
    for (let i = 0; i < 10; i++) tracker.record('ws', { ts: 't', srcIP: `10.0.1.${i}`, srcHost: `h${i}`, type: 'assign' }, T + i);
    const small = new LeaseTracker(3);
    small.restore(tracker.snapshot());
    expect(small.size).toBe(3);
    expect(small.holderAt('ws', '10.0.1.9', T + 100)).toEqual({ host: 'h9' });
    expect(small.holderAt('ws', '10.0.1.6', T + 100)).toBeUndefined();
    expect(() => small.restore(['ws\u000010.0.1.1', [T, T + 1, 'h']])).toThrow(SnapshotError);
    expect(small.size).toBe(3);
  });
});
