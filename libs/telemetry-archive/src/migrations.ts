import type { ClickHouseClient } from '@clickhouse/client';
import { knowsMergeTreeSetting, type Migration } from '@vigil/store';

/** The columns of an archived record, extracted from the record's JSON inside the engine. */
const INCOMING_TO_BATCHES = `
       SELECT
         JSONExtractString(raw, 'workspaceId') AS workspace_id,
         JSONExtractString(raw, 'type') AS type,
         JSONExtractString(JSONExtractRaw(raw, 'events', 1), 'srcIP') AS src_ip,
         JSONExtractString(raw, 'batchId') AS batch_id,
         fromUnixTimestamp64Milli(JSONExtractInt(raw, 'receivedAt'), 'UTC') AS received_at,
         JSONLength(raw, 'events') AS event_count,
         raw AS events
       FROM telemetry.incoming`;

/** An archive table of bus records (migration 1 made `batches`, migration 3 `batches_v2`). */
function batchesTable(name: string, eventsCodec: string, settings?: string): string {
  return `CREATE TABLE IF NOT EXISTS telemetry.${name} (
         workspace_id String,
         type LowCardinality(String),
         src_ip String,
         batch_id String,
         received_at DateTime64(3, 'UTC'),
         event_count UInt32,
         events String CODEC(${eventsCodec})
       ) ENGINE = ReplacingMergeTree
       PARTITION BY toYYYYMMDD(received_at)
       ORDER BY (workspace_id, type, received_at, batch_id)
       TTL toDateTime(received_at) + INTERVAL 30 DAY DELETE${settings === undefined ? '' : `
       SETTINGS ${settings}`}`;
}

/**
 * Accepted telemetry, kept 30 days, one row per bus record: the events of one request on one events partition
 * (`src_ip` is the source IP in the record's key, the first event of the request on that partition; a record holds
 * every host of the request on that partition), stored as the JSON the gateway published. The consumer writes rows
 * into {@link ARCHIVE_TABLE} as raw tab-separated lines, the columns taken from the record's key and headers
 * (archive-row.ts), so the archive costs neither the Node event loop nor the engine a parse of the JSON. (Before,
 * records went verbatim into the `incoming` Null table and a materialized view parsed each one to extract the
 * columns; both stay, so a consumer of an older version still archives during a rolling upgrade.)
 * Query single events with `arrayJoin(JSONExtractArrayRaw(events, 'events'))`.
 * Re-delivered records collapse on (workspace, type, received_at, batch_id). Since migration 3 the records are
 * stored in `batches_v2` (`batches_v1` holds those archived before it) and `batches` reads them all.
 */
/**
 * ClickHouse's merge selector base (5 by default): roughly, how many parts of a size a merge waits for before it
 * takes them together. Every merge decompresses and recompresses what it takes, and an archived byte goes through
 * about log_base(1 GiB / insert size) merges, so a higher base rewrites each byte fewer times, for a few more
 * parts per partition and more parts read by each merge (memory). `bench/archive-merges.ts` (20 MB/s in inserts of
 * 8 MB, 5 minutes, one run each): merge CPU per GB archived 10.4 s at the default, 8.4 s at 10, 6.8 s at 20; peak
 * RSS 777, 749 and 841 MB (3-minute runs: 11.9 s and 776 MB at the default, 5.8 s and 811 MB at 20). 10 saves CPU
 * without the larger merges' memory, as for the findings tables. A ClickHouse version without the setting keeps its
 * default.
 */
export const ARCHIVE_MERGE_SELECTOR_BASE = 10;

/** The table new archive rows go to (columns in `batchesTable` order). */
export const ARCHIVE_TABLE = 'telemetry.batches_v2';

export const TELEMETRY_MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'telemetry batches',
    statements: [
      batchesTable('batches', 'ZSTD(3)'),
      `CREATE TABLE IF NOT EXISTS telemetry.incoming (raw String) ENGINE = Null`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS telemetry.incoming_to_batches TO telemetry.batches AS ${INCOMING_TO_BATCHES}`,
    ],
  },
  {
    version: 2,
    name: 'cheaper merges for the archive',
    statements: [
      // Merges read and write in blocks of at most 1 MiB: a row holds a whole bus record (hundreds of KB), so the
      // default 10 MiB blocks of every part being merged added 200-300 MB of engine memory at a merge (bench).
      `ALTER TABLE telemetry.batches MODIFY SETTING merge_max_block_size_bytes = 1048576`,
      // Parts stop growing at 1 GiB: beyond that a merge rewrites gigabytes to save little, and each level of
      // merging costs every archived byte one more decompress-and-recompress.
      `ALTER TABLE telemetry.batches MODIFY SETTING max_bytes_to_merge_at_max_space_in_pool = 1073741824`,
      // Merges recompress every byte a few times; ZSTD(1) compresses about 40 % faster than ZSTD(3) and the bus
      // records' JSON only 2-3 % less tightly (8.2x against 8.4x). Existing parts move to it as they are merged.
      `ALTER TABLE telemetry.batches MODIFY COLUMN events String CODEC(ZSTD(1))`,
    ],
  },
  {
    version: 3,
    name: 'archive granules of 1 MiB',
    statements: [
      // A merge holds one granule of every part it reads. The default granule (up to 10 MiB, about 30 bus records)
      // made a merge of ten parts hold 150-220 MB (the sustained bench's largest RSS samples); granules of 1 MiB
      // hold 30 MB and merge twice as fast (10 parts of 40 MB: 220 -> 30 MB, 1.5 -> 0.8 s). A table's granule
      // size is fixed when it is created, so new records go to batches_v2, batches_v1 keeps the older ones until
      // its TTL has emptied it, and `batches` reads both (queries and FINAL are unchanged).
      `DROP VIEW IF EXISTS telemetry.incoming_to_batches`,
      batchesTable('batches_v2', 'ZSTD(1)', 'index_granularity_bytes = 1048576, merge_max_block_size_bytes = 1048576, max_bytes_to_merge_at_max_space_in_pool = 1073741824'),
      `CREATE MATERIALIZED VIEW IF NOT EXISTS telemetry.incoming_to_batches TO telemetry.batches_v2 AS ${INCOMING_TO_BATCHES}`,
    ],
    apply: readBothArchiveTables,
  },
  {
    version: 4,
    name: 'fewer rewrites of archived bytes',
    statements: [],
    apply: async (client, database) => {
      if (!(await knowsMergeTreeSetting(client, 'merge_selector_base'))) return;
      await client.command({ query: `ALTER TABLE ${database}.batches_v2 MODIFY SETTING merge_selector_base = ${ARCHIVE_MERGE_SELECTOR_BASE}` });
    },
  },
];

/** Migration 3, idempotently: the first archive table becomes batches_v1, and `batches` reads every batches_vN. */
async function readBothArchiveTables(client: ClickHouseClient, database: string): Promise<void> {
  const result = await client.query({ query: `SELECT engine FROM system.tables WHERE database = {database:String} AND name = 'batches'`, query_params: { database }, format: 'JSONEachRow' });
  const [table] = await result.json<{ engine: string }>();
  if (table !== undefined && table.engine !== 'Merge') await client.command({ query: `RENAME TABLE ${database}.batches TO ${database}.batches_v1` });
  await client.command({ query: `CREATE TABLE IF NOT EXISTS ${database}.batches AS ${database}.batches_v2 ENGINE = Merge(${database}, '^batches_v[0-9]+$')` });
}
