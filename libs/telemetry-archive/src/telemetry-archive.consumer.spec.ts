import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { BUS, type Bus } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { TOPICS } from '@vigil/contracts';
import { packTelemetryRecords } from '@vigil/gateway';
import { PlatformModule } from '@vigil/platform';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { benignDnsEvents, makeTempDir } from '@vigil/testing';
import { TELEMETRY_MIGRATIONS } from './migrations';
import { eventsPerHour } from './search/ingest-rate';
import { TelemetryArchiveModule } from './telemetry-archive.module';

describe('TelemetryArchiveConsumer (real local bus and chdb)', () => {
  const temp = makeTempDir('vigil-archive-');
  let app: INestApplicationContext;

  beforeAll(async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path });
    app = await NestFactory.createApplicationContext(
      { module: class ArchiveSpecModule {}, imports: [PlatformModule.forRoot(config, { http: false }), TelemetryArchiveModule] },
      { logger: false },
    );
    await app.init();
  });

  afterAll(async () => {
    await app.close();
    temp.cleanup();
  });

  it('stores every accepted event, queryable one by one, and ignores re-delivery', async () => {
    const bus = app.get<Bus>(BUS);
    const events = benignDnsEvents(120, { hosts: 4 });
    const records = packTelemetryRecords('ws-archive', 'dns', events, Date.now(), { requestId: 'req-1' });
    await bus.publish(TOPICS.events.name, records);
    await bus.publish(TOPICS.events.name, records.slice(0, 1));
    const store = await app.get<StoreFactory>(STORE_FACTORY).open('telemetry', TELEMETRY_MIGRATIONS);
    let count = 0;
    for (let i = 0; i < 150 && count < 120; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const result = await store.client.query({
        query: `SELECT toString(count()) AS n FROM (
                  SELECT arrayJoin(JSONExtractArrayRaw(events, 'events')) AS e FROM telemetry.batches FINAL
                  WHERE workspace_id = 'ws-archive')`,
        format: 'JSONEachRow',
      });
      count = Number((await result.json<{ n: string }>())[0].n);
    }
    expect(count).toBe(120);
    const hosts = await store.client.query({ query: `SELECT DISTINCT src_ip FROM telemetry.batches WHERE workspace_id = 'ws-archive'`, format: 'JSONEachRow' });
    expect((await hosts.json<{ src_ip: string }>()).length).toBe(4);
  });

  it('stores columns (taken from the records\' keys and headers) that agree with each record\'s JSON', async () => {
    const bus = app.get<Bus>(BUS);
    // Recent, so the archive's 30-day TTL keeps it; milliseconds that are not a round number.
    const receivedAt = Math.floor(Date.now() / 1000) * 1000 - 60_911;
    const records = packTelemetryRecords('ws-columns', 'dns', benignDnsEvents(60, { hosts: 6 }), receivedAt, { requestId: 'req-columns' });
    await bus.publish(TOPICS.events.name, records);
    const store = await app.get<StoreFactory>(STORE_FACTORY).open('telemetry', TELEMETRY_MIGRATIONS);
    type Row = { workspace_id: string; type: string; src_ip: string; batch_id: string; ms: string; event_count: number; json: string[] };
    let rows: Row[] = [];
    for (let i = 0; i < 150 && rows.length < records.length; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const result = await store.client.query({
        query: `SELECT workspace_id, type, src_ip, batch_id, toString(toUnixTimestamp64Milli(received_at)) AS ms, event_count,
                  [JSONExtractString(events, 'workspaceId'), JSONExtractString(events, 'type'), JSONExtractString(JSONExtractRaw(events, 'events', 1), 'srcIP'),
                   JSONExtractString(events, 'batchId'), toString(JSONExtractInt(events, 'receivedAt')), toString(JSONLength(events, 'events'))] AS json
                FROM telemetry.batches WHERE workspace_id = 'ws-columns' ORDER BY batch_id`,
        format: 'JSONEachRow',
      });
      rows = await result.json<Row>();
    }
    expect(rows).toHaveLength(records.length);
    for (const row of rows) {
      expect([row.workspace_id, row.type, row.src_ip, row.batch_id, row.ms, String(row.event_count)]).toEqual(row.json);
    }
    expect(rows[0].ms).toBe(String(receivedAt));
  });

  it('counts the events received per hour, re-deliveries once', async () => {
    const store = await app.get<StoreFactory>(STORE_FACTORY).open('telemetry', TELEMETRY_MIGRATIONS);
    const hours = await eventsPerHour(store, 'ws-archive', Date.now() - 3_600_000);
    expect(hours.reduce((sum, h) => sum + h.events, 0)).toBe(120);
    expect(hours.every((h) => /^\d{4}-\d{2}-\d{2}T\d{2}:00$/.test(h.hour))).toBe(true);
    expect(await eventsPerHour(store, 'no-such-workspace', 0)).toEqual([]);
  });

  it('archives a record whose JSON spans lines (from another producer) intact', async () => {
    const bus = app.get<Bus>(BUS);
    const pretty = JSON.stringify({ v: 1, workspaceId: 'ws-pretty', type: 'dns', batchId: 'p-1', receivedAt: Date.now(), events: [{ ts: '2026-01-01T00:00:00.000Z', srcIP: '10.9.0.1', query: 'a.com' }] }, null, 2);
    await bus.publish(TOPICS.events.name, [{ key: 'ws-pretty|10.9.0.1', value: Buffer.from(pretty) }]);
    const store = await app.get<StoreFactory>(STORE_FACTORY).open('telemetry', TELEMETRY_MIGRATIONS);
    let rows: { src_ip: string; event_count: number }[] = [];
    for (let i = 0; i < 150 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const result = await store.client.query({ query: `SELECT src_ip, event_count FROM telemetry.batches WHERE workspace_id = 'ws-pretty'`, format: 'JSONEachRow' });
      rows = await result.json();
    }
    expect(rows).toEqual([{ src_ip: '10.9.0.1', event_count: 1 }]);
  });

  it('stores records in 1 MiB granules, merges them in 1 MiB blocks up to 1 GiB parts, recompressing events with ZSTD(1)', async () => {
    const store = await app.get<StoreFactory>(STORE_FACTORY).open('telemetry', TELEMETRY_MIGRATIONS);
    const result = await store.client.query({ query: `SELECT create_table_query FROM system.tables WHERE database = 'telemetry' AND name = 'batches_v2'`, format: 'JSONEachRow' });
    const [{ create_table_query: ddl }] = await result.json<{ create_table_query: string }>();
    expect(ddl).toContain('`events` String CODEC(ZSTD(1))');
    expect(ddl).toMatch(/index_granularity_bytes = 1048576\b/);
    expect(ddl).toMatch(/merge_max_block_size_bytes = 1048576\b/);
    expect(ddl).toMatch(/max_bytes_to_merge_at_max_space_in_pool = 1073741824\b/);
  });
});
