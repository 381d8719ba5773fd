/**
 * The bounded in-memory tail of a partition: the latest durable records, so consumers that keep up are served
 * without touching the files. Offsets in it are contiguous (appends only); the oldest records are dropped once
 * the byte budget is exceeded, and lagging consumers fall back to reading segments.
 */
import type { StoredRecord } from './record-frame';

export interface ReadLimits {
  maxRecords: number;
  maxBytes: number;
}

export class RecentRecords {
  /** Slots before `head` are dropped (undefined) so their buffers can be collected at once. */
  private records: (StoredRecord | undefined)[] = [];
  private head = 0;
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  /** Offset of the oldest record held, or undefined when empty. */
  get firstOffset(): number | undefined {
    return this.head < this.records.length ? (this.records[this.head] as StoredRecord).offset : undefined;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  append(record: StoredRecord): void {
    const last = this.records[this.records.length - 1];
    if (last !== undefined && record.offset !== last.offset + 1) this.clear();
    this.records.push(record);
    this.bytes += record.frameBytes;
    while (this.bytes > this.maxBytes && this.records.length - this.head > 1) {
      this.bytes -= (this.records[this.head] as StoredRecord).frameBytes;
      this.records[this.head] = undefined;
      this.head += 1;
    }
    if (this.head > 64 && this.head * 2 > this.records.length) {
      this.records = this.records.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.records = [];
    this.head = 0;
    this.bytes = 0;
  }

  /** Records from `offset` on, within limits (at least one), or undefined when `offset` is not held. */
  read(offset: number, limits: ReadLimits): StoredRecord[] | undefined {
    const first = this.firstOffset;
    if (first === undefined || offset < first) return undefined;
    let index = this.head + (offset - first);
    if (index >= this.records.length) return undefined;
    const out: StoredRecord[] = [];
    let bytes = 0;
    while (index < this.records.length && out.length < limits.maxRecords) {
      const record = this.records[index] as StoredRecord;
      if (out.length > 0 && bytes + record.frameBytes > limits.maxBytes) break;
      out.push(record);
      bytes += record.frameBytes;
      index += 1;
    }
    return out;
  }
}
