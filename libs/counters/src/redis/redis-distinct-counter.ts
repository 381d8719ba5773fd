import type Redis from 'ioredis';
import type { DistinctCounter } from '../counters';
import { defaultCountersLogger, type CountersLogger } from './redis-client';

const TWO_DAYS_SECONDS = 2 * 24 * 3600;
/** Members per PFADD, so one huge request does not build one huge Redis command. */
const CHUNK = 5000;

export interface RedisDistinctCounterOptions {
  keyPrefix?: string;
  /** TTL set on every scope key at each add. Default 2 days (scopes are per day). */
  ttlSeconds?: number;
  log?: CountersLogger;
}

/**
 * Distinct counting in Redis HyperLogLogs (PFADD/PFCOUNT, standard error 0.81 %), shared by every replica.
 *
 * While Redis is unreachable, add() rejects (the gateway keeps those members and sends them with a later body; its
 * request has already succeeded and does not fail for a statistic) and count() answers 0.
 */
export class RedisDistinctCounter implements DistinctCounter {
  private readonly keyPrefix: string;
  private readonly ttlSeconds: number;
  private readonly log: CountersLogger;

  constructor(
    private readonly redis: Redis,
    options: RedisDistinctCounterOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? 'vigil:distinct:';
    this.ttlSeconds = options.ttlSeconds ?? TWO_DAYS_SECONDS;
    this.log = options.log ?? defaultCountersLogger;
  }

  async add(scope: string, members: string[]): Promise<void> {
    if (members.length === 0) return;
    const key = this.keyPrefix + scope;
    const pipeline = this.redis.multi();
    for (let start = 0; start < members.length; start += CHUNK) pipeline.pfadd(key, ...members.slice(start, start + CHUNK));
    pipeline.expire(key, this.ttlSeconds);
    const notCounted = (cause: unknown) =>
      new Error(`distinct counter: ${members.length} member(s) of ${scope} not counted: ${describe(cause)}`);
    let results: Awaited<ReturnType<typeof pipeline.exec>>;
    try {
      results = await pipeline.exec();
    } catch (error) {
      throw notCounted(error);
    }
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw notCounted(failed?.[0] ?? 'transaction aborted');
  }

  async count(scope: string): Promise<number> {
    try {
      return await this.redis.pfcount(this.keyPrefix + scope);
    } catch (error) {
      this.log(`distinct counter: count of ${scope} unavailable, answering 0: ${describe(error)}`);
      return 0;
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
