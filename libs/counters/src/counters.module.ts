import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import type { VigilConfig } from '@vigil/config';
import { DISTINCT_COUNTER, RATE_LIMITER } from './counters';
import { IDEMPOTENCY_STORE } from './idempotency-store';
import { MemoryIdempotencyStore } from './memory/memory-idempotency-store';
import { MemoryDistinctCounter } from './memory/memory-distinct-counter';
import { MemoryRateLimiter } from './memory/memory-rate-limiter';
import { createRedisClient, defaultCountersLogger } from './redis/redis-client';
import { RedisDistinctCounter } from './redis/redis-distinct-counter';
import { RedisIdempotencyStore } from './redis/redis-idempotency-store';
import { RedisRateLimiter } from './redis/redis-rate-limiter';

/** The process's Redis connection in distributed mode (absent in embedded mode). */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/**
 * Provides RATE_LIMITER, DISTINCT_COUNTER and IDEMPOTENCY_STORE for the configured backend: in-process (embedded) or Redis
 * (REDIS_URL; shared by all replicas, with per-process fallbacks while Redis is unreachable).
 */
@Global()
@Module({})
export class CountersModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS_CLIENT) private readonly redis?: Redis) {}

  static forRoot(config: VigilConfig): DynamicModule {
    if (config.counters.kind === 'redis') {
      const redis = createRedisClient(config.counters.url, defaultCountersLogger);
      return {
        module: CountersModule,
        providers: [
          { provide: REDIS_CLIENT, useValue: redis },
          { provide: RATE_LIMITER, useValue: new RedisRateLimiter(redis, config.rateLimit) },
          { provide: DISTINCT_COUNTER, useValue: new RedisDistinctCounter(redis) },
          { provide: IDEMPOTENCY_STORE, useValue: new RedisIdempotencyStore(redis) },
        ],
        exports: [RATE_LIMITER, DISTINCT_COUNTER, IDEMPOTENCY_STORE],
      };
    }
    return {
      module: CountersModule,
      providers: [
        { provide: RATE_LIMITER, useValue: new MemoryRateLimiter(config.rateLimit) },
        { provide: DISTINCT_COUNTER, useValue: new MemoryDistinctCounter() },
        { provide: IDEMPOTENCY_STORE, useValue: new MemoryIdempotencyStore() },
      ],
      exports: [RATE_LIMITER, DISTINCT_COUNTER, IDEMPOTENCY_STORE],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    const redis = this.redis;
    if (!redis || redis.status === 'end') return;
    const ended = new Promise<void>((resolve) => {
      redis.once('end', resolve);
      setTimeout(resolve, 2000).unref();
    });
    // QUIT lets replies still in flight arrive; without a ready connection there is nothing to wait for.
    if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
    else redis.disconnect();
    await ended;
  }
}
