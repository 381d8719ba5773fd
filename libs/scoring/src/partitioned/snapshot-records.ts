/**
 * The records of `scoring.state.v1`: one events partition's engine snapshot, gzip'd JSON, split into chunks
 * small enough for any broker. Keys are `<partition>/<slot>/<chunk>`: compaction keeps the latest chunk of each
 * key, and a writer alternates between two slots so a snapshot published half-way never replaces the previous
 * complete one. Headers carry the snapshot id (chunks of one snapshot share it), the chunk count and the next
 * events offset the snapshot stands for.
 */
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { BusRecord, ConsumedRecord } from '@vigil/bus';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

export const SNAPSHOT_RECORD_VERSION = '1';
export type Slot = 0 | 1;

/** A complete snapshot as stored: compressed, with where it belongs and the events offset it resumes at. */
export interface StoredSnapshot {
  partition: number;
  /** Next events offset: every record below it is reflected in the snapshot (and its outputs published). */
  offset: number;
  slot: Slot;
  id: string;
  /** gzip'd JSON of the engine snapshot. */
  data: Buffer;
}

/** A state record that is not a snapshot chunk of a version this code reads. */
export class SnapshotRecordError extends Error {
  override readonly name = 'SnapshotRecordError';
}

/**
 * gzip level 1: on a 13.6 MB engine snapshot it takes about 115 ms against 390 at level 6, for a 3.4 MB result
 * against 2.8. The checkpoint interval stretches with a checkpoint's cost, so a cheaper one is a more frequent one
 * (less to replay after a restart); any level reads back the same.
 */
const SNAPSHOT_GZIP_LEVEL = 1;

export async function compressSnapshot(engineSnapshot: unknown): Promise<Buffer> {
  return gzipAsync(Buffer.from(JSON.stringify(engineSnapshot), 'utf8'), { level: SNAPSHOT_GZIP_LEVEL });
}

export async function decompressSnapshot(data: Buffer): Promise<unknown> {
  return JSON.parse((await gunzipAsync(data)).toString('utf8')) as unknown;
}

/** The chunk records of one snapshot, in order. */
export function snapshotRecords(snapshot: StoredSnapshot, chunkBytes: number): BusRecord[] {
  if (!(Number.isInteger(chunkBytes) && chunkBytes > 0)) throw new RangeError(`chunkBytes must be a positive integer, got ${chunkBytes}`);
  const chunks = Math.max(1, Math.ceil(snapshot.data.length / chunkBytes));
  const records: BusRecord[] = [];
  for (let index = 0; index < chunks; index++) {
    records.push({
      key: `${snapshot.partition}/${snapshot.slot}/${index}`,
      value: snapshot.data.subarray(index * chunkBytes, (index + 1) * chunkBytes),
      headers: {
        v: SNAPSHOT_RECORD_VERSION,
        partition: String(snapshot.partition),
        slot: String(snapshot.slot),
        offset: String(snapshot.offset),
        id: snapshot.id,
        chunk: String(index),
        chunks: String(chunks),
      },
    });
  }
  return records;
}

interface ChunkHeader {
  partition: number;
  slot: Slot;
  offset: number;
  id: string;
  chunk: number;
  chunks: number;
}

function whole(value: string | undefined, name: string, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined || !/^\d{1,16}$/.test(value) || Number(value) > max) throw new SnapshotRecordError(`header ${name} is ${JSON.stringify(value)}`);
  return Number(value);
}

function readHeader(record: ConsumedRecord): ChunkHeader {
  const h = record.headers ?? {};
  if (h.v !== SNAPSHOT_RECORD_VERSION) throw new SnapshotRecordError(`unknown snapshot record version ${JSON.stringify(h.v)}`);
  const slot = whole(h.slot, 'slot', 1) as Slot;
  const chunks = whole(h.chunks, 'chunks', 100_000);
  const chunk = whole(h.chunk, 'chunk', chunks - 1);
  if (typeof h.id !== 'string' || h.id.length === 0) throw new SnapshotRecordError('header id is missing');
  return { partition: whole(h.partition, 'partition'), slot, offset: whole(h.offset, 'offset'), id: h.id, chunk, chunks };
}

interface Pending {
  header: ChunkHeader;
  parts: Buffer[];
}

/**
 * Puts chunks back together in the order the state topic delivers them. A chunk of another snapshot id for the
 * same slot starts over (a newer snapshot, or a leftover chunk of an older, larger one kept by compaction).
 */
export class SnapshotAssembler {
  private readonly pending = new Map<string, Pending>();

  /** Returns the snapshot this chunk completes, if any. @throws SnapshotRecordError for a malformed record. */
  offer(record: ConsumedRecord): StoredSnapshot | undefined {
    const header = readHeader(record);
    const slotKey = `${header.partition}/${header.slot}`;
    let pending = this.pending.get(slotKey);
    if (pending === undefined || pending.header.id !== header.id || header.chunk === 0) {
      if (header.chunk !== 0) {
        this.pending.delete(slotKey);
        return undefined;
      }
      pending = { header, parts: [] };
      this.pending.set(slotKey, pending);
    }
    if (header.chunk !== pending.parts.length) {
      this.pending.delete(slotKey);
      return undefined;
    }
    pending.parts.push(record.value);
    if (pending.parts.length < header.chunks) return undefined;
    this.pending.delete(slotKey);
    const { partition, slot, offset, id } = header;
    return { partition, slot, offset, id, data: pending.parts.length === 1 ? pending.parts[0] : Buffer.concat(pending.parts) };
  }
}
