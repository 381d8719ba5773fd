/**
 * The task module of an ingest thread (loaded by WorkerPool in its thread, never imported elsewhere): prepares
 * telemetry bodies so that the main thread keeps answering HTTP while bodies are parsed.
 */
import type { TelemetryType } from '@vigil/contracts';
import { lowerThreadPriority, movableBuffersOf, type TaskContext } from '@vigil/platform';
import { prepareTelemetry, type PreparedTelemetry } from './prepare-telemetry';

export interface PrepareRequest {
  workspaceId: string;
  type: TelemetryType;
  /** Buffers arrive as Uint8Arrays. */
  body: Uint8Array;
  nowMs: number;
  /** Nice value this thread takes on (once; 0 leaves it as it is). */
  nice: number;
}

let priorityLowered = false;

export function handlePrepareRequest(request: PrepareRequest, context: TaskContext): PreparedTelemetry {
  if (!priorityLowered) {
    priorityLowered = true;
    lowerThreadPriority(request.nice);
  }
  const body = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  const prepared = prepareTelemetry(request.workspaceId, request.type, body, request.nowMs);
  // The packed records (together about the size of the body) go back without a copy.
  if (!prepared.notJson) context.transfer(movableBuffersOf(prepared.records.map((record) => record.value)));
  return prepared;
}
