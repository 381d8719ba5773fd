import type { BusBatch, BusRecord, ConsumedRecord } from '@vigil/bus';
import type { InsertResult } from './record-repository';

/** Where decoded records go: a FindingsRepository or an AlertsRepository. */
export interface RecordSink<TRecord> {
  insert(records: TRecord[]): Promise<InsertResult>;
}

export interface BatchWriteOutcome {
  inserted: number;
  duplicates: number;
  /** Records that can never be stored, ready for the dead-letter topic (original key and value, `reason` header). */
  deadLetters: BusRecord[];
}

function deadLetter(batch: BusBatch, record: ConsumedRecord, reason: string): BusRecord {
  return { key: record.key, value: record.value, headers: { ...record.headers, reason, source: batch.topic } };
}

/**
 * Decodes a consumed batch of `tlm.findings.v1` or `tlm.alerts.v1` (JSON values) and stores it. Unreadable or
 * invalid records come back as dead letters; a store failure throws, so the bus redelivers the whole batch,
 * which the repository's de-duplication makes harmless.
 */
export async function writeBusBatch<TRecord>(sink: RecordSink<TRecord>, batch: BusBatch): Promise<BatchWriteOutcome> {
  const deadLetters: BusRecord[] = [];
  const decoded: TRecord[] = [];
  const sources = new Map<unknown, ConsumedRecord>();
  for (const record of batch.records) {
    let value: unknown;
    try {
      value = JSON.parse(record.value.toString('utf8'));
    } catch (error) {
      deadLetters.push(deadLetter(batch, record, `unreadable: ${String(error)}`));
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      deadLetters.push(deadLetter(batch, record, 'invalid: the value is not a JSON object'));
      continue;
    }
    decoded.push(value as TRecord);
    // Keyed by the decoded object itself, so that a rejected record leads back to its bus record.
    sources.set(value, record);
  }
  const result = decoded.length ? await sink.insert(decoded) : { inserted: 0, duplicates: 0, rejected: [] };
  for (const rejected of result.rejected) {
    const source = sources.get(rejected.record);
    if (source) deadLetters.push(deadLetter(batch, source, `invalid: ${rejected.reason}`));
  }
  return { inserted: result.inserted, duplicates: result.duplicates, deadLetters };
}
