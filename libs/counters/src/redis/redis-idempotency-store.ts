import type Redis from 'ioredis';
import { IdempotencyStoreUnavailableError, type IdempotencyClaim, type IdempotencyStore } from '../idempotency-store';

interface StoredEntry {
  f: string;
  r?: string;
}

/** Deletes the key only while it still holds this exact unfinished claim. */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * Idempotency keys in Redis, shared by every gateway replica: a claim is `SET NX EX` (exactly one request wins a
 * key), the answer replaces it with the retention TTL. Unlike the rate limiter there is no per-process fallback:
 * while Redis is unreachable, requests that carry a key get IdempotencyStoreUnavailableError (the gateway answers
 * 503, the client retries) rather than risk publishing a batch twice.
 */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix = 'vigil:idem:',
  ) {}

  async claim(key: string, fingerprint: string, pendingTtlSeconds: number): Promise<IdempotencyClaim> {
    const redisKey = this.keyPrefix + key;
    const pending = JSON.stringify({ f: fingerprint } satisfies StoredEntry);
    for (let attempt = 0; attempt < 3; attempt++) {
      const set = await this.call(() => this.redis.set(redisKey, pending, 'EX', Math.max(1, Math.ceil(pendingTtlSeconds)), 'NX'));
      if (set === 'OK') return { kind: 'claimed' };
      const stored = await this.call(() => this.redis.get(redisKey));
      if (stored === null) continue; // expired between the two commands
      const entry = JSON.parse(stored) as StoredEntry;
      return entry.r === undefined ? { kind: 'in_progress', fingerprint: entry.f } : { kind: 'answered', fingerprint: entry.f, response: entry.r };
    }
    throw new IdempotencyStoreUnavailableError('idempotency key kept changing while being claimed');
  }

  async complete(key: string, fingerprint: string, response: string, ttlSeconds: number): Promise<void> {
    const value = JSON.stringify({ f: fingerprint, r: response } satisfies StoredEntry);
    await this.call(() => this.redis.set(this.keyPrefix + key, value, 'EX', Math.max(1, Math.ceil(ttlSeconds))));
  }

  async release(key: string, fingerprint: string): Promise<void> {
    await this.call(() => this.redis.eval(RELEASE_SCRIPT, 1, this.keyPrefix + key, JSON.stringify({ f: fingerprint } satisfies StoredEntry)));
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new IdempotencyStoreUnavailableError(`Redis unavailable for idempotency keys: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
