import type { Alert, AlertRecord, FindingRecord, OcsfDetectionFinding } from '@vigil/contracts';
import { InvalidRecordError } from './errors';

/** What the repository stores of one record, whatever its kind. */
export interface StoredRecord {
  workspaceId: string;
  /** Unique id of the stored record within its workspace; the de-duplication key. */
  recordId: string;
  severity: number;
  /** Epoch milliseconds of the finding or of the event that raised the alert. */
  time: number;
  /** Served back as it is by the read API. */
  body: unknown;
  /** Values of the table's extra columns, by column name. */
  extra: Record<string, unknown>;
}

/** One table of stored records and how a bus record maps onto it. */
export interface RecordTable<TRecord> {
  readonly name: string;
  readonly extraColumns: readonly string[];
  /** Throws InvalidRecordError for a record that cannot be stored. */
  describe(record: TRecord): StoredRecord;
}

const MAX_ID_LENGTH = 512;
/** DateTime64(3) covers 1900-01-01 to 2299-12-31. */
const MIN_TIME_MS = Date.UTC(1900, 0, 1);
const MAX_TIME_MS = Date.UTC(2299, 11, 31, 23, 59, 59, 999);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_ID_LENGTH) {
    throw new InvalidRecordError(`${field} must be a non-empty string of at most ${MAX_ID_LENGTH} characters`);
  }
  return value;
}

function requireSeverity(value: unknown, field: string): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 255) {
    throw new InvalidRecordError(`${field} must be a whole number from 0 to 255, got ${JSON.stringify(value)}`);
  }
  return value as number;
}

function requireTime(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < MIN_TIME_MS || value > MAX_TIME_MS) {
    throw new InvalidRecordError(`${field} must be epoch milliseconds between 1900 and 2299, got ${JSON.stringify(value)}`);
  }
  return value;
}

function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (!isObject(value)) throw new InvalidRecordError(`${field} must be an object`);
  return value;
}

export const FINDINGS_TABLE: RecordTable<FindingRecord> = {
  name: 'findings',
  extraColumns: [],
  describe(record) {
    const r = requireObject(record, 'finding record');
    return {
      workspaceId: requireId(r.workspaceId, 'workspaceId'),
      recordId: requireId(r.recordId, 'recordId'),
      severity: requireSeverity(r.severityId, 'severityId'),
      time: requireTime(r.time, 'time'),
      body: requireObject(r.finding, 'finding') as OcsfDetectionFinding,
      extra: {},
    };
  },
};

export const ALERTS_TABLE: RecordTable<AlertRecord> = {
  name: 'alerts',
  extraColumns: ['threats'],
  describe(record) {
    const r = requireObject(record, 'alert record');
    const alert = requireObject(r.alert, 'alert') as unknown as Alert;
    const threats: unknown = alert.threats;
    if (!Array.isArray(threats) || threats.some((t) => typeof t !== 'string')) {
      throw new InvalidRecordError('alert.threats must be an array of threat ids');
    }
    return {
      workspaceId: requireId(r.workspaceId, 'workspaceId'),
      recordId: requireId(alert.id, 'alert.id'),
      severity: requireSeverity(r.severity, 'severity'),
      time: requireTime(r.time, 'time'),
      body: alert,
      extra: { threats },
    };
  },
};
