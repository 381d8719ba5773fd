import { backoffMs, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry-policy';

describe('retry policy', () => {
  const settings = { maxAttempts: 8, initialBackoffMs: 1000, maxBackoffMs: 10_000 };

  it('doubles per attempt up to the cap, with half the delay random', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(settings, a, undefined, () => 1))).toEqual([1000, 2000, 4000, 8000, 10_000]);
    expect([1, 2, 3, 4, 5].map((a) => backoffMs(settings, a, undefined, () => 0))).toEqual([500, 1000, 2000, 4000, 5000]);
  });

  it('waits what Retry-After asks (never less), within its bound', () => {
    expect(backoffMs(settings, 1, 3000, () => 0)).toBe(3000);
    expect(backoffMs(settings, 1, 3000, () => 1)).toBe(3300);
    expect(backoffMs(settings, 1, MAX_RETRY_AFTER_MS + 1, () => 1)).toBe(1000);
  });

  it('reads delay-seconds and HTTP dates', () => {
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(new Date(60_000).toUTCString(), 0)).toBe(60_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});
