import { randomUUID } from 'node:crypto';
import { telemetryKey, type TelemetryBatch, type TelemetryEvent, type TelemetryType } from '@vigil/contracts';
import type { BusRecord } from '@vigil/bus';

/** Upper bound of one bus record's value; a larger group is split so records stay well under Kafka's 1 MB default. */
const MAX_RECORD_BYTES = 256 * 1024;

/**
 * Packs a request's accepted events into bus records, one per (workspace, source IP) — the partition key —
 * so that a host's events stay in order on one consumer and the bus carries far fewer records than events.
 */
export function packTelemetryRecords(
  workspaceId: string,
  type: TelemetryType,
  events: TelemetryEvent[],
  receivedAt: number,
  requestId: string = randomUUID(),
): BusRecord[] {
  const groups = new Map<string, TelemetryEvent[]>();
  for (const event of events) {
    const key = telemetryKey(workspaceId, event.srcIP);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(event);
  }
  const records: BusRecord[] = [];
  let part = 0;
  for (const [key, group] of groups) {
    let chunk: string[] = [];
    let chunkBytes = 0;
    const flush = () => {
      if (chunk.length === 0) return;
      const batchId = `${requestId}.${part++}`;
      // Each event is serialized once; the batch JSON is assembled around the serialized events.
      const header: Omit<TelemetryBatch, 'events'> = { v: 1, workspaceId, type, batchId, receivedAt };
      const value = Buffer.from(`${JSON.stringify(header).slice(0, -1)},"events":[${chunk.join(',')}]}`);
      records.push({ key, value, headers: { type, batchId, receivedAt: String(receivedAt), events: String(chunk.length) } });
      chunk = [];
      chunkBytes = 0;
    };
    for (const event of group) {
      const json = JSON.stringify(event);
      if (chunkBytes + json.length > MAX_RECORD_BYTES) flush();
      chunk.push(json);
      chunkBytes += json.length + 1;
    }
    flush();
  }
  return records;
}
