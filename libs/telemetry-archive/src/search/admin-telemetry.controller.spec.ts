import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BUS, type Bus } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { TOPICS } from '@vigil/contracts';
import { packTelemetryRecords } from '@vigil/gateway';
import { createVigilApp } from '@vigil/platform';
import { benignDnsEvents, httpEvents, makeTempDir } from '@vigil/testing';
import { TelemetryArchiveModule } from '../telemetry-archive.module';
import { TelemetrySearchModule } from './telemetry-search.module';

const WORKSPACE = { workspaceId: '2c1a0000-0000-4000-8000-0000000000aa', name: 'acme', createdAt: new Date().toISOString() };

describe('GET /admin/v1/telemetry (real archive on embedded ClickHouse, over HTTP)', () => {
  const temp = makeTempDir('vigil-telemetry-search-');
  let app: NestFastifyApplication;
  let baseUrl: string;
  let token: string;

  const search = async (query: string, auth = true) => {
    const response = await fetch(`${baseUrl}/admin/v1/telemetry?${query}`, { headers: auth ? { authorization: `Bearer ${token}` } : {} });
    const text = await response.text();
    return { status: response.status, type: response.headers.get('content-type'), lines: text.split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
  };

  beforeAll(async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_LOG_LEVEL: 'error' });
    app = await createVigilApp({ name: 'telemetry-search-spec', features: [TelemetryArchiveModule, TelemetrySearchModule] }, config);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    token = fs.readFileSync(path.join(temp.path, 'admin-token'), 'utf8').trim();
    const bus = app.get<Bus>(BUS);
    await bus.publish(TOPICS.workspaces.name, [{ key: WORKSPACE.workspaceId, value: Buffer.from(JSON.stringify(WORKSPACE)) }]);
    const dns = benignDnsEvents(60, { hosts: 3 });
    const http = httpEvents(10, { hosts: 3 });
    await bus.publish(TOPICS.events.name, packTelemetryRecords(WORKSPACE.workspaceId, 'dns', dns, Date.now(), { requestId: 'req-dns' }));
    await bus.publish(TOPICS.events.name, packTelemetryRecords(WORKSPACE.workspaceId, 'http', http, Date.now(), { requestId: 'req-http' }));
    await bus.publish(TOPICS.events.name, packTelemetryRecords('another-workspace', 'dns', benignDnsEvents(5, { hosts: 1 }), Date.now(), { requestId: 'req-other' }));
    for (let i = 0; i < 200; i++) {
      const all = await search('workspace=acme&limit=10000');
      if (all.status === 200 && all.lines.length === 70) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    await app?.close();
    temp.cleanup();
  });

  it('streams a host\'s events as NDJSON, exactly as archived', async () => {
    const all = await search('workspace=acme&limit=10000');
    expect(all.status).toBe(200);
    expect(all.type).toMatch(/^application\/x-ndjson/);
    expect(all.lines).toHaveLength(70);
    const host = all.lines[0].event.srcIP as string;
    const expected = all.lines.filter((l) => l.event.srcIP === host);
    const byHost = await search(`workspace=${WORKSPACE.workspaceId}&host=${host}`);
    expect(byHost.lines).toEqual(expected);
    expect(byHost.lines.length).toBeGreaterThan(0);
    expect(byHost.lines[0]).toEqual({ type: expect.any(String), receivedAt: expect.any(String), batchId: expect.any(String), index: expect.any(Number), event: expect.objectContaining({ srcIP: host }) });
    const dnsOnly = await search(`workspace=acme&host=${host}&type=dns`);
    expect(dnsOnly.lines.length).toBeGreaterThan(0);
    expect(dnsOnly.lines.every((l) => l.type === 'dns' && typeof l.event.query === 'string')).toBe(true);
  });

  it('stops at the limit and says so in a closing line', async () => {
    const limited = await search('workspace=acme&limit=5');
    expect(limited.lines).toHaveLength(6);
    expect(limited.lines.slice(0, 5).every((l) => l.event !== undefined)).toBe(true);
    expect(limited.lines[5]).toEqual({ truncated: true, limit: 5 });
  });

  it('answers nothing outside the time range, and 400 / 401 for bad or unauthorised requests', async () => {
    expect((await search(`workspace=acme&since=${encodeURIComponent(new Date(Date.now() - 7_200_000).toISOString())}&until=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`)).lines).toEqual([]);
    const tooLong = await search('workspace=acme&since=3d');
    expect(tooLong.status).toBe(400);
    expect(tooLong.lines[0].message).toMatch(/24 hours/);
    expect((await search('workspace=nobody')).status).toBe(400);
    expect((await search('workspace=acme', false)).status).toBe(401);
  });

  it('finds a host whose events were packed into one record behind another host (one partition)', async () => {
    const events = [...benignDnsEvents(4, { hosts: 1, subnet: '10.98' }), ...benignDnsEvents(3, { hosts: 1, subnet: '10.97' })];
    const packed = packTelemetryRecords(WORKSPACE.workspaceId, 'dns', events, Date.now(), { requestId: 'req-packed', partitions: 1 });
    expect(packed).toHaveLength(1);
    await app.get<Bus>(BUS).publish(TOPICS.events.name, packed);
    const second = events[events.length - 1].srcIP as string;
    let found: Awaited<ReturnType<typeof search>> | undefined;
    for (let i = 0; i < 200 && (found?.lines.length ?? 0) < 3; i++) {
      found = await search(`workspace=acme&host=${second}`);
      if ((found.lines.length ?? 0) < 3) await new Promise((r) => setTimeout(r, 50));
    }
    expect(found!.lines.map((l) => l.event.srcIP)).toEqual([second, second, second]);
  });
});
