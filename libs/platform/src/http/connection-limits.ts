import type { Server } from 'node:http';
import type { HttpLimitsConfig } from '@vigil/config';
import { countRefusedConnection } from '../ops/http-metrics';

/** Node's own timeouts, set where Node reads them: `http.createServer` (and `https.createServer`) options. */
export interface NodeServerTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  /** How often Node looks for requests past those two timeouts; they are only as precise as this. */
  connectionsCheckingInterval: number;
}

/** Fastify's server options for the limits: socket idle timeout, keep-alive timeout, requests per connection. */
export interface FastifyConnectionOptions {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  maxRequestsPerSocket: number;
}

export function nodeServerTimeouts(limits: HttpLimitsConfig): NodeServerTimeouts {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // Node's default (30 s) would let a 30 s headers timeout run to a minute; a tenth of the shortest timeout,
    // between 100 ms and 1 s, keeps them within 10 % at the cost of a cheap scan of the open connections.
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(shortest / 10))),
  };
}

export function fastifyConnectionOptions(limits: HttpLimitsConfig): FastifyConnectionOptions {
  return {
    // server.setTimeout: a socket with no traffic either way for this long is destroyed.
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Fastify passes 0 (no limit) to Node unless told otherwise; this covers the body too (Node ≥ 18).
    requestTimeout: limits.requestTimeoutMs,
    maxRequestsPerSocket: limits.maxRequestsPerConnection,
  };
}

/**
 * Caps the open connections: Node closes a connection over `maxConnections` as soon as it is accepted, before
 * reading anything from it, and the connections already open carry on. Each refusal is counted
 * (`vigil_http_connections_refused_total`).
 */
export function limitConnections(server: Server, limits: HttpLimitsConfig): void {
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => countRefusedConnection());
}
