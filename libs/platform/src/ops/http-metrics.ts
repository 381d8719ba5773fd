import type { FastifyInstance } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './metrics';

const requests = new Counter({
  name: 'vigil_http_requests_total',
  help: 'HTTP requests by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});
const durations = new Histogram({
  name: 'vigil_http_request_duration_seconds',
  help: 'HTTP request duration by route',
  labelNames: ['method', 'route'] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

export function registerHttpMetrics(fastify: FastifyInstance): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    durations.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });
}

const clientErrors = new Counter({
  name: 'vigil_http_client_errors_total',
  help: 'Requests refused before they reached the router, by reason (request_timeout, header_overflow, unknown_method, malformed)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
const refusedConnections = new Counter({
  name: 'vigil_http_connections_refused_total',
  help: 'Connections closed on arrival because VIGIL_MAX_CONNECTIONS were open',
  registers: [metricsRegistry],
});

export function countClientError(reason: string): void {
  clientErrors.inc({ reason });
}

export function countRefusedConnection(): void {
  refusedConnections.inc();
}
