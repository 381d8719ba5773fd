import { tunnelDnsEvents } from '@vigil/testing';
import { observeEvent } from '../../observed-event';
import { batch, T0 } from '../../testing/fixtures';
import { detectorSnapshot, hitsWithAndWithoutRestore } from '../../testing/snapshot-roundtrip';
import type { ObservedEvent } from '../detection';
import { DnsTunnelDetector } from './dns-tunnel';

const queries = tunnelDnsEvents(60, { domain: 'tunnel-snap.net', srcIP: '10.4.4.4', startTs: T0, intervalMs: 700, seed: 3 });
const events: ObservedEvent[] = queries.map((q, i) => observeEvent(batch(`t-${i}`, 'dns', [q]), 0) as ObservedEvent);

describe('DnsTunnelDetector: snapshot and restore', () => {
  it('gives the same hits whether or not its windows went through a snapshot', () => {
    const all = hitsWithAndWithoutRestore(() => new DnsTunnelDetector(), events, events.length).straight;
    expect(all.filter(Boolean).length).toBeGreaterThan(20);
    for (const split of [1, 5, 9, 10, 30, 59]) {
      const { straight, resumed } = hitsWithAndWithoutRestore(() => new DnsTunnelDetector(), events, split);
      expect(resumed).toEqual(straight);
    }
  });

  it('keeps the per-window bound of a smaller detector', () => {
    const big = new DnsTunnelDetector();
    events.slice(0, 40).forEach((e) => big.inspect(e));
    expect(big.stateStats().largestKey).toBe(40);
    const { state, events: table } = detectorSnapshot(big);
    const small = new DnsTunnelDetector({ maxSubdomainsPerKey: 12 });
    small.restore(state, table);
    expect(small.stateStats()).toMatchObject({ keys: 1, largestKey: 12 });
  });
});

describe('DnsTunnelDetector: snapshots of earlier versions', () => {
  it('restores the earlier bare-list form, every entry counting as a strong signal', () => {
    const current = new DnsTunnelDetector();
    events.slice(0, 9).forEach((e) => current.inspect(e));
    const { state, events: table } = detectorSnapshot(current);
    const windows = (state as { v: number; windows: unknown[] }).windows;
    // the earlier form: no {v, windows} wrapper and entries without the weight column
    const legacy = windows.map((w, i) => {
      if (i % 2 === 0) return w;
      const [latest, flat] = w as [number, unknown[]];
      const entries: unknown[] = [];
      for (let j = 0; j < flat.length; j += 7) entries.push(...flat.slice(j, j + 4), ...flat.slice(j + 5, j + 7));
      return [latest, entries];
    });
    const restored = new DnsTunnelDetector();
    restored.restore(legacy, table);
    expect(restored.stateStats()).toMatchObject({ keys: 1, largestKey: 9 });
    expect(restored.inspect(events[9])?.weight).toBe(10);
  });
});
