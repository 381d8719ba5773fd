import type { Migration } from '@vigil/store';

/** Accepted telemetry, kept 30 days. Re-delivered events collapse on (workspace, type, ts, event_id). */
export const TELEMETRY_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'telemetry events',
    statements: [
      `CREATE TABLE IF NOT EXISTS telemetry.events (
         workspace_id String,
         type LowCardinality(String),
         ts DateTime64(3, 'UTC'),
         src_ip String,
         event_id String,
         received_at DateTime64(3, 'UTC'),
         body String CODEC(ZSTD(3))
       ) ENGINE = ReplacingMergeTree
       PARTITION BY toYYYYMMDD(received_at)
       ORDER BY (workspace_id, type, ts, event_id)
       TTL toDateTime(received_at) + INTERVAL 30 DAY DELETE`,
    ],
  },
];
