import type { TelemetryType } from '@vigil/contracts';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import type { KeyedState } from '../../state/state-budget';
import type { DetectionDefinition, DetectionHit, Detector, DetectorStateStats, ObservedEvent } from '../detection';

/** What {@link BucketedSums} and {@link DistinctWindows} offer a detector for its state. */
export interface WindowedState {
  keyedState(): readonly KeyedState[];
  stats(): DetectorStateStats;
  snapshot(events: SnapshotEventWriter): unknown;
  restore(state: unknown, events: SnapshotEventReader, what: string): void;
}

/**
 * A detector whose whole state is one set of windows: its memory budget, statistics, snapshot and restore are
 * those of the windows, so a subclass only says which they are and inspects events.
 */
export abstract class WindowedDetector implements Detector {
  abstract readonly definition: DetectionDefinition;
  abstract readonly types: readonly TelemetryType[];
  abstract inspect(observed: ObservedEvent): DetectionHit | undefined;
  protected abstract windowedState(): WindowedState;

  keyedState(): readonly KeyedState[] {
    return this.windowedState().keyedState();
  }

  stateStats(): DetectorStateStats {
    return this.windowedState().stats();
  }

  snapshot(events: SnapshotEventWriter): unknown {
    return this.windowedState().snapshot(events);
  }

  restore(state: unknown, events: SnapshotEventReader): void {
    this.windowedState().restore(state, events, this.definition.id);
  }
}
