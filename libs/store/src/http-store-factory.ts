import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { StoreConfigError } from './errors';
import { assertDatabaseName } from './identifiers';
import { runMigrations } from './run-migrations';
import type { Migration, ServiceStore, StoreFactory } from './store';

export interface HttpStoreConfig {
  url: string;
  username?: string;
  password?: string;
}

export type HttpClientConfig = NonNullable<Parameters<typeof createClient>[0]>;

function assertHttpUrl(raw: unknown): void {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new StoreConfigError(`the ClickHouse URL is not a URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new StoreConfigError(`the ClickHouse URL must use http: or https:, got "${url.protocol}"`);
  }
}

/**
 * The @clickhouse/client options for one database of a ClickHouse server, or for server-wide statements when
 * `database` is omitted. Username and password are passed only when configured.
 */
export function buildHttpClientConfig(config: HttpStoreConfig, database?: string): HttpClientConfig {
  assertHttpUrl(config.url);
  if (database !== undefined) assertDatabaseName(database);
  return {
    url: config.url,
    ...(config.username !== undefined ? { username: config.username } : {}),
    ...(config.password !== undefined ? { password: config.password } : {}),
    ...(database !== undefined ? { database } : {}),
    application: 'vigil',
  };
}

/**
 * Server mode: @clickhouse/client over HTTP. Each opened database gets its own client whose default database is
 * that one; databases are created (and migrated) through a server-wide client first.
 */
export class HttpStoreFactory implements StoreFactory {
  private readonly clients = new Map<string, ClickHouseClient>();
  private admin: ClickHouseClient | undefined;
  private closed = false;

  constructor(private readonly config: HttpStoreConfig) {
    buildHttpClientConfig(config);
  }

  async open(database: string, migrations: Migration[]): Promise<ServiceStore> {
    if (this.closed) throw new StoreConfigError('the ClickHouse store factory is closed');
    const serverWide = (this.admin ??= createClient(buildHttpClientConfig(this.config)));
    await runMigrations(serverWide, database, migrations);
    let client = this.clients.get(database);
    if (!client) {
      client = createClient(buildHttpClientConfig(this.config, database));
      this.clients.set(database, client);
    }
    return { database, client, insertLines: (table, lines) => insertRawLines(client, table, lines) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const all = [...this.clients.values(), ...(this.admin ? [this.admin] : [])];
    this.clients.clear();
    this.admin = undefined;
    await Promise.all(all.map((c) => c.close()));
  }
}

/** ServiceStore.insertLines over HTTP: the lines are the body of a TabSeparatedRaw insert. */
export async function insertRawLines(client: ClickHouseClient, table: string, lines: Buffer): Promise<void> {
  await client.insert({ table, format: 'TabSeparatedRaw', values: Readable.from([lines], { objectMode: false }) });
}
