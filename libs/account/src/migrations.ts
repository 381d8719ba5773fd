import type { Migration } from '@vigil/store';

/** Schema of the account service's database: workspaces and hashed API keys (latest version wins). */
export const ACCOUNT_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'workspaces and api keys',
    statements: [
      `CREATE TABLE IF NOT EXISTS account.workspaces (
         workspace_id String,
         name String,
         created_at DateTime64(3, 'UTC')
       ) ENGINE = ReplacingMergeTree ORDER BY workspace_id`,
      `CREATE TABLE IF NOT EXISTS account.api_keys (
         key_hash String,
         prefix String,
         workspace_id String,
         status LowCardinality(String),
         created_at DateTime64(3, 'UTC'),
         expires_at Nullable(DateTime64(3, 'UTC')),
         version UInt64
       ) ENGINE = ReplacingMergeTree(version) ORDER BY key_hash`,
    ],
  },
];
