/**
 * Sign-in attempts per client address in a sliding window: after `limit` failed attempts the address must wait
 * until the oldest one leaves the window. A successful sign-in does not count.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 15 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before the next attempt, or 0 when one is allowed now. */
  retryAfterSeconds(client: string): number {
    const recent = this.recent(client);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[0] + this.windowMs - this.now()) / 1000));
  }

  recordFailure(client: string): void {
    const recent = this.recent(client);
    recent.push(this.now());
    this.failures.set(client, recent);
    if (this.failures.size > 100_000) this.failures.delete(this.failures.keys().next().value as string);
  }

  private recent(client: string): number[] {
    const from = this.now() - this.windowMs;
    const kept = (this.failures.get(client) ?? []).filter((t) => t > from);
    if (kept.length === 0) this.failures.delete(client);
    else this.failures.set(client, kept);
    return kept;
  }
}
