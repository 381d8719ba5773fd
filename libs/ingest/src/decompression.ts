import type { IncomingHttpHeaders } from 'node:http';
import type { Readable, Transform } from 'node:stream';
import { createGunzip, createInflate, createInflateRaw, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';

/** The request content codings Vigil decodes. `identity` means "not encoded". */
export type ContentCoding = 'identity' | 'gzip' | 'deflate';

/**
 * An error Fastify (and the API's exception filter) answers with its `statusCode`: 400 for a corrupt body, 413 for
 * one that decodes past the cap, 415 for an unsupported coding.
 */
export class BodyDecodingError extends Error {
  constructor(
    message: string,
    readonly statusCode: 400 | 413 | 415,
    readonly code: string,
  ) {
    super(message);
    this.name = 'BodyDecodingError';
  }
}

const CODING_ALIASES: Readonly<Record<string, ContentCoding>> = {
  identity: 'identity',
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
};

/**
 * Reads a `Content-Encoding` header (case-insensitive, `identity` entries ignored). Throws a 415
 * {@link BodyDecodingError} for an unknown coding or for more than one stacked coding.
 */
export function contentCodingOf(header: string | string[] | undefined): ContentCoding {
  if (header === undefined) return 'identity';
  const raw = Array.isArray(header) ? header.join(',') : header;
  const codings = raw
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity');
  if (codings.length === 0) return 'identity';
  if (codings.length > 1) {
    throw new BodyDecodingError(
      `Stacked Content-Encoding "${raw.trim()}" is not supported; use one of gzip, deflate or identity`,
      415,
      'UNSUPPORTED_CONTENT_ENCODING',
    );
  }
  const coding = CODING_ALIASES[codings[0]];
  if (coding === undefined) {
    throw new BodyDecodingError(
      `Unsupported Content-Encoding "${codings[0]}"; use gzip, deflate or identity`,
      415,
      'UNSUPPORTED_CONTENT_ENCODING',
    );
  }
  return coding;
}

/** True when the request announces a body (chunked, or a non-zero Content-Length). */
export function requestHasBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && Number(length) !== 0;
}

/** RFC 1950 zlib header: compression method 8 and a header checksum divisible by 31. */
export function hasZlibHeader(head: Buffer): boolean {
  if (head.length < 2) return false;
  const [b0, b1] = head;
  return (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
}

type DecoderStream = Transform & { bytesWritten: number };
export type DecodedPayload = RequestPayload & { receivedEncodedLength: number };
export type DecompressionHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: RequestPayload,
) => Promise<RequestPayload>;

export interface DecompressionHookOptions {
  /**
   * Requests whose body stays as sent: the handler decodes it with {@link decodeBody}, in a worker thread, instead
   * of the event loop taking it in as a stream of decoded chunks. The route's `bodyLimit` then applies to the
   * encoded bytes, and {@link decodeBody} applies the decoded cap. {@link bodyCodingOf} tells the handler the coding.
   */
  leaveEncoded?: (request: FastifyRequest) => boolean;
}

/** The coding of each body the hook left encoded. */
const codingsLeft = new WeakMap<FastifyRequest, ContentCoding>();

/** The coding a request's body still has: `identity` unless the hook left it encoded (`leaveEncoded`). */
export function bodyCodingOf(request: FastifyRequest): ContentCoding {
  return codingsLeft.get(request) ?? 'identity';
}

/**
 * Fastify `preParsing` hook that decodes gzip / deflate (zlib-wrapped or raw) request bodies.
 *
 * The returned stream exposes `receivedEncodedLength`, so Fastify applies the route's `bodyLimit` to the
 * DECODED bytes and answers 413 as soon as a decompression bomb crosses it (fastify PR #4969). Requests
 * without a body are passed through untouched whatever their Content-Encoding (clients send
 * `Content-Encoding: gzip` on GETs). An unsupported coding is a 415 before any of the body is read, also for
 * bodies left encoded.
 */
export function createDecompressionHook(options: DecompressionHookOptions = {}): DecompressionHook {
  return async function decompressBody(request, reply, payload) {
    if (!requestHasBody(request.headers)) return payload;
    const coding = contentCodingOf(request.headers['content-encoding']);
    if (coding === 'identity') return payload;
    if (options.leaveEncoded?.(request)) {
      codingsLeft.set(request, coding);
      return payload;
    }
    const decoder = coding === 'gzip' ? createGunzip() : await chooseInflater(payload);
    return pipeThroughDecoder(payload, decoder, coding, reply);
  };
}

/**
 * Decodes a whole body received with `coding`, giving up (413) as soon as the decoded bytes pass
 * `maxDecodedBytes`, so a bomb costs at most that much inflating. Synchronous, for a worker thread. The same
 * 400s as the streaming hook for corrupt or truncated data.
 */
export function decodeBody(body: Buffer, coding: ContentCoding, maxDecodedBytes: number): Buffer {
  if (coding === 'identity') {
    if (body.length > maxDecodedBytes) throw decodedTooLarge(maxDecodedBytes);
    return body;
  }
  if (coding === 'deflate' && body.length < 2) {
    throw new BodyDecodingError('Request body is not valid deflate data (truncated)', 400, 'INVALID_ENCODED_BODY');
  }
  const limit = { maxOutputLength: maxDecodedBytes };
  try {
    if (coding === 'gzip') return gunzipSync(body, limit);
    return hasZlibHeader(body) ? inflateSync(body, limit) : inflateRawSync(body, limit);
  } catch (error) {
    // Duck-typed, not instanceof: zlib's errors come from another realm under Jest's VM sandbox.
    const failure = error as Error & { code?: unknown };
    if (failure.code === 'ERR_BUFFER_TOO_LARGE') throw decodedTooLarge(maxDecodedBytes);
    if (isZlibError(failure)) throw toBadRequest(failure, coding);
    throw error;
  }
}

function decodedTooLarge(maxDecodedBytes: number): BodyDecodingError {
  return new BodyDecodingError(`Request body too large: more than ${maxDecodedBytes} bytes once decompressed`, 413, 'BODY_TOO_LARGE');
}

async function chooseInflater(payload: Readable): Promise<DecoderStream> {
  const head = await peekHead(payload, 2);
  if (head.length < 2) {
    throw new BodyDecodingError('Request body is not valid deflate data (truncated)', 400, 'INVALID_ENCODED_BODY');
  }
  return hasZlibHeader(head) ? createInflate() : createInflateRaw();
}

function pipeThroughDecoder(
  source: Readable,
  decoder: DecoderStream,
  coding: ContentCoding,
  reply: FastifyReply,
): DecodedPayload {
  reportZlibErrorsAsBadRequest(decoder, coding);
  // `pipe` does not forward source errors (e.g. the client aborting); without this the body never ends.
  source.on('error', (err) => decoder.destroy(err));
  // Once the reply is out (for instance Fastify's 413 part-way through a bomb) nobody reads the decoder any
  // more; stop it, or zlib would go on inflating the rest of the input for nothing.
  reply.raw.once('close', () => {
    if (!decoder.readableEnded) {
      source.unpipe(decoder);
      decoder.destroy();
      drainBriefly(source);
    }
  });
  Object.defineProperty(decoder, 'receivedEncodedLength', { get: () => decoder.bytesWritten });
  source.pipe(decoder);
  return decoder as unknown as DecodedPayload;
}

/** Raw bytes and time spent discarding the rest of a refused body (no decompression) before closing. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;
const DRAIN_LIMIT_MS = 2000;

/**
 * Reads and discards what the client is still sending after an early answer (a 413 part-way through a bomb),
 * within a bound. Closing with unread input makes the kernel reset the connection, and many clients then lose
 * the answer and report a broken pipe instead of the 413.
 */
export function drainBriefly(source: Readable): void {
  if (source.readableEnded || source.destroyed) return;
  let drained = 0;
  const stop = () => source.destroy();
  const timer = setTimeout(stop, DRAIN_LIMIT_MS);
  timer.unref();
  source.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) stop();
  });
  source.once('end', () => clearTimeout(timer));
  source.once('close', () => clearTimeout(timer));
  source.resume();
}

/**
 * zlib errors carry a `Z_*` code and a terse message. Swap them, where the stream reports its error, for a
 * 400 {@link BodyDecodingError} a client can act on. A fresh error (rather than patching zlib's) also keeps
 * `instanceof Error` true for Fastify when it runs in another realm (Jest's VM sandbox).
 */
function reportZlibErrorsAsBadRequest(decoder: DecoderStream, coding: ContentCoding): void {
  const destroyWith = decoder._destroy;
  decoder._destroy = function (err: Error | null, callback: (error?: Error | null) => void) {
    destroyWith.call(this, err && isZlibError(err) ? toBadRequest(err, coding) : err, callback);
  };
}

function isZlibError(err: Error & { code?: unknown }): boolean {
  return typeof err.code === 'string' && err.code.startsWith('Z_');
}

function toBadRequest(err: Error, coding: ContentCoding): BodyDecodingError {
  return new BodyDecodingError(`Request body is not valid ${coding} data (${err.message})`, 400, 'INVALID_ENCODED_BODY');
}

/** Reads at least `bytes` bytes (or until the end), then puts them back so the stream can be piped intact. */
function peekHead(stream: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const settle = (err: Error | null, ended: boolean) => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      if (err) return reject(err);
      const head = Buffer.concat(chunks, length);
      if (!ended) {
        stream.pause();
        stream.unshift(head);
      }
      resolve(head);
    };
    const onData = (chunk: Buffer | string) => {
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(buf);
      length += buf.length;
      if (length >= bytes) settle(null, false);
    };
    const onEnd = () => settle(null, true);
    const onError = (err: Error) => settle(err, false);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}
