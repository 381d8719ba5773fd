/**
 * On-disk framing of one record in a segment file:
 *
 *   u32 payloadLength | u32 crc32(payload) | payload
 *   payload = u8 format(1) | u8 flags | u32 offsetHigh | u32 offsetLow | f64 timestamp
 *             | u32 keyLength | key (utf8) | u32 headersLength | headers (JSON, flag bit 0) | value
 *
 * The CRC covers the whole payload, so a torn or zero-filled tail after a crash is detected on open.
 * A frame is built in two steps: `encodeFrame` at publish() time and `sealFrame` when the writer assigns the
 * offset and append time, just before the bytes hit the file. The value is not copied: a frame is its head
 * (everything before the value) and the caller's value buffer, written one after the other, and the value stays
 * what consumers in this process are handed. Publishers hand their value buffers over and never change them.
 */
import { crc32 } from 'zlib';
import type { BusRecord } from '../bus';

export const FRAME_PREFIX_BYTES = 8;
const FORMAT = 1;
const FLAG_HEADERS = 1;
const OFFSET_AT = FRAME_PREFIX_BYTES + 2;
const TIMESTAMP_AT = OFFSET_AT + 8;
const KEY_LENGTH_AT = TIMESTAMP_AT + 8;
/** Payload bytes of a record with an empty key, no headers and an empty value. */
const PAYLOAD_FIXED_BYTES = KEY_LENGTH_AT + 4 + 4 - FRAME_PREFIX_BYTES;
/** Hard ceiling on a frame, whatever the configured record limit: a larger length prefix is corruption. */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;
const TWO_POW_32 = 0x1_0000_0000;

/** A record as stored: what a consumer gets, minus the partition. */
export interface StoredRecord {
  offset: number;
  timestamp: number;
  key: string;
  headers?: Record<string, string>;
  value: Buffer;
  /** Bytes of the whole frame on disk. */
  frameBytes: number;
}

/** A frame encoded at publish() time, waiting for its offset and timestamp: on disk, `head` then `value`. */
export interface UnsealedFrame {
  head: Buffer;
  value: Buffer;
  /** Bytes of the whole frame (head and value). */
  frameBytes: number;
  key: string;
  headers?: Record<string, string>;
}

export function encodeFrame(record: BusRecord, maxRecordBytes: number): UnsealedFrame {
  const { key, value, headers } = checkRecord(record);
  const keyBytes = Buffer.byteLength(key, 'utf8');
  const headerJson = headers ? JSON.stringify(headers) : '';
  const headerBytes = Buffer.byteLength(headerJson, 'utf8');
  const payloadBytes = PAYLOAD_FIXED_BYTES + keyBytes + headerBytes + value.length;
  if (payloadBytes > maxRecordBytes || payloadBytes > MAX_FRAME_BYTES) {
    throw new RangeError(
      `bus record for key "${truncate(key)}" is ${payloadBytes} bytes; the limit is ${Math.min(maxRecordBytes, MAX_FRAME_BYTES)}`,
    );
  }
  const frameBytes = FRAME_PREFIX_BYTES + payloadBytes;
  const head = Buffer.allocUnsafe(frameBytes - value.length);
  head.writeUInt32BE(payloadBytes, 0);
  head.writeUInt8(FORMAT, FRAME_PREFIX_BYTES);
  head.writeUInt8(headers ? FLAG_HEADERS : 0, FRAME_PREFIX_BYTES + 1);
  let at = KEY_LENGTH_AT;
  head.writeUInt32BE(keyBytes, at);
  at += 4;
  at += head.write(key, at, 'utf8');
  head.writeUInt32BE(headerBytes, at);
  at += 4;
  head.write(headerJson, at, 'utf8');
  return { head, value, frameBytes, key, headers: headers ? { ...headers } : undefined };
}

/** Writes offset, timestamp and the CRC of the whole payload into an encoded frame's head (in place). */
export function sealFrame(frame: UnsealedFrame, offset: number, timestamp: number): void {
  const { head, value } = frame;
  head.writeUInt32BE(Math.floor(offset / TWO_POW_32), OFFSET_AT);
  head.writeUInt32BE(offset % TWO_POW_32, OFFSET_AT + 4);
  head.writeDoubleBE(timestamp, TIMESTAMP_AT);
  head.writeUInt32BE(crc32(value, crc32(head.subarray(FRAME_PREFIX_BYTES))) >>> 0, 4);
}

export type FrameProbe =
  /** A whole, CRC-valid frame starts at the position. */
  | { kind: 'frame'; offset: number; frameBytes: number }
  /** Fewer bytes are available than the frame needs (`needed` counts from the frame start). */
  | { kind: 'incomplete'; needed: number }
  | { kind: 'corrupt'; reason: string };

/** Checks the frame at `buf[pos..end)` without decoding key, headers or value. */
export function probeFrame(buf: Buffer, pos: number, end: number): FrameProbe {
  if (end - pos < FRAME_PREFIX_BYTES) return { kind: 'incomplete', needed: FRAME_PREFIX_BYTES };
  const payloadBytes = buf.readUInt32BE(pos);
  if (payloadBytes < PAYLOAD_FIXED_BYTES || payloadBytes > MAX_FRAME_BYTES) {
    return { kind: 'corrupt', reason: `implausible record length ${payloadBytes}` };
  }
  const frameBytes = FRAME_PREFIX_BYTES + payloadBytes;
  if (end - pos < frameBytes) return { kind: 'incomplete', needed: frameBytes };
  const payload = buf.subarray(pos + FRAME_PREFIX_BYTES, pos + frameBytes);
  if (crc32(payload) >>> 0 !== buf.readUInt32BE(pos + 4)) return { kind: 'corrupt', reason: 'CRC mismatch' };
  if (payload[0] !== FORMAT) return { kind: 'corrupt', reason: `unknown record format ${payload[0]}` };
  const offset = buf.readUInt32BE(pos + OFFSET_AT) * TWO_POW_32 + buf.readUInt32BE(pos + OFFSET_AT + 4);
  return { kind: 'frame', offset, frameBytes };
}

/** Decodes a frame that `probeFrame` accepted. Copies the value so it does not pin `buf`. */
export function decodeFrame(buf: Buffer, pos: number, frameBytes: number): StoredRecord {
  const flags = buf[pos + FRAME_PREFIX_BYTES + 1];
  const offset = buf.readUInt32BE(pos + OFFSET_AT) * TWO_POW_32 + buf.readUInt32BE(pos + OFFSET_AT + 4);
  const timestamp = buf.readDoubleBE(pos + TIMESTAMP_AT);
  const end = pos + frameBytes;
  let at = pos + KEY_LENGTH_AT;
  const keyBytes = buf.readUInt32BE(at);
  at += 4;
  if (at + keyBytes + 4 > end) throw new Error('record key overruns its frame');
  const key = buf.toString('utf8', at, at + keyBytes);
  at += keyBytes;
  const headerBytes = buf.readUInt32BE(at);
  at += 4;
  if (at + headerBytes > end) throw new Error('record headers overrun their frame');
  const headers = flags & FLAG_HEADERS ? parseHeaders(buf.toString('utf8', at, at + headerBytes)) : undefined;
  at += headerBytes;
  const value = Buffer.from(buf.subarray(at, end));
  return { offset, timestamp, key, headers, value, frameBytes };
}

/** The key of a frame that `probeFrame` accepted, without decoding the rest. */
export function frameKey(buf: Buffer, pos: number, frameBytes: number): string {
  const at = pos + KEY_LENGTH_AT;
  const keyBytes = buf.readUInt32BE(at);
  if (at + 4 + keyBytes > pos + frameBytes) throw new Error('record key overruns its frame');
  return buf.toString('utf8', at + 4, at + 4 + keyBytes);
}

/** The stored form of a frame this process has just sealed (its value is the publisher's buffer). */
export function storedFromSealed(unsealed: UnsealedFrame, offset: number, timestamp: number): StoredRecord {
  return { offset, timestamp, key: unsealed.key, headers: unsealed.headers, value: unsealed.value, frameBytes: unsealed.frameBytes };
}

function checkRecord(record: BusRecord): Required<Pick<BusRecord, 'key' | 'value'>> & Pick<BusRecord, 'headers'> {
  if (record === null || typeof record !== 'object') throw new TypeError('bus record must be an object');
  const { key, value, headers } = record;
  if (typeof key !== 'string') throw new TypeError('bus record key must be a string');
  if (!(value instanceof Uint8Array)) throw new TypeError(`bus record value for key "${truncate(key)}" must be a Buffer`);
  if (headers !== undefined) {
    if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
      throw new TypeError(`bus record headers for key "${truncate(key)}" must be an object of strings`);
    }
    for (const [name, v] of Object.entries(headers)) {
      if (typeof v !== 'string') {
        throw new TypeError(`bus record header "${truncate(name)}" for key "${truncate(key)}" must be a string`);
      }
    }
  }
  // A Uint8Array that is not a Buffer (one that came from a worker thread) is viewed as one, not copied.
  const bytes: Uint8Array = value;
  return { key, value: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), headers };
}

function parseHeaders(json: string): Record<string, string> {
  const parsed: unknown = JSON.parse(json);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('record headers are not an object');
  return parsed as Record<string, string>;
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
