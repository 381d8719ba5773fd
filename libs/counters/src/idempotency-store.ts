/**
 * Idempotency-key store port: remembers, per key, the fingerprint of the request that claimed it and, once that
 * request succeeded, its response, so a retried request can be answered again without doing the work twice.
 * Embedded mode: in this process. Distributed mode: Redis (shared by every gateway replica).
 */
export type IdempotencyClaim =
  /** The key was free: the caller does the work, then calls complete() (or release() if it failed). */
  | { kind: 'claimed' }
  /** Another request with this key is still being processed. */
  | { kind: 'in_progress'; fingerprint: string }
  /** A request with this key was answered within the retention window. */
  | { kind: 'answered'; fingerprint: string; response: string };

export interface IdempotencyStore {
  /** Claims `key` for a request with `fingerprint`; an unfinished claim lapses after `pendingTtlSeconds`. */
  claim(key: string, fingerprint: string, pendingTtlSeconds: number): Promise<IdempotencyClaim>;
  /** Stores the answer of the claiming request for `ttlSeconds`. */
  complete(key: string, fingerprint: string, response: string, ttlSeconds: number): Promise<void>;
  /** Drops an unfinished claim (the request failed; a retry may claim the key again). */
  release(key: string, fingerprint: string): Promise<void>;
}

export const IDEMPOTENCY_STORE = Symbol('IDEMPOTENCY_STORE');

/** Thrown when the store cannot be reached: the request must not go ahead without its key being checked. */
export class IdempotencyStoreUnavailableError extends Error {}
