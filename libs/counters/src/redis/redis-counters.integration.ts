import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { loadConfig } from '@vigil/config';
import { redisUrl, startOwnRedis } from '../../../../tools/integration/servers';
import { DISTINCT_COUNTER, RATE_LIMITER, type RateLimitDecision } from '../counters';
import { CountersModule, REDIS_CLIENT } from '../counters.module';
import { createRedisClient } from './redis-client';
import { RedisDistinctCounter } from './redis-distinct-counter';
import { RedisRateLimiter } from './redis-rate-limiter';

const clients: Redis[] = [];
function client(url = redisUrl()): Redis {
  const redis = createRedisClient(url, () => undefined);
  clients.push(redis);
  return redis;
}
async function ready(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
}

afterEach(() => {
  for (const redis of clients.splice(0)) redis.disconnect();
});

describe('RedisRateLimiter against a real Redis', () => {
  it('shares one budget between two gateway replicas', async () => {
    const [a, b] = [client(), client()];
    await Promise.all([ready(a), ready(b)]);
    const config = { points: 5, windowSeconds: 30 };
    const replicas = [new RedisRateLimiter(a, config), new RedisRateLimiter(b, config)];
    const key = `key-${randomUUID()}`;
    const decisions: RateLimitDecision[] = [];
    for (let i = 0; i < 8; i += 1) decisions.push(await replicas[i % 2].consume(key));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false, false]);
    expect(decisions[4].remaining).toBe(0);
    expect(decisions[5].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(decisions[5].retryAfterSeconds).toBeLessThanOrEqual(30);
    expect((await replicas[1].consume(`other-${randomUUID()}`)).allowed).toBe(true);
  });

  it('falls back to a per-process limit when Redis stops, and answers at once', async () => {
    const own = await startOwnRedis();
    try {
      const redis = client(own.url);
      await ready(redis);
      const limiter = new RedisRateLimiter(redis, { points: 3, windowSeconds: 60 });
      const counter = new RedisDistinctCounter(redis, { log: () => undefined });
      expect((await limiter.consume('k')).allowed).toBe(true);
      await counter.add('day', ['a', 'b']);
      expect(await counter.count('day')).toBe(2);

      await own.stop();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      const during = [];
      for (let i = 0; i < 4; i += 1) during.push(await limiter.consume('k'));
      // The in-process insurance limiter has its own window: 3 allowed, then refused.
      expect(during.map((d) => d.allowed)).toEqual([true, true, true, false]);
      await expect(counter.add('day', ['c'])).rejects.toThrow('not counted');
      expect(await counter.count('day')).toBe(0);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await own.stop();
    }
  });
});

describe('RedisDistinctCounter against a real Redis', () => {
  it('counts 10k distinct members within 2 % across replicas, with a two-day TTL on the scope', async () => {
    const [a, b] = [client(), client()];
    await Promise.all([ready(a), ready(b)]);
    const replicas = [new RedisDistinctCounter(a), new RedisDistinctCounter(b)];
    const scope = `endpoints:${randomUUID()}:2026-11-22`;
    const members = Array.from({ length: 10_000 }, (_, i) => `ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    for (let start = 0; start < members.length; start += 1000) {
      const chunk = members.slice(start, start + 1000);
      await replicas[(start / 1000) % 2].add(scope, [...chunk, ...chunk.slice(0, 100)]);
    }
    const counted = await replicas[0].count(scope);
    expect(Math.abs(counted - 10_000) / 10_000).toBeLessThanOrEqual(0.02);
    expect(await replicas[1].count(scope)).toBe(counted);
    const ttl = await a.ttl(`vigil:distinct:${scope}`);
    expect(ttl).toBeGreaterThan(2 * 86400 - 60);
    expect(ttl).toBeLessThanOrEqual(2 * 86400);
    expect(await replicas[0].count(`endpoints:${randomUUID()}:2026-11-22`)).toBe(0);
  });
});

describe('CountersModule with REDIS_URL', () => {
  it('provides the Redis implementations and closes the connection on shutdown', async () => {
    const config = loadConfig({ REDIS_URL: redisUrl(), VIGIL_RATE_LIMIT: '2/60s' });
    const app = await NestFactory.createApplicationContext(CountersModule.forRoot(config), { logger: false });
    app.enableShutdownHooks();
    const limiter = app.get(RATE_LIMITER);
    const redis = app.get<Redis>(REDIS_CLIENT);
    expect(limiter).toBeInstanceOf(RedisRateLimiter);
    expect(app.get(DISTINCT_COUNTER)).toBeInstanceOf(RedisDistinctCounter);
    await ready(redis);
    const key = `module-${randomUUID()}`;
    expect([(await limiter.consume(key)).allowed, (await limiter.consume(key)).allowed, (await limiter.consume(key)).allowed]).toEqual([true, true, false]);
    await app.close();
    expect(redis.status).toBe('end');
  });
});
