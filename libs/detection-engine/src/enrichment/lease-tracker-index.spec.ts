import type { LeaseEvent } from '@vigil/contracts';
import { LeaseTracker } from './lease-tracker';

const T = Date.parse('2026-02-01T00:00:00Z');

function grant(srcIP: string, srcHost: string, durationS = 3_600): LeaseEvent {
  return { ts: 't', srcIP, srcHost, type: 'assign', duration: durationS };
}

/** The tracker's leases table, as the state budget sees it. */
function budgetView(tracker: LeaseTracker): { evictOldest(count: number): number } {
  return tracker.keyedState()[0];
}

/**
 * The tracker finds an event's lease through an index of address slots per workspace, kept beside its LRU of
 * (workspace, address) keys. These tests hold the index to the table: an evicted address must not find the
 * leases of the address that reuses its slot.
 */
describe('LeaseTracker: the per-workspace index of address slots', () => {
  it('keeps the leases of one address in two workspaces apart', () => {
    const tracker = new LeaseTracker();
    tracker.record('ws-a', grant('10.0.0.5', 'a-host'), T);
    tracker.record('ws-b', grant('10.0.0.5', 'b-host'), T);
    expect(tracker.holderAt('ws-a', '10.0.0.5', T + 1)).toEqual({ host: 'a-host' });
    expect(tracker.holderAt('ws-b', '10.0.0.5', T + 1)).toEqual({ host: 'b-host' });
    expect(tracker.holderAt('ws-c', '10.0.0.5', T + 1)).toBeUndefined();
  });

  it('forgets an address the size cap evicts, though its slot now holds another address', () => {
    const tracker = new LeaseTracker(2);
    tracker.record('ws', grant('10.0.0.1', 'one'), T);
    tracker.record('ws', grant('10.0.0.2', 'two'), T);
    expect(tracker.holderAt('ws', '10.0.0.1', T + 1)).toEqual({ host: 'one' }); // 10.0.0.2 is now the oldest
    tracker.record('ws', grant('10.0.0.3', 'three'), T);
    expect(tracker.holderAt('ws', '10.0.0.2', T + 1)).toBeUndefined();
    expect(tracker.holderAt('ws', '10.0.0.1', T + 1)).toEqual({ host: 'one' });
    expect(tracker.holderAt('ws', '10.0.0.3', T + 1)).toEqual({ host: 'three' });
  });

  it('forgets addresses the state budget evicts, and indexes them again on their next lease', () => {
    const tracker = new LeaseTracker();
    for (let i = 0; i < 4; i++) tracker.record('ws', grant(`10.0.0.${i}`, `h${i}`), T + i);
    expect(budgetView(tracker).evictOldest(2)).toBe(2);
    expect(tracker.holderAt('ws', '10.0.0.0', T + 10)).toBeUndefined();
    expect(tracker.holderAt('ws', '10.0.0.1', T + 10)).toBeUndefined();
    tracker.record('ws', grant('10.0.0.9', 'h9'), T + 10);
    tracker.record('ws', grant('10.0.0.0', 'back'), T + 10);
    expect(tracker.holderAt('ws', '10.0.0.0', T + 11)).toEqual({ host: 'back' });
    expect(tracker.holderAt('ws', '10.0.0.9', T + 11)).toEqual({ host: 'h9' });
    expect(tracker.holderAt('ws', '10.0.0.2', T + 11)).toEqual({ host: 'h2' });
  });

  it('rebuilds the index on restore, so that evictions after it still forget the right address', () => {
    const tracker = new LeaseTracker();
    tracker.record('ws', grant('10.0.0.1', 'one'), T);
    tracker.record('other', grant('10.0.0.1', 'other-one'), T);
    const copy = new LeaseTracker(2);
    copy.holderAt('ws', '10.0.0.1', T); // remembers the workspace's (then absent) index
    copy.restore(JSON.parse(JSON.stringify(tracker.snapshot())));
    expect(copy.holderAt('ws', '10.0.0.1', T + 1)).toEqual({ host: 'one' });
    expect(copy.holderAt('other', '10.0.0.1', T + 1)).toEqual({ host: 'other-one' });
    copy.record('ws', grant('10.0.0.2', 'two'), T); // evicts (ws, 10.0.0.1), the least recently used
    expect(copy.holderAt('ws', '10.0.0.1', T + 1)).toBeUndefined();
    expect(copy.holderAt('ws', '10.0.0.2', T + 1)).toEqual({ host: 'two' });
    expect(copy.holderAt('other', '10.0.0.1', T + 1)).toEqual({ host: 'other-one' });
  });

  it('answers as a table keyed by workspace and address would, over a long random run with evictions', () => {
    let seed = 11;
    const next = (n: number): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n;
    const tracker = new LeaseTracker(12);
    // The reference: an LRU of (workspace, address) -> holder by time, made of a Map re-inserted on each use.
    const model = new Map<string, { host: string; startMs: number; endMs: number }[]>();
    const use = (key: string): void => {
      const leases = model.get(key);
      if (leases === undefined) return;
      model.delete(key);
      model.set(key, leases);
    };
    for (let step = 0; step < 4_000; step++) {
      const workspace = `ws-${next(3)}`;
      const address = `10.0.0.${next(20)}`;
      const key = `${workspace}/${address}`;
      const at = T + step * 1_000;
      const op = next(10);
      if (op < 3) {
        const host = `host-${next(50)}`;
        tracker.record(workspace, grant(address, host, 30), at);
        const leases = model.get(key) ?? [];
        const current = leases.find((lease) => lease.startMs <= at && at < lease.endMs);
        if (current !== undefined && current.host === host) current.endMs = at + 30_000;
        else {
          if (current !== undefined) current.endMs = at;
          leases.push({ host, startMs: at, endMs: at + 30_000 });
        }
        model.delete(key);
        model.set(key, leases.slice(-8));
        while (model.size > 12) model.delete(model.keys().next().value!);
      } else if (op < 4) {
        const count = 1 + next(3);
        budgetView(tracker).evictOldest(count);
        for (let i = 0; i < count && model.size > 0; i++) model.delete(model.keys().next().value!);
      } else {
        const found = model.get(key)?.find((lease) => lease.startMs <= at && at < lease.endMs);
        if (model.has(key)) use(key);
        expect([step, tracker.holderAt(workspace, address, at)?.host]).toEqual([step, found?.host]);
      }
    }
    expect(tracker.size).toBe(model.size);
  });
});
