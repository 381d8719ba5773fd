import type { BusRecord } from '@vigil/bus';
import type { EscalationDestination } from './destination';

/**
 * Value of a record on the compacted `ctl.escalations.v1`, keyed by destination id: the destination's latest
 * state. A removal keeps the key with `removed: true` and no destination, so compaction drops the secrets too.
 */
export interface DestinationControlRecord {
  v: 1;
  id: string;
  workspaceId: string;
  /** Monotonic per destination: a follower keeps the record with the highest version. */
  version: number;
  removed: boolean;
  destination?: EscalationDestination;
}

export function controlRecord(entry: DestinationControlRecord): BusRecord {
  return { key: entry.id, value: Buffer.from(JSON.stringify(entry)) };
}

/** Throws on a value that is not a control record of this version. */
export function decodeControlRecord(value: Buffer): DestinationControlRecord {
  const parsed = JSON.parse(value.toString('utf8')) as Partial<DestinationControlRecord>;
  if (parsed?.v !== 1 || typeof parsed.id !== 'string' || typeof parsed.workspaceId !== 'string' || !Number.isSafeInteger(parsed.version)) {
    throw new TypeError('not an escalation control record (v1)');
  }
  if (parsed.removed !== true && (typeof parsed.destination !== 'object' || parsed.destination === null || parsed.destination.id !== parsed.id)) {
    throw new TypeError(`control record ${parsed.id} has no destination`);
  }
  return parsed as DestinationControlRecord;
}
