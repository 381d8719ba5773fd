/**
 * One segment file of a partition log: `<baseOffset zero-padded>.log`, a sequence of record frames.
 * The file handle is opened while someone holds the segment (the log for its active segment, readers while
 * positioned in it) and closed when the last holder lets go, so old segments do not pin file descriptors.
 */
import { promises as fs } from 'fs';
import type { FileHandle } from 'fs/promises';
import * as path from 'path';
import { writeAll } from './fs-util';

const NAME_DIGITS = 20;
const SEGMENT_NAME = /^(\d{20})\.log$/;
/** A sparse index entry every this many bytes, so a reader seeks without scanning the whole segment. */
const INDEX_INTERVAL_BYTES = 256 * 1024;

export interface IndexEntry {
  offset: number;
  position: number;
}

export function segmentFileName(baseOffset: number): string {
  return `${String(baseOffset).padStart(NAME_DIGITS, '0')}.log`;
}

/** Base offset encoded in a segment file name, or undefined for any other file. */
export function parseSegmentFileName(name: string): number | undefined {
  const match = SEGMENT_NAME.exec(name);
  return match ? Number(match[1]) : undefined;
}

export class Segment {
  /** Bytes written to the file (durable or not). */
  writtenBytes: number;
  /** Bytes known to be on stable storage; readers never look past it. */
  durableBytes: number;
  /** Epoch ms of the last append (file mtime for segments found on open). */
  lastAppendMs: number;
  private handle: FileHandle | null = null;
  private handleWritable = false;
  private opening: Promise<FileHandle> | null = null;
  private holders = 0;
  private removed = false;
  private readonly index: IndexEntry[] = [];

  private constructor(
    readonly filePath: string,
    readonly baseOffset: number,
    size: number,
    lastAppendMs: number,
  ) {
    this.writtenBytes = size;
    this.durableBytes = size;
    this.lastAppendMs = lastAppendMs;
  }

  /** Creates an empty segment file (replacing any leftover of the same name) and holds it. */
  static async create(dirPath: string, baseOffset: number): Promise<Segment> {
    const filePath = path.join(dirPath, segmentFileName(baseOffset));
    const handle = await fs.open(filePath, 'w+');
    const segment = new Segment(filePath, baseOffset, 0, Date.now());
    segment.handle = handle;
    segment.handleWritable = true;
    segment.holders = 1;
    return segment;
  }

  /** Describes an existing segment file without opening it. */
  static async existing(filePath: string, baseOffset: number): Promise<Segment> {
    const stat = await fs.stat(filePath);
    return new Segment(filePath, baseOffset, stat.size, stat.mtimeMs);
  }

  get isRemoved(): boolean {
    return this.removed;
  }

  hold(): void {
    this.holders += 1;
  }

  /** Holds the segment as the log's active one, with a handle that can write. */
  async activate(): Promise<void> {
    this.hold();
    if (this.handle && !this.handleWritable) await this.closeHandle();
    await this.openHandle(true);
  }

  async release(): Promise<void> {
    this.holders -= 1;
    if (this.holders <= 0) await this.closeHandle();
  }

  async read(position: number, length: number): Promise<Buffer> {
    const handle = await this.openHandle();
    const buffer = Buffer.allocUnsafe(length);
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === length ? buffer : buffer.subarray(0, filled);
  }

  /** Appends at the current written end. The caller serialises appends and syncs afterwards. */
  async append(buffers: Buffer[]): Promise<void> {
    const handle = await this.openHandle(true);
    const written = await writeAll(handle, buffers, this.writtenBytes);
    this.writtenBytes += written;
    this.lastAppendMs = Date.now();
  }

  async sync(): Promise<void> {
    const handle = await this.openHandle(true);
    await handle.datasync();
  }

  /** Cuts the file back to `size` bytes (torn tail on open, failed write) and makes that durable. */
  async truncate(size: number): Promise<void> {
    const handle = await this.openHandle(true);
    await handle.truncate(size);
    await handle.sync();
    this.writtenBytes = size;
    this.durableBytes = Math.min(this.durableBytes, size);
    this.dropIndexFrom(size);
  }

  /** Records where an offset starts, if the last entry is far enough back. */
  noteIndex(offset: number, position: number): void {
    const last = this.index[this.index.length - 1];
    if (last === undefined) {
      if (position >= INDEX_INTERVAL_BYTES) this.index.push({ offset, position });
      return;
    }
    if (offset > last.offset && position - last.position >= INDEX_INTERVAL_BYTES) this.index.push({ offset, position });
  }

  /** The nearest known frame start at or before `offset`. */
  seekHint(offset: number): IndexEntry {
    let low = 0;
    let high = this.index.length - 1;
    let found: IndexEntry = { offset: this.baseOffset, position: 0 };
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.index[mid].offset <= offset) {
        found = this.index[mid];
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  /**
   * Opens the handle before a rewritten file is renamed over this one (compaction), so whoever holds this
   * segment until it is retired keeps reading the old content at the positions it knows.
   */
  async pinForReplacement(): Promise<void> {
    await this.openHandle();
  }

  /** Forgets a segment whose file now belongs to its replacement: marks it removed, without unlinking. */
  async retire(): Promise<void> {
    this.removed = true;
    if (this.holders <= 0) await this.closeHandle();
  }

  /** Unlinks the file; the handle stays usable for current holders and closes with the last one. */
  async remove(): Promise<void> {
    this.removed = true;
    await fs.rm(this.filePath, { force: true });
    if (this.holders <= 0) await this.closeHandle();
  }

  private dropIndexFrom(position: number): void {
    while (this.index.length > 0 && this.index[this.index.length - 1].position >= position) this.index.pop();
  }

  private async openHandle(forWriting = false): Promise<FileHandle> {
    if (this.handle) {
      if (forWriting && !this.handleWritable) throw new Error(`${this.filePath} is not open for writing`);
      return this.handle;
    }
    if (!this.opening) {
      this.handleWritable = forWriting;
      this.opening = fs.open(this.filePath, forWriting ? 'r+' : 'r');
    }
    try {
      this.handle = await this.opening;
    } finally {
      this.opening = null;
    }
    return this.handle;
  }

  private async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    if (handle) await handle.close();
  }
}
