/**
 * Sequential reader of one partition for one consumer: serves from the in-memory tail when it can, otherwise
 * from the segment files with a cursor that remembers where it stopped (so a lagging consumer reads each byte
 * once). Corrupt frames in an older segment are reported and skipped to the next segment, never served.
 */
import type { BusLogger, PartitionLog } from './partition-log';
import { type StoredRecord, decodeFrame, probeFrame } from './record-frame';
import type { ReadLimits } from './recent-records';
import type { Segment } from './segment';

const FILE_CHUNK_BYTES = 1024 * 1024;

export interface ReadResult {
  records: StoredRecord[];
  /** Where the next read starts: after the last record, or past skipped offsets. */
  next: number;
}

interface Cursor {
  segment: Segment;
  position: number;
  /** Offset at or below the next frame's offset (equal unless there are gaps). */
  nextOffset: number;
}

export class PartitionReader {
  private cursor: Cursor | null = null;

  constructor(
    private readonly log: PartitionLog,
    private readonly logger: BusLogger,
  ) {}

  /** Reads records at `from` or after it, up to the durable end; empty when nothing new is there. */
  async read(from: number, limits: ReadLimits): Promise<ReadResult> {
    const end = this.log.end;
    if (from < this.log.startOffset) {
      this.logger(
        `${this.name}: offset ${from} is no longer stored (retention); continuing at ${this.log.startOffset}`,
      );
      return { records: [], next: this.log.startOffset };
    }
    if (from >= end) return { records: [], next: from };
    const recent = this.log.tail.read(from, limits);
    if (recent) return { records: recent, next: recent[recent.length - 1].offset + 1 };
    return this.readFiles(from, end, limits);
  }

  async close(): Promise<void> {
    const segment = this.cursor?.segment;
    this.cursor = null;
    if (segment) await segment.release();
  }

  private get name(): string {
    return `${this.log.topic}/${this.log.partition}`;
  }

  private async readFiles(from: number, end: number, limits: ReadLimits): Promise<ReadResult> {
    if (!this.cursor || this.cursor.nextOffset !== from || this.cursor.segment.isRemoved) await this.seek(from);
    const cursor = this.cursor as Cursor;
    const records: StoredRecord[] = [];
    let bytes = 0;
    let full = false;
    while (!full && cursor.nextOffset < end) {
      const limit = cursor.segment.durableBytes;
      if (cursor.position >= limit) {
        const following = this.log.segmentAfter(cursor.segment);
        if (!following) break;
        await this.moveTo(following, 0, Math.max(cursor.nextOffset, following.baseOffset));
        continue;
      }
      let chunk = await cursor.segment.read(cursor.position, Math.min(FILE_CHUNK_BYTES, limit - cursor.position));
      let at = 0;
      while (at < chunk.length) {
        const probe = probeFrame(chunk, at, chunk.length);
        if (probe.kind === 'incomplete') {
          if (at > 0) break;
          if (cursor.position + probe.needed > limit) {
            this.skipCorruptRest(cursor, 'a record runs past the end of the segment');
            break;
          }
          chunk = await cursor.segment.read(cursor.position, probe.needed);
          if (chunk.length < probe.needed) {
            this.skipCorruptRest(cursor, 'short read');
            break;
          }
          continue;
        }
        if (probe.kind === 'corrupt' || probe.offset < cursor.nextOffset) {
          this.skipCorruptRest(cursor, probe.kind === 'corrupt' ? probe.reason : `offset ${probe.offset} out of order`);
          break;
        }
        if (probe.offset >= end) {
          full = true;
          break;
        }
        cursor.segment.noteIndex(probe.offset, cursor.position);
        if (probe.offset >= from) {
          if (records.length > 0 && (records.length >= limits.maxRecords || bytes + probe.frameBytes > limits.maxBytes)) {
            full = true;
            break;
          }
          records.push(decodeFrame(chunk, at, probe.frameBytes));
          bytes += probe.frameBytes;
        }
        cursor.position += probe.frameBytes;
        cursor.nextOffset = probe.offset + 1;
        at += probe.frameBytes;
      }
    }
    const next = records.length > 0 ? records[records.length - 1].offset + 1 : Math.max(from, Math.min(cursor.nextOffset, end));
    return { records, next };
  }

  private skipCorruptRest(cursor: Cursor, reason: string): void {
    const following = this.log.segmentAfter(cursor.segment);
    this.logger(
      `${this.name}: corrupt data in ${cursor.segment.filePath} at byte ${cursor.position} (${reason}); ` +
        (following ? `skipping to offset ${following.baseOffset}` : 'skipping the rest of the segment'),
    );
    cursor.position = cursor.segment.durableBytes;
    if (following) cursor.nextOffset = Math.max(cursor.nextOffset, following.baseOffset);
  }

  private async seek(offset: number): Promise<void> {
    const segment = this.log.segmentFor(offset);
    const hint = segment.seekHint(offset);
    await this.moveTo(segment, hint.position, hint.offset);
  }

  /** Points the (single, mutable) cursor somewhere else, holding the new segment and releasing the old one. */
  private async moveTo(segment: Segment, position: number, nextOffset: number): Promise<void> {
    const previous = this.cursor?.segment;
    if (previous !== segment) segment.hold();
    if (this.cursor) Object.assign(this.cursor, { segment, position, nextOffset });
    else this.cursor = { segment, position, nextOffset };
    if (previous && previous !== segment) await previous.release();
  }
}
