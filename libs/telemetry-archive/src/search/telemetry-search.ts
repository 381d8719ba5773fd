import type { ServiceStore } from '@vigil/store';
import type { TelemetryQuery } from './telemetry-query';

/** One event of the archive, as a line of the search's NDJSON answer. */
export interface ArchivedEventLine {
  type: string;
  /** When Vigil accepted the request that carried the event (ISO 8601). */
  receivedAt: string;
  batchId: string;
  /** Position of the event in its request's batch for its host. */
  index: number;
  /** The event as accepted (normalised by the gateway). */
  event: Record<string, unknown>;
}

interface EventRow {
  type: string;
  received_ms: string | number;
  batch_id: string;
  idx: number;
  event: string;
}

/** The search gives up after this long on the store. */
const MAX_EXECUTION_SECONDS = 30;

/**
 * Streams archived events of one workspace (already resolved to its id) as NDJSON lines, oldest accepted first,
 * at most `query.limit + 1` of them: the caller uses the extra one to tell that the answer was cut at the limit.
 * Each event line is built around the event's JSON text as stored (never re-parsed).
 */
export async function* searchArchivedEvents(store: ServiceStore, workspaceId: string, query: TelemetryQuery): AsyncGenerator<string> {
  const where = ['workspace_id = {workspaceId:String}', 'received_at >= fromUnixTimestamp64Milli({sinceMs:Int64}, \'UTC\')', 'received_at < fromUnixTimestamp64Milli({untilMs:Int64}, \'UTC\')'];
  const eventFilter: string[] = [];
  const params: Record<string, unknown> = { workspaceId, sinceMs: query.sinceMs, untilMs: query.untilMs, take: query.limit + 1 };
  if (query.types.length) {
    where.push('type IN {types:Array(String)}');
    params.types = query.types;
  }
  if (query.host && 'ip' in query.host) {
    // Checked per event: a batch packs the events of every host of one partition (its src_ip is only the first's).
    eventFilter.push("JSONExtractString(event, 'srcIP') = {hostIp:String}");
    params.hostIp = query.host.ip;
  } else if (query.host) {
    eventFilter.push("lower(JSONExtractString(event, 'srcHost')) = {hostName:String}");
    params.hostName = query.host.name;
  }
  const result = await store.client.query({
    query: `SELECT type, toUnixTimestamp64Milli(received_at) AS received_ms, batch_id, idx, event
            FROM (
              SELECT type, received_at, batch_id, JSONExtractArrayRaw(events, 'events') AS list
              FROM ${store.database}.batches FINAL
              WHERE ${where.join(' AND ')}
            )
            ARRAY JOIN list AS event, arrayEnumerate(list) AS idx
            ${eventFilter.length ? `WHERE ${eventFilter.join(' AND ')}` : ''}
            ORDER BY received_at, batch_id, idx
            LIMIT {take:UInt32}`,
    query_params: params,
    format: 'JSONEachRow',
    clickhouse_settings: { max_execution_time: MAX_EXECUTION_SECONDS },
  });
  for await (const rows of result.stream()) {
    for (const row of rows as { json<T>(): T }[]) {
      const r = row.json<EventRow>();
      yield `{"type":${JSON.stringify(r.type)},"receivedAt":"${new Date(Number(r.received_ms)).toISOString()}","batchId":${JSON.stringify(r.batch_id)},"index":${r.idx - 1},"event":${r.event}}\n`;
    }
  }
}
