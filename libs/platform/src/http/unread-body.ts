import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { drainBriefly } from '@vigil/ingest';

/**
 * What happens to a request body that the server will not read (a request refused by the request gate before its
 * body, or a 413 part-way through one):
 *
 * - `Expect: 100-continue`: Node would invite the body at once ("100 Continue"); here the invitation is sent only
 *   when the body is about to be read (`preParsing`), so a refused client never sends it, and the connection is
 *   closed after the answer.
 * - Otherwise the rest of the body is read and dropped, never decoded, within a bound of bytes and time
 *   (drainBriefly). Closing at once with unread input would make the kernel reset the connection under a client
 *   that is still sending, and many clients then lose the answer (EPIPE) — the 401 or 413 would never arrive.
 *
 * Register before the decompression hook: its `preParsing` stage reads the body.
 */
export function registerUnreadBodyHandling(fastify: FastifyInstance, server: Server): void {
  const awaitingContinue = new WeakSet<IncomingMessage>();
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    awaitingContinue.add(request);
    server.emit('request', request, response);
  });

  fastify.addHook('preParsing', async (request, reply, payload) => {
    if (awaitingContinue.delete(request.raw)) reply.raw.writeContinue();
    return payload;
  });

  fastify.addHook('onSend', async (request, reply) => {
    if (request.raw.complete) return;
    if (awaitingContinue.has(request.raw)) {
      void reply.header('Connection', 'close');
      return;
    }
    // Fastify asks to close after a body error; the drain below ends the connection itself if the client goes on.
    reply.removeHeader('connection');
    drainBriefly(request.raw);
  });
}
