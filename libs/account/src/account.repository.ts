import type { ApiKeyRecord, ApiKeyStatus, WorkspaceRecord } from '@vigil/contracts';
import type { ServiceStore } from '@vigil/store';

interface KeyRow {
  key_hash: string;
  prefix: string;
  workspace_id: string;
  status: string;
  created_at: string;
  expires_at: string | null;
  version: string | number;
}

interface WorkspaceRow {
  workspace_id: string;
  name: string;
  created_at: string;
}

/** ClickHouse DateTime64 text ('2026-01-01 00:00:00.000') ↔ ISO 8601. */
const toIso = (value: string) => new Date(value.replace(' ', 'T') + 'Z').toISOString();
const toClickHouse = (iso: string) => iso.replace('T', ' ').replace('Z', '');

/** The account service's own tables: the system of record for workspaces and keys. */
export class AccountRepository {
  constructor(private readonly store: ServiceStore) {}

  async saveWorkspace(workspace: WorkspaceRecord): Promise<void> {
    await this.store.client.insert({
      table: 'account.workspaces',
      format: 'JSONEachRow',
      values: [{ workspace_id: workspace.workspaceId, name: workspace.name, created_at: toClickHouse(workspace.createdAt) }],
    });
  }

  async saveKey(record: ApiKeyRecord): Promise<void> {
    await this.store.client.insert({
      table: 'account.api_keys',
      format: 'JSONEachRow',
      values: [
        {
          key_hash: record.keyHash,
          prefix: record.prefix,
          workspace_id: record.workspaceId,
          status: record.status,
          created_at: toClickHouse(record.createdAt),
          expires_at: record.expiresAt ? toClickHouse(record.expiresAt) : null,
          version: record.version,
        },
      ],
    });
  }

  async workspaces(): Promise<WorkspaceRecord[]> {
    const result = await this.store.client.query({
      query: 'SELECT workspace_id, name, toString(created_at) AS created_at FROM account.workspaces FINAL ORDER BY created_at',
      format: 'JSONEachRow',
    });
    return (await result.json<WorkspaceRow>()).map((row) => ({
      workspaceId: row.workspace_id,
      name: row.name,
      createdAt: toIso(row.created_at),
    }));
  }

  async keys(): Promise<ApiKeyRecord[]> {
    const result = await this.store.client.query({
      query: `SELECT key_hash, prefix, workspace_id, status, toString(created_at) AS created_at,
                     if(isNull(expires_at), NULL, toString(expires_at)) AS expires_at, version
              FROM account.api_keys FINAL ORDER BY created_at`,
      format: 'JSONEachRow',
    });
    return (await result.json<KeyRow>()).map((row) => ({
      keyHash: row.key_hash,
      prefix: row.prefix,
      workspaceId: row.workspace_id,
      status: row.status as ApiKeyStatus,
      createdAt: toIso(row.created_at),
      expiresAt: row.expires_at ? toIso(row.expires_at) : null,
      version: Number(row.version),
    }));
  }
}
