import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyInstance } from 'fastify';
import type { HttpLimitsConfig } from '@vigil/config';
import { countClientError } from '../ops/http-metrics';
import { allowedMethods } from './route-table';

interface ClientErrorAnswer {
  reason: 'request_timeout' | 'header_overflow' | 'unknown_method' | 'malformed';
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** A request line: method, target, version (RFC 9112 §3); the method may be one Node's parser does not know. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) (\S+) HTTP\/\d\.\d\r?\n/;

/**
 * Fastify's `clientErrorHandler`: answers what fails before a request reaches the router, as JSON `{message}`:
 * the headers or the whole request taking longer than allowed (408), headers too large (431), a method Node's HTTP
 * parser does not know (405 with `Allow` on a known path, 404 elsewhere, as for any other method) and any other
 * malformed request (400). The connection is closed after the answer.
 */
export function createClientErrorHandler(limits: HttpLimitsConfig): (error: ConnectionError, socket: Socket) => void {
  // Fastify calls the handler bound to its instance (`this`), which the route lookup needs.
  return function onClientError(this: FastifyInstance, error: ConnectionError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = answerFor(this, error, limits);
    countClientError(answer.reason);
    // Node's own handler does the same check: a response already under way (an early 401 while the body is being
    // drained) must not get a second status line spliced into it.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) socket.write(serialize(answer));
    socket.destroy(error);
  } as (error: ConnectionError, socket: Socket) => void;
}

function answerFor(fastify: FastifyInstance, error: ConnectionError, limits: HttpLimitsConfig): ClientErrorAnswer {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        reason: 'request_timeout',
        status: 408,
        message: `Request timed out: the headers must arrive within ${limits.headersTimeoutMs} ms and the whole request within ${limits.requestTimeoutMs} ms`,
      };
    case 'HPE_HEADER_OVERFLOW':
      return { reason: 'header_overflow', status: 431, message: 'Request headers too large' };
    case 'HPE_INVALID_METHOD':
      // Node hands over the bytes it was parsing (Fastify's types describe them as their JSON form).
      return answerUnknownMethod(fastify, Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined);
    default:
      return { reason: 'malformed', status: 400, message: 'Malformed HTTP request' };
  }
}

function answerUnknownMethod(fastify: FastifyInstance, rawPacket: Buffer | undefined): ClientErrorAnswer {
  const line = REQUEST_LINE.exec(rawPacket?.subarray(0, 8192).toString('latin1') ?? '');
  if (line === null) return { reason: 'malformed', status: 400, message: 'Malformed HTTP request' };
  const [, method, target] = line;
  const path = target.split('?')[0];
  const allowed = allowedMethods(fastify, path);
  if (allowed.length === 0) return { reason: 'unknown_method', status: 404, message: `No such endpoint: ${method} ${path}` };
  return {
    reason: 'unknown_method',
    status: 405,
    message: `Method ${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
    headers: { Allow: allowed.join(', ') },
  };
}

function serialize(answer: ClientErrorAnswer): string {
  const body = JSON.stringify({ message: answer.message });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
    ...answer.headers,
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${lines.join('')}\r\n${body}`;
}
