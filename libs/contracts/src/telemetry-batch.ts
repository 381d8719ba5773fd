import type { TelemetryEvent, TelemetryType } from './events';

/**
 * Value of a record on `tlm.events.v1`: the accepted events of one request that share a
 * (workspace, source IP) key, packed into one record. `batchId` + index gives each event a stable id.
 */
export interface TelemetryBatch {
  v: 1;
  workspaceId: string;
  type: TelemetryType;
  batchId: string;
  /** Epoch milliseconds at which the gateway accepted the request. */
  receivedAt: number;
  events: TelemetryEvent[];
}
