import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '@vigil/config';
import type { RateLimitDecision, RateLimiter } from '../counters';
import { consumeWith } from '../rate-limit-decision';

/**
 * Fixed-window per-key limiter whose counts live in Redis, so every gateway replica draws on the same budget.
 *
 * When Redis is unreachable (not connected, or a command fails or times out) each request is counted by an
 * in-process RateLimiterMemory with the same limit instead: the service keeps answering, but the limit then
 * holds per replica, so N replicas together allow up to N times the limit until Redis is back.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: Redis, config: RateLimitConfig, keyPrefix = 'vigil:rate') {
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points: config.points,
      duration: config.windowSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points: config.points, duration: config.windowSeconds }),
    });
  }

  consume(key: string, cost = 1): Promise<RateLimitDecision> {
    return consumeWith(this.limiter, key, cost);
  }

}
