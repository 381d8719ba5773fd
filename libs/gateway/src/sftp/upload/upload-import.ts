import { createGunzip, type Gunzip } from 'node:zlib';
import type { TelemetryType } from '@vigil/contracts';
import { CertificateIndex, createLogParser, detectLogFormat, isGzip, LineSplitter, type LogFormat, type LogParser, type RecordOutcome } from '@vigil/log-formats';

/** What the gateway made of one batch body (its validation's answer). */
export interface PublishedBatch {
  received: number;
  accepted: number;
  rejected: Record<string, number>;
}

/** Publishes one NDJSON body of `type` events through the gateway; resolves once durable, throws when refused. */
export type PublishBatch = (type: TelemetryType, body: Buffer) => Promise<PublishedBatch>;

export interface UploadLimits {
  /** Largest content, after decompression. */
  maxContentBytes: number;
  /** A batch is published once one event type's body reaches this many events ... */
  batchEvents: number;
  /** ... or this many bytes. */
  batchBytes: number;
}

export const DEFAULT_BATCH_EVENTS = 50_000;
export const DEFAULT_BATCH_BYTES = 8 * 1024 * 1024;

/** How much of the start of a file the format is told from. */
const DETECT_LINES = 64;
const DETECT_BYTES = 256 * 1024;

export type UploadFailure = 'too_large' | 'unknown_format' | 'bad_gzip' | 'not_sequential' | 'publish_failed';

/** The upload cannot go on; `acceptedEvents` of it were already published (0 unless the file spanned batches). */
export class UploadError extends Error {
  override readonly name = 'UploadError';

  constructor(
    message: string,
    readonly reason: UploadFailure,
    readonly acceptedEvents: number,
  ) {
    super(message);
  }
}

export interface UploadSummary {
  name: string;
  format?: LogFormat;
  gzip: boolean;
  /** Bytes received over SFTP. */
  bytes: number;
  /** Bytes of log text (after decompression). */
  contentBytes: number;
  /** Events the gateway accepted, per type. */
  accepted: Partial<Record<TelemetryType, number>>;
  /** Records or events refused, by reason: the log format's (malformed lines) and the gateway's validation. */
  rejected: Record<string, number>;
  /** Well-formed records that carry no telemetry (header lines are not counted). */
  skipped: Record<string, number>;
  /** Batches published so far. */
  batches: number;
}

interface Body {
  lines: string[];
  bytes: number;
}

/**
 * One file uploaded over SFTP, imported as it arrives: bytes in order (gunzipped when they start with gzip's
 * magic), cut into lines, format detected from the first lines, parsed by the log-formats parser, and the events
 * gathered into per-type NDJSON bodies that go through the gateway's intake. A file of up to one batch (50,000
 * events or 8 MB per type) is published whole when the upload closes; a larger one in batches as it arrives,
 * each durable before the write that filled it is acknowledged. Nothing is published after a failure.
 */
export class UploadImport {
  private readonly splitter = new LineSplitter();
  private readonly bodies = new Map<TelemetryType, Body>();
  private readonly detectLines: string[] = [];
  private detectBytes = 0;
  private parser?: LogParser;
  private mode: 'undecided' | 'plain' | 'gzip' = 'undecided';
  private head: Buffer[] = [];
  private gunzip?: Gunzip;
  private inflated: Buffer[] = [];
  private inflatedBytes = 0;
  private gunzipError?: Error;
  private failure?: UploadError;
  private acceptedEvents = 0;
  readonly summary: UploadSummary;

  constructor(
    name: string,
    private readonly limits: UploadLimits,
    private readonly publish: PublishBatch,
    private readonly certificates: CertificateIndex = new CertificateIndex(),
  ) {
    this.summary = { name, gzip: false, bytes: 0, contentBytes: 0, accepted: {}, rejected: {}, skipped: {}, batches: 0 };
  }

  /** Events of this file the gateway accepted so far. */
  get accepted(): number {
    return this.acceptedEvents;
  }

  get failed(): UploadError | undefined {
    return this.failure;
  }

  /** The bytes at `offset`; uploads are written front to back (as sftp, scp and curl do). */
  async write(offset: number, data: Buffer): Promise<void> {
    this.throwIfFailed();
    if (offset !== this.summary.bytes) {
      return this.fail(new UploadError(`writes must be sequential: expected offset ${this.summary.bytes}, got ${offset}`, 'not_sequential', this.acceptedEvents));
    }
    this.summary.bytes += data.length;
    if (this.mode !== 'undecided') return this.content(data);
    this.head.push(Buffer.from(data));
    if (this.summary.bytes >= 2) await this.content(this.decide());
  }

  /** End of the upload: the rest is parsed and published; resolves with the file's summary. */
  async close(): Promise<UploadSummary> {
    this.throwIfFailed();
    if (this.mode === 'undecided') await this.content(this.decide());
    if (this.gunzip) {
      const gunzip = this.gunzip;
      if (!gunzip.destroyed) {
        await new Promise<void>((resolve) => {
          gunzip.once('end', resolve);
          gunzip.once('close', resolve);
          gunzip.once('error', () => resolve());
          gunzip.end();
        });
      }
      await this.content(Buffer.alloc(0));
      if (this.gunzipError) return this.fail(new UploadError(`not valid gzip: ${this.gunzipError.message}`, 'bad_gzip', this.acceptedEvents));
    }
    const last = this.splitter.flush();
    if (last !== undefined) this.line(last.text);
    if (this.parser === undefined) this.detect();
    this.throwIfFailed();
    if (this.parser) for (const outcome of this.parser.finish()) this.record(outcome);
    await this.seal();
    return this.summary;
  }

  /** The first bytes decide between gzip and plain text; answers the bytes held back until then. */
  private decide(): Buffer {
    const first = Buffer.concat(this.head);
    this.head = [];
    this.mode = isGzip(first) ? 'gzip' : 'plain';
    if (this.mode === 'gzip') {
      this.summary.gzip = true;
      this.gunzip = createGunzip();
      this.gunzip.on('data', (chunk: Buffer) => {
        this.inflated.push(chunk);
        this.inflatedBytes += chunk.length;
        // Checked per output chunk, so a bomb stops at the cap instead of inflating a whole write first.
        if (this.summary.contentBytes + this.inflatedBytes > this.limits.maxContentBytes) this.gunzip?.destroy();
      });
      this.gunzip.on('error', (error) => (this.gunzipError ??= error));
    }
    return first;
  }

  private async content(data: Buffer): Promise<void> {
    let text = data;
    if (this.gunzip) {
      const gunzip = this.gunzip;
      if (data.length > 0 && !this.gunzipError && !gunzip.destroyed) {
        await new Promise<void>((resolve) => {
          gunzip.once('close', resolve);
          gunzip.write(data, () => {
            gunzip.off('close', resolve);
            resolve();
          });
        });
      }
      if (this.gunzipError) return this.fail(new UploadError(`not valid gzip: ${this.gunzipError.message}`, 'bad_gzip', this.acceptedEvents));
      text = Buffer.concat(this.inflated);
      this.inflated = [];
      this.inflatedBytes = 0;
    }
    if (text.length === 0) return;
    this.summary.contentBytes += text.length;
    if (this.summary.contentBytes > this.limits.maxContentBytes) {
      this.gunzip?.destroy();
      return this.fail(new UploadError(`the file is larger than the limit of ${this.limits.maxContentBytes} bytes${this.summary.gzip ? ' (decompressed)' : ''}`, 'too_large', this.acceptedEvents));
    }
    for (const line of this.splitter.push(text)) this.line(line.text);
    this.throwIfFailed();
    if (this.full()) await this.seal();
  }

  private line(text: string): void {
    if (this.parser === undefined) {
      this.detectLines.push(text);
      this.detectBytes += text.length + 1;
      if (this.detectLines.length >= DETECT_LINES || this.detectBytes >= DETECT_BYTES) this.detect();
      return;
    }
    for (const outcome of this.parser.line(text)) this.record(outcome);
  }

  /** Picks the parser from the lines so far and replays them through it. */
  private detect(): void {
    const lines = this.detectLines.splice(0);
    // Blank lines only: keep looking (at the end, an empty file imports nothing).
    if (lines.every((line) => line.trim() === '')) return;
    const format = detectLogFormat(lines, this.summary.name);
    if (format === undefined) {
      this.failure = new UploadError('cannot tell the log format from the first lines (expected Zeek TSV/JSON, Suricata EVE, Route 53, Cloud DNS or BIND query logs)', 'unknown_format', this.acceptedEvents);
      return;
    }
    this.summary.format = format;
    this.parser = createLogParser(format, { certificates: this.certificates });
    for (const line of lines) for (const outcome of this.parser.line(line)) this.record(outcome);
  }

  private record(outcome: RecordOutcome): void {
    if (outcome.kind === 'rejected') this.summary.rejected[outcome.reason] = (this.summary.rejected[outcome.reason] ?? 0) + 1;
    else if (outcome.kind === 'skipped') this.summary.skipped[outcome.reason] = (this.summary.skipped[outcome.reason] ?? 0) + 1;
    else
      for (const { type, event } of outcome.events) {
        let body = this.bodies.get(type);
        if (body === undefined) this.bodies.set(type, (body = { lines: [], bytes: 0 }));
        const line = JSON.stringify(event) + '\n';
        body.lines.push(line);
        body.bytes += Buffer.byteLength(line);
      }
  }

  private full(): boolean {
    for (const body of this.bodies.values()) if (body.lines.length >= this.limits.batchEvents || body.bytes >= this.limits.batchBytes) return true;
    return false;
  }

  private async seal(): Promise<void> {
    if (this.bodies.size === 0) return;
    const bodies = [...this.bodies];
    this.bodies.clear();
    for (const [type, body] of bodies) {
      let answer: PublishedBatch;
      try {
        answer = await this.publish(type, Buffer.from(body.lines.join('')));
      } catch (error) {
        return this.fail(new UploadError(`publishing the events failed: ${(error as Error).message}`, 'publish_failed', this.acceptedEvents));
      }
      this.acceptedEvents += answer.accepted;
      this.summary.accepted[type] = (this.summary.accepted[type] ?? 0) + answer.accepted;
      for (const [reason, count] of Object.entries(answer.rejected)) this.summary.rejected[reason] = (this.summary.rejected[reason] ?? 0) + count;
    }
    this.summary.batches++;
  }

  private fail(error: UploadError): never {
    this.failure ??= error;
    this.bodies.clear();
    throw this.failure;
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }
}
