/**
 * Counter ports. Embedded mode: in-process implementations (the stand-in for Redis, one per process).
 * Distributed mode: Redis (shared by all replicas).
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** When not allowed: seconds until a request would be allowed again (at least 1). */
  retryAfterSeconds: number;
  remaining: number;
}

export interface RateLimiter {
  /** Counts one request (or `cost` units) for `key` and says whether it is within the limit. */
  consume(key: string, cost?: number): Promise<RateLimitDecision>;
}

export interface DistinctCounter {
  /** Adds members to the set `scope` (e.g. `endpoints:<workspace>:<yyyy-mm-dd>`); rejects when they were not counted. */
  add(scope: string, members: string[]): Promise<void>;
  /** Approximate (HyperLogLog in Redis) or exact (in memory) number of distinct members of `scope`. */
  count(scope: string): Promise<number>;
}

export const RATE_LIMITER = Symbol('RATE_LIMITER');
export const DISTINCT_COUNTER = Symbol('DISTINCT_COUNTER');

/** The distinct-counter scope of endpoints a workspace sent telemetry from on one UTC day (gateway adds, account reads). */
export function endpointsSeenScope(workspaceId: string, day: Date): string {
  return `endpoints:${workspaceId}:${day.toISOString().slice(0, 10)}`;
}
