import { MemoryIdempotencyStore } from './memory-idempotency-store';

describe('MemoryIdempotencyStore', () => {
  it('lets one request claim a key, reports it in progress, then replays its answer until the TTL ends', async () => {
    let now = 1_000_000;
    const store = new MemoryIdempotencyStore(10, () => now);
    expect(await store.claim('k', 'fp1', 60)).toEqual({ kind: 'claimed' });
    expect(await store.claim('k', 'fp1', 60)).toEqual({ kind: 'in_progress', fingerprint: 'fp1' });
    await store.complete('k', 'fp1', '{"accepted":3}', 3600);
    expect(await store.claim('k', 'fp2', 60)).toEqual({ kind: 'answered', fingerprint: 'fp1', response: '{"accepted":3}' });
    now += 3600 * 1000 + 1;
    expect(await store.claim('k', 'fp2', 60)).toEqual({ kind: 'claimed' });
  });

  it('releases only an unfinished claim with the same fingerprint, and lets a lapsed claim be taken again', async () => {
    let now = 0;
    const store = new MemoryIdempotencyStore(10, () => now);
    await store.claim('a', 'fp', 30);
    await store.release('a', 'other');
    expect((await store.claim('a', 'fp', 30)).kind).toBe('in_progress');
    await store.release('a', 'fp');
    expect((await store.claim('a', 'fp', 30)).kind).toBe('claimed');
    await store.complete('a', 'fp', 'answer', 60);
    await store.release('a', 'fp');
    expect((await store.claim('a', 'fp', 30)).kind).toBe('answered');
    await store.claim('b', 'fp', 30);
    now += 31_000;
    expect((await store.claim('b', 'fp', 30)).kind).toBe('claimed');
  });

  it('stays bounded, dropping the oldest keys first', async () => {
    const store = new MemoryIdempotencyStore(3);
    for (const key of ['1', '2', '3', '4', '5']) await store.complete(key, 'fp', 'r', 60);
    expect(store.size).toBe(3);
    expect((await store.claim('1', 'fp', 60)).kind).toBe('claimed');
    expect((await store.claim('5', 'fp', 60)).kind).toBe('answered');
  });
});
