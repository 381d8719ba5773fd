import { randomUUID } from 'node:crypto';
import { telemetryKey, TOPICS, type TelemetryBatch, type TelemetryEvent, type TelemetryType } from '@vigil/contracts';
import { murmur2Partition, type BusRecord } from '@vigil/bus';

/** Upper bound of one bus record's value; a larger group is split so records stay well under Kafka's 1 MB default. */
const MAX_RECORD_BYTES = 256 * 1024;

export interface PackOptions {
  /** Names the records' batches (`<requestId>.<part>`); a fresh UUID by default. */
  requestId?: string;
  partitions?: number;
}

/** The serialized events bound for one events partition, and the key of the first (which names the partition). */
interface PartitionGroup {
  key: string;
  json: string[];
}

/**
 * Packs a request's accepted events into bus records, one per events partition (chunked under the size cap),
 * taking them one at a time so that the caller need not hold them all: an event is reduced to its JSON at once.
 * A host's events all go to the partition of its key (workspace, source IP), in order, so its detection state
 * stays on one consumer; each record is keyed by the key of its first event, which names that partition.
 * Grouping by partition rather than by host keeps records few when a body holds thousands of hosts: the bus,
 * the scoring engine and the findings aggregation all pay per record.
 */
export class TelemetryRecordPacker {
  private readonly groups = new Map<number, PartitionGroup>();
  private readonly partitionOfSource = new Map<string | undefined, number>();
  private readonly requestId: string;
  private readonly partitions: number;

  constructor(
    private readonly workspaceId: string,
    private readonly type: TelemetryType,
    private readonly receivedAt: number,
    { requestId = randomUUID(), partitions = TOPICS.events.partitions }: PackOptions = {},
  ) {
    this.requestId = requestId;
    this.partitions = partitions;
  }

  /** Adds the next event; `json` is its JSON when already known (see scanTelemetryBatch), else it is serialized here. */
  add(event: TelemetryEvent, json: string = JSON.stringify(event)): void {
    let partition = this.partitionOfSource.get(event.srcIP);
    if (partition === undefined) {
      partition = murmur2Partition(telemetryKey(this.workspaceId, event.srcIP), this.partitions);
      this.partitionOfSource.set(event.srcIP, partition);
    }
    let group = this.groups.get(partition);
    if (group === undefined) this.groups.set(partition, (group = { key: telemetryKey(this.workspaceId, event.srcIP), json: [] }));
    group.json.push(json);
  }

  /** The records of every event added, partition by partition. */
  records(): BusRecord[] {
    const records: BusRecord[] = [];
    let part = 0;
    for (const { key, json } of this.groups.values()) {
      let chunk: string[] = [];
      let chunkBytes = 0;
      const flush = () => {
        if (chunk.length === 0) return;
        records.push(this.record(key, `${this.requestId}.${part++}`, chunk));
        chunk = [];
        chunkBytes = 0;
      };
      for (const event of json) {
        if (chunkBytes + event.length > MAX_RECORD_BYTES) flush();
        chunk.push(event);
        chunkBytes += event.length + 1;
      }
      flush();
    }
    return records;
  }

  private record(key: string, batchId: string, events: string[]): BusRecord {
    const { type, workspaceId, receivedAt } = this;
    // Each event is serialized once; the batch JSON is assembled around the serialized events.
    const header: Omit<TelemetryBatch, 'events'> = { v: 1, workspaceId, type, batchId, receivedAt };
    const value = Buffer.from(`${JSON.stringify(header).slice(0, -1)},"events":[${events.join(',')}]}`);
    return { key, value, headers: { type, batchId, receivedAt: String(receivedAt), events: String(events.length) } };
  }
}

/** Packs a list of events at once (see {@link TelemetryRecordPacker}). */
export function packTelemetryRecords(
  workspaceId: string,
  type: TelemetryType,
  events: readonly TelemetryEvent[],
  receivedAt: number,
  options: PackOptions = {},
): BusRecord[] {
  const packer = new TelemetryRecordPacker(workspaceId, type, receivedAt, options);
  for (const event of events) packer.add(event);
  return packer.records();
}
