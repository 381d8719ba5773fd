import type { FastifyInstance } from 'fastify';

/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * Methods this server has a route for at a concrete path (empty when the path is unknown), asked of Fastify's own
 * router, so the answer is always what the server really serves (also the operator API, which the OpenAPI
 * document leaves out, and only the services running in this process).
 */
export function allowedMethods(fastify: FastifyInstance, path: string): string[] {
  return fastify.supportedMethods.filter((method) => fastify.findRoute({ method: method as never, url: path }) !== null);
}
