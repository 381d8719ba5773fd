import type { ServiceStore } from '@vigil/store';

export interface HourlyIngest {
  /** Start of the hour, UTC, `YYYY-MM-DDTHH:00`. */
  hour: string;
  /** Events accepted in that hour, through any channel. */
  events: number;
}

/** Events a workspace's telemetry archive received per hour since `sinceMs`, oldest hour first. */
export async function eventsPerHour(store: ServiceStore, workspaceId: string, sinceMs: number): Promise<HourlyIngest[]> {
  const result = await store.client.query({
    query: `SELECT formatDateTime(toStartOfHour(received_at), '%Y-%m-%dT%H:00') AS hour, sum(event_count) AS events
            FROM ${store.database}.batches FINAL
            WHERE workspace_id = {workspaceId:String} AND received_at >= fromUnixTimestamp64Milli({sinceMs:Int64}, 'UTC')
            GROUP BY hour
            ORDER BY hour`,
    query_params: { workspaceId, sinceMs },
    format: 'JSONEachRow',
  });
  return (await result.json<{ hour: string; events: string | number }>()).map((row) => ({ hour: row.hour, events: Number(row.events) }));
}
