import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/**
 * `/console/` (as people type it, and as some proxies rewrite it) goes to the console page at `/console`. Nest
 * drops trailing slashes from its routes, so this one is registered on Fastify itself, before the server is ready.
 */
@Injectable()
export class ConsoleTrailingSlashRedirect implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.get('/console/', (_request, reply) => reply.redirect('/console', 301));
  }
}
