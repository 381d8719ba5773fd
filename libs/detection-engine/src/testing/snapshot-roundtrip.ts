import type { DetectionHit, Detector, ObservedEvent } from '../detections/detection';
import { EventTableReader, EventTableWriter } from '../state/event-table';

/** A detector's state and the event table it refers to, after a trip through JSON text (as on the wire). */
export function detectorSnapshot(detector: Detector): { state: unknown; events: EventTableReader } {
  const writer = new EventTableWriter();
  const state = detector.snapshot?.(writer);
  const wire = JSON.parse(JSON.stringify({ state, table: writer.table() })) as { state: unknown; table: unknown };
  return { state: wire.state, events: new EventTableReader(wire.table) };
}

/**
 * The hits of `events` run through one detector, and through two: the first sees events[0, split), the second
 * is restored from the first's snapshot and sees the rest. Both lists must be equal.
 */
export function hitsWithAndWithoutRestore(create: () => Detector, events: readonly ObservedEvent[], split: number): { straight: (DetectionHit | undefined)[]; resumed: (DetectionHit | undefined)[] } {
  const one = create();
  const straight = events.map((e) => one.inspect(e));
  const first = create();
  const resumed = events.slice(0, split).map((e) => first.inspect(e));
  const { state, events: table } = detectorSnapshot(first);
  const second = create();
  second.restore?.(state, table);
  resumed.push(...events.slice(split).map((e) => second.inspect(e)));
  return { straight, resumed };
}
