import type { BusRecord } from '@vigil/bus';

/** The columns of an archive row besides the record itself (see migrations.ts, `batchesTable`). */
export interface ArchiveColumns {
  workspaceId: string;
  type: string;
  srcIP: string;
  batchId: string;
  receivedAtMs: number;
  eventCount: number;
}

const TAB = Buffer.from('\t');
const NEWLINE = Buffer.from('\n');

/**
 * One archive row as a line of raw tab-separated values (ServiceStore.insertLines): the columns, then the record's
 * JSON verbatim. The columns come from the record's key and headers, which the gateway sets on every record it
 * packs, so the engine need not parse hundreds of kilobytes of JSON per record to find them (that parsing was half
 * the engine's CPU per archived byte). A record without those headers is parsed here instead.
 */
export function archiveRowOf(record: BusRecord): Buffer[] {
  const columns = columnsFromHeaders(record) ?? columnsFromJson(record.value);
  const received = new Date(columns.receivedAtMs);
  const receivedAt = Number.isNaN(received.getTime()) ? '1970-01-01 00:00:00.000' : received.toISOString().slice(0, 23).replace('T', ' ');
  const prefix = [columns.workspaceId, columns.type, columns.srcIP, columns.batchId].map(tsvSafe).join('\t');
  return [Buffer.from(`${prefix}\t${receivedAt}\t${columns.eventCount}`), TAB, valueOnOneLine(record.value), NEWLINE];
}

/** The columns as the gateway's packer states them: key `<workspace>|<first source IP>`, headers type, batchId, receivedAt, events. */
export function columnsFromHeaders(record: BusRecord): ArchiveColumns | undefined {
  const headers = record.headers;
  if (headers === undefined) return undefined;
  const { type, batchId } = headers;
  const receivedAtMs = Number(headers.receivedAt);
  const eventCount = Number(headers.events);
  const bar = record.key.lastIndexOf('|');
  if (type === undefined || batchId === undefined || bar < 0 || !Number.isSafeInteger(receivedAtMs) || !Number.isSafeInteger(eventCount) || eventCount < 0) {
    return undefined;
  }
  return { workspaceId: record.key.slice(0, bar), type, srcIP: record.key.slice(bar + 1), batchId, receivedAtMs, eventCount };
}

/** The columns read from the record's JSON (a record from a producer that sets no headers); empty when unreadable. */
export function columnsFromJson(value: Buffer): ArchiveColumns {
  let batch: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(value.toString('utf8'));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) batch = parsed as Record<string, unknown>;
  } catch {
    // Archived as it came (see valueOnOneLine), with empty columns.
  }
  const text = (v: unknown): string => (typeof v === 'string' ? v : '');
  const events = Array.isArray(batch.events) ? batch.events : [];
  const first: unknown = events[0];
  return {
    workspaceId: text(batch.workspaceId),
    type: text(batch.type),
    srcIP: first !== null && typeof first === 'object' ? text((first as Record<string, unknown>).srcIP) : '',
    batchId: text(batch.batchId),
    receivedAtMs: typeof batch.receivedAt === 'number' && Number.isSafeInteger(batch.receivedAt) ? batch.receivedAt : 0,
    eventCount: events.length,
  };
}

/** A raw TSV field holds no tab or newline; the columns are only the row's index, the record keeps the exact values. */
function tsvSafe(field: string): string {
  return /[\t\n\r]/.test(field) ? field.replace(/[\t\n\r]/g, ' ') : field;
}

/**
 * The record's JSON on one line. The gateway's records never hold a raw tab or newline (JSON.stringify emits none);
 * a record that has them (another producer's pretty-printed JSON) is re-serialized, and one that is not JSON is kept
 * as base64.
 */
function valueOnOneLine(value: Buffer): Buffer {
  if (!value.includes(0x0a) && !value.includes(0x09) && !value.includes(0x0d)) return value;
  try {
    return Buffer.from(JSON.stringify(JSON.parse(value.toString('utf8'))));
  } catch {
    return Buffer.from(JSON.stringify({ unreadable: value.toString('base64') }));
  }
}
