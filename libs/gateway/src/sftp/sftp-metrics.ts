import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@vigil/platform';

const uploads = new Counter({
  name: 'vigil_sftp_uploads_total',
  help: 'Files uploaded over SFTP, by outcome (imported, failed, interrupted, refused)',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});
const bytes = new Counter({ name: 'vigil_sftp_upload_bytes_total', help: 'Bytes received in SFTP uploads', registers: [metricsRegistry] });
const records = new Counter({
  name: 'vigil_sftp_records_rejected_total',
  help: 'Log records or events of SFTP uploads refused, by reason (malformed lines and failed validation)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
const auth = new Counter({ name: 'vigil_sftp_auth_failures_total', help: 'SFTP sign-ins refused (unknown user or key, wrong method)', registers: [metricsRegistry] });
const sessions = new Gauge({ name: 'vigil_sftp_connections', help: 'Open SFTP connections', registers: [metricsRegistry] });

export const sftpMetrics = {
  upload(outcome: 'imported' | 'failed' | 'interrupted' | 'refused', uploadedBytes = 0): void {
    uploads.inc({ outcome });
    if (uploadedBytes > 0) bytes.inc(uploadedBytes);
  },
  rejected(byReason: Record<string, number>): void {
    for (const [reason, count] of Object.entries(byReason)) records.inc({ reason }, count);
  },
  authFailure(): void {
    auth.inc();
  },
  connections(delta: number): void {
    sessions.inc(delta);
  },
};
