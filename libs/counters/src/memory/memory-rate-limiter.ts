import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '@vigil/config';
import type { RateLimitDecision, RateLimiter } from '../counters';

/** Fixed-window per-key limiter held in this process (the embedded stand-in for the Redis limiter). */
export class MemoryRateLimiter implements RateLimiter {
  private readonly limiter: RateLimiterMemory;

  constructor(config: RateLimitConfig) {
    this.limiter = new RateLimiterMemory({ points: config.points, duration: config.windowSeconds });
  }

  async consume(key: string, cost = 1): Promise<RateLimitDecision> {
    try {
      const res = await this.limiter.consume(key, cost);
      return { allowed: true, retryAfterSeconds: 0, remaining: res.remainingPoints };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), remaining: 0 };
      }
      throw rejection;
    }
  }
}
