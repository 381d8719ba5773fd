import { randomUUID } from 'node:crypto';
import { telemetryKey, TOPICS, type TelemetryBatch, type TelemetryEvent, type TelemetryType } from '@vigil/contracts';
import { murmur2Partition, type BusRecord } from '@vigil/bus';

/** Upper bound of one bus record's value; a larger group is split so records stay well under Kafka's 1 MB default. */
const MAX_RECORD_BYTES = 256 * 1024;

/**
 * Packs a request's accepted events into bus records, one per events partition (chunked under the size cap).
 * A host's events all go to the partition of its key (workspace, source IP), in order, so its detection state
 * stays on one consumer; each record is keyed by the key of its first event, which names that partition.
 * Grouping by partition rather than by host keeps records few when a body holds thousands of hosts: the bus,
 * the scoring engine and the findings aggregation all pay per record.
 */
export function packTelemetryRecords(
  workspaceId: string,
  type: TelemetryType,
  events: TelemetryEvent[],
  receivedAt: number,
  requestId: string = randomUUID(),
  partitions: number = TOPICS.events.partitions,
): BusRecord[] {
  const groups = new Map<number, { key: string; events: TelemetryEvent[] }>();
  const partitionOfSource = new Map<string | undefined, number>();
  for (const event of events) {
    let partition = partitionOfSource.get(event.srcIP);
    if (partition === undefined) {
      partition = murmur2Partition(telemetryKey(workspaceId, event.srcIP), partitions);
      partitionOfSource.set(event.srcIP, partition);
    }
    let group = groups.get(partition);
    if (!group) groups.set(partition, (group = { key: telemetryKey(workspaceId, event.srcIP), events: [] }));
    group.events.push(event);
  }
  const records: BusRecord[] = [];
  let part = 0;
  for (const { key, events: group } of groups.values()) {
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
