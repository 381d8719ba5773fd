import { randomUUID } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { MigrationConflictError } from './errors';
import { HttpStoreFactory } from './http-store-factory';
import type { Migration } from './store';

/**
 * Contract of HttpStoreFactory against a real ClickHouse server. Runs when CLICKHOUSE_URL is set (credentials in
 * the URL, as deployed, or CLICKHOUSE_USER / CLICKHOUSE_PASSWORD); otherwise every test is reported as skipped,
 * never as passed. No ClickHouse server exists on the development machines: the same SQL runs through chdb in
 * the other specs, and `docker compose --profile distributed up clickhouse` provides one where Docker does.
 */
const serverUrl = process.env.CLICKHOUSE_URL?.trim() || undefined;
const describeWithServer = serverUrl ? describe : describe.skip;
const title = serverUrl ? `HttpStoreFactory against ${new URL(serverUrl).host}` : 'HttpStoreFactory against a ClickHouse server (skipped: CLICKHOUSE_URL is not set)';

describeWithServer(title, () => {
  const config = { url: serverUrl ?? 'http://unused:8123', username: process.env.CLICKHOUSE_USER, password: process.env.CLICKHOUSE_PASSWORD };
  const databases: string[] = [];
  const freshDatabase = () => {
    const name = `vigil_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    databases.push(name);
    return name;
  };
  const notes = (database: string): Migration => ({
    version: 1,
    name: 'create notes',
    statements: [
      `CREATE TABLE IF NOT EXISTS ${database}.notes
        (id UInt32, text String, inserted_at DateTime64(6, 'UTC') DEFAULT now64(6)) ENGINE = MergeTree ORDER BY id`,
    ],
  });
  const seed = (database: string): Migration => ({
    version: 2,
    name: 'seed first note',
    statements: [`INSERT INTO ${database}.notes (id, text) VALUES (1, 'seeded')`],
  });

  afterAll(async () => {
    const factory = new HttpStoreFactory(config);
    try {
      for (const database of databases) {
        const { client } = await factory.open(database, []);
        await client.command({ query: `DROP DATABASE IF EXISTS ${database}` });
      }
    } finally {
      await factory.close();
    }
  });

  const rows = async <T>(client: ClickHouseClient, query: string, query_params?: Record<string, unknown>): Promise<T[]> => {
    const result = await client.query({ query, query_params, format: 'JSONEachRow' });
    return result.json<T>();
  };

  it('creates the database, applies migrations once and keeps data across factories', async () => {
    const database = freshDatabase();
    const first = new HttpStoreFactory(config);
    const store = await first.open(database, [notes(database), seed(database)]);
    await first.open(database, [notes(database), seed(database)]);
    // The store's client defaults to its database, so unqualified names work too.
    expect(await rows(store.client, 'SELECT count() AS n FROM notes')).toEqual([{ n: '1' }]);
    await first.close();

    const second = new HttpStoreFactory(config);
    try {
      const again = await second.open(database, [notes(database), seed(database)]);
      expect(await rows(again.client, 'SELECT count() AS n FROM notes')).toEqual([{ n: '1' }]);
      await expect(second.open(database, [{ ...seed(database), name: 'other' }])).rejects.toThrow(MigrationConflictError);
    } finally {
      await second.close();
    }
  });

  it('lets two replicas migrate the same new database at once', async () => {
    const database = freshDatabase();
    const replicas = [new HttpStoreFactory(config), new HttpStoreFactory(config)];
    try {
      const stores = await Promise.all(replicas.map((factory) => factory.open(database, [notes(database)])));
      const tables = await rows<{ name: string }>(stores[0].client, 'SELECT name FROM system.tables WHERE database = {db:String} ORDER BY name', { db: database });
      expect(tables.map((t) => t.name)).toEqual(['notes', 'schema_migrations']);
    } finally {
      await Promise.all(replicas.map((factory) => factory.close()));
    }
  });

  it('round-trips JSONEachRow inserts and typed query parameters, with server-set microsecond insertion times', async () => {
    const database = freshDatabase();
    const factory = new HttpStoreFactory(config);
    try {
      const { client } = await factory.open(database, [notes(database)]);
      await client.insert({ table: 'notes', values: [{ id: 7, text: 'first' }], columns: ['id', 'text'], format: 'JSONEachRow' });
      await client.insert({ table: 'notes', values: [{ id: 8, text: "it's \"quoted\" ✓" }], columns: ['id', 'text'], format: 'JSONEachRow' });
      const found = await rows<{ text: string }>(client, 'SELECT text FROM notes WHERE id = {id:UInt32}', { id: 8 });
      expect(found).toEqual([{ text: "it's \"quoted\" ✓" }]);
      const times = await rows<{ id: number; t: string }>(client, 'SELECT id, toUnixTimestamp64Micro(inserted_at) AS t FROM notes ORDER BY id');
      expect(times).toHaveLength(2);
      expect(BigInt(times[1].t)).toBeGreaterThanOrEqual(BigInt(times[0].t));
      expect(Number(BigInt(times[0].t) / 1_000_000n)).toBeGreaterThan(Date.now() / 1000 - 3600);
    } finally {
      await factory.close();
    }
  });

  it('rejects invalid SQL with the server message instead of failing the process', async () => {
    const database = freshDatabase();
    const factory = new HttpStoreFactory(config);
    try {
      const { client } = await factory.open(database, []);
      await expect(client.query({ query: 'SELECT * FROM no_such_table' })).rejects.toThrow(/no_such_table/);
    } finally {
      await factory.close();
    }
  });
});
