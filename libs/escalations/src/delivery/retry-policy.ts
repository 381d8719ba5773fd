import type { RetrySettings } from '../destinations/destination';

/** A receiver's Retry-After is honoured up to this long; past it the normal back-off applies. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Back-off before attempt `attempt + 1` after `attempt` failed: exponential from `initialBackoffMs`, capped at
 * `maxBackoffMs`, with "equal jitter" (half fixed, half random) so that many deliveries failing together do not
 * retry in lock-step. A Retry-After from the receiver replaces it (plus up to 10 % jitter, never less than asked).
 */
export function backoffMs(settings: RetrySettings, attempt: number, retryAfterMs?: number, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0 && retryAfterMs <= MAX_RETRY_AFTER_MS) {
    return Math.round(retryAfterMs + random() * Math.min(1_000, retryAfterMs * 0.1));
  }
  const exponential = Math.min(settings.maxBackoffMs, settings.initialBackoffMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** Retry-After: delay-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const text = raw.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
