import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import compress from '@fastify/compress';
import type { FastifyRequest } from 'fastify';
import type { VigilConfig } from '@vigil/config';
import { createDecompressionHook, drainBriefly } from '@vigil/ingest';
import { ApiExceptionFilter } from './api-exception.filter';
import { registerHttpMetrics } from '../ops/http-metrics';
import { loadTlsMaterial } from './tls';

/** Decoded (decompressed) body cap of POST /v1/events/*, per the spec. */
export const EVENTS_BODY_LIMIT = 10 * 1024 * 1024;
/** Routes whose handlers take the raw body as a Buffer (telemetry, and later the Sigma zip upload). */
const RAW_BODY_PREFIXES = ['/v1/events/', '/v1/detections'];

function wantsRawBody(request: FastifyRequest): boolean {
  return RAW_BODY_PREFIXES.some((prefix) => request.url.startsWith(prefix));
}

/**
 * The HTTP server shared by every Vigil app: Fastify with request decompression under a decoded-size cap,
 * raw bodies for telemetry, JSON elsewhere, compressed responses, JSON errors, metrics and optional HTTPS.
 */
export async function createHttpApp(module: unknown, config: VigilConfig): Promise<NestFastifyApplication> {
  const https = await loadTlsMaterial(config);
  const adapter = new FastifyAdapter({
    bodyLimit: EVENTS_BODY_LIMIT,
    https: https ?? null,
    logger: false,
    return503OnClosing: true,
    forceCloseConnections: true,
  } as never);
  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    bodyParser: false,
    logger: loggerLevels(config.logLevel),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('preParsing', createDecompressionHook());
  // A 413 goes out before the body has been read. Closing at once would reset the connection under a client
  // that is still sending, and many clients then lose the answer (EPIPE); so the rest is read and dropped,
  // within a bound of bytes and time (drainBriefly), and the connection closes after that instead.
  fastify.addHook('onSend', async (request, reply) => {
    if (reply.statusCode === 413 && !request.raw.complete) {
      reply.removeHeader('connection');
      drainBriefly(request.raw);
    }
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (wantsRawBody(request) || body.length === 0) return done(null, wantsRawBody(request) ? body : undefined);
    try {
      done(null, JSON.parse(body.toString('utf8')));
    } catch {
      done(Object.assign(new Error('The request body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
  // Responses only: request bodies are decoded by our own hook, which enforces the decoded-size cap.
  await app.register(compress as never, { global: true, globalDecompression: false, threshold: 1024, encodings: ['gzip', 'deflate'] } as never);
  registerHttpMetrics(fastify);
  app.useGlobalFilters(new ApiExceptionFilter());
  app.enableShutdownHooks();
  return app;
}

function loggerLevels(level: VigilConfig['logLevel']): ('error' | 'warn' | 'log' | 'debug')[] {
  const order = ['error', 'warn', 'log', 'debug'] as const;
  return order.slice(0, order.indexOf(level) + 1);
}
