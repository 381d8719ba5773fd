import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { constants as zlibConstants, createGunzip, gunzipSync } from 'node:zlib';
import {
  CertificateIndex,
  createLogParser,
  detectLogFormat,
  isGzip,
  LineSplitter,
  type Line,
  type LogFormat,
  type LogParser,
} from '@vigil/log-formats';
import { Batch, type BatchLimits } from './batch';
import type { CheckpointStore, FileCheckpoint } from './checkpoint-store';
import { FileDelivery } from './delivery';
import type { EventsClient } from './events-client';
import { identify, identityId } from './file-identity';
import type { Progress } from './progress';
import type { ImportTally } from './tally';

export interface ImportContext {
  client: EventsClient;
  store: CheckpointStore;
  tally: ImportTally;
  progress: Progress;
  certificates: CertificateIndex;
  /** --format; else detected per file. */
  format?: LogFormat;
  limits: BatchLimits;
  concurrency: number;
}

const READ_CHUNK = 1024 * 1024;
const DETECT_BYTES = 256 * 1024;

export class UnknownFormatError extends Error {}

/**
 * Imports one open file from where its checkpoint says: reads its bytes (gunzipped when the content starts with
 * gzip's magic bytes), cuts lines, parses records, fills batches and hands them to a {@link FileDelivery}.
 * Plain files are read with positional reads, so the same object can keep reading a file that grows (--follow).
 */
export class FileImport {
  private readonly splitter: LineSplitter;
  private batch: Batch;
  /** Batch ends recorded as in flight by an interrupted run: batches are cut exactly there again. */
  private readonly forcedEnds: number[];
  /** Next byte of the file to read (plain files). */
  private position: number;
  private lastSeal = Date.now();

  private constructor(
    private readonly ctx: ImportContext,
    readonly path: string,
    readonly handle: FileHandle,
    readonly checkpoint: FileCheckpoint,
    readonly gzip: boolean,
    private readonly parser: LogParser,
    private readonly delivery: FileDelivery,
  ) {
    const start = checkpoint.format === 'zeek-x509' ? 0 : checkpoint.acked;
    this.splitter = new LineSplitter(start);
    this.position = start;
    this.batch = new Batch(start, ctx.limits);
    this.forcedEnds = checkpoint.inflight.map(([, end]) => end).sort((a, b) => a - b);
  }

  /** Opens the import of `handle` (already open on `path`), resuming from its checkpoint when it has one. */
  static async open(ctx: ImportContext, path: string, handle: FileHandle): Promise<FileImport> {
    const identity = await identify(handle);
    const head = await readHead(handle);
    const gzip = isGzip(head);
    let checkpoint = await ctx.store.find(identity, handle);
    if (checkpoint === undefined) {
      const format = ctx.format ?? detectLogFormat(firstLines(gzip ? gunzipSync(head, { finishFlush: zlibConstants.Z_SYNC_FLUSH }) : head), path);
      if (format === undefined) throw new UnknownFormatError(`cannot tell the log format of ${path}; name it with --format`);
      checkpoint = { id: identityId(identity), path, ...identity, format, acked: 0, inflight: [], completed: false, updatedAt: '' };
    }
    checkpoint.path = path;
    const resumed = new Set(checkpoint.inflight.map(([start, end]) => `${start}-${end}`));
    const parser = createLogParser(checkpoint.format, { certificates: ctx.certificates, state: checkpoint.format === 'zeek-x509' ? undefined : checkpoint.parserState });
    const delivery = new FileDelivery(ctx.client, ctx.store, checkpoint, ctx.tally, ctx.concurrency, resumed);
    return new FileImport(ctx, path, handle, checkpoint, gzip, parser, delivery);
  }

  /** True when an earlier run completed this file and it has not grown since. */
  async alreadyDone(): Promise<boolean> {
    if (!this.checkpoint.completed || this.checkpoint.format === 'zeek-x509') return false;
    return this.gzip || (await this.handle.stat()).size === this.checkpoint.completedSize;
  }

  /** Reads a whole file and finishes it (one-shot imports). */
  async importAll(): Promise<void> {
    if (this.gzip) await this.readGzip();
    else while ((await this.readAvailable()) > 0);
    await this.finish(true);
  }

  /** Plain files: reads what is there now past the last read; answers the number of bytes read. */
  async readAvailable(): Promise<number> {
    const buffer = Buffer.allocUnsafe(READ_CHUNK);
    let total = 0;
    for (;;) {
      const { bytesRead } = await this.handle.read(buffer, 0, READ_CHUNK, this.position);
      if (bytesRead === 0) return total;
      this.position += bytesRead;
      total += bytesRead;
      this.ctx.progress.bytes(bytesRead);
      await this.lines(this.splitter.push(buffer.subarray(0, bytesRead)));
    }
  }

  /** Bytes of the file read so far (plain files); a smaller size on disk means it was truncated. */
  get readPosition(): number {
    return this.position;
  }

  /** --follow: sends what was read when nothing new came for `idleMs` (a line is never split). */
  async flushIfIdle(idleMs: number): Promise<void> {
    if (Date.now() - this.lastSeal >= idleMs && this.parser.idle && this.batch.end > this.batch.start) await this.seal();
  }

  /** Sends the rest, waits for every acknowledgement and marks the file completed. */
  async finish(takePartialLine: boolean): Promise<void> {
    if (takePartialLine) {
      const last = this.splitter.flush();
      if (last !== undefined) await this.lines([last]);
    }
    for (const outcome of this.parser.finish()) this.ctx.tally.record(outcome);
    await this.seal();
    await this.delivery.drain();
    this.checkpoint.completed = true;
    this.checkpoint.completedSize = (await this.handle.stat()).size;
    await this.ctx.store.save(this.checkpoint);
    this.ctx.tally.filesCompleted.push(this.path);
  }

  private async readGzip(): Promise<void> {
    const skip = this.splitter.position;
    let decoded = 0;
    const stream = createReadStream('', { fd: this.handle.fd, start: 0, autoClose: false, highWaterMark: READ_CHUNK });
    stream.on('data', (chunk) => this.ctx.progress.bytes(chunk.length));
    const gunzip = stream.pipe(createGunzip());
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      let piece = chunk;
      if (decoded < skip) {
        const drop = Math.min(skip - decoded, chunk.length);
        decoded += drop;
        if (drop === chunk.length) continue;
        piece = chunk.subarray(drop);
      }
      decoded += piece.length;
      await this.lines(this.splitter.push(piece));
    }
  }

  private async lines(lines: Line[]): Promise<void> {
    for (const line of lines) {
      for (const outcome of this.parser.line(line.text)) {
        if (outcome.kind === 'events') for (const event of outcome.events) this.batch.add(event);
        else this.ctx.tally.record(outcome);
      }
      this.batch.end = line.end;
      if (!this.parser.idle) continue;
      if (this.forcedEnds.length > 0) {
        if (line.end >= this.forcedEnds[0]) {
          this.forcedEnds.shift();
          await this.seal();
        }
      } else if (this.batch.isFull) {
        await this.seal();
      }
    }
  }

  private async seal(): Promise<void> {
    const batch = this.batch;
    this.batch = new Batch(batch.end, this.ctx.limits);
    this.lastSeal = Date.now();
    if (batch.end === batch.start) return;
    this.ctx.progress.events(batch.eventCount);
    await this.delivery.submit(batch, this.parser.state());
  }
}

async function readHead(handle: FileHandle): Promise<Buffer> {
  const buffer = Buffer.alloc(DETECT_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, DETECT_BYTES, 0);
  return buffer.subarray(0, bytesRead);
}

function firstLines(bytes: Buffer): string[] {
  return bytes.toString('utf8').split('\n').slice(0, 64);
}
