/**
 * Group commit: publish() calls queue their encoded frames here; one cycle at a time writes everything queued
 * to the partition logs and fsyncs each touched log once, so requests that arrive while an fsync runs share the
 * next one. A request resolves only when all of its partitions are durable.
 */
import { BusBackpressureError } from '../bus';
import type { PartitionLog } from './partition-log';
import type { UnsealedFrame } from './record-frame';

interface AppendRequest {
  parts: Map<PartitionLog, UnsealedFrame[]>;
  bytes: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class GroupCommitWriter {
  private queue: AppendRequest[] = [];
  /** Bytes held in memory: queued plus the cycle being written. */
  private bufferedBytes = 0;
  private running: Promise<void> | null = null;

  constructor(private readonly maxBufferedBytes: number) {}

  /**
   * Queues frames for their logs. Throws BusBackpressureError when the writer already holds more than its budget
   * (a single request larger than the budget is still taken when nothing else is buffered).
   */
  submit(parts: Map<PartitionLog, UnsealedFrame[]>, bytes: number): Promise<void> {
    if (this.bufferedBytes > 0 && this.bufferedBytes + bytes > this.maxBufferedBytes) {
      return Promise.reject(new BusBackpressureError(1));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ parts, bytes, resolve, reject });
      this.bufferedBytes += bytes;
      this.running ??= this.run();
    });
  }

  /** Resolves once everything submitted so far has been written (or failed). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const requests = this.queue;
        this.queue = [];
        await this.writeCycle(requests);
      }
    } finally {
      this.running = null;
    }
  }

  private async writeCycle(requests: AppendRequest[]): Promise<void> {
    const perLog = new Map<PartitionLog, UnsealedFrame[]>();
    for (const request of requests) {
      for (const [log, frames] of request.parts) {
        const list = perLog.get(log);
        if (list) for (const frame of frames) list.push(frame);
        else perLog.set(log, frames.slice());
      }
    }
    const failures = new Map<PartitionLog, Error>();
    await Promise.all(
      [...perLog].map(async ([log, frames]) => {
        try {
          await log.append(frames);
        } catch (error) {
          failures.set(log, new Error(`could not append to ${log.topic}/${log.partition}: ${describe(error)}`, { cause: error }));
        }
      }),
    );
    for (const request of requests) {
      this.bufferedBytes -= request.bytes;
      const failure = [...request.parts.keys()].map((log) => failures.get(log)).find((e) => e !== undefined);
      if (failure) request.reject(failure);
      else request.resolve();
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
