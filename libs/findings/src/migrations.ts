import { assertDatabaseName, type Migration } from '@vigil/store';

export const FINDINGS_DATABASE = 'findings';

/**
 * Columns shared by both tables. `inserted_at` is set by the server at insertion and is the paging order;
 * `time` is the finding's or the event's own time and may be far in the past for late records.
 */
function storedRecordTable(database: string, table: string, extraColumns: string[]): string {
  return `CREATE TABLE IF NOT EXISTS ${database}.${table}
  (
    workspace_id LowCardinality(String),
    record_id String,
    severity UInt8,
    time DateTime64(3, 'UTC'),
    inserted_at DateTime64(6, 'UTC') DEFAULT now64(6),
    body String CODEC(ZSTD(3)),
    ${extraColumns.map((c) => `${c},`).join('\n    ')}
    INDEX record_id_bloom record_id TYPE bloom_filter(0.01) GRANULARITY 1
  )
  ENGINE = MergeTree
  PARTITION BY toDate(inserted_at)
  ORDER BY (workspace_id, inserted_at, record_id)
  TTL toDateTime(inserted_at) + INTERVAL 30 DAY
  SETTINGS ttl_only_drop_parts = 1`;
}

/** Schema of the findings service's database. Pass another database name only in tests. */
export function findingsMigrations(database: string = FINDINGS_DATABASE): Migration[] {
  assertDatabaseName(database);
  return [
    {
      version: 1,
      name: 'create findings and alerts tables',
      statements: [
        storedRecordTable(database, 'findings', []),
        storedRecordTable(database, 'alerts', ['threats Array(String)']),
      ],
    },
  ];
}

export const FINDINGS_MIGRATIONS: Migration[] = findingsMigrations();
