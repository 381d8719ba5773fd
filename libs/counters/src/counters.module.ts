import { DynamicModule, Global, Module } from '@nestjs/common';
import type { VigilConfig } from '@vigil/config';
import { DISTINCT_COUNTER, RATE_LIMITER } from './counters';
import { MemoryDistinctCounter } from './memory/memory-distinct-counter';
import { MemoryRateLimiter } from './memory/memory-rate-limiter';

/** Provides RATE_LIMITER and DISTINCT_COUNTER for the configured backend. */
@Global()
@Module({})
export class CountersModule {
  static forRoot(config: VigilConfig): DynamicModule {
    if (config.counters.kind !== 'memory') {
      throw new Error('REDIS_URL is set, but the Redis counters arrive with the distributed mode; unset REDIS_URL');
    }
    return {
      module: CountersModule,
      providers: [
        { provide: RATE_LIMITER, useValue: new MemoryRateLimiter(config.rateLimit) },
        { provide: DISTINCT_COUNTER, useValue: new MemoryDistinctCounter() },
      ],
      exports: [RATE_LIMITER, DISTINCT_COUNTER],
    };
  }
}
