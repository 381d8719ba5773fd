export { createRedisClient, type CountersLogger } from './redis-client';
export { RedisRateLimiter } from './redis-rate-limiter';
export { RedisDistinctCounter, type RedisDistinctCounterOptions } from './redis-distinct-counter';
export { RedisIdempotencyStore } from './redis-idempotency-store';
