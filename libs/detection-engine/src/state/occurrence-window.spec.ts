import { observeEvent } from '../observed-event';
import type { ObservedEvent } from '../detections/detection';
import { batch, dnsEvent, T0 } from '../testing/fixtures';
import { OccurrenceWindow } from './occurrence-window';

function at(timeMs: number): ObservedEvent {
  return observeEvent(batch(`b${timeMs}`, 'dns', [dnsEvent('a.example', timeMs)]), 0)!;
}

describe('OccurrenceWindow', () => {
  it('changes its key version when a key joins or leaves, not when a key present recurs', () => {
    const window = new OccurrenceWindow<number>(T0, 60_000, 3);
    const start = window.keyVersion;
    window.add('a', at(T0), 1);
    window.add('b', at(T0 + 1000), 1);
    const two = window.keyVersion;
    expect(two).not.toBe(start);
    window.add('a', at(T0 + 2000), 1);
    expect(window.keyVersion).toBe(two);
    // A fourth key pushes the least recently seen one out.
    window.add('c', at(T0 + 3000), 1);
    const three = window.keyVersion;
    window.add('d', at(T0 + 4000), 1);
    expect(window.keyVersion).not.toBe(three);
    expect([...window.entries.keys()]).toEqual(['a', 'c', 'd']);
    // A recurrence that expires the others changes it too.
    const before = window.keyVersion;
    window.add('d', at(T0 + 70_000), 1);
    expect([...window.entries.keys()]).toEqual(['d']);
    expect(window.keyVersion).not.toBe(before);
  });
});
