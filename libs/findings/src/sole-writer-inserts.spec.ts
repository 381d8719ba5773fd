import type { ServiceStore } from '@vigil/store';
import { FindingsRepository } from './repositories';
import { findingRecord, openTempFindingsStore, type TempStore } from './test-fixtures';

/** The real store, with its existence checks and inserts counted (and inserts made to fail on demand). */
function countingStore(store: ServiceStore): { store: ServiceStore; counts: { checks: number; inserts: number }; failInserts: (on: boolean) => void } {
  const counts = { checks: 0, inserts: 0 };
  let failing = false;
  const client = new Proxy(store.client, {
    get(target, property) {
      if (property === 'query') {
        return (params: Parameters<typeof target.query>[0]) => {
          if (params.query.includes('SELECT DISTINCT workspace_id, record_id')) counts.checks++;
          return target.query(params);
        };
      }
      if (property === 'insert') {
        return (params: Parameters<typeof target.insert>[0]) => {
          counts.inserts++;
          return failing ? Promise.reject(new Error('store unavailable')) : target.insert(params);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: { ...store, client }, counts, failInserts: (on) => (failing = on) };
}

describe('inserts of the only writer (real chdb)', () => {
  let temp: TempStore;
  beforeAll(async () => {
    temp = await openTempFindingsStore();
  });
  afterAll(() => temp?.close());

  it('catches re-deliveries of its own inserts without asking the store, and earlier ones by asking it', async () => {
    const ws = 'ws-remember';
    const now = Date.now();
    const first = countingStore(temp.store);
    const writer = new FindingsRepository(first.store, { soleWriter: true });
    await writer.insert([findingRecord(ws, 'seed:1', 3, now)]);
    const batch = [findingRecord(ws, 'r1:1', 3, now + 1), findingRecord(ws, 'r2:1', 3, now + 2)];
    expect(await writer.insert(batch)).toEqual({ inserted: 2, duplicates: 0, rejected: [] });
    const checks = first.counts.checks;
    expect(await writer.insert(batch)).toEqual({ inserted: 0, duplicates: 2, rejected: [] });
    expect(first.counts.checks).toBe(checks);

    // A restarted writer remembers nothing: what was stored before is found in the store, and stored once.
    const second = countingStore(temp.store);
    const restarted = new FindingsRepository(second.store, { soleWriter: true });
    expect(await restarted.insert(batch)).toEqual({ inserted: 0, duplicates: 2, rejected: [] });
    expect(second.counts.checks).toBe(1);
    // So is a late record (its time before the newest stored when the writer started), each time it comes.
    const late = [findingRecord(ws, 'late:1', 3, now - 60_000)];
    expect(await restarted.insert(late)).toEqual({ inserted: 1, duplicates: 0, rejected: [] });
    expect(await restarted.insert(late)).toEqual({ inserted: 0, duplicates: 1, rejected: [] });
    expect(second.counts.checks).toBe(3);
    // A record later than everything stored before the restart is answered from memory once stored.
    const fresh = [findingRecord(ws, 'new:1', 3, now + 3)];
    expect(await restarted.insert(fresh)).toEqual({ inserted: 1, duplicates: 0, rejected: [] });
    expect(await restarted.insert(fresh)).toEqual({ inserted: 0, duplicates: 1, rejected: [] });
    expect(second.counts.checks).toBe(3);
    const stored = await temp.store.client.query({ query: `SELECT count() AS n FROM findings.findings WHERE workspace_id = '${ws}'`, format: 'JSONEachRow' });
    expect((await stored.json<{ n: string | number }>()).map((r) => Number(r.n))).toEqual([5]);
  });

  it('after a failed insert, asks the store about its records again rather than trusting memory', async () => {
    const ws = 'ws-failed';
    const now = Date.now() + 10_000;
    const counting = countingStore(temp.store);
    const writer = new FindingsRepository(counting.store, { soleWriter: true });
    await writer.insert([findingRecord(ws, 'ok:1', 3, now)]);
    counting.failInserts(true);
    await expect(writer.insert([findingRecord(ws, 'f1:1', 3, now + 5)])).rejects.toThrow('store unavailable');
    counting.failInserts(false);
    const checks = counting.counts.checks;
    expect(await writer.insert([findingRecord(ws, 'f1:1', 3, now + 5)])).toEqual({ inserted: 1, duplicates: 0, rejected: [] });
    expect(counting.counts.checks).toBe(checks + 1);
  });

  it('gathers the calls made while an insert waits into one insert, and answers each for its own records', async () => {
    const ws = 'ws-gather';
    const now = Date.now() + 20_000;
    const counting = countingStore(temp.store);
    const writer = new FindingsRepository(counting.store, { soleWriter: true, insertLingerMs: 50 });
    await writer.insert([findingRecord(ws, 'old:1', 3, now)]);
    const inserts = counting.counts.inserts;
    const results = await Promise.all([
      writer.insert([findingRecord(ws, 'a:1', 3, now + 1), findingRecord(ws, 'b:1', 3, now + 1)]),
      writer.insert([findingRecord(ws, 'b:1', 3, now + 1), findingRecord(ws, 'old:1', 3, now)]),
      writer.insert([{ workspaceId: ws } as never, findingRecord(ws, 'c:1', 3, now + 2)]),
    ]);
    expect(counting.counts.inserts).toBe(inserts + 1);
    expect(results.map((r) => ({ inserted: r.inserted, duplicates: r.duplicates, rejected: r.rejected.length }))).toEqual([
      { inserted: 2, duplicates: 0, rejected: 0 },
      { inserted: 0, duplicates: 2, rejected: 0 },
      { inserted: 1, duplicates: 0, rejected: 1 },
    ]);
  });

  it('rejects every call of an insert that fails, and stores them when they are retried', async () => {
    const ws = 'ws-gather-fail';
    const now = Date.now() + 30_000;
    const counting = countingStore(temp.store);
    const writer = new FindingsRepository(counting.store, { soleWriter: true, insertLingerMs: 20 });
    counting.failInserts(true);
    const calls = [writer.insert([findingRecord(ws, 'x:1', 3, now)]), writer.insert([findingRecord(ws, 'y:1', 3, now)])];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    counting.failInserts(false);
    expect(await writer.insert([findingRecord(ws, 'x:1', 3, now), findingRecord(ws, 'y:1', 3, now)])).toEqual({ inserted: 2, duplicates: 0, rejected: [] });
  });
});
