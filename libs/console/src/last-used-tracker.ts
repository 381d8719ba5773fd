import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * When each API key was last accepted by this process (requests the gate let through). Kept in memory: it starts
 * empty after a restart, and in a split deployment it sees only the requests of the process serving the console.
 */
@Injectable()
export class LastUsedTracker implements OnModuleInit {
  private readonly seen = new Map<string, number>();

  constructor(private readonly adapter: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapter.httpAdapter?.getInstance<FastifyInstance>();
    fastify?.addHook('onResponse', async (request: FastifyRequest) => {
      const keyHash = (request.principal as { keyHash?: unknown } | null)?.keyHash;
      if (typeof keyHash === 'string') this.record(keyHash);
    });
  }

  record(keyHash: string, at = Date.now()): void {
    this.seen.set(keyHash, at);
  }

  lastUsed(keyHash: string): string | null {
    const at = this.seen.get(keyHash);
    return at === undefined ? null : new Date(at).toISOString();
  }
}
