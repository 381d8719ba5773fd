import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export const REQUEST_ID_HEADER = 'x-request-id';
/** An incoming id is kept when it is short and plain (no spaces, quotes or control characters to forge log lines). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:@+=\/-]{1,128}$/;

/** Fastify's `genReqId`: the caller's X-Request-Id when it is sane, else a random UUID. */
export function requestIdFor(request: Pick<IncomingMessage, 'headers'>): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/**
 * Every answer carries its request's id in X-Request-Id (set first, so refusals by the request gate have it too);
 * with a logger, each finished request is one line: id, method, url, status, duration, the request headers (with
 * credentials redacted by the logger) and the client address.
 */
export function registerRequestLogging(fastify: FastifyInstance, logger?: Logger): void {
  fastify.addHook('onRequest', async (request, reply) => {
    void reply.header('X-Request-Id', request.id);
  });
  if (!logger) return;
  fastify.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : 'info';
    logger[level](
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        route: request.routeOptions?.url ?? null,
        status,
        durationMs: Math.round(reply.elapsedTime * 1000) / 1000,
        remoteAddress: request.ip,
        req: { headers: request.headers },
      },
      'request completed',
    );
  });
}
