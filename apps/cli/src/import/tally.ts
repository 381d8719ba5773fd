import type { TelemetryType } from '@vigil/contracts';
import type { RecordOutcome } from '@vigil/log-formats';
import type { EventsAnswer } from './events-client';

/** What an import did, for the summary at the end. */
export class ImportTally {
  readonly sent: Partial<Record<TelemetryType, number>> = {};
  readonly accepted: Partial<Record<TelemetryType, number>> = {};
  /** The importer's own rejections (lines it could not read), by reason. */
  readonly parseRejected: Record<string, number> = {};
  /** Well-formed records that carry nothing Vigil takes, by reason. */
  readonly skipped: Record<string, number> = {};
  /** The server's `rejected` counts, by reason. */
  readonly serverRejected: Record<string, number> = {};
  readonly filesCompleted: string[] = [];
  readonly filesFailed: Array<{ path: string; error: string }> = [];
  batches = 0;
  /** Batches the server had already (answered from its Idempotency-Key store: sent before a crash). */
  replayedBatches = 0;
  events = 0;

  record(outcome: RecordOutcome): void {
    if (outcome.kind === 'rejected') this.parseRejected[outcome.reason] = (this.parseRejected[outcome.reason] ?? 0) + 1;
    else if (outcome.kind === 'skipped') this.skipped[outcome.reason] = (this.skipped[outcome.reason] ?? 0) + 1;
  }

  answered(type: TelemetryType, answer: EventsAnswer, replayed: boolean): void {
    this.batches++;
    if (replayed) this.replayedBatches++;
    this.sent[type] = (this.sent[type] ?? 0) + answer.received;
    this.accepted[type] = (this.accepted[type] ?? 0) + answer.accepted;
    this.events += answer.received;
    for (const [reason, count] of Object.entries(answer.rejected ?? {})) this.serverRejected[reason] = (this.serverRejected[reason] ?? 0) + count;
  }

  toJSON(): Record<string, unknown> {
    return {
      accepted: this.accepted,
      sent: this.sent,
      rejectedByImporter: this.parseRejected,
      rejectedByServer: this.serverRejected,
      skipped: this.skipped,
      batches: this.batches,
      replayedBatches: this.replayedBatches,
      filesCompleted: this.filesCompleted,
      filesFailed: this.filesFailed,
    };
  }

  format(): string {
    const table = (counts: Record<string, number | undefined>) => {
      const entries = Object.entries(counts).filter(([, n]) => (n ?? 0) > 0);
      return entries.length === 0 ? '  (none)' : entries.sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0)).map(([k, n]) => `  ${k}: ${(n ?? 0).toLocaleString('en')}`).join('\n');
    };
    return [
      `events accepted, by type:\n${table(this.accepted)}`,
      `rejected by the importer (unreadable records), by reason:\n${table(this.parseRejected)}`,
      `rejected by the server, by reason:\n${table(this.serverRejected)}`,
      `skipped (nothing to send), by reason:\n${table(this.skipped)}`,
      `batches: ${this.batches} (${this.replayedBatches} already delivered before an interruption)`,
      `files completed: ${this.filesCompleted.length}${this.filesCompleted.map((f) => `\n  ${f}`).join('')}`,
      ...(this.filesFailed.length > 0 ? [`files failed: ${this.filesFailed.length}${this.filesFailed.map((f) => `\n  ${f.path}: ${f.error}`).join('')}`] : []),
    ].join('\n');
  }
}
