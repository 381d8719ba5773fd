import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import compress from '@fastify/compress';
import type { Server } from 'node:http';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { VigilConfig } from '@vigil/config';
import { createDecompressionHook } from '@vigil/ingest';
import { ApiExceptionFilter } from './api-exception.filter';
import { registerHttpMetrics } from '../ops/http-metrics';
import { createPinoLogger, PinoNestLogger, wantsJsonLogs } from '../logging/vigil-logger';
import { registerRequestLogging, requestIdFor } from '../logging/request-logging';
import { createClientErrorHandler } from './client-errors';
import { fastifyConnectionOptions, limitConnections, nodeServerTimeouts } from './connection-limits';
import { VERIFIER_TOKENS, type CredentialVerifier } from './credential-verifier';
import { HttpDrain } from './http-drain';
import { registerRequestGate, type VerifierLookup } from './request-gate';
import type { Credential } from './route-credentials';
import { loadTlsMaterial, type TlsMaterial } from './tls';
import { registerUnreadBodyHandling } from './unread-body';

/**
 * Decoded (decompressed) body cap of POST /v1/events/*, per the spec. Bodies decoded in an ingest thread meet it
 * twice: on their encoded bytes here (a compressed body is never much larger than what it decodes to), and on the
 * decoded ones there.
 */
export const EVENTS_BODY_LIMIT = 10 * 1024 * 1024;
/** Routes whose handlers take the raw body as a Buffer (telemetry, and later the Sigma zip upload). */
const RAW_BODY_PREFIXES = ['/v1/events/', '/v1/detections'];

function wantsRawBody(request: FastifyRequest): boolean {
  return RAW_BODY_PREFIXES.some((prefix) => request.url.startsWith(prefix));
}

/**
 * Telemetry bodies stay compressed on the event loop and are decoded where they are parsed, in an ingest thread
 * (bodyCodingOf), which spares the thread answering HTTP up to 10 MB of decoded chunks and their concatenation per
 * body. A body with an Idempotency-Key is decoded here, because its key is bound to the decoded batch (a retry may
 * compress it anew).
 */
function decodedInIngestThread(request: FastifyRequest): boolean {
  return request.url.startsWith('/v1/events/') && request.headers['idempotency-key'] === undefined;
}

/**
 * The HTTP server shared by every Vigil app: Fastify with connection-level limits, a request gate that answers
 * unknown routes and checks credentials before any body is read, request decompression under a decoded-size cap,
 * raw bodies for telemetry, JSON elsewhere, compressed responses, JSON errors, metrics and optional HTTPS. `drain`
 * lets requests in flight finish at shutdown (see runVigilService).
 */
export async function createHttpApp(module: unknown, config: VigilConfig, drain = new HttpDrain()): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter(httpServerOptions(config, await loadTlsMaterial(config)) as never);
  // JSON lines (pino) off a terminal, with one line per request; Nest's readable lines on a terminal.
  const pinoLogger = wantsJsonLogs(config.logFormat) ? createPinoLogger(config) : undefined;
  const app = await NestFactory.create<NestFastifyApplication>(module as never, adapter, {
    bodyParser: false,
    logger: pinoLogger ? new PinoNestLogger(pinoLogger) : loggerLevels(config.logLevel),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  registerRequestLogging(fastify, pinoLogger);
  drain.attach(fastify, app.getHttpServer());
  prepareRequestHandling(fastify, app.getHttpServer(), config, providedVerifiers(app));
  // Responses only: request bodies are decoded by our own hook, which enforces the decoded-size cap.
  await app.register(compress as never, { global: true, globalDecompression: false, threshold: 1024, encodings: ['gzip', 'deflate'] } as never);
  registerHttpMetrics(fastify);
  app.useGlobalFilters(new ApiExceptionFilter());
  return app;
}

/** Fastify's server options: body cap, TLS, the connection-level limits and the answers to malformed requests. */
export function httpServerOptions(config: VigilConfig, https?: TlsMaterial): FastifyServerOptions & Record<string, unknown> {
  const timeouts = nodeServerTimeouts(config.http);
  return {
    bodyLimit: EVENTS_BODY_LIMIT,
    https: https ? { ...https, ...timeouts } : null,
    http: timeouts,
    ...fastifyConnectionOptions(config.http),
    clientErrorHandler: createClientErrorHandler(config.http),
    logger: false,
    requestIdHeader: false,
    genReqId: requestIdFor,
    return503OnClosing: true,
    forceCloseConnections: true,
  };
}

/**
 * What happens to a request between its headers and its handler, in this order: the request gate (404/405, then
 * the route's credential) before any body is read, the handling of bodies nobody will read (100-continue, bounded
 * draining), decompression under the decoded cap (telemetry: later, in an ingest thread), then the body parsers
 * (raw Buffer or JSON).
 */
export function prepareRequestHandling(fastify: FastifyInstance, server: Server, config: VigilConfig, verifierFor: VerifierLookup): void {
  limitConnections(server, config.http);
  registerRequestGate(fastify, verifierFor);
  registerUnreadBodyHandling(fastify, server);
  fastify.addHook('preParsing', createDecompressionHook({ leaveEncoded: decodedInIngestThread }));
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (wantsRawBody(request) || body.length === 0) return done(null, wantsRawBody(request) ? body : undefined);
    try {
      done(null, JSON.parse(body.toString('utf8')));
    } catch {
      done(Object.assign(new Error('The request body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
}

/** The verifier of each credential that a feature module of this process provides (looked up once). */
function providedVerifiers(app: NestFastifyApplication): VerifierLookup {
  const found = new Map<Credential, CredentialVerifier>();
  return (credential) => {
    let verifier = found.get(credential);
    if (verifier === undefined) {
      try {
        verifier = app.get<CredentialVerifier>(VERIFIER_TOKENS[credential], { strict: false });
        found.set(credential, verifier);
      } catch {
        return undefined;
      }
    }
    return verifier;
  };
}

function loggerLevels(level: VigilConfig['logLevel']): ('error' | 'warn' | 'log' | 'debug')[] {
  const order = ['error', 'warn', 'log', 'debug'] as const;
  return order.slice(0, order.indexOf(level) + 1);
}
