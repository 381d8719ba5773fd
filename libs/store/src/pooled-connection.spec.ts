import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChdbStoreFactory } from './chdb-store-factory';
import { PooledConnection, type ClientConnection } from './pooled-connection';

/** A member whose calls stay open until the test finishes them; records which member each call reached. */
function heldMember(name: string, log: string[], pending: (() => void)[]) {
  const hold = (): Promise<never> =>
    new Promise((resolve) => {
      log.push(name);
      pending.push(() => resolve(undefined as never));
    });
  return { ping: hold, query: hold, insert: hold, command: hold, exec: hold, close: jest.fn(async () => undefined) } as unknown as ClientConnection & {
    close: jest.Mock;
  };
}

describe('PooledConnection', () => {
  it('sends each call to the member with the fewest calls in flight', async () => {
    const log: string[] = [];
    const pending: (() => void)[] = [];
    const members = ['a', 'b', 'c'].map((n) => heldMember(n, log, pending));
    const pool = new PooledConnection(members);
    const first = [pool.query({ query: '1' } as never), pool.exec({ query: '2' } as never), pool.insert({ query: '3' } as never)];
    expect(log).toEqual(['a', 'b', 'c']);
    pending[1](); // b's call ends
    await first[1];
    void pool.command({ query: '4' } as never);
    expect(log[3]).toBe('b');
    void pool.ping({} as never);
    expect(log[4]).toBe('a'); // all busy with one: the first of them
    await pool.close();
    for (const m of members) expect(m.close).toHaveBeenCalledTimes(1);
  });

  it('refuses an empty pool', () => {
    expect(() => new PooledConnection([])).toThrow(TypeError);
  });

  it('over the embedded engine, every connection has the session settings and sees the rows written through the others', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-pool-'));
    const factory = new ChdbStoreFactory(dir, 3);
    try {
      const { client } = await factory.open('svc', [
        { version: 1, name: 't', statements: ['CREATE TABLE IF NOT EXISTS svc.t (n UInt32) ENGINE = MergeTree ORDER BY n'] },
      ]);
      // Inserts side by side land on different connections.
      await Promise.all(Array.from({ length: 12 }, (_, i) => client.insert({ table: 'svc.t', values: [{ n: i }, { n: i + 100 }], format: 'JSONEachRow' })));
      // Counts side by side are read through different connections; each must see all 24 rows.
      const counts = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const result = await client.query({ query: "SELECT count() AS c, sum(n) AS s, getSetting('query_plan_max_limit_for_lazy_materialization') AS lazy FROM svc.t", format: 'JSONEachRow' });
          return (await result.json<{ c: string; s: string; lazy: string }>())[0];
        }),
      );
      const expectedSum = Array.from({ length: 12 }, (_, i) => 2 * i + 100).reduce((a, b) => a + b, 0);
      for (const row of counts) expect([Number(row.c), Number(row.s), Number(row.lazy)]).toEqual([24, expectedSum, 10000]);
    } finally {
      await factory.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
