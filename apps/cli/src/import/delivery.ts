import type { LogParserState } from '@vigil/log-formats';
import type { Batch } from './batch';
import type { CheckpointStore, FileCheckpoint } from './checkpoint-store';
import type { EventsClient } from './events-client';
import type { ImportTally } from './tally';

interface InFlight {
  batch: Batch;
  stateAtEnd: LogParserState;
  done: boolean;
  sending: Promise<void>;
}

/**
 * Sends one file's batches, a few at a time, and moves its checkpoint forward only over a contiguous prefix of
 * acknowledged batches. Before a batch is sent its byte range is written to the checkpoint (`inflight`), so that
 * after a crash the same range is sent again under the same Idempotency-Key: the server answers it from its key
 * store if it had it, and publishes it if not — neither skipped nor repeated.
 */
export class FileDelivery {
  private readonly window: InFlight[] = [];
  private failure: unknown;

  constructor(
    private readonly client: EventsClient,
    private readonly store: CheckpointStore,
    private readonly checkpoint: FileCheckpoint,
    private readonly tally: ImportTally,
    private readonly concurrency: number,
    /** Ranges that were in flight when an earlier run stopped: a 422 on them means "delivered then". */
    private readonly resumedRanges: ReadonlySet<string>,
  ) {}

  async submit(batch: Batch, stateAtEnd: LogParserState): Promise<void> {
    this.throwIfFailed();
    while (this.window.filter((entry) => !entry.done).length >= this.concurrency) {
      await Promise.race(this.window.filter((entry) => !entry.done).map((entry) => entry.sending));
      this.throwIfFailed();
    }
    const entry: InFlight = { batch, stateAtEnd, done: false, sending: Promise.resolve() };
    this.window.push(entry);
    if (batch.eventCount > 0) {
      this.checkpoint.inflight.push([batch.start, batch.end]);
      await this.store.save(this.checkpoint);
    }
    entry.sending = this.send(batch).then(
      () => {
        entry.done = true;
        return this.advance();
      },
      (error: unknown) => {
        this.failure ??= error;
      },
    );
  }

  /** Waits for every batch submitted; rethrows the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.window.map((entry) => entry.sending));
    this.throwIfFailed();
  }

  private async send(batch: Batch): Promise<void> {
    const range = `${batch.start}-${batch.end}`;
    for (const request of batch.requests()) {
      const key = `vigil-import:${this.checkpoint.id}:${range}:${request.type}`;
      const result = await this.client.post(request.type, request.body, key);
      if (result.kind === 'answered') {
        this.tally.answered(request.type, result.answer, result.replayed);
      } else if (this.resumedRanges.has(range)) {
        // Sent before the interruption and stored then; what it reads as now differs (e.g. certificates joined).
        this.tally.replayedBatches++;
      } else {
        throw new Error(`the server already has Idempotency-Key ${key} for a different batch; move ${this.store.file} aside to import this file as new`);
      }
    }
  }

  private async advance(): Promise<void> {
    let moved = false;
    while (this.window.length > 0 && this.window[0].done) {
      const { batch, stateAtEnd } = this.window.shift()!;
      this.checkpoint.acked = batch.end;
      this.checkpoint.parserState = stateAtEnd;
      this.checkpoint.inflight = this.checkpoint.inflight.filter(([start]) => start !== batch.start);
      moved = true;
    }
    if (moved) await this.store.save(this.checkpoint);
  }

  private throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
