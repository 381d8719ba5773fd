import type { BusRecord } from '@vigil/bus';
import type { TelemetryType } from '@vigil/contracts';
import { parseTelemetryBatch } from '@vigil/ingest';
import { endpointsOf } from '../endpoints';
import { packTelemetryRecords } from '../pack-batches';

/** A telemetry body made ready for the events topic: what the sender is told, and what is published. */
export type PreparedTelemetry =
  | { notJson: true }
  | {
      notJson: false;
      received: number;
      accepted: number;
      rejected: Record<string, number>;
      /** One record per partition, every host's events in order. */
      records: BusRecord[];
      /** Endpoint ids seen in the accepted events (for the account's endpoint count). */
      endpoints: string[];
    };

/**
 * The CPU-heavy part of accepting telemetry, with no I/O: split and validate the body's events, normalise them
 * and pack them into bus records. Runs in an ingest thread (prepare-telemetry.task.ts) or inline.
 */
export function prepareTelemetry(workspaceId: string, type: TelemetryType, body: Buffer, nowMs: number): PreparedTelemetry {
  const now = new Date(nowMs);
  const parsed = parseTelemetryBatch(type, body, now);
  if (parsed.notJson) return { notJson: true };
  return {
    notJson: false,
    received: parsed.received,
    accepted: parsed.events.length,
    rejected: parsed.rejected,
    records: packTelemetryRecords(workspaceId, type, parsed.events, nowMs, { texts: parsed.texts }),
    endpoints: endpointsOf(parsed.events),
  };
}
