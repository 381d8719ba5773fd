import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@vigil/config';
import { createVigilApp } from '@vigil/platform';
import { makeTempDir } from '@vigil/testing';
import { AccountModule } from '../account.module';

/** PATCH /admin/v1/keys/:prefix on the real account service (local bus, embedded store), over HTTP. */
describe('PATCH /admin/v1/keys/:prefix sets a key expiry', () => {
  const temp = makeTempDir('vigil-admin-expiry-');
  let app: NestFastifyApplication;
  let baseUrl: string;
  let token: string;

  const call = async (method: string, url: string, body?: unknown, authorization = `Bearer ${token}`) => {
    const response = await fetch(baseUrl + url, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  beforeAll(async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_LOG_LEVEL: 'error' });
    app = await createVigilApp({ name: 'admin-expiry-spec', features: [AccountModule] }, config);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    token = fs.readFileSync(path.join(temp.path, 'admin-token'), 'utf8').trim();
  });

  afterAll(async () => {
    await app?.close();
    temp.cleanup();
  });

  it('sets, moves and clears the expiry of a key by prefix or hash, as the listing then shows', async () => {
    const created = await call('POST', '/admin/v1/keys', { workspace: 'expiring' });
    expect(created.status).toBe(201);
    const { prefix, keyHash } = created.body as { prefix: string; keyHash: string };

    const set = await call('PATCH', `/admin/v1/keys/${prefix}`, { expiresAt: '2031-05-01T12:00:00+02:00' });
    expect(set).toMatchObject({ status: 200, body: { keyHash, expiresAt: '2031-05-01T10:00:00.000Z', status: 'active' } });
    const listed = await call('GET', '/admin/v1/keys');
    expect(listed.body.find((k: { keyHash: string }) => k.keyHash === keyHash).expiresAt).toBe('2031-05-01T10:00:00.000Z');

    const past = await call('PATCH', `/admin/v1/keys/${keyHash}`, { expiresAt: '2020-01-01T00:00:00Z' });
    expect(past).toMatchObject({ status: 200, body: { expiresAt: '2020-01-01T00:00:00.000Z' } });

    const cleared = await call('PATCH', `/admin/v1/keys/${keyHash}`, { expiresAt: null });
    expect(cleared).toMatchObject({ status: 200, body: { keyHash, expiresAt: null } });
    expect((await call('GET', '/admin/v1/keys')).body.find((k: { keyHash: string }) => k.keyHash === keyHash).expiresAt).toBeNull();
  });

  it('answers 400 with a message for a body that is not an RFC 3339 date-time or null', async () => {
    const { prefix } = (await call('POST', '/admin/v1/keys', { workspace: 'bad-dates' })).body as { prefix: string };
    for (const body of [
      { expiresAt: 'tomorrow' },
      { expiresAt: '2031-05-01' },
      { expiresAt: '2031-05-01T12:00:00' },
      { expiresAt: '2031-02-30T00:00:00Z' },
      { expiresAt: 1_900_000_000 },
      {},
      { expiresAt: null, extra: true },
    ]) {
      const answer = await call('PATCH', `/admin/v1/keys/${prefix}`, body);
      expect({ body, status: answer.status }).toEqual({ body, status: 400 });
      expect(answer.body.message).toEqual(expect.stringMatching(/expiresAt|extra/));
    }
    expect((await call('GET', '/admin/v1/keys')).body.find((k: { prefix: string }) => k.prefix === prefix).expiresAt).toBeNull();
  });

  it('answers 404 for an unknown key and 401 without the operator token', async () => {
    const unknown = await call('PATCH', '/admin/v1/keys/0000000000000000', { expiresAt: null });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toMatch(/No key matches/);
    expect((await call('PATCH', '/admin/v1/keys/0000000000000000', { expiresAt: null }, 'Bearer wrong')).status).toBe(401);
  });
});
