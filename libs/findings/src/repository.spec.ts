import type { BusBatch, ConsumedRecord } from '@vigil/bus';
import type { AlertRecord, FindingRecord } from '@vigil/contracts';
import { writeBusBatch } from './bus-batch-writer';
import { pageJson } from './http/results-query';
import { AlertsRepository, FindingsRepository } from './repositories';
import { alertRecord, findingRecord, openTempFindingsStore, servedId, sleep, type TempStore } from './test-fixtures';

const DELAY_MS = 100;

describe('storing findings and alerts (real chdb)', () => {
  let temp: TempStore;
  let findings: FindingsRepository;
  let alerts: AlertsRepository;

  beforeAll(async () => {
    temp = await openTempFindingsStore();
    findings = new FindingsRepository(temp.store, { visibilityDelayMs: DELAY_MS });
    alerts = new AlertsRepository(temp.store, { visibilityDelayMs: DELAY_MS });
  });
  afterAll(() => temp?.close());

  async function storedIds(table: string, workspaceId: string): Promise<string[]> {
    const result = await temp.store.client.query({
      query: `SELECT record_id FROM findings.${table} WHERE workspace_id = {ws:String} ORDER BY record_id`,
      query_params: { ws: workspaceId },
      format: 'JSONEachRow',
    });
    return (await result.json<{ record_id: string }>()).map((r) => r.record_id);
  }

  it('creates both tables with ZSTD bodies and the paging order, and no skip index (migration 4 dropped it)', async () => {
    const indices = await temp.store.client.query({
      query: `SELECT table, type_full FROM system.data_skipping_indices WHERE database = 'findings' ORDER BY table`,
      format: 'JSONEachRow',
    });
    expect(await indices.json()).toEqual([]);
    const tables = await temp.store.client.query({
      query: `SELECT name, sorting_key FROM system.tables WHERE database = 'findings' AND name != 'schema_migrations'
        ORDER BY name`,
      format: 'JSONEachRow',
    });
    expect(await tables.json()).toEqual([
      { name: 'alerts', sorting_key: 'workspace_id, inserted_at, record_id' },
      { name: 'findings', sorting_key: 'workspace_id, inserted_at, record_id' },
    ]);
    const codec = await temp.store.client.query({
      query: `SELECT compression_codec FROM system.columns WHERE database = 'findings' AND table = 'findings' AND name = 'body'`,
      format: 'JSONEachRow',
    });
    expect(await codec.json()).toEqual([{ compression_codec: 'CODEC(ZSTD(3))' }]);
  });

  it('ignores records already stored and repeats inside a batch', async () => {
    const ws = 'ws-dup';
    const batch = [findingRecord(ws, 'd1:1'), findingRecord(ws, 'd2:1'), findingRecord(ws, 'd1:1')];
    expect(await findings.insert(batch)).toEqual({ inserted: 2, duplicates: 1, rejected: [] });
    expect(await findings.insert(batch)).toEqual({ inserted: 0, duplicates: 3, rejected: [] });
    expect(await findings.insert([findingRecord(ws, 'd2:1'), findingRecord(ws, 'd2:2')])).toEqual({
      inserted: 1,
      duplicates: 1,
      rejected: [],
    });
    // The same record id in another workspace is a different record.
    expect(await findings.insert([findingRecord('ws-dup-other', 'd1:1')])).toMatchObject({ inserted: 1 });
    expect(await storedIds('findings', ws)).toEqual(['d1:1', 'd2:1', 'd2:2']);
  });

  it('stores a record once when the same batch is delivered twice at the same moment', async () => {
    const ws = 'ws-concurrent';
    const batch = Array.from({ length: 30 }, (_, i) => findingRecord(ws, `c${i}:1`));
    const results = await Promise.all([findings.insert(batch), findings.insert(batch), findings.insert(batch)]);
    expect(results.map((r) => r.inserted).sort()).toEqual([0, 0, 30]);
    expect(await storedIds('findings', ws)).toHaveLength(30);
  });

  it('checks large batches for duplicates in full', async () => {
    const ws = 'ws-large';
    const batch = Array.from({ length: 1200 }, (_, i) => findingRecord(ws, `l${i}:1`));
    expect(await findings.insert(batch)).toMatchObject({ inserted: 1200, duplicates: 0 });
    expect(await findings.insert(batch)).toMatchObject({ inserted: 0, duplicates: 1200 });
  });

  it('returns invalid records as rejected, with a reason, and stores the rest', async () => {
    const ws = 'ws-invalid';
    const circular: Record<string, unknown> = { class_uid: 2004 };
    circular.self = circular;
    const good = findingRecord(ws, 'ok:1');
    const bad: unknown[] = [
      null,
      { ...findingRecord(ws, 'x:1'), recordId: '' },
      { ...findingRecord(ws, 'x:2'), workspaceId: 42 },
      { ...findingRecord(ws, 'x:3'), severityId: 2.5 },
      { ...findingRecord(ws, 'x:4'), time: Number.NaN },
      { ...findingRecord(ws, 'x:5'), finding: 'text' },
      { ...findingRecord(ws, 'x:6'), finding: circular },
    ];
    const result = await findings.insert([...(bad as FindingRecord[]), good]);
    expect(result.inserted).toBe(1);
    expect(result.rejected.map((r) => r.record)).toEqual(bad);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      'finding record must be an object',
      expect.stringContaining('recordId must be a non-empty string'),
      expect.stringContaining('workspaceId must be a non-empty string'),
      expect.stringContaining('severityId must be a whole number'),
      expect.stringContaining('time must be epoch milliseconds'),
      'finding must be an object',
      expect.stringContaining('not serializable'),
    ]);
    expect(await storedIds('findings', ws)).toEqual(['ok:1']);
    await expect(findings.insert('nope' as never)).rejects.toThrow(TypeError);
  });

  it('stores alerts by alert id with their threats and serves them as alerts', async () => {
    const ws = 'ws-alerts';
    const first = alertRecord(ws, 'a-1', 5, ['c2_communication']);
    const second = alertRecord(ws, 'a-2', 2, ['bad_tld', 'unusual_network_port']);
    expect(await alerts.insert([first, second, first])).toEqual({ inserted: 2, duplicates: 1, rejected: [] });
    const threats = await temp.store.client.query({
      query: `SELECT record_id, threats FROM findings.alerts WHERE workspace_id = {ws:String} ORDER BY record_id`,
      query_params: { ws },
      format: 'JSONEachRow',
    });
    expect(await threats.json()).toEqual([
      { record_id: 'a-1', threats: ['c2_communication'] },
      { record_id: 'a-2', threats: ['bad_tld', 'unusual_network_port'] },
    ]);
    await sleep(DELAY_MS + 50);
    const page = await alerts.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 10 });
    expect(page.items).toEqual([first.alert, second.alert]);
    const severe = await alerts.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 10, minSeverity: 4 });
    expect(severe.items.map((a) => a.id)).toEqual(['a-1']);
    // Findings and alerts are separate tables.
    expect((await findings.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 10 })).items).toEqual([]);
  });

  it('rejects alerts without an id or with malformed threats', async () => {
    const ws = 'ws-alerts-bad';
    const noId = alertRecord(ws, '', 3, ['x']);
    const badThreats = { ...alertRecord(ws, 'a-3', 3, []), alert: { ...alertRecord(ws, 'a-3', 3, []).alert, threats: 'x' } };
    const result = await alerts.insert([noId, badThreats as unknown as AlertRecord, alertRecord(ws, 'a-4', 1, [])]);
    expect(result.inserted).toBe(1);
    expect(result.rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('alert.id must be a non-empty string'),
      'alert.threats must be an array of threat ids',
    ]);
  });

  it('serves the stored body unchanged', async () => {
    const ws = 'ws-body';
    const record = findingRecord(ws, 'u:1', 4);
    record.finding.message = 'quotes " and \\ and ünïcødé and 🚀 and a newline\n';
    await findings.insert([record]);
    await sleep(DELAY_MS + 50);
    const page = await findings.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 1 });
    expect(page.items).toEqual([record.finding]);
    expect(servedId(page.items[0])).toBe('u:1');
  });

  it('serves raw pages whose JSON is byte for byte that of the parsed items', async () => {
    const ws = 'ws-raw';
    const records = [findingRecord(ws, 'raw1:1', 2), findingRecord(ws, 'raw2:1', 5), findingRecord(ws, 'raw3:1', 3)];
    records[0].finding.message = 'ünïcødé 🚀 "quoted" \\ tab\t lone \ud800 surrogate';
    records[1].finding.message = 'z'.repeat(70_000);
    await findings.insert(records);
    await sleep(DELAY_MS + 50);
    const request = { workspaceId: ws, maxAgeSeconds: 3600, limit: 2 };
    const parsed = await findings.page(request);
    const raw = await findings.pageRaw(request);
    expect(raw.more).toBe(true);
    expect({ ...raw, bodies: undefined }).toEqual({ more: parsed.more, bookmark: parsed.bookmark, bodies: undefined });
    expect(pageJson(raw, 'records').toString('utf8')).toBe(JSON.stringify({ follow: parsed.bookmark, more: parsed.more, records: parsed.items }));
    expect(parsed.items).toEqual(records.slice(0, 2).map((r) => r.finding));
    const rest = await findings.pageRaw({ ...request, bookmark: raw.bookmark });
    expect(pageJson(rest, 'alerts', ',"threats":{}').toString('utf8')).toBe(
      JSON.stringify({ follow: rest.bookmark, more: false, alerts: [records[2].finding], threats: {} }),
    );
  });

  it('writes a consumed bus batch and hands back unreadable and invalid records as dead letters', async () => {
    const ws = 'ws-bus';
    let offset = 0;
    const consumed = (value: string): ConsumedRecord => ({
      key: ws,
      value: Buffer.from(value),
      headers: { trace: 't1' },
      partition: 2,
      offset: String(offset++),
      timestamp: Date.now(),
    });
    const invalid = JSON.stringify({ ...findingRecord(ws, 'bad:1'), severityId: 'high' });
    const batch: BusBatch = {
      topic: 'tlm.findings.v1',
      partition: 2,
      records: [
        consumed(JSON.stringify(findingRecord(ws, 'bus1:1'))),
        consumed('{not json'),
        consumed(invalid),
        consumed('42'),
        consumed(JSON.stringify(findingRecord(ws, 'bus1:1'))),
      ],
    };
    const outcome = await writeBusBatch(findings, batch);
    expect(outcome).toMatchObject({ inserted: 1, duplicates: 1 });
    expect(outcome.deadLetters.map((d) => [d.value.toString(), d.headers?.source, d.headers?.trace])).toEqual([
      ['{not json', 'tlm.findings.v1', 't1'],
      ['42', 'tlm.findings.v1', 't1'],
      [invalid, 'tlm.findings.v1', 't1'],
    ]);
    expect(outcome.deadLetters.map((d) => d.headers?.reason)).toEqual([
      expect.stringMatching(/^unreadable: SyntaxError/),
      'invalid: the value is not a JSON object',
      expect.stringContaining('invalid: severityId must be a whole number'),
    ]);
    // Redelivery of the same batch stores nothing new.
    expect(await writeBusBatch(findings, batch)).toMatchObject({ inserted: 0, duplicates: 2 });
    expect(await storedIds('findings', ws)).toEqual(['bus1:1']);
  });
});
