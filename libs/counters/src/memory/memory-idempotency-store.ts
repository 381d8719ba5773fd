import type { IdempotencyClaim, IdempotencyStore } from '../idempotency-store';

interface Entry {
  fingerprint: string;
  response?: string;
  expiresAt: number;
}

/**
 * Idempotency keys held in this process (the embedded stand-in for Redis). Bounded: beyond `maxEntries` the
 * oldest keys are dropped first, and expired keys are swept as new ones arrive. Keys do not survive a restart.
 */
export class MemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  async claim(key: string, fingerprint: string, pendingTtlSeconds: number): Promise<IdempotencyClaim> {
    const existing = this.live(key);
    if (existing !== undefined) {
      return existing.response === undefined
        ? { kind: 'in_progress', fingerprint: existing.fingerprint }
        : { kind: 'answered', fingerprint: existing.fingerprint, response: existing.response };
    }
    this.set(key, { fingerprint, expiresAt: this.now() + pendingTtlSeconds * 1000 });
    return { kind: 'claimed' };
  }

  async complete(key: string, fingerprint: string, response: string, ttlSeconds: number): Promise<void> {
    this.set(key, { fingerprint, response, expiresAt: this.now() + ttlSeconds * 1000 });
  }

  async release(key: string, fingerprint: string): Promise<void> {
    const existing = this.entries.get(key);
    if (existing !== undefined && existing.response === undefined && existing.fingerprint === fingerprint) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private set(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size <= this.maxEntries) return;
    const now = this.now();
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }
}
