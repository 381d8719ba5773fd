/**
 * Log compaction of a `compact` topic's partition, as Kafka does it: every record whose key appears again at a
 * later offset is dropped from the closed segments, which are rewritten in place keeping the survivors' offsets
 * (readers skip the gaps). A closed segment left empty is deleted. The active segment is never touched, so the
 * latest record of every key always survives and appends are never blocked.
 */
import { writeFileAtomic } from './fs-util';
import type { PartitionLog } from './partition-log';
import { frameKey, probeFrame } from './record-frame';
import { Segment } from './segment';

const CHUNK_BYTES = 4 * 1024 * 1024;

interface FrameAt {
  offset: number;
  key: string;
  position: number;
  frameBytes: number;
}

export interface CompactionResult {
  rewritten: number;
  removed: number;
  bytesFreed: number;
}

/** Calls `visit` for every valid frame of `segment` below `limit` bytes; stops at the first damaged one. */
async function scanSegment(segment: Segment, limit: number, visit: (frame: FrameAt, chunk: Buffer, at: number) => void): Promise<void> {
  let position = 0;
  while (position < limit) {
    let chunk = await segment.read(position, Math.min(CHUNK_BYTES, limit - position));
    let at = 0;
    while (at < chunk.length) {
      const probe = probeFrame(chunk, at, chunk.length);
      if (probe.kind === 'incomplete') {
        if (at > 0 || position + probe.needed > limit) break;
        chunk = await segment.read(position, probe.needed);
        if (chunk.length < probe.needed) return;
        continue;
      }
      if (probe.kind === 'corrupt') return;
      visit({ offset: probe.offset, key: frameKey(chunk, at, probe.frameBytes), position: position + at, frameBytes: probe.frameBytes }, chunk, at);
      at += probe.frameBytes;
    }
    if (at === 0) return;
    position += at;
  }
}

/** Compacts the closed segments of `log`. Safe to run while records are appended and read. */
export async function compactPartition(log: PartitionLog): Promise<CompactionResult> {
  const result: CompactionResult = { rewritten: 0, removed: 0, bytesFreed: 0 };
  const closed = log.closedSegments();
  if (closed.length === 0) return result;
  const active = log.activeSegment();
  const latest = new Map<string, number>();
  const note = (frame: FrameAt) => latest.set(frame.key, frame.offset);
  for (const segment of [...closed, active]) {
    segment.hold();
    try {
      await scanSegment(segment, segment.durableBytes, note);
    } finally {
      await segment.release();
    }
  }
  for (const segment of closed) {
    if (segment.isRemoved) continue;
    const kept: Buffer[] = [];
    let total = 0;
    let dropped = 0;
    segment.hold();
    try {
      await scanSegment(segment, segment.durableBytes, (frame, chunk, at) => {
        total += frame.frameBytes;
        if (latest.get(frame.key) === frame.offset) kept.push(Buffer.from(chunk.subarray(at, at + frame.frameBytes)));
        else dropped += frame.frameBytes;
      });
    } finally {
      await segment.release();
    }
    if (dropped === 0) continue;
    if (kept.length === 0) {
      await log.replaceClosedSegment(segment, null);
      result.removed += 1;
    } else {
      await segment.pinForReplacement();
      await writeFileAtomic(segment.filePath, Buffer.concat(kept));
      await log.replaceClosedSegment(segment, await Segment.existing(segment.filePath, segment.baseOffset));
      result.rewritten += 1;
    }
    result.bytesFreed += dropped;
  }
  return result;
}
