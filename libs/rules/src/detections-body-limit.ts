import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** Raw (after Content-Encoding decoding) body cap of POST /v1/detections: a rule archive may hold up to 50 MB. */
export const DETECTIONS_BODY_LIMIT = 50 * 1024 * 1024;

interface RouteOptionsLike {
  url: string;
  method: string | string[];
  bodyLimit?: number;
}

interface FastifyLike {
  addHook(name: 'onRoute', hook: (route: RouteOptionsLike) => void): unknown;
}

/**
 * Gives the upload route its own body limit. Nest's route decorators cannot set Fastify's per-route
 * `bodyLimit`, so this sets it when the route is registered; providers are built before Nest registers
 * routes, which is what makes the hook see it. Without an HTTP server (application contexts) it does nothing.
 */
@Injectable()
export class DetectionsBodyLimit {
  constructor(adapterHost: HttpAdapterHost) {
    const fastify = adapterHost.httpAdapter?.getInstance?.() as FastifyLike | undefined;
    if (typeof fastify?.addHook !== 'function') return;
    fastify.addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (typeof route.url === 'string' && route.url.replace(/\/$/, '') === '/v1/detections' && methods.includes('POST')) route.bodyLimit = DETECTIONS_BODY_LIMIT;
    });
  }
}
