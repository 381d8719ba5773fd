import type { ClickHouseClient } from '@clickhouse/client';
import { assertDatabaseName, knowsMergeTreeSetting, type Migration } from '@vigil/store';

export const FINDINGS_DATABASE = 'findings';

const TABLES: { name: string; extraColumns: string[] }[] = [
  { name: 'findings', extraColumns: [] },
  { name: 'alerts', extraColumns: ['threats Array(String)'] },
];

/** Storage layout of a version of the tables: partitioning and MergeTree settings. */
interface Layout {
  partitionBy: string;
  settings: string;
}

/** Version 1: a partition per day and ClickHouse's default granules (8,192 rows or 10 MiB). */
const DAILY_LAYOUT: Layout = { partitionBy: 'toDate(inserted_at)', settings: 'ttl_only_drop_parts = 1' };

/**
 * Version 2, measured with bench/findings-paging.ts: a page reads the first granule of every part its maxAge
 * window touches, so a 30-day window over daily partitions paid for 30+ parts; a week per partition cuts that to
 * 5–6. Granules of 1,024 rows (or 1 MiB) keep a page of a small workspace from decompressing ~10 MiB of bodies
 * of other workspaces per part. Same size on disk. A weekly part is dropped once its newest row is 30 days old,
 * so rows stay up to 37 days on disk; pages never serve more than 30 days (maxAge ≤ 30 days).
 */
export const WEEKLY_LAYOUT: Layout = {
  partitionBy: 'toMonday(inserted_at)',
  settings: 'ttl_only_drop_parts = 1, index_granularity = 1024, index_granularity_bytes = 1048576',
};

/**
 * Columns shared by both tables. `inserted_at` is set by the server at insertion and is the paging order;
 * `time` is the finding's or the event's own time and may be far in the past for late records.
 */
function storedRecordTable(database: string, table: string, extraColumns: string[], layout: Layout): string {
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
  PARTITION BY ${layout.partitionBy}
  ORDER BY (workspace_id, inserted_at, record_id)
  TTL toDateTime(inserted_at) + INTERVAL 30 DAY
  SETTINGS ${layout.settings}`;
}

async function partitionKey(client: ClickHouseClient, database: string, table: string): Promise<string | undefined> {
  const result = await client.query({
    query: 'SELECT partition_key FROM system.tables WHERE database = {database:String} AND name = {table:String}',
    query_params: { database, table },
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ partition_key: string }>();
  return row?.partition_key;
}

/**
 * Moves a table's rows into a table of `layout` and swaps the two. Idempotent: a copy interrupted before the
 * swap is dropped and made again; after the swap the table has the layout and only the old copy is dropped.
 * inserted_at is copied as it is, so bookmarks already handed out stay valid.
 */
async function rebuild(client: ClickHouseClient, database: string, table: string, extraColumns: string[], layout: Layout): Promise<void> {
  const staging = `${table}_relayout`;
  const drop = () => client.command({ query: `DROP TABLE IF EXISTS ${database}.${staging} SYNC` });
  if ((await partitionKey(client, database, table)) === layout.partitionBy) {
    await drop();
    return;
  }
  await drop();
  await client.command({ query: storedRecordTable(database, staging, extraColumns, layout) });
  const columns = ['workspace_id', 'record_id', 'severity', 'time', 'inserted_at', 'body', ...extraColumns.map((c) => c.split(' ')[0])].join(', ');
  await client.command({
    query: `INSERT INTO ${database}.${staging} (${columns}) SELECT ${columns} FROM ${database}.${table}`,
    clickhouse_settings: { max_partitions_per_insert_block: '1000' },
  });
  await client.command({ query: `EXCHANGE TABLES ${database}.${table} AND ${database}.${staging}` });
  await drop();
}

/**
 * Findings and alerts arrive a few rows per insert, several inserts a second. With ClickHouse's default merge
 * selector base (5), a part of under a few MB is merged again with every new insert, so the newest "big" part
 * (up to a few MB, thousands of rows) is decompressed and recompressed several times a second: measured in the
 * embedded engine at 12 inserts/s, 0.33-0.45 cores of merges against 0.03 with a base of 10, which merges once the
 * small parts together weigh about a tenth of the big one. A ClickHouse version without the setting keeps its
 * default (the migration checks system.merge_tree_settings first).
 */
export const MERGE_SELECTOR_BASE = 10;

/** Schema of the findings service's database. Pass another database name only in tests. */
export function findingsMigrations(database: string = FINDINGS_DATABASE): Migration[] {
  assertDatabaseName(database);
  return [
    {
      version: 1,
      name: 'create findings and alerts tables',
      statements: TABLES.map((t) => storedRecordTable(database, t.name, t.extraColumns, DAILY_LAYOUT)),
    },
    {
      version: 2,
      name: 'weekly partitions and 1024-row granules',
      statements: [],
      apply: async (client) => {
        for (const t of TABLES) await rebuild(client, database, t.name, t.extraColumns, WEEKLY_LAYOUT);
      },
    },
    {
      version: 3,
      name: 'fewer merges of small parts',
      statements: [],
      apply: async (client) => {
        if (!(await knowsMergeTreeSetting(client, 'merge_selector_base'))) return;
        for (const t of TABLES) await client.command({ query: `ALTER TABLE ${database}.${t.name} MODIFY SETTING merge_selector_base = ${MERGE_SELECTOR_BASE}` });
      },
    },
    {
      version: 4,
      name: 'existence checks without the record-id bloom filter',
      // Every insert asks which of its records are stored already. Measured in the embedded engine on 10 M
      // records (bench/findings-paging.ts store), 20 ids, one workspace: through the bloom filter 13.5 ms for a
      // workspace of 2,000 records and 25 ms for one of 500,000; reading the workspace's record_id column instead
      // (the primary key narrows it to the workspace) 6.4 and 7.4 ms. The index made the check slower at every
      // size, and growing with the table, so it goes.
      statements: TABLES.map((t) => `ALTER TABLE ${database}.${t.name} DROP INDEX IF EXISTS record_id_bloom`),
    },
  ];
}

export const FINDINGS_MIGRATIONS: Migration[] = findingsMigrations();
