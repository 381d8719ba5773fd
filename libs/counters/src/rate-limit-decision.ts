import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitDecision } from './counters';

/** Runs rate-limiter-flexible's consume() and turns its resolve/reject protocol into a RateLimitDecision. */
export async function consumeWith(limiter: RateLimiterAbstract, key: string, cost: number): Promise<RateLimitDecision> {
  try {
    const res = await limiter.consume(key, cost);
    return { allowed: true, retryAfterSeconds: 0, remaining: res.remainingPoints };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)), remaining: 0 };
    }
    throw rejection;
  }
}
