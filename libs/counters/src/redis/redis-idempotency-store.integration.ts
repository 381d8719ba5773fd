import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { redisUrl, startOwnRedis } from '../../../../tools/integration/servers';
import { IdempotencyStoreUnavailableError } from '../idempotency-store';
import { createRedisClient } from './redis-client';
import { RedisIdempotencyStore } from './redis-idempotency-store';

const clients: Redis[] = [];
async function client(url = redisUrl()): Promise<Redis> {
  const redis = createRedisClient(url, () => undefined);
  clients.push(redis);
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

afterEach(() => {
  for (const redis of clients.splice(0)) redis.disconnect();
});

describe('RedisIdempotencyStore against a real Redis', () => {
  it('gives a key to exactly one of two replicas racing for it, and replays the answer to both afterwards', async () => {
    const [a, b] = [new RedisIdempotencyStore(await client()), new RedisIdempotencyStore(await client())];
    const key = `ws:${randomUUID()}`;
    const claims = await Promise.all([a.claim(key, 'fp', 30), b.claim(key, 'fp', 30)]);
    expect(claims.map((c) => c.kind).sort()).toEqual(['claimed', 'in_progress']);
    const winner = claims[0].kind === 'claimed' ? a : b;
    await winner.complete(key, 'fp', '{"received":2,"accepted":2,"rejected":{}}', 3600);
    for (const store of [a, b]) expect(await store.claim(key, 'other', 30)).toEqual({ kind: 'answered', fingerprint: 'fp', response: '{"received":2,"accepted":2,"rejected":{}}' });
  });

  it('keeps the answer for the retention TTL and lets a released or lapsed claim be taken again', async () => {
    const redis = await client();
    const store = new RedisIdempotencyStore(redis, 'test:idem:');
    const key = randomUUID();
    await store.claim(key, 'fp', 30);
    await store.complete(key, 'fp', 'r', 86_400);
    const ttl = await redis.ttl(`test:idem:${key}`);
    expect(ttl).toBeGreaterThan(86_400 - 60);
    expect(ttl).toBeLessThanOrEqual(86_400);
    await store.release(key, 'fp'); // an answered key is not released
    expect((await store.claim(key, 'fp', 30)).kind).toBe('answered');

    const other = randomUUID();
    await store.claim(other, 'fp', 30);
    await store.release(other, 'not-mine');
    expect((await store.claim(other, 'fp', 30)).kind).toBe('in_progress');
    await store.release(other, 'fp');
    expect((await store.claim(other, 'fp', 30)).kind).toBe('claimed');

    const lapsing = randomUUID();
    await store.claim(lapsing, 'fp', 1);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect((await store.claim(lapsing, 'fp', 1)).kind).toBe('claimed');
  });

  it('refuses (does not guess) while Redis is down', async () => {
    const own = await startOwnRedis();
    try {
      const store = new RedisIdempotencyStore(await client(own.url));
      expect((await store.claim('k', 'fp', 30)).kind).toBe('claimed');
      await own.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(store.claim('k2', 'fp', 30)).rejects.toBeInstanceOf(IdempotencyStoreUnavailableError);
      await expect(store.complete('k', 'fp', 'r', 60)).rejects.toBeInstanceOf(IdempotencyStoreUnavailableError);
    } finally {
      await own.stop();
    }
  });
});
