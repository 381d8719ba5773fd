import { randomUUID } from 'node:crypto';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { MigrationConflictError } from './errors';
import { buildHttpClientConfig, HttpStoreFactory } from './http-store-factory';
import type { Migration } from './store';

const serverUrl = process.env.CLICKHOUSE_URL;

// The contract against a real server is registered only when one is configured.
if (serverUrl) {
  describe(`HttpStoreFactory against ${serverUrl}`, () => {
    const database = `vigil_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const notes: Migration = {
      version: 1,
      name: 'create notes',
      statements: [
        `CREATE TABLE IF NOT EXISTS ${database}.notes (id UInt32, text String) ENGINE = MergeTree ORDER BY id`,
      ],
    };
    const seed: Migration = {
      version: 2,
      name: 'seed first note',
      statements: [`INSERT INTO ${database}.notes (id, text) VALUES (1, 'seeded')`],
    };
    const config = {
      url: serverUrl,
      username: process.env.CLICKHOUSE_USER,
      password: process.env.CLICKHOUSE_PASSWORD,
    };
    let cleanup: HttpStoreFactory | undefined;

    afterAll(async () => {
      if (cleanup) {
        const { client } = await cleanup.open(database, []);
        await client.command({ query: `DROP DATABASE IF EXISTS ${database}` });
        await cleanup.close();
      }
    });

    const count = async (client: ClickHouseClient): Promise<number> => {
      const r = await client.query({ query: 'SELECT count() AS n FROM notes', format: 'JSONEachRow' });
      return Number((await r.json<{ n: string | number }>())[0].n);
    };

    it('creates the database, applies migrations once and keeps data across factories', async () => {
      const first = new HttpStoreFactory(config);
      const store = await first.open(database, [notes, seed]);
      await first.open(database, [notes, seed]);
      // The store's client defaults to its database, so unqualified names work too.
      expect(await count(store.client)).toBe(1);
      await first.close();

      cleanup = new HttpStoreFactory(config);
      const again = await cleanup.open(database, [notes, seed]);
      expect(await count(again.client)).toBe(1);
      await expect(cleanup.open(database, [{ ...seed, name: 'other' }])).rejects.toThrow(MigrationConflictError);
    });
  });
} else {
  describe('HttpStoreFactory without CLICKHOUSE_URL', () => {
    it('builds a client whose connection targets the configured URL, user and database', async () => {
      const client = createClient(
        buildHttpClientConfig({ url: 'https://ch.example:8443', username: 'vigil', password: 'pw' }, 'findings'),
      );
      // connectionParams is how the real client resolved our options; no request is sent.
      const params = (client as unknown as { connectionParams: { url: URL; database: string; auth: { username: string } } })
        .connectionParams;
      expect(params.url.toString()).toBe('https://ch.example:8443/');
      expect(params.database).toBe('findings');
      expect(params.auth.username).toBe('vigil');
      await client.close();
    });
  });
}
