import type { TelemetryType } from '@vigil/contracts';
import { BodyDecodingError, type ContentCoding } from '@vigil/ingest';
import { movableBuffersOf, siblingModule, WorkerPool, WorkerQueueFullError } from '@vigil/platform';
import { prepareEncodedTelemetry, type PreparedTelemetry } from './prepare-telemetry';
import type { handlePrepareRequest, PrepareRequest, PrepareResponse } from './prepare-telemetry.task';

// Keeps the task module in the compiled program (threads load it by path).
export type PrepareTaskHandler = typeof handlePrepareRequest;
const TASK_MODULE = siblingModule(__filename, 'prepare-telemetry.task');

/** Bodies waiting for an ingest thread at most; beyond it the sender is told to retry (the bus is saturated anyway). */
const MAX_QUEUED_BODIES = 64;

/** The ingest threads are saturated: nothing of the body was accepted. */
export class IngestThreadsBusyError extends Error {
  override readonly name = 'IngestThreadsBusyError';
}

/**
 * Where telemetry bodies are parsed, validated and packed: in `threads` worker threads (so a 10 MB body never
 * holds up the event loop that answers every other request), or inline when `threads` is 0. Results are the
 * same either way (prepareTelemetry is pure).
 */
export class TelemetryPreparer {
  private readonly pool?: WorkerPool<PrepareRequest, PrepareResponse>;

  /** `nice`: of the ingest threads (Linux), so that the thread answering HTTP runs first when every core is busy. */
  constructor(
    threads: number,
    private readonly nice = 0,
  ) {
    if (threads > 0) {
      this.pool = new WorkerPool<PrepareRequest, PrepareResponse>({
        name: 'telemetry ingest',
        module: TASK_MODULE,
        exportName: 'handlePrepareRequest',
        maxThreads: threads,
        maxQueued: MAX_QUEUED_BODIES,
        // A 10 MB body of the smallest events takes well under a second; far beyond it the thread is stuck.
        timeoutMs: 60_000,
        idleTimeoutMs: 2 ** 31 - 1,
        resourceLimits: { maxOldGenerationSizeMb: 512 },
      });
    }
  }

  /**
   * `body` as received with `coding`: it is decoded where it is prepared (BodyDecodingError: 400 corrupt, 413 past
   * the cap). With ingest threads, a body that has a memory block of its own moves to the thread rather than being
   * copied: the caller must not read `body` afterwards.
   */
  async prepare(workspaceId: string, type: TelemetryType, body: Buffer, nowMs: number, coding: ContentCoding = 'identity'): Promise<PreparedTelemetry> {
    if (this.pool === undefined) return prepareEncodedTelemetry(workspaceId, type, body, coding, nowMs);
    try {
      const prepared = await this.pool.run({ workspaceId, type, body, coding, nowMs, nice: this.nice }, movableBuffersOf([body]));
      if ('undecodable' in prepared) {
        const { message, statusCode, code } = prepared.undecodable;
        throw new BodyDecodingError(message, statusCode, code);
      }
      if (prepared.notJson) return prepared;
      // Buffers come back from the thread as Uint8Arrays.
      const records = prepared.records.map((r) => ({ ...r, value: Buffer.from(r.value.buffer, r.value.byteOffset, r.value.byteLength) }));
      return { ...prepared, records };
    } catch (error) {
      if (error instanceof WorkerQueueFullError) throw new IngestThreadsBusyError('every ingest thread is busy; retry later');
      throw error;
    }
  }

  /** Starts the ingest threads (they load their modules), so the first body is not the one that waits for it. */
  async warmUp(): Promise<void> {
    await this.pool?.run({ workspaceId: 'warm-up', type: 'dns', body: Buffer.alloc(0), coding: 'identity', nowMs: 0, nice: this.nice });
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
