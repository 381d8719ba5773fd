import type { Batch, IHeaders, KafkaMessage, Message } from 'kafkajs';
import type { BusBatch, BusRecord, ConsumedRecord } from '../bus';

/** A bus record as a kafkajs message: key and headers as UTF-8 strings, value as bytes. */
export function toKafkaMessage(record: BusRecord): Message {
  return { key: record.key, value: record.value, headers: record.headers };
}

function headerValue(value: IHeaders[string]): string | undefined {
  if (value === undefined) return undefined;
  // Kafka allows a header name to repeat; the port holds one value per name, so the last one wins.
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  if (last === undefined) return undefined;
  return typeof last === 'string' ? last : last.toString('utf8');
}

function toHeaders(headers: IHeaders | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  const names = Object.keys(headers);
  if (names.length === 0) return undefined;
  const result: Record<string, string> = {};
  for (const name of names) {
    const value = headerValue(headers[name]);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

function toConsumedRecord(message: KafkaMessage, partition: number): ConsumedRecord {
  const headers = toHeaders(message.headers);
  return {
    key: message.key ? message.key.toString('utf8') : '',
    // A null value is a compaction tombstone; the port has no null, so it arrives as empty bytes.
    value: message.value ?? Buffer.alloc(0),
    ...(headers ? { headers } : {}),
    partition,
    offset: message.offset,
    timestamp: Number(message.timestamp),
  };
}

export function toBusBatch(batch: Batch): BusBatch {
  return {
    topic: batch.topic,
    partition: batch.partition,
    records: batch.messages.map((message) => toConsumedRecord(message, batch.partition)),
  };
}

/** Size of a record as counted against the in-flight publish bound. */
export function recordBytes(record: BusRecord): number {
  let bytes = Buffer.byteLength(record.key, 'utf8') + record.value.length;
  for (const [name, value] of Object.entries(record.headers ?? {})) bytes += name.length + Buffer.byteLength(value, 'utf8');
  return bytes;
}
