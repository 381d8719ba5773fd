import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '@vigil/config';
import type { RateLimitDecision, RateLimiter } from '../counters';
import { consumeWith } from '../rate-limit-decision';

/** Fixed-window per-key limiter held in this process (the embedded stand-in for the Redis limiter). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(config: RateLimitConfig) {
    this.limiter = new RateLimiterMemory({ points: config.points, duration: config.windowSeconds });
  }

  consume(key: string, cost = 1): Promise<RateLimitDecision> {
    return consumeWith(this.limiter, key, cost);
  }
}
