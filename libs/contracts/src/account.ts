/** Value of a record on `ctl.api-keys.v1` (compacted, keyed by keyHash). Keys themselves are never stored. */
export type ApiKeyStatus = 'active' | 'inactive' | 'revoked';

export interface ApiKeyRecord {
  keyHash: string;
  /** First characters of the key, shown in listings so an operator can tell keys apart. */
  prefix: string;
  workspaceId: string;
  status: ApiKeyStatus;
  createdAt: string;
  /** ISO date-time, or null for a key that never expires. */
  expiresAt: string | null;
  /** Monotonic version: a consumer keeps the record with the highest version. */
  version: number;
}

/** Value of a record on `ctl.workspaces.v1` (compacted, keyed by workspaceId). */
export interface WorkspaceRecord {
  workspaceId: string;
  name: string;
  createdAt: string;
}
