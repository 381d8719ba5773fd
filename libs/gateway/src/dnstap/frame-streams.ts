/**
 * Frame Streams (fstrm), the transport of dnstap: data frames are a 32-bit big-endian length and that many bytes;
 * a length of 0 escapes a control frame (32-bit length, 32-bit control type, then fields of 32-bit type, 32-bit
 * length and bytes). See https://farsightsec.github.io/fstrm/ (protocol description in fstrm's `control.h`).
 */

export const CONTROL = { ACCEPT: 0x01, START: 0x02, STOP: 0x03, READY: 0x04, FINISH: 0x05 } as const;
export type ControlType = (typeof CONTROL)[keyof typeof CONTROL];
const CONTROL_NAMES: Readonly<Record<number, string>> = { 1: 'ACCEPT', 2: 'START', 3: 'STOP', 4: 'READY', 5: 'FINISH' };

const FIELD_CONTENT_TYPE = 0x01;
/** fstrm's own limits: a control frame is at most 512 bytes, a content type at most 256. */
export const MAX_CONTROL_FRAME_BYTES = 512;
export const MAX_CONTENT_TYPE_BYTES = 256;

export type Frame =
  | { kind: 'control'; type: ControlType; contentTypes: string[] }
  | { kind: 'data'; payload: Buffer }
  /** A data frame over the size limit: its bytes were read and dropped, the stream goes on. */
  | { kind: 'oversized'; length: number };

/** The byte stream is not Frame Streams: the connection cannot be resynchronised and is closed. */
export class FrameStreamError extends Error {
  override readonly name = 'FrameStreamError';

  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

export function controlName(type: number): string {
  return CONTROL_NAMES[type] ?? `0x${type.toString(16)}`;
}

export function encodeControlFrame(type: ControlType, contentTypes: readonly string[] = []): Buffer {
  const fields = contentTypes.map((contentType) => {
    const value = Buffer.from(contentType, 'utf8');
    const field = Buffer.alloc(8 + value.length);
    field.writeUInt32BE(FIELD_CONTENT_TYPE, 0);
    field.writeUInt32BE(value.length, 4);
    value.copy(field, 8);
    return field;
  });
  const body = Buffer.concat([u32(type), ...fields]);
  return Buffer.concat([u32(0), u32(body.length), body]);
}

export function encodeDataFrame(payload: Buffer | Uint8Array): Buffer {
  if (payload.length === 0) throw new RangeError('a Frame Streams data frame cannot be empty (length 0 escapes a control frame)');
  return Buffer.concat([u32(payload.length), payload]);
}

/**
 * Incremental decoder: bytes in as they arrive (any split), whole frames out. Holds at most one frame of up to
 * `maxDataFrameBytes` (plus its header); a longer data frame is skipped without being buffered.
 */
export class FrameStreamDecoder {
  private buffered: Buffer = Buffer.alloc(0);
  private skipping = 0;

  constructor(private readonly maxDataFrameBytes: number) {}

  /** Bytes of a partial frame held. */
  get pendingBytes(): number {
    return this.buffered.length;
  }

  /** @throws FrameStreamError on bytes that cannot be Frame Streams. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let input = chunk;
    if (this.skipping > 0) {
      const dropped = Math.min(this.skipping, input.length);
      this.skipping -= dropped;
      input = input.subarray(dropped);
    }
    let data = this.buffered.length === 0 ? input : Buffer.concat([this.buffered, input]);
    let at = 0;
    for (;;) {
      if (data.length - at < 4) break;
      const length = data.readUInt32BE(at);
      if (length > 0) {
        if (length > this.maxDataFrameBytes) {
          frames.push({ kind: 'oversized', length });
          const available = data.length - at - 4;
          if (available >= length) {
            at += 4 + length;
            continue;
          }
          this.skipping = length - available;
          at = data.length;
          break;
        }
        if (data.length - at - 4 < length) break;
        frames.push({ kind: 'data', payload: Buffer.from(data.subarray(at + 4, at + 4 + length)) });
        at += 4 + length;
        continue;
      }
      if (data.length - at < 8) break;
      const controlLength = data.readUInt32BE(at + 4);
      if (controlLength < 4 || controlLength > MAX_CONTROL_FRAME_BYTES) {
        throw new FrameStreamError('bad_control_frame', `control frame length ${controlLength} (must be 4-${MAX_CONTROL_FRAME_BYTES})`);
      }
      if (data.length - at - 8 < controlLength) break;
      frames.push(parseControl(data.subarray(at + 8, at + 8 + controlLength)));
      at += 8 + controlLength;
    }
    data = data.subarray(at);
    // Copy the remainder so the caller's chunk is not kept alive by a small slice of it.
    this.buffered = data.length === 0 ? Buffer.alloc(0) : Buffer.from(data);
    return frames;
  }
}

function parseControl(frame: Buffer): Frame {
  const type = frame.readUInt32BE(0);
  if (CONTROL_NAMES[type] === undefined) throw new FrameStreamError('bad_control_frame', `unknown control frame type ${controlName(type)}`);
  const contentTypes: string[] = [];
  let at = 4;
  while (at < frame.length) {
    if (frame.length - at < 8) throw new FrameStreamError('bad_control_frame', `truncated field in ${controlName(type)}`);
    const field = frame.readUInt32BE(at);
    const length = frame.readUInt32BE(at + 4);
    if (field !== FIELD_CONTENT_TYPE) throw new FrameStreamError('bad_control_frame', `unknown field type ${field} in ${controlName(type)}`);
    if (length > MAX_CONTENT_TYPE_BYTES || length > frame.length - at - 8) {
      throw new FrameStreamError('bad_control_frame', `content type of ${length} bytes in ${controlName(type)}`);
    }
    contentTypes.push(frame.toString('utf8', at + 8, at + 8 + length));
    at += 8 + length;
  }
  if ((type === CONTROL.STOP || type === CONTROL.FINISH) && contentTypes.length > 0) {
    throw new FrameStreamError('bad_control_frame', `${controlName(type)} carries fields`);
  }
  if (type === CONTROL.START && contentTypes.length > 1) throw new FrameStreamError('bad_control_frame', 'START names more than one content type');
  return { kind: 'control', type: type as ControlType, contentTypes };
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value, 0);
  return buffer;
}
