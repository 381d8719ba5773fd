import { randomUUID } from 'node:crypto';
import { telemetryKey, TOPICS, type TelemetryBatch, type TelemetryEvent, type TelemetryType } from '@vigil/contracts';
import { murmur2Partition, type BusRecord } from '@vigil/bus';

/** Upper bound of one bus record's value; a larger group is split so records stay well under Kafka's 1 MB default. */
const MAX_RECORD_BYTES = 256 * 1024;

export interface PackOptions {
  /** Names the records' batches (`<requestId>.<part>`); a fresh UUID by default. */
  requestId?: string;
  partitions?: number;
  /** Per event, its JSON text when already known (ParsedTelemetryBatch.texts); the others are serialized here. */
  texts?: readonly (string | undefined)[];
}

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
  events: readonly TelemetryEvent[],
  receivedAt: number,
  { requestId = randomUUID(), partitions = TOPICS.events.partitions, texts }: PackOptions = {},
): BusRecord[] {
  const groups = new Map<number, { key: string; indexes: number[] }>();
  const partitionOfSource = new Map<string | undefined, number>();
  for (let index = 0; index < events.length; index++) {
    const event = events[index];
    let partition = partitionOfSource.get(event.srcIP);
    if (partition === undefined) {
      partition = murmur2Partition(telemetryKey(workspaceId, event.srcIP), partitions);
      partitionOfSource.set(event.srcIP, partition);
    }
    let group = groups.get(partition);
    if (!group) groups.set(partition, (group = { key: telemetryKey(workspaceId, event.srcIP), indexes: [] }));
    group.indexes.push(index);
  }
  const records: BusRecord[] = [];
  let part = 0;
  for (const { key, indexes } of groups.values()) {
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
    for (const index of indexes) {
      const json = texts?.[index] ?? JSON.stringify(events[index]);
      if (chunkBytes + json.length > MAX_RECORD_BYTES) flush();
      chunk.push(json);
      chunkBytes += json.length + 1;
    }
    flush();
  }
  return records;
}
