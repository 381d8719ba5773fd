/**
 * The task module of an ingest thread (loaded by WorkerPool in its thread, never imported elsewhere): prepares
 * telemetry bodies so that the main thread keeps answering HTTP while bodies are parsed.
 */
import type { TelemetryType } from '@vigil/contracts';
import { BodyDecodingError, type ContentCoding } from '@vigil/ingest';
import { lowerThreadPriority, movableBuffersOf, type TaskContext } from '@vigil/platform';
import { prepareEncodedTelemetry, type PreparedTelemetry } from './prepare-telemetry';

export interface PrepareRequest {
  workspaceId: string;
  type: TelemetryType;
  /** Buffers arrive as Uint8Arrays. */
  body: Uint8Array;
  /** The body's content coding: decoded here, off the thread that answers HTTP. */
  coding: ContentCoding;
  nowMs: number;
  /** Nice value this thread takes on (once; 0 leaves it as it is). */
  nice: number;
}

/** A body that could not be decoded, as the sender is to be answered (errors lose their fields between threads). */
export interface UndecodableBody {
  undecodable: { message: string; statusCode: BodyDecodingError['statusCode']; code: string };
}

export type PrepareResponse = PreparedTelemetry | UndecodableBody;

let priorityLowered = false;

export function handlePrepareRequest(request: PrepareRequest, context: TaskContext): PrepareResponse {
  if (!priorityLowered) {
    priorityLowered = true;
    lowerThreadPriority(request.nice);
  }
  const body = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  let prepared: PreparedTelemetry;
  try {
    prepared = prepareEncodedTelemetry(request.workspaceId, request.type, body, request.coding, request.nowMs);
  } catch (error) {
    if (!(error instanceof BodyDecodingError)) throw error;
    return { undecodable: { message: error.message, statusCode: error.statusCode, code: error.code } };
  }
  // The packed records (together about the size of the body) go back without a copy.
  if (!prepared.notJson) context.transfer(movableBuffersOf(prepared.records.map((record) => record.value)));
  return prepared;
}
