import type { Migration } from '@vigil/store';

/**
 * Accepted telemetry, kept 30 days, one row per bus record: the events of one request from one source IP,
 * stored as the JSON the gateway published (no re-encoding on the hot path). Query single events with
 * `arrayJoin(JSONExtractArrayRaw(events, 'events'))`. Re-delivered records collapse on batch_id.
 */
export const TELEMETRY_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'telemetry batches',
    statements: [
      `CREATE TABLE IF NOT EXISTS telemetry.batches (
         workspace_id String,
         type LowCardinality(String),
         src_ip String,
         batch_id String,
         received_at DateTime64(3, 'UTC'),
         event_count UInt32,
         events String CODEC(ZSTD(3))
       ) ENGINE = ReplacingMergeTree
       PARTITION BY toYYYYMMDD(received_at)
       ORDER BY (workspace_id, type, received_at, batch_id)
       TTL toDateTime(received_at) + INTERVAL 30 DAY DELETE`,
    ],
  },
];
