import type { ObservedEvent } from '../detection';
import { EventTableWriter } from '../../state/event-table';
import { seededRandom } from '../../testing/fixtures';
import { BucketedSums, type BucketedSumsOptions } from './bucketed-sums';

const HOUR_MS = 3_600_000;

function observedAt(timeMs: number, index: number): ObservedEvent {
  return { workspaceId: 'ws', batchId: 'b', index, type: 'ip', event: { srcIP: '10.0.0.5', srcPort: index }, timeMs, endpoint: { ip: '10.0.0.5', id: '10.0.0.5' } } as ObservedEvent;
}

/** The same sums kept with compact keys and in the general form only, fed the same events. */
function pair(options: Omit<BucketedSumsOptions, 'compactKeys'>): [BucketedSums, BucketedSums] {
  return [new BucketedSums({ ...options, compactKeys: true }), new BucketedSums({ ...options, compactKeys: false })];
}

function snapshotOf(sums: BucketedSums): unknown {
  const events = new EventTableWriter();
  return { windows: sums.snapshot(events), events: events.table() };
}

describe('BucketedSums with compact keys', () => {
  it.each([
    ['keys that stay', 200],
    ['keys evicted by the bound (first sightings held)', 12],
  ])('answers, reports and snapshots as the general form does: %s', (_name, maxKeys) => {
    const random = seededRandom(29);
    const [compact, general] = pair({ windowMs: HOUR_MS, buckets: 12, measures: 2, maxKeys, maxEvidence: 3, evidenceFrom: 40 });
    let clockMs = 1_700_000_000_000;
    for (let i = 0; i < 20_000; i++) {
      // Mostly forward, sometimes a long pause, sometimes an event from up to 70 minutes ago.
      clockMs += random() < 0.01 ? 2 * HOUR_MS * random() : random() * 20_000;
      const timeMs = random() < 0.1 ? clockMs - random() * 70 * 60_000 : clockMs;
      // A few busy keys among many seen once or twice.
      const key = random() < 0.3 ? `busy-${Math.floor(random() * 4)}` : `k-${Math.floor(random() * 400)}`;
      const values = [Math.floor(random() * 6), Math.floor(random() * 100)];
      const event = observedAt(timeMs, i);
      const a = compact.add(key, values, event);
      const b = general.add(key, values, event);
      expect(a === undefined ? undefined : [...a]).toEqual(b === undefined ? undefined : [...b]);
      if (a !== undefined && a[0] >= 60) expect(compact.takePending(key, event, 3)).toEqual(general.takePending(key, event, 3));
      if (i % 2_000 === 0) expect(snapshotOf(compact)).toEqual(snapshotOf(general));
    }
    expect(snapshotOf(compact)).toEqual(snapshotOf(general));
    expect(compact.stats()).toEqual(general.stats());
  });

  it('keeps a key seen once in one bucket without an object, and counts the slab in the budget estimate', () => {
    const [compact] = pair({ windowMs: HOUR_MS, buckets: 12, measures: 1, maxKeys: 100, maxEvidence: 3, evidenceFrom: 10 });
    compact.add('a', [1], observedAt(1_700_000_000_000, 0));
    compact.add('a', [2], observedAt(1_700_000_001_000, 1));
    const [state] = compact.keyedState();
    expect([...state.items()]).toEqual([['a', undefined]]);
    expect(state.extraBytesPerEntry).toBe(8 * 4);
    expect(compact.stats()).toMatchObject({ keys: 1, largestKey: 1 });
    // A second bucket gives the key its general form, with both buckets' totals.
    expect(compact.add('a', [4], observedAt(1_700_000_000_000 + HOUR_MS / 2, 2))).toEqual([7]);
    expect([...state.items()][0][1]).toMatchObject({ cells: [expect.any(Number), 2, 3, expect.any(Number), 1, 4] });
  });
});
