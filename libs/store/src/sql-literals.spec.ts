import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ChdbStoreFactory } from './chdb-store-factory';
import { sqlInteger, sqlString, sqlStringArray } from './sql-literals';
import type { ServiceStore } from './store';

const HOSTILE = [
  '',
  "o'brien",
  'back\\slash',
  "\\'",
  "x' OR 1=1 --",
  "'); DROP TABLE svc.t; --",
  'line\nbreak\ttab\rreturn',
  'nul\u0000byte',
  '{workspaceId:String}',
  'ünïcödé ✓ 𝄞',
  '\\',
  "'",
];

describe('SQL literals', () => {
  it('refuses what is not a whole number', () => {
    expect(sqlInteger(42)).toBe('42');
    expect(sqlInteger(-7n)).toBe('-7');
    expect(sqlInteger('00123')).toBe('123');
    for (const bad of [1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2, '1; DROP', '1e3', ' 1', '', '0x10']) {
      expect(() => sqlInteger(bad as never)).toThrow(TypeError);
    }
    expect(() => sqlString(5 as never)).toThrow(TypeError);
  });

  describe('read back by the engine', () => {
    let dir: string;
    let factory: ChdbStoreFactory;
    let store: ServiceStore;

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-literals-'));
      factory = new ChdbStoreFactory(dir);
      store = await factory.open('svc', [
        { version: 1, name: 't', statements: ['CREATE TABLE IF NOT EXISTS svc.t (s String) ENGINE = MergeTree ORDER BY s'] },
      ]);
      await store.client.insert({ table: 'svc.t', values: HOSTILE.map((s) => ({ s })), format: 'JSONEachRow' });
    });
    afterAll(async () => {
      await factory.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('gives back every string exactly, and each matches only its own row', async () => {
      for (const value of HOSTILE) {
        const result = await store.client.query({
          query: `SELECT ${sqlString(value)} AS echoed, (SELECT count() FROM svc.t WHERE s = ${sqlString(value)}) AS matches`,
          format: 'JSONEachRow',
        });
        const [row] = await result.json<{ echoed: string; matches: string }>();
        expect(row.echoed).toBe(value);
        expect(Number(row.matches)).toBe(1);
      }
      const all = await store.client.query({ query: 'SELECT count() AS n FROM svc.t', format: 'JSONEachRow' });
      expect(Number((await all.json<{ n: string }>())[0].n)).toBe(HOSTILE.length);
    });

    it('writes IN lists that match exactly the listed strings', async () => {
      const listed = HOSTILE.filter((_, i) => i % 2 === 0);
      const result = await store.client.query({ query: `SELECT s FROM svc.t WHERE s IN ${sqlStringArray(listed)} ORDER BY s`, format: 'JSONEachRow' });
      expect((await result.json<{ s: string }>()).map((r) => r.s)).toEqual([...listed].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    });
  });
});
