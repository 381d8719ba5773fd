import type { ApiKeyRecord } from '@vigil/contracts';
import { hashApiKey, hashesEqual } from './api-key';

/** What a request authenticated with a known key may do. */
export interface Principal {
  keyHash: string;
  workspaceId: string;
  /** False while the key is not activated: telemetry is accepted but results are suppressed. */
  registered: boolean;
  expired: boolean;
  expiresAt: string | null;
}

export type KeyLookup =
  | { outcome: 'ok'; principal: Principal }
  | { outcome: 'unknown' }
  | { outcome: 'revoked' };

/**
 * The read model of API keys in one service, fed from the compacted `ctl.api-keys.v1` topic. Keeps the
 * highest version of each key's record.
 */
export class KeyDirectory {
  private readonly records = new Map<string, ApiKeyRecord>();

  apply(record: ApiKeyRecord): void {
    const current = this.records.get(record.keyHash);
    if (!current || current.version <= record.version) this.records.set(record.keyHash, record);
  }

  get size(): number {
    return this.records.size;
  }

  lookup(key: string, now: Date = new Date()): KeyLookup {
    const presented = hashApiKey(key);
    const record = this.records.get(presented);
    if (!record || !hashesEqual(record.keyHash, presented)) return { outcome: 'unknown' };
    if (record.status === 'revoked') return { outcome: 'revoked' };
    const expired = record.expiresAt !== null && Date.parse(record.expiresAt) <= now.getTime();
    return {
      outcome: 'ok',
      principal: {
        keyHash: record.keyHash,
        workspaceId: record.workspaceId,
        registered: record.status === 'active',
        expired,
        expiresAt: record.expiresAt,
      },
    };
  }
}
