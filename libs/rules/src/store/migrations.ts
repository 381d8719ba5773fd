import type { Migration } from '@vigil/store';

/**
 * Schema of the rules service's database: customer Sigma documents, one row per (workspace, rule id); the
 * row with the highest version wins, and `deleted` marks a rule removed by a replace-mode upload.
 */
export const RULES_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'customer sigma rules',
    statements: [
      `CREATE TABLE IF NOT EXISTS rules.customer_rules (
         workspace_id String,
         rule_id String,
         kind LowCardinality(String),
         name String,
         title String,
         level LowCardinality(String),
         status LowCardinality(String),
         file_name String,
         source String,
         deleted UInt8,
         updated_at DateTime64(3, 'UTC'),
         version UInt64
       ) ENGINE = ReplacingMergeTree(version) ORDER BY (workspace_id, rule_id)`,
    ],
  },
  {
    version: 2,
    name: 'workspace expand placeholders',
    statements: [
      // One row per workspace (highest version wins); `placeholders` is the JSON map, '{}' for none.
      `CREATE TABLE IF NOT EXISTS rules.workspace_placeholders (
         workspace_id String,
         placeholders String,
         updated_at DateTime64(3, 'UTC'),
         version UInt64
       ) ENGINE = ReplacingMergeTree(version) ORDER BY workspace_id`,
    ],
  },
];
