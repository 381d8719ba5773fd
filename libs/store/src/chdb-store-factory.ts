import * as fs from 'node:fs';
import * as path from 'node:path';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { ChdbPathConflictError, StoreConfigError } from './errors';
import { assertDatabaseName } from './identifiers';
import { PooledConnection, type ClientConnection } from './pooled-connection';
import { runMigrations } from './run-migrations';
import type { Migration, ServiceStore, StoreFactory } from './store';
import { escapedForTsv } from './tsv-escape';

/** An engine connection: @clickhouse/client's connection contract, plus chdb's raw query (session statements) and raw insert. */
type EngineConnection = ClientConnection & {
  chdb: {
    queryAsync(sql: string): Promise<unknown>;
    /** Hands the bytes to the engine without copying them into a JavaScript string. */
    rawInsert(params: { table: string; format: 'TSV'; values: Buffer }): Promise<unknown>;
  };
};

/** Bytes the embedded engine tracks (`total`), and the part of it that merges and running statements hold. */
export interface EngineMemory {
  total: number;
  merges: number;
  inserts: number;
  queries: number;
}

/** Engine connections per store: page requests, inserts and background reads each take a free one. */
export const DEFAULT_ENGINE_CONNECTIONS = 4;

/**
 * Session settings of every engine connection. Lazy materialization: an `ORDER BY … LIMIT n` query reads its wide
 * columns (findings' bodies) only for the rows that survive the limit; the engine applies it by default only up to
 * LIMIT 10, and a findings page is LIMIT 1001 (median 30-day page of the largest bench workspace: 37 → 26 ms).
 */
const SESSION_SETTINGS = ['SET query_plan_max_limit_for_lazy_materialization = 10000'];

/* chdb is loaded on first use: it is a large native library that server mode never needs. */
function createEngineConnection(dataPath: string): EngineConnection {
  const { createChdbConnection } = require('chdb/connection') as {
    createChdbConnection(options: { path: string }): EngineConnection;
  };
  return createChdbConnection({ path: dataPath });
}

function drainEngine(): Promise<void> {
  const { drainPending } = require('chdb') as { drainPending(): Promise<void> };
  return drainPending();
}

/**
 * The data directory the engine of this process is bound to, shared by every ChdbStoreFactory at that path.
 * chdb binds one data directory per process, so a factory at another path is refused until the last one closes.
 */
let binding: { path: string; holders: number } | undefined;

function acquireBinding(dataPath: string): void {
  if (binding && binding.path !== dataPath) {
    throw new ChdbPathConflictError(
      `the embedded ClickHouse engine of this process is bound to "${binding.path}"; cannot open "${dataPath}" ` +
        'until every store on that path is closed (chdb allows one data directory per process)',
    );
  }
  binding = binding ? { path: dataPath, holders: binding.holders + 1 } : { path: dataPath, holders: 1 };
}

function releaseBinding(): void {
  if (!binding) return;
  binding = binding.holders > 1 ? { path: binding.path, holders: binding.holders - 1 } : undefined;
}

/**
 * Embedded mode: one chdb engine for the process, one @clickhouse/client over it, shared by every service's
 * store (each service keeps to its own database). Services must not close the shared client; close the factory.
 */
export class ChdbStoreFactory implements StoreFactory {
  readonly path: string;
  private client: ClickHouseClient | undefined;
  private pool: PooledConnection<EngineConnection> | undefined;
  /** Settles once every engine connection has its session settings. */
  private sessionsReady: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;
  /** Opens run one after the other so that migrations of two services never interleave on the engine. */
  private opening: Promise<unknown> = Promise.resolve();

  /** @param connections engine connections the client spreads its calls over (each runs one query at a time) */
  constructor(
    dataPath: string,
    private readonly connections = DEFAULT_ENGINE_CONNECTIONS,
  ) {
    if (typeof dataPath !== 'string' || dataPath.trim() === '' || dataPath === ':memory:') {
      throw new StoreConfigError(`the chdb store needs a data directory path, got ${JSON.stringify(dataPath)}`);
    }
    if (!Number.isInteger(connections) || connections < 1) throw new StoreConfigError(`connections must be ≥ 1, got ${connections}`);
    this.path = path.resolve(dataPath);
  }

  open(database: string, migrations: Migration[]): Promise<ServiceStore> {
    const next = this.opening.then(async () => {
      assertDatabaseName(database);
      const client = this.connect();
      await this.sessionsReady;
      await runMigrations(client, database, migrations);
      return { database, client, insertLines: (table: string, lines: Buffer) => this.insertLines(table, lines) };
    });
    this.opening = next.catch(() => undefined);
    return next;
  }

  /**
   * Memory the embedded engine accounts for (its caches, parts being written, merges), once connected: in total,
   * and how much of it the merges and the statements running now (inserts, queries) hold.
   */
  async trackedMemory(): Promise<EngineMemory | undefined> {
    if (this.client === undefined || this.closing) return undefined;
    const result = await this.client.query({
      query: `SELECT
                (SELECT value FROM system.metrics WHERE metric = 'MemoryTracking') AS total,
                (SELECT sum(memory_usage) FROM system.merges) AS merges,
                (SELECT sumIf(memory_usage, query_kind = 'Insert') FROM system.processes) AS inserts,
                (SELECT sumIf(memory_usage, query_kind != 'Insert') FROM system.processes) AS queries`,
      format: 'JSONEachRow',
    });
    const rows = await result.json<EngineMemoryRow>();
    return rows.length === 0 ? undefined : engineMemoryOf(rows[0]);
  }

  private async insertLines(table: string, lines: Buffer): Promise<void> {
    const pool = this.pool;
    if (pool === undefined || this.closing) throw new StoreConfigError(`the chdb store at "${this.path}" is closed`);
    await pool.run((engine) => engine.chdb.rawInsert({ table, format: 'TSV', values: escapedForTsv(lines) }));
  }

  /** Closes the engine connection and waits until chdb has really released the data directory. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private connect(): ClickHouseClient {
    if (this.closing) throw new StoreConfigError(`the chdb store at "${this.path}" is closed`);
    if (this.client) return this.client;
    acquireBinding(this.path);
    const members: EngineConnection[] = [];
    try {
      fs.mkdirSync(this.path, { recursive: true });
      while (members.length < this.connections) members.push(createEngineConnection(this.path));
      this.sessionsReady = Promise.all(members.map(async (m) => {
        for (const statement of SESSION_SETTINGS) await m.chdb.queryAsync(statement);
      }));
      this.pool = new PooledConnection(members);
      this.client = createClient({ connection: this.pool });
    } catch (error) {
      // Connections made before the failure would otherwise hold the engine open.
      for (const member of members) void member.close().catch(() => undefined);
      releaseBinding();
      const message = `cannot open the embedded ClickHouse engine at "${this.path}": ${(error as Error).message}`;
      // chdb refuses with ChdbConnectionError when something outside these factories holds another directory.
      throw (error as Error).name === 'ChdbConnectionError'
        ? new ChdbPathConflictError(message)
        : new StoreConfigError(message);
    }
    return this.client;
  }

  private async shutdown(): Promise<void> {
    await this.opening;
    const client = this.client;
    if (!client) return;
    this.client = undefined;
    this.pool = undefined;
    try {
      await client.close();
      // close() returns before chdb tears the connection down when operations are still running on it.
      await drainEngine();
    } finally {
      releaseBinding();
    }
  }
}

type EngineMemoryRow = Record<keyof EngineMemory, string | number | null>;

/**
 * The engine's memory reading. Its `MemoryTracking` counter can read below zero (memory the library allocated
 * before the counter started, freed afterwards, is subtracted): a negative total is reported as none.
 */
export function engineMemoryOf(row: EngineMemoryRow): EngineMemory | undefined {
  if (row.total === null) return undefined;
  return { total: Math.max(0, Number(row.total)), merges: Number(row.merges ?? 0), inserts: Number(row.inserts ?? 0), queries: Number(row.queries ?? 0) };
}
