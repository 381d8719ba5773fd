import type { FindingAggregator } from '../aggregation/finding-aggregator';
import type { DetectionDefinition, Detector } from '../detections/detection';
import type { ExtraHitSource } from '../engine';
import type { LeaseTracker } from '../enrichment/lease-tracker';
import { EventTableReader, EventTableWriter } from './event-table';
import { ENGINE_SNAPSHOT_VERSION, readObject, SnapshotError, type EngineSnapshot } from './snapshot';

/** The parts of a DetectionEngine that hold detection state. */
export interface EngineStateHolders {
  detectors: readonly Detector[];
  aggregator: FindingAggregator;
  leases: LeaseTracker;
  extraHits?: ExtraHitSource;
}

/** Part names in `EngineSnapshot.parts` besides the detectors' ids. */
const PART = { findings: 'findings', leases: 'leases', extra: 'extra', events: 'events' } as const;

/** Detectors by part name: their detection id (suffixed `#2`, ... should two share one). */
function detectorParts(detectors: readonly Detector[]): [string, Detector][] {
  const seen = new Map<string, number>();
  return detectors.map((detector) => {
    const id = detector.definition.id;
    const n = (seen.get(id) ?? 0) + 1;
    seen.set(id, n);
    return [n === 1 ? id : `${id}#${n}`, detector];
  });
}

export function snapshotEngine(holders: EngineStateHolders): EngineSnapshot {
  const events = new EventTableWriter();
  const parts: Record<string, unknown> = {};
  for (const [name, detector] of detectorParts(holders.detectors)) {
    const state = detector.snapshot?.(events);
    if (state !== undefined) parts[name] = state;
  }
  parts[PART.findings] = holders.aggregator.snapshot(events);
  parts[PART.leases] = holders.leases.snapshot();
  const extra = holders.extraHits?.snapshot?.(events);
  if (extra !== undefined) parts[PART.extra] = extra;
  parts[PART.events] = events.table();
  return { v: ENGINE_SNAPSHOT_VERSION, parts };
}

/**
 * Replaces all detection state with the snapshot's; a part the snapshot lacks starts empty, one the engine
 * does not have is ignored. On any error every part is emptied and a SnapshotError thrown.
 */
export function restoreEngine(holders: EngineStateHolders, snapshot: unknown): void {
  try {
    const s = readObject(snapshot, 'snapshot');
    if (s.v !== ENGINE_SNAPSHOT_VERSION) {
      throw new SnapshotError(`unsupported snapshot version ${JSON.stringify(s.v)} (expected ${ENGINE_SNAPSHOT_VERSION})`);
    }
    const parts = readObject(s.parts, 'snapshot.parts');
    const events = new EventTableReader(parts[PART.events]);
    const definitions = new Map<string, DetectionDefinition>(holders.detectors.map((d) => [d.definition.id, d.definition]));
    for (const [name, detector] of detectorParts(holders.detectors)) detector.restore?.(parts[name], events);
    holders.aggregator.restore(parts[PART.findings], events, (id) => definitions.get(id));
    holders.leases.restore(parts[PART.leases]);
    holders.extraHits?.restore?.(parts[PART.extra], events);
  } catch (error) {
    clearEngine(holders);
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError(`malformed snapshot: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function clearEngine(holders: EngineStateHolders): void {
  const none = new EventTableReader(undefined);
  for (const detector of holders.detectors) detector.restore?.(undefined, none);
  holders.aggregator.restore(undefined, none, () => undefined);
  holders.leases.restore(undefined);
  holders.extraHits?.restore?.(undefined, none);
}
