import type { BusRecord } from '@vigil/bus';
import type { TelemetryType } from '@vigil/contracts';
import { decodeBody, scanTelemetryBatch, type ContentCoding } from '@vigil/ingest';
import { EVENTS_BODY_LIMIT } from '@vigil/platform';
import { EndpointSet, type PackedEndpoints } from '../endpoints';
import { TelemetryRecordPacker } from '../pack-batches';

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
      endpoints: PackedEndpoints;
    };

/**
 * The CPU-heavy part of accepting telemetry, with no I/O: split and validate the body's events, normalise them
 * and pack them into bus records. Runs in an ingest thread (prepare-telemetry.task.ts) or inline.
 */
export function prepareTelemetry(workspaceId: string, type: TelemetryType, body: Buffer, nowMs: number): PreparedTelemetry {
  const packer = new TelemetryRecordPacker(workspaceId, type, nowMs);
  const endpoints = new EndpointSet();
  // Each event is reduced to its JSON and its endpoint as it is made, so that it dies young (scanTelemetryBatch).
  const summary = scanTelemetryBatch(type, body, new Date(nowMs), (event, text) => {
    packer.add(event, text);
    endpoints.add(event);
  });
  if (summary.notJson) return { notJson: true };
  return {
    notJson: false,
    received: summary.received,
    accepted: summary.accepted,
    rejected: summary.rejected,
    records: packer.records(),
    endpoints: endpoints.packed(),
  };
}

/**
 * Decodes a body that arrived with a content coding (gzip, deflate), under the telemetry body cap, then prepares
 * it. Throws BodyDecodingError (400 corrupt, 413 past the cap).
 */
export function prepareEncodedTelemetry(workspaceId: string, type: TelemetryType, body: Buffer, coding: ContentCoding, nowMs: number): PreparedTelemetry {
  return prepareTelemetry(workspaceId, type, decodeBody(body, coding, EVENTS_BODY_LIMIT), nowMs);
}
