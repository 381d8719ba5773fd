import type { ClickHouseClient } from '@clickhouse/client';

/**
 * Whether the ClickHouse version behind `client` has a MergeTree setting: migrations that tune a newer setting
 * check first, so that a server of an older version keeps its default instead of refusing the migration.
 */
export async function knowsMergeTreeSetting(client: ClickHouseClient, name: string): Promise<boolean> {
  const result = await client.query({ query: 'SELECT count() AS n FROM system.merge_tree_settings WHERE name = {name:String}', query_params: { name }, format: 'JSONEachRow' });
  const [row] = await result.json<{ n: string | number }>();
  return Number(row?.n ?? 0) > 0;
}
