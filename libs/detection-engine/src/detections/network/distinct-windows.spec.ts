import type { ObservedEvent } from '../detection';
import { seededRandom } from '../../testing/fixtures';
import { DistinctWindows } from './distinct-windows';

const WINDOW_MS = 60_000;
const MAX_ITEMS = 8;

function observedAt(timeMs: number): ObservedEvent {
  return { workspaceId: 'ws', batchId: 'b', index: 0, type: 'ip', event: {}, timeMs, endpoint: { ip: '10.0.0.5', id: '10.0.0.5' } } as ObservedEvent;
}

/**
 * The window as its definition reads, recomputed in full on every event: items in the order last seen, capped at
 * the oldest end, and every item last seen before the cutoff dropped.
 */
class ReferenceWindow {
  private latestMs = -Infinity;
  private readonly items = new Map<string, number>();

  record(item: string, timeMs: number): number | undefined {
    if (timeMs < this.latestMs - WINDOW_MS) return undefined;
    this.latestMs = Math.max(this.latestMs, timeMs);
    const previous = this.items.get(item);
    this.items.delete(item);
    this.items.set(item, Math.max(previous ?? timeMs, timeMs));
    while (this.items.size > MAX_ITEMS) this.items.delete(this.items.keys().next().value as string);
    for (const [name, seen] of this.items) if (seen < this.latestMs - WINDOW_MS) this.items.delete(name);
    return this.items.size;
  }

  names(): string[] {
    return [...this.items.keys()];
  }
}

describe('DistinctWindows', () => {
  it('counts what a full scan of the window counts, with late and out-of-order events', () => {
    const random = seededRandom(17);
    const windows = new DistinctWindows({ windowMs: WINDOW_MS, maxKeys: 100, maxItemsPerKey: MAX_ITEMS });
    const reference = new ReferenceWindow();
    let clockMs = 1_700_000_000_000;
    for (let i = 0; i < 5_000; i++) {
      // Mostly forward in small steps, sometimes a long pause, sometimes an event from up to 90 s ago.
      const step = random() < 0.02 ? 70_000 : random() * 4_000;
      clockMs += step;
      const timeMs = random() < 0.15 ? clockMs - random() * 90_000 : clockMs;
      const item = String(Math.floor(random() * 14));
      expect(windows.record('k', item, observedAt(timeMs))).toBe(reference.record(item, timeMs));
      expect(windows.items('k')).toEqual(reference.names());
    }
  });

  it('drops an item once its last sighting leaves the window, and keeps one seen again since', () => {
    const windows = new DistinctWindows({ windowMs: WINDOW_MS, maxKeys: 10, maxItemsPerKey: MAX_ITEMS });
    const t0 = 1_700_000_000_000;
    windows.record('k', 'a', observedAt(t0));
    windows.record('k', 'b', observedAt(t0 + 30_000));
    windows.record('k', 'a', observedAt(t0 + 40_000));
    expect(windows.record('k', 'c', observedAt(t0 + 85_000))).toBe(3);
    expect(windows.record('k', 'c', observedAt(t0 + 90_001))).toBe(2);
    expect(windows.items('k')).toEqual(['a', 'c']);
  });
});
