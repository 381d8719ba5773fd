/**
 * The log of one topic partition: ordered segment files, the durable end offset, the in-memory tail and a
 * notification consumers await for new records. Appends are serialised by the caller (the group-commit writer);
 * records become visible to readers only once fsynced.
 */
import { promises as fs } from 'fs';
import * as path from 'path';
import { ensureDirectory, fsyncDirectory } from './fs-util';
import { type UnsealedFrame, probeFrame, sealFrame, storedFromSealed } from './record-frame';
import { RecentRecords } from './recent-records';
import { Segment, parseSegmentFileName } from './segment';

export type BusLogger = (message: string) => void;

export interface PartitionLogOptions {
  segmentBytes: number;
  tailBytes: number;
  log: BusLogger;
}

const RECOVERY_CHUNK_BYTES = 4 * 1024 * 1024;

interface StagedFrame {
  segment: Segment;
  unsealed: UnsealedFrame;
  offset: number;
  position: number;
}

export class PartitionLog {
  readonly tail: RecentRecords;
  private segments: Segment[];
  private endOffset: number;
  private failure: Error | null = null;
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly topic: string,
    readonly partition: number,
    readonly dirPath: string,
    segments: Segment[],
    endOffset: number,
    private readonly options: PartitionLogOptions,
  ) {
    this.segments = segments;
    this.endOffset = endOffset;
    this.tail = new RecentRecords(options.tailBytes);
  }

  static async open(dirPath: string, topic: string, partition: number, options: PartitionLogOptions): Promise<PartitionLog> {
    await ensureDirectory(dirPath);
    const names = await fs.readdir(dirPath);
    const found: Segment[] = [];
    for (const name of names) {
      const baseOffset = parseSegmentFileName(name);
      if (baseOffset !== undefined) found.push(await Segment.existing(path.join(dirPath, name), baseOffset));
    }
    found.sort((a, b) => a.baseOffset - b.baseOffset);
    if (found.length === 0) {
      found.push(await Segment.create(dirPath, 0));
      await fsyncDirectory(dirPath);
    } else {
      await found[found.length - 1].activate();
    }
    const active = found[found.length - 1];
    const endOffset = await recoverActiveSegment(active, `${topic}/${partition}`, options.log);
    return new PartitionLog(topic, partition, dirPath, found, endOffset, options);
  }

  /** The next offset to be written; every offset below it is durable. */
  get end(): number {
    return this.endOffset;
  }

  /** The oldest offset still stored. */
  get startOffset(): number {
    return this.segments[0].baseOffset;
  }

  /** Calls `wake` once, the next time records become visible (or the log fails or closes). Returns a canceller. */
  onNextAdvance(wake: () => void): () => void {
    this.waiters.add(wake);
    return () => this.waiters.delete(wake);
  }

  /** The segment holding `offset` (the oldest one if the offset is below the start). */
  segmentFor(offset: number): Segment {
    let low = 0;
    let high = this.segments.length - 1;
    let found = 0;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.segments[mid].baseOffset <= offset) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return this.segments[found];
  }

  /** The segment after `segment`, or undefined when it is the active one (or was removed). */
  segmentAfter(segment: Segment): Segment | undefined {
    const index = this.segments.indexOf(segment);
    if (index < 0) {
      // Removed by retention: continue at the oldest remaining segment past it.
      return this.segments.find((s) => s.baseOffset > segment.baseOffset);
    }
    return this.segments[index + 1];
  }

  /**
   * Writes `frames` in order, fsyncs, and only then makes them visible. Rolls to a new segment when the active
   * one would exceed the configured size; a finished segment is fsynced before its successor is created, so only
   * the active segment can ever have a torn tail. On failure the partial write is rolled back and rethrown.
   */
  async append(frames: UnsealedFrame[]): Promise<void> {
    if (this.failure) throw this.failure;
    if (frames.length === 0) return;
    const timestamp = Date.now();
    const original = this.active;
    const originalBytes = original.writtenBytes;
    const created: Segment[] = [];
    const staged: StagedFrame[] = [];
    let segment = original;
    let position = segment.writtenBytes;
    let offset = this.endOffset;
    let pending: Buffer[] = [];
    try {
      for (const unsealed of frames) {
        if (position > 0 && position + unsealed.frameBytes > this.options.segmentBytes) {
          if (pending.length > 0) await segment.append(pending);
          pending = [];
          await segment.sync();
          segment = await Segment.create(this.dirPath, offset);
          created.push(segment);
          this.segments.push(segment);
          await fsyncDirectory(this.dirPath);
          position = 0;
        }
        sealFrame(unsealed, offset, timestamp);
        staged.push({ segment, unsealed, offset, position });
        pending.push(unsealed.head, unsealed.value);
        position += unsealed.frameBytes;
        offset += 1;
      }
      if (pending.length > 0) await segment.append(pending);
      await segment.sync();
    } catch (error) {
      await this.rollBack(original, originalBytes, created, error);
      throw error;
    }
    for (const s of [original, ...created]) s.durableBytes = s.writtenBytes;
    // The log held each rolled-past segment as its active one; only the newest stays held.
    for (const s of [original, ...created].slice(0, -1)) await s.release();
    for (const item of staged) {
      item.segment.noteIndex(item.offset, item.position);
      this.tail.append(storedFromSealed(item.unsealed, item.offset, timestamp));
    }
    this.endOffset = offset;
    this.notify();
  }

  /**
   * Removes the oldest segments (never the active one) while `isExpired(segment, nextBaseOffset)` holds.
   * Returns how many were removed.
   */
  async removeOldSegments(isExpired: (segment: Segment, nextBaseOffset: number) => boolean): Promise<number> {
    let removed = 0;
    while (this.segments.length > 1 && isExpired(this.segments[0], this.segments[1].baseOffset)) {
      const segment = this.segments.shift() as Segment;
      await segment.remove();
      removed += 1;
    }
    if (removed > 0) await fsyncDirectory(this.dirPath);
    return removed;
  }

  /** Segments no longer written to (all but the active one), oldest first. */
  closedSegments(): Segment[] {
    return this.segments.slice(0, -1);
  }

  /** The segment appends go to. */
  activeSegment(): Segment {
    return this.active;
  }

  /**
   * Compaction: swaps a closed segment for its rewritten file (same name, already renamed into place), or drops
   * it when `replacement` is null. Readers positioned in the old segment move on past it.
   */
  async replaceClosedSegment(old: Segment, replacement: Segment | null): Promise<void> {
    const index = this.segments.indexOf(old);
    if (index < 0 || index === this.segments.length - 1) throw new Error(`${old.filePath} is not a closed segment of this log`);
    if (replacement) {
      this.segments[index] = replacement;
      await old.retire();
    } else {
      this.segments.splice(index, 1);
      await old.remove();
      await fsyncDirectory(this.dirPath);
    }
  }

  async close(): Promise<void> {
    this.failure ??= new Error(`partition ${this.topic}/${this.partition} is closed`);
    this.notify();
    await this.active.release();
  }

  private get active(): Segment {
    return this.segments[this.segments.length - 1];
  }

  private notify(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }

  private async rollBack(original: Segment, originalBytes: number, created: Segment[], cause: unknown): Promise<void> {
    try {
      for (const segment of created) {
        this.segments.splice(this.segments.indexOf(segment), 1);
        await segment.release();
        await segment.remove();
      }
      if (created.length > 0) await fsyncDirectory(this.dirPath);
      await original.truncate(originalBytes);
    } catch (rollbackError) {
      this.failure = new Error(
        `partition ${this.topic}/${this.partition} is unusable: a failed write (${describe(cause)}) could not be rolled back (${describe(rollbackError)})`,
      );
      this.options.log(this.failure.message);
      this.notify();
    }
  }
}

/**
 * Scans the active segment, keeps the longest prefix of valid frames with increasing offsets and truncates
 * anything after it (a write torn by a crash). Returns the next offset.
 */
async function recoverActiveSegment(segment: Segment, name: string, log: BusLogger): Promise<number> {
  let position = 0;
  let next = segment.baseOffset;
  let problem: string | undefined;
  const size = segment.writtenBytes;
  while (position < size && problem === undefined) {
    let chunk = await segment.read(position, Math.min(RECOVERY_CHUNK_BYTES, size - position));
    let at = 0;
    while (at < chunk.length) {
      const probe = probeFrame(chunk, at, chunk.length);
      if (probe.kind === 'incomplete') {
        if (position + at + probe.needed > size) {
          problem = `incomplete record (${size - position - at} of ${probe.needed} bytes)`;
        } else if (at === 0) {
          chunk = await segment.read(position, probe.needed);
          if (chunk.length < probe.needed) problem = 'short read';
          else continue;
        }
        break;
      }
      if (probe.kind === 'corrupt') {
        problem = probe.reason;
        break;
      }
      if (probe.offset < next) {
        problem = `offset ${probe.offset} does not follow ${next - 1}`;
        break;
      }
      segment.noteIndex(probe.offset, position + at);
      next = probe.offset + 1;
      at += probe.frameBytes;
    }
    position += at;
  }
  if (problem !== undefined) {
    log(`${name}: dropping ${size - position} bytes at the end of ${segment.filePath} after a crash or corruption: ${problem}`);
    await segment.truncate(position);
  }
  segment.durableBytes = position;
  return next;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
