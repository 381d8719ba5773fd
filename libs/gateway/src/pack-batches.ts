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

/** A record being written: its batch JSON up to the events written so far, in a scratch buffer. */
interface OpenRecord {
  batchId: string;
  scratch: Buffer;
  /** Bytes written. */
  length: number;
  /** Bytes of the events written, with their separators (what MAX_RECORD_BYTES bounds). */
  eventBytes: number;
  events: number;
}

/** The records bound for one events partition, and the key of the first event (which names the partition). */
interface PartitionGroup {
  key: string;
  done: BusRecord[];
  open?: OpenRecord;
}

/** Room for a record's header (workspace id, batch id) besides its events. */
const HEADER_ROOM = 1024;
/**
 * Scratch buffers of records being written, reused from body to body: a record is copied out at its exact size
 * when done, so a body costs no more buffer memory than its records. Events are written into them as they come,
 * so that the strings of a body die young (see scanTelemetryBatch).
 */
const scratchBuffers: Buffer[] = [];

function takeScratch(bytes: number): Buffer {
  // Every pooled buffer has the standard size: only a record for a huge event needs a larger one.
  if (bytes <= MAX_RECORD_BYTES + HEADER_ROOM && scratchBuffers.length > 0) return scratchBuffers.pop()!;
  return Buffer.allocUnsafeSlow(Math.max(bytes, MAX_RECORD_BYTES + HEADER_ROOM));
}

/**
 * Packs a request's accepted events into bus records, one per events partition (chunked under the size cap),
 * taking them one at a time so that the caller need not hold them all: each event is written out at once.
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
  private part = 0;

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
    if (group === undefined) this.groups.set(partition, (group = { key: telemetryKey(this.workspaceId, event.srcIP), done: [] }));
    this.write(group, json);
  }

  /** The records of every event added, partition by partition. */
  records(): BusRecord[] {
    const records: BusRecord[] = [];
    for (const group of this.groups.values()) {
      this.close(group);
      records.push(...group.done);
    }
    this.groups.clear();
    return records;
  }

  private write(group: PartitionGroup, json: string): void {
    let open = group.open;
    if (open !== undefined && open.events > 0 && open.length + 1 + json.length * MAX_UTF8_PER_UNIT + SUFFIX.length <= open.scratch.length) {
      // Room for the event at its largest: written at once, its size known from the write (measuring the string
      // first was a second pass over every event); taken back when it would carry the record past the cap.
      const bytes = open.scratch.write(json, open.length + 1);
      if (open.eventBytes + bytes + 1 <= MAX_RECORD_BYTES) {
        open.scratch[open.length] = COMMA;
        open.length += 1 + bytes;
        open.eventBytes += bytes + 1;
        open.events++;
        return;
      }
    }
    const bytes = Buffer.byteLength(json);
    if (open !== undefined && open.events > 0 && (open.eventBytes + bytes > MAX_RECORD_BYTES || open.length + 1 + bytes + SUFFIX.length > open.scratch.length)) {
      this.close(group);
      open = undefined;
    }
    if (open === undefined) group.open = open = this.openRecord(bytes);
    if (open.events > 0) open.scratch[open.length++] = COMMA;
    open.length += open.scratch.write(json, open.length);
    open.eventBytes += bytes + 1;
    open.events++;
  }

  private openRecord(firstEventBytes: number): OpenRecord {
    const batchId = `${this.requestId}.${this.part++}`;
    const header: Omit<TelemetryBatch, 'events'> = { v: 1, workspaceId: this.workspaceId, type: this.type, batchId, receivedAt: this.receivedAt };
    const prefix = `${JSON.stringify(header).slice(0, -1)},"events":[`;
    const scratch = takeScratch(Buffer.byteLength(prefix) + firstEventBytes + SUFFIX.length);
    return { batchId, scratch, length: scratch.write(prefix, 0), eventBytes: 0, events: 0 };
  }

  private close(group: PartitionGroup): void {
    const open = group.open;
    if (open === undefined) return;
    group.open = undefined;
    open.length += SUFFIX.copy(open.scratch, open.length);
    // A buffer of its own (not a slice of Node's pool), so that it can be moved to another thread.
    const value = Buffer.allocUnsafeSlow(open.length);
    open.scratch.copy(value, 0, 0, open.length);
    if (open.scratch.length === MAX_RECORD_BYTES + HEADER_ROOM) scratchBuffers.push(open.scratch); // not one made for a huge event
    const { type, receivedAt } = this;
    group.done.push({ key: group.key, value, headers: { type, batchId: open.batchId, receivedAt: String(receivedAt), events: String(open.events) } });
  }
}

const COMMA = 0x2c;
/** UTF-8 bytes per UTF-16 code unit at most. */
const MAX_UTF8_PER_UNIT = 3;
const SUFFIX = Buffer.from(']}');

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
