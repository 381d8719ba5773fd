import type { ClickHouseClient } from '@clickhouse/client';
import { MigrationConflictError, StoreConfigError } from './errors';
import { assertDatabaseName } from './identifiers';
import type { Migration } from './store';

export interface MigrationReport {
  /** Versions applied by this run, in order. */
  applied: number[];
  /** Versions that were already recorded before this run. */
  alreadyApplied: number[];
}

interface RecordedMigration {
  version: number;
  name: string;
}

const MAX_VERSION = 0xffffffff;

function assertValidMigrations(migrations: Migration[]): void {
  if (!Array.isArray(migrations)) throw new StoreConfigError('migrations must be an array');
  const seen = new Map<number, string>();
  for (const m of migrations) {
    if (!Number.isInteger(m?.version) || m.version < 1 || m.version > MAX_VERSION) {
      throw new StoreConfigError(`migration version must be a whole number from 1, got ${JSON.stringify(m?.version)}`);
    }
    if (typeof m.name !== 'string' || m.name.trim() === '') {
      throw new StoreConfigError(`migration ${m.version} needs a name`);
    }
    if (!Array.isArray(m.statements) || m.statements.some((s) => typeof s !== 'string' || s.trim() === '')) {
      throw new StoreConfigError(`migration ${m.version} (${m.name}) must list non-empty SQL statements`);
    }
    if (m.apply !== undefined && typeof m.apply !== 'function') {
      throw new StoreConfigError(`migration ${m.version} (${m.name}): apply must be a function`);
    }
    const other = seen.get(m.version);
    if (other !== undefined) {
      throw new StoreConfigError(`migration version ${m.version} is used twice: "${other}" and "${m.name}"`);
    }
    seen.set(m.version, m.name);
  }
}

async function readRecorded(client: ClickHouseClient, database: string): Promise<Map<number, string>> {
  const result = await client.query({
    query: `SELECT version, name FROM ${database}.schema_migrations ORDER BY version, applied_at`,
    format: 'JSONEachRow',
  });
  const rows = await result.json<RecordedMigration>();
  const recorded = new Map<number, string>();
  // A version can be recorded twice when two processes migrated at once; the first record wins.
  for (const row of rows) if (!recorded.has(Number(row.version))) recorded.set(Number(row.version), row.name);
  return recorded;
}

/**
 * Brings `database` up to date: creates it and its `schema_migrations` table when missing, then applies every
 * migration whose version is not recorded yet, in version order, recording each after its statements ran.
 * Safe to run at every start. Statements must be idempotent (`IF NOT EXISTS`): a migration interrupted half-way
 * is not recorded and runs again in full next time.
 * Throws MigrationConflictError when a recorded version carries another name than the code's.
 */
export async function runMigrations(
  client: ClickHouseClient,
  database: string,
  migrations: Migration[],
): Promise<MigrationReport> {
  assertDatabaseName(database);
  assertValidMigrations(migrations);
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
  await client.command({
    query: `CREATE TABLE IF NOT EXISTS ${database}.schema_migrations
      (version UInt32, name String, applied_at DateTime64(3, 'UTC') DEFAULT now64(3))
      ENGINE = MergeTree ORDER BY version`,
  });

  const recorded = await readRecorded(client, database);
  const ordered = [...migrations].sort((a, b) => a.version - b.version);
  for (const m of ordered) {
    const recordedName = recorded.get(m.version);
    if (recordedName !== undefined && recordedName !== m.name) {
      throw new MigrationConflictError(
        `database "${database}" recorded migration ${m.version} as "${recordedName}" but the code names it "${m.name}"`,
      );
    }
  }

  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  for (const m of ordered) {
    if (recorded.has(m.version)) {
      report.alreadyApplied.push(m.version);
      continue;
    }
    for (const statement of m.statements) await client.command({ query: statement });
    if (m.apply) await m.apply(client, database);
    await client.insert({
      table: `${database}.schema_migrations`,
      values: [{ version: m.version, name: m.name }],
      columns: ['version', 'name'],
      format: 'JSONEachRow',
    });
    report.applied.push(m.version);
  }
  return report;
}
