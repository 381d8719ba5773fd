import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { ChdbStoreFactory, engineMemoryOf } from './chdb-store-factory';
import { createStoreFactory } from './create-store-factory';
import { ChdbPathConflictError, MigrationConflictError, StoreConfigError } from './errors';
import { runMigrations } from './run-migrations';
import type { Migration } from './store';

const notes: Migration = {
  version: 1,
  name: 'create notes',
  statements: ['CREATE TABLE IF NOT EXISTS svc.notes (id UInt32, text String) ENGINE = MergeTree ORDER BY id'],
};
// Not idempotent on purpose: a second run would add a second row.
const seed: Migration = {
  version: 2,
  name: 'seed first note',
  statements: ["INSERT INTO svc.notes (id, text) VALUES (1, 'seeded')"],
};

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  const result = await client.query({ query, format: 'JSONEachRow' });
  return result.json<T>();
}

describe('ChdbStoreFactory', () => {
  let root: string;
  const open: ChdbStoreFactory[] = [];
  const factory = (dir: string): ChdbStoreFactory => {
    const f = new ChdbStoreFactory(dir);
    open.push(f);
    return f;
  };

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-store-'));
  });
  afterEach(async () => {
    while (open.length) await open.pop()!.close();
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('applies each migration once, records it, and keeps data after close and reopen', async () => {
    const dir = path.join(root, 'reopen');
    const first = factory(dir);
    const store = await first.open('svc', [seed, notes]);
    expect(store.database).toBe('svc');
    await store.client.insert({ table: 'svc.notes', values: [{ id: 2, text: 'written' }], format: 'JSONEachRow' });
    // Opening again in the same process must not re-run the seed.
    await first.open('svc', [notes, seed]);
    await first.close();

    const second = factory(dir);
    const reopened = await second.open('svc', [notes, seed]);
    expect(await rows(reopened.client, 'SELECT id, text FROM svc.notes ORDER BY id')).toEqual([
      { id: 1, text: 'seeded' },
      { id: 2, text: 'written' },
    ]);
    expect(await rows(reopened.client, 'SELECT version, name FROM svc.schema_migrations ORDER BY version')).toEqual([
      { version: 1, name: 'create notes' },
      { version: 2, name: 'seed first note' },
    ]);
  });

  it('applies only the missing versions, in version order', async () => {
    const f = factory(path.join(root, 'order'));
    const { client } = await f.open('svc', [notes]);
    const third: Migration = {
      version: 3,
      name: 'add author',
      statements: ["ALTER TABLE svc.notes ADD COLUMN IF NOT EXISTS author String DEFAULT 'anon'"],
    };
    // Listed out of order: 2 must still run before 3, and 1 not at all.
    const report = await runMigrations(client, 'svc', [third, seed, notes]);
    expect(report).toEqual({ applied: [2, 3], alreadyApplied: [1] });
    expect(await rows(client, 'SELECT id, author FROM svc.notes')).toEqual([{ id: 1, author: 'anon' }]);
    expect(await runMigrations(client, 'svc', [notes, seed, third])).toEqual({ applied: [], alreadyApplied: [1, 2, 3] });
  });

  it('refuses a migration whose recorded name differs, naming both', async () => {
    const f = factory(path.join(root, 'mismatch'));
    await f.open('svc', [notes]);
    const renamed: Migration = { ...notes, name: 'create the notes table' };
    await expect(f.open('svc', [renamed])).rejects.toThrow(MigrationConflictError);
    await expect(f.open('svc', [renamed])).rejects.toThrow(/"create notes".*"create the notes table"/);
  });

  it('refuses a second data directory while the first is open, and accepts it after close', async () => {
    const a = factory(path.join(root, 'a'));
    await a.open('svc', [notes]);
    const b = factory(path.join(root, 'b'));
    const refused = b.open('svc', [notes]);
    await expect(refused).rejects.toThrow(ChdbPathConflictError);
    await expect(b.open('svc', [notes])).rejects.toThrow(path.join(root, 'a'));
    // Another factory on the same directory shares the engine.
    const alsoA = factory(path.join(root, 'a'));
    await expect(alsoA.open('svc', [notes])).resolves.toMatchObject({ database: 'svc' });
    await alsoA.close();
    await a.close();
    const store = await b.open('svc', [notes]);
    expect(await rows(store.client, 'SELECT toString(count()) AS n FROM svc.notes')).toEqual([{ n: '0' }]);
  });

  it('keeps separate databases apart on one engine', async () => {
    const f = factory(path.join(root, 'two-dbs'));
    const other: Migration = { ...notes, statements: [notes.statements[0].replace('svc.', 'other.')] };
    const svc = await f.open('svc', [notes]);
    const oth = await f.open('other', [other]);
    await svc.client.insert({ table: 'svc.notes', values: [{ id: 7, text: 'x' }], format: 'JSONEachRow' });
    expect(await rows(oth.client, 'SELECT toString(count()) AS n FROM other.notes')).toEqual([{ n: '0' }]);
  });

  it('rejects bad database names, bad migration lists and a closed factory with clear errors', async () => {
    const f = factory(path.join(root, 'bad'));
    await expect(f.open('svc; DROP', [notes])).rejects.toThrow(StoreConfigError);
    await expect(f.open('svc', [notes, { ...seed, version: 1 }])).rejects.toThrow(/version 1 is used twice/);
    await expect(f.open('svc', [{ ...notes, statements: [''] }])).rejects.toThrow(/non-empty SQL/);
    await f.close();
    await expect(f.open('svc', [notes])).rejects.toThrow(/closed/);
    expect(() => new ChdbStoreFactory('')).toThrow(StoreConfigError);
  });

  it('runs a migration apply step once, after its statements, with the client and database', async () => {
    const f = factory(path.join(root, 'apply'));
    const calls: string[] = [];
    const relabel: Migration = {
      version: 3,
      name: 'relabel seeded note',
      statements: ["INSERT INTO svc.notes (id, text) VALUES (2, 'second')"],
      apply: async (client, database) => {
        const seen = await rows<{ n: string }>(client, `SELECT toString(count()) AS n FROM ${database}.notes`);
        calls.push(`${database}:${seen[0].n}`);
      },
    };
    await f.open('svc', [notes, seed, relabel]);
    await f.open('svc', [notes, seed, relabel]);
    expect(calls).toEqual(['svc:2']);
    await expect(f.open('svc', [{ ...notes, apply: 'DROP TABLE svc.notes' as never }])).rejects.toThrow(/apply must be a function/);
  });

  it("reports the engine's tracked memory, and what merges, inserts and queries hold of it, once connected", async () => {
    const f = factory(path.join(root, 'memory'));
    expect(await f.trackedMemory()).toBeUndefined();
    await f.open('svc', [notes]);
    const memory = await f.trackedMemory();
    // The engine's counter may start below zero (see engineMemoryOf): what is asserted is that it is read.
    expect(memory?.total).toBeGreaterThanOrEqual(0);
    // The reading's own query runs while it reads system.processes; nothing merges or inserts.
    expect(memory).toMatchObject({ merges: 0, inserts: 0 });
    expect(memory?.queries).toBeGreaterThanOrEqual(0);
  });

  it('reads a negative engine counter as no memory, and absent activity as none', () => {
    expect(engineMemoryOf({ total: '-118230', merges: null, inserts: 0, queries: '4096' })).toEqual({ total: 0, merges: 0, inserts: 0, queries: 4096 });
    expect(engineMemoryOf({ total: 52_428_800, merges: '1048576', inserts: null, queries: null })).toEqual({ total: 52_428_800, merges: 1_048_576, inserts: 0, queries: 0 });
    expect(engineMemoryOf({ total: null, merges: 0, inserts: 0, queries: 0 })).toBeUndefined();
  });

  it('inserts lines as verbatim values, backslashes, quotes, escape-like text and UTF-8 included', async () => {
    const f = factory(path.join(root, 'lines'));
    const store = await f.open('svc', [{ version: 1, name: 'lines', statements: ['CREATE TABLE IF NOT EXISTS svc.lines (raw String) ENGINE = MergeTree ORDER BY tuple()'] }]);
    const values = [
      JSON.stringify({ q: 'say "hi"\\there', path: 'C:\\Temp\\x', u: 'é漢😀' }),
      '\\N',
      'a\\tb\\nc\\\\',
      '{"plain":"no escapes at all"}',
    ];
    await store.insertLines('svc.lines', Buffer.from(values.map((v) => `${v}\n`).join('')));
    expect((await rows<{ raw: string }>(store.client, 'SELECT raw FROM svc.lines')).map((r) => r.raw).sort()).toEqual([...values].sort());
  });

  it('createStoreFactory picks the implementation by kind', () => {
    expect(createStoreFactory({ kind: 'chdb', path: path.join(root, 'x') })).toBeInstanceOf(ChdbStoreFactory);
    expect(() => createStoreFactory({ kind: 'nope' } as never)).toThrow(/unknown store kind "nope"/);
  });
});
