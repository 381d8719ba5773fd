import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChdbStoreFactory, type ServiceStore } from '@vigil/store';
import { findingsMigrations, MERGE_SELECTOR_BASE, WEEKLY_LAYOUT } from './migrations';
import { AlertsRepository, FindingsRepository } from './repositories';
import { alertRecord, findingRecord, servedId, sleep } from './test-fixtures';

const DATABASE = 'findings';

async function layoutOf(store: ServiceStore): Promise<Record<string, string>> {
  const result = await store.client.query({
    query: `SELECT name, partition_key FROM system.tables WHERE database = '${DATABASE}' AND name IN ('findings', 'alerts')`,
    format: 'JSONEachRow',
  });
  return Object.fromEntries((await result.json<{ name: string; partition_key: string }>()).map((r) => [r.name, r.partition_key]));
}

async function rowsOf(store: ServiceStore, table: string): Promise<{ record_id: string; at: string }[]> {
  const result = await store.client.query({
    query: `SELECT record_id, toString(toUnixTimestamp64Micro(inserted_at)) AS at FROM ${DATABASE}.${table} ORDER BY record_id`,
    format: 'JSONEachRow',
  });
  return result.json();
}

describe('findings migrations (real chdb)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-findings-migrate-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('upgrades a version-1 store with rows in place: same rows, same insertion times, bookmarks still valid', async () => {
    const [v1] = findingsMigrations();
    const old = new ChdbStoreFactory(dir);
    const store1 = await old.open(DATABASE, [v1]);
    expect(await layoutOf(store1)).toEqual({ findings: 'toDate(inserted_at)', alerts: 'toDate(inserted_at)' });
    const findings1 = new FindingsRepository(store1, { visibilityDelayMs: 0 });
    await findings1.insert(Array.from({ length: 30 }, (_, i) => findingRecord('ws-a', `f${String(i).padStart(2, '0')}:1`)));
    await new AlertsRepository(store1, { visibilityDelayMs: 0 }).insert([alertRecord('ws-a', 'a1', 3, ['dns_tunnel']), alertRecord('ws-b', 'a2', 4, ['oast'])]);
    await sleep(5);
    // A client that read the first 10 findings before the upgrade.
    const first = await findings1.page({ workspaceId: 'ws-a', maxAgeSeconds: 3600, limit: 10 });
    const findingsBefore = await rowsOf(store1, 'findings');
    const alertsBefore = await rowsOf(store1, 'alerts');
    await old.close();

    const upgraded = new ChdbStoreFactory(dir);
    try {
      const store2 = await upgraded.open(DATABASE, findingsMigrations());
      expect(await layoutOf(store2)).toEqual({ findings: WEEKLY_LAYOUT.partitionBy, alerts: WEEKLY_LAYOUT.partitionBy });
      expect(await rowsOf(store2, 'findings')).toEqual(findingsBefore);
      expect(await rowsOf(store2, 'alerts')).toEqual(alertsBefore);
      const leftovers = await store2.client.query({ query: `SELECT name FROM system.tables WHERE database = '${DATABASE}' AND name LIKE '%relayout%'`, format: 'JSONEachRow' });
      expect(await leftovers.json()).toEqual([]);

      const findings2 = new FindingsRepository(store2, { visibilityDelayMs: 0 });
      const rest = await findings2.page({ workspaceId: 'ws-a', maxAgeSeconds: 3600, limit: 100, bookmark: first.bookmark });
      expect([...first.items, ...rest.items].map(servedId)).toEqual(findingsBefore.map((r) => r.record_id));
      // The de-duplication still sees the copied rows.
      expect((await findings2.insert([findingRecord('ws-a', 'f00:1')])).duplicates).toBe(1);
    } finally {
      await upgraded.close();
    }
  }, 60_000);

  it('finishes a rebuild interrupted after the swap, and one interrupted before it, without losing rows', async () => {
    const migrations = findingsMigrations();
    const factory = new ChdbStoreFactory(dir);
    try {
      const store = await factory.open(DATABASE, [migrations[0]]);
      await new FindingsRepository(store, { visibilityDelayMs: 0 }).insert([findingRecord('ws-a', 'f1:1'), findingRecord('ws-a', 'f2:1')]);
      const before = await rowsOf(store, 'findings');
      // Interrupted before the swap: a half-filled staging table is left behind.
      await store.client.command({ query: `CREATE TABLE ${DATABASE}.findings_relayout AS ${DATABASE}.findings` });
      await store.client.command({ query: `INSERT INTO ${DATABASE}.findings_relayout SELECT * FROM ${DATABASE}.findings LIMIT 1` });
      await migrations[1].apply?.(store.client, DATABASE);
      expect(await rowsOf(store, 'findings')).toEqual(before);
      // Interrupted after the swap: the old copy is still there; running again only drops it.
      await store.client.command({ query: `CREATE TABLE ${DATABASE}.alerts_relayout AS ${DATABASE}.alerts` });
      await migrations[1].apply?.(store.client, DATABASE);
      expect(await rowsOf(store, 'findings')).toEqual(before);
      expect(await layoutOf(store)).toEqual({ findings: WEEKLY_LAYOUT.partitionBy, alerts: WEEKLY_LAYOUT.partitionBy });
      const leftovers = await store.client.query({ query: `SELECT name FROM system.tables WHERE database = '${DATABASE}' AND name LIKE '%relayout%'`, format: 'JSONEachRow' });
      expect(await leftovers.json()).toEqual([]);
    } finally {
      await factory.close();
    }
  }, 60_000);

  it('sets the merge selector base of both tables, on a fresh store and on one upgraded from version 2', async () => {
    const migrations = findingsMigrations();
    const settingOf = async (store: ServiceStore): Promise<Record<string, boolean>> => {
      const result = await store.client.query({
        query: `SELECT name, engine_full FROM system.tables WHERE database = '${DATABASE}' AND name IN ('findings', 'alerts')`,
        format: 'JSONEachRow',
      });
      const rows = await result.json<{ name: string; engine_full: string }>();
      return Object.fromEntries(rows.map((r) => [r.name, r.engine_full.includes(`merge_selector_base = ${MERGE_SELECTOR_BASE}`)]));
    };
    const before = new ChdbStoreFactory(dir);
    try {
      expect(await settingOf(await before.open(DATABASE, migrations.slice(0, 2)))).toEqual({ findings: false, alerts: false });
    } finally {
      await before.close();
    }
    const after = new ChdbStoreFactory(dir);
    try {
      const store = await after.open(DATABASE, migrations);
      expect(await settingOf(store)).toEqual({ findings: true, alerts: true });
      // Rows still go in and come out.
      await new FindingsRepository(store, { visibilityDelayMs: 0 }).insert([findingRecord('ws-a', 'f1:1')]);
      expect((await rowsOf(store, 'findings')).map((r) => r.record_id)).toEqual(['f1:1']);
    } finally {
      await after.close();
    }
  }, 60_000);
});
