import type { Migration } from '@vigil/store';

export const ESCALATIONS_DATABASE = 'escalations';

/**
 * Schema of the escalations database: one row per destination version (the highest wins). `spec` is the whole
 * destination as JSON, secrets included (delivery needs them); a removal writes `removed = 1` and an empty spec.
 */
export const ESCALATIONS_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'escalation destinations',
    statements: [
      `CREATE TABLE IF NOT EXISTS escalations.destinations (
         destination_id String,
         workspace_id String,
         version UInt64,
         removed UInt8,
         updated_at DateTime64(3, 'UTC'),
         spec String CODEC(ZSTD(3))
       ) ENGINE = ReplacingMergeTree(version) ORDER BY destination_id`,
    ],
  },
];
