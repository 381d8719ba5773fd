import type { ClickHouseClient } from '@clickhouse/client';

/**
 * A versioned schema migration of one service's database. Statements run in order; `version` is
 * recorded in `<database>.schema_migrations` so each migration runs once.
 */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
  /**
   * Work that plain statements cannot express (e.g. rebuilding a table whose partition key changes), run after
   * the statements. Like them it must be idempotent: an interrupted migration runs again in full.
   */
  apply?: (client: ClickHouseClient, database: string) => Promise<void>;
}

/** A ClickHouse client scoped to one service's database (tables are referenced as `${database}.<table>`). */
export interface ServiceStore {
  readonly database: string;
  readonly client: ClickHouseClient;
  /**
   * Inserts rows given as lines of raw tab-separated values (ClickHouse's TabSeparatedRaw): each line one row, its
   * fields in the table's column order separated by `\t` and taken verbatim (no escapes), ended by `\n`, with no raw
   * tab or newline inside a field. The embedded engine takes the bytes as they are, where a plain
   * insert would first turn them into a JavaScript string (megabytes a second of large strings on the thread that
   * answers HTTP, which then runs full GCs every second or so).
   */
  insertLines(table: string, lines: Buffer): Promise<void>;
}

/**
 * Opens stores. Embedded mode: one chdb engine for the process (chdb binds one data directory per process),
 * each service with its own database. Server mode: @clickhouse/client over HTTP.
 */
export interface StoreFactory {
  open(database: string, migrations: Migration[]): Promise<ServiceStore>;
  close(): Promise<void>;
}

export const STORE_FACTORY = Symbol('STORE_FACTORY');
