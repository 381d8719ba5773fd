import { MemoryDistinctCounter } from './memory-distinct-counter';
import { MemoryRateLimiter } from './memory-rate-limiter';

describe('MemoryRateLimiter', () => {
  it('allows the configured number of requests per key, then refuses with a retry delay', async () => {
    const limiter = new MemoryRateLimiter({ points: 3, windowSeconds: 10 });
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limiter.consume('key-a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(decisions[3].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(decisions[3].retryAfterSeconds).toBeLessThanOrEqual(10);
    expect((await limiter.consume('key-b')).allowed).toBe(true);
  });
});

describe('MemoryDistinctCounter', () => {
  it('counts distinct members per scope', async () => {
    const counter = new MemoryDistinctCounter();
    await counter.add('s1', ['a', 'b', 'a']);
    await counter.add('s1', ['c']);
    await counter.add('s2', ['a']);
    expect(await counter.count('s1')).toBe(3);
    expect(await counter.count('s2')).toBe(1);
    expect(await counter.count('none')).toBe(0);
  });

  it('stays bounded', async () => {
    const counter = new MemoryDistinctCounter(2, 5);
    await counter.add('s1', ['1', '2', '3', '4', '5', '6', '7']);
    expect(await counter.count('s1')).toBe(5);
    await counter.add('s2', ['x']);
    await counter.add('s3', ['y']);
    expect(await counter.count('s1')).toBe(0);
    expect(await counter.count('s3')).toBe(1);
  });
});
