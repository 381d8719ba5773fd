import { Inject, Injectable, Logger } from '@nestjs/common';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { MemoryRateLimiter } from '@vigil/counters';
import { CertificateIndex } from '@vigil/log-formats';
import { TelemetryIntake } from '../../telemetry-intake';
import { sftpMetrics } from '../sftp-metrics';
import { RecentUploads } from './recent-uploads';
import { DEFAULT_BATCH_BYTES, DEFAULT_BATCH_EVENTS, UploadError, UploadImport, type UploadSummary } from './upload-import';

const MAX_CERTIFICATE_INDEXES = 1000;

export type Begun = { ok: true; upload: UploadImport } | { ok: false; message: string };

/**
 * Uploads over SFTP: starts each one under the workspace's upload rate limit, feeds its events through the
 * gateway's intake (the same validation and publishing as `POST /v1/events/*`), and logs and counts the outcome
 * of every file — imported (with what was accepted and what was refused, by reason), failed or interrupted
 * (with how many of its events had already been accepted).
 */
@Injectable()
export class SftpUploads {
  private readonly logger = new Logger('SftpIngest');
  readonly recent = new RecentUploads();
  private readonly certificates = new Map<string, CertificateIndex>();
  private readonly limiter?: MemoryRateLimiter;
  private readonly maxContentBytes: number;

  constructor(
    private readonly intake: TelemetryIntake,
    @Inject(VIGIL_CONFIG) config: VigilConfig,
  ) {
    this.maxContentBytes = config.sftp?.maxFileBytes ?? 256 * 1024 * 1024;
    if (config.sftp) this.limiter = new MemoryRateLimiter(config.sftp.uploadRate);
  }

  async begin(workspaceId: string, name: string): Promise<Begun> {
    const decision = await this.limiter?.consume(`sftp:${workspaceId}`);
    if (decision && !decision.allowed) {
      sftpMetrics.upload('refused');
      return { ok: false, message: `upload rate limit reached for this workspace; retry in ${decision.retryAfterSeconds} s` };
    }
    const limits = { maxContentBytes: this.maxContentBytes, batchEvents: DEFAULT_BATCH_EVENTS, batchBytes: DEFAULT_BATCH_BYTES };
    const upload = new UploadImport(name, limits, (type, body) => this.publish(workspaceId, type, body), this.certificatesOf(workspaceId));
    return { ok: true, upload };
  }

  /** Closes an upload: the rest is published; resolves with an error message for the client, or undefined. */
  async finish(workspaceId: string, upload: UploadImport, remote: string): Promise<string | undefined> {
    const started = Date.now();
    try {
      const summary = await upload.close();
      this.recent.add(workspaceId, { name: summary.name, size: summary.bytes, mtime: Math.floor(Date.now() / 1000), outcome: 'imported' });
      sftpMetrics.upload('imported', summary.bytes);
      sftpMetrics.rejected(summary.rejected);
      const line = `upload ${workspaceId}/${summary.name} from ${remote}: ${describe(summary)}, ${Date.now() - started} ms to close`;
      if (Object.keys(summary.rejected).length > 0) this.logger.warn(line);
      else this.logger.log(line);
      return undefined;
    } catch (error) {
      if (!(error instanceof UploadError)) throw error;
      return this.failed(workspaceId, upload, remote, error);
    }
  }

  /** A write that could not be taken fails the whole upload (logged once, when the client closes or goes). */
  failed(workspaceId: string, upload: UploadImport, remote: string, error: UploadError): string {
    this.recent.add(workspaceId, { name: upload.summary.name, size: upload.summary.bytes, mtime: Math.floor(Date.now() / 1000), outcome: 'failed' });
    sftpMetrics.upload('failed', upload.summary.bytes);
    sftpMetrics.rejected(upload.summary.rejected);
    const part = error.acceptedEvents > 0 ? `; ${error.acceptedEvents} event(s) of it were already accepted in ${upload.summary.batches} batch(es), the rest was not imported` : '; nothing of it was imported';
    this.logger.warn(`upload ${workspaceId}/${upload.summary.name} from ${remote} failed (${error.reason}): ${error.message}${part}`);
    return `${error.message}${part}`;
  }

  /** The client went away (or the server stops) before closing the file. */
  interrupted(workspaceId: string, upload: UploadImport, remote: string): void {
    sftpMetrics.upload('interrupted', upload.summary.bytes);
    const part = upload.accepted > 0 ? `${upload.accepted} event(s) of it were already accepted in ${upload.summary.batches} batch(es), the rest was not imported` : 'nothing of it was imported';
    this.logger.warn(`upload ${workspaceId}/${upload.summary.name} from ${remote} interrupted after ${upload.summary.bytes} bytes (never closed): ${part}`);
  }

  private async publish(workspaceId: string, type: Parameters<TelemetryIntake['accept']>[1], body: Buffer) {
    const outcome = await this.intake.accept(workspaceId, type, body);
    return outcome.notJson ? { received: 0, accepted: 0, rejected: {} } : outcome;
  }

  /** Per workspace, so an ssl.log finds the certificates of the x509.log uploaded before it. */
  private certificatesOf(workspaceId: string): CertificateIndex {
    let index = this.certificates.get(workspaceId);
    if (!index) {
      if (this.certificates.size >= MAX_CERTIFICATE_INDEXES) this.certificates.delete(this.certificates.keys().next().value as string);
      this.certificates.set(workspaceId, (index = new CertificateIndex(20_000)));
    }
    return index;
  }
}

function describe(summary: UploadSummary): string {
  const counts = (map: Record<string, number | undefined>) =>
    Object.entries(map)
      .map(([key, value]) => `${key}=${value}`)
      .join(' ') || 'none';
  return [
    `${summary.bytes} bytes${summary.gzip ? ` gzip (${summary.contentBytes} decompressed)` : ''}`,
    `format ${summary.format ?? 'none (empty)'}`,
    `accepted ${counts(summary.accepted)}`,
    `rejected ${counts(summary.rejected)}`,
    `skipped ${counts(summary.skipped)}`,
    `${summary.batches} batch(es)`,
  ].join(', ');
}
