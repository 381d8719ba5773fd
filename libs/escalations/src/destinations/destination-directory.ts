import type { EscalationDestination } from './destination';
import type { DestinationControlRecord } from './control-record';

/**
 * The latest known state of every destination, fed by the control topic and by this replica's own changes. A
 * record older than the one held is ignored, so replays and republished rows never undo a newer change.
 */
export class DestinationDirectory {
  private readonly entries = new Map<string, DestinationControlRecord>();

  /** True when the record is newer than what was held (the caller reconciles deliveries then). */
  apply(record: DestinationControlRecord): boolean {
    const held = this.entries.get(record.id);
    if (held !== undefined && held.version >= record.version) return false;
    this.entries.set(record.id, record);
    return true;
  }

  versionOf(id: string): number | undefined {
    return this.entries.get(id)?.version;
  }

  get(id: string): EscalationDestination | undefined {
    const entry = this.entries.get(id);
    return entry && !entry.removed ? entry.destination : undefined;
  }

  active(): EscalationDestination[] {
    return [...this.entries.values()].filter((e) => !e.removed && e.destination).map((e) => e.destination!);
  }

  /** The highest version held (versions issued next must be above it). */
  maxVersion(): number {
    let max = 0;
    for (const entry of this.entries.values()) max = Math.max(max, entry.version);
    return max;
  }
}
