import { ChdbStoreFactory, type ServiceStore } from '@vigil/store';
import { makeTempDir } from '@vigil/testing';
import { ARCHIVE_MERGE_SELECTOR_BASE, TELEMETRY_MIGRATIONS } from './migrations';

const record = (workspaceId: string, batchId: string) =>
  JSON.stringify({ v: 1, workspaceId, type: 'dns', batchId, receivedAt: Date.now(), events: [{ srcIP: '10.1.1.1', query: 'example.com' }] });

describe('telemetry archive migrations (chdb)', () => {
  const temp = makeTempDir('vigil-archive-migrations-');

  afterAll(() => temp.cleanup());

  it('keeps the records archived before migration 3 readable through `batches`, with the new ones, and runs again harmlessly', async () => {
    const before = TELEMETRY_MIGRATIONS.filter((m) => m.version < 3);
    let factory = new ChdbStoreFactory(temp.path);
    let store = await factory.open('telemetry', before);
    await store.client.command({ query: `INSERT INTO telemetry.incoming FORMAT TabSeparatedRaw\n${record('ws-old', 'b-old')}` });
    await factory.close();

    factory = new ChdbStoreFactory(temp.path);
    try {
      store = await factory.open('telemetry', TELEMETRY_MIGRATIONS);
      await store.client.command({ query: `INSERT INTO telemetry.incoming FORMAT TabSeparatedRaw\n${record('ws-new', 'b-new')}` });
      const rows = async (query: string) => (await store.client.query({ query, format: 'JSONEachRow' })).json<Record<string, unknown>>();
      expect(await rows(`SELECT workspace_id, _table AS stored_in, event_count FROM telemetry.batches FINAL ORDER BY workspace_id`)).toEqual([
        { workspace_id: 'ws-new', stored_in: 'batches_v2', event_count: 1 },
        { workspace_id: 'ws-old', stored_in: 'batches_v1', event_count: 1 },
      ]);
      const migration3 = TELEMETRY_MIGRATIONS.find((m) => m.version === 3)!;
      await migration3.apply!(store.client, 'telemetry');
      expect(await rows(`SELECT name, engine FROM system.tables WHERE database = 'telemetry' AND startsWith(name, 'batches') ORDER BY name`)).toEqual([
        { name: 'batches', engine: 'Merge' },
        { name: 'batches_v1', engine: 'ReplacingMergeTree' },
        { name: 'batches_v2', engine: 'ReplacingMergeTree' },
      ]);
    } finally {
      await factory.close();
    }
  });

  it('sets the merge selector base of the archive table on an upgraded store, and archived rows still go in and come out', async () => {
    const dir = makeTempDir('vigil-archive-selector-');
    const engineOf = async (store: ServiceStore): Promise<string> => {
      const result = await store.client.query({ query: `SELECT engine_full FROM system.tables WHERE database = 'telemetry' AND name = 'batches_v2'`, format: 'JSONEachRow' });
      const [row] = await result.json<{ engine_full: string }>();
      return row.engine_full;
    };
    let factory = new ChdbStoreFactory(dir.path);
    try {
      const store = await factory.open('telemetry', TELEMETRY_MIGRATIONS.filter((m) => m.version < 4));
      expect(await engineOf(store)).not.toContain('merge_selector_base');
    } finally {
      await factory.close();
    }
    factory = new ChdbStoreFactory(dir.path);
    try {
      const store = await factory.open('telemetry', TELEMETRY_MIGRATIONS);
      expect(await engineOf(store)).toContain(`merge_selector_base = ${ARCHIVE_MERGE_SELECTOR_BASE}`);
      await store.client.command({ query: `INSERT INTO telemetry.incoming FORMAT TabSeparatedRaw\n${record('ws-a', 'b-1')}` });
      const result = await store.client.query({ query: `SELECT workspace_id, batch_id FROM telemetry.batches FINAL`, format: 'JSONEachRow' });
      expect(await result.json()).toEqual([{ workspace_id: 'ws-a', batch_id: 'b-1' }]);
    } finally {
      await factory.close();
      dir.cleanup();
    }
  });
});
