import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { loadConfig } from '@vigil/config';
import { bodyCodingOf } from '@vigil/ingest';
import { metricsRegistry } from '../ops/metrics';
import { httpServerOptions, prepareRequestHandling } from './create-http-app';
import type { CredentialCheck, CredentialVerifier } from './credential-verifier';
import { RawConnection } from './raw-http.testing';
import type { Credential } from './route-credentials';

/** Stand-in for the API-key verifier (its real logic is tested in libs/auth): keys by name, calls counted. */
class FakeKeyVerifier implements CredentialVerifier {
  calls = 0;
  async verify(headers: IncomingHttpHeaders, options: { expiredKeyAllowed: boolean }): Promise<CredentialCheck> {
    this.calls++;
    const key = /^Basic (.+)$/.exec(headers.authorization ?? '')?.[1];
    const user = key && Buffer.from(key, 'base64').toString().split(':')[0];
    if (user === 'good') return { accepted: true, principal: { workspaceId: 'ws-good' } };
    if (user === 'expired') return options.expiredKeyAllowed ? { accepted: true, principal: { workspaceId: 'ws-old' } } : { accepted: false, status: 403, message: 'expired' };
    if (user === 'busy') return { accepted: false, status: 429, message: 'slow down', retryAfterSeconds: 7 };
    return { accepted: false, status: 401, message: user ? 'Unknown API key' : 'Missing API key' };
  }
}

class FakeOperatorVerifier implements CredentialVerifier {
  async verify(headers: IncomingHttpHeaders): Promise<CredentialCheck> {
    return headers.authorization === 'Bearer op-secret' ? { accepted: true } : { accepted: false, status: 401, message: 'needs the admin token' };
  }
}

const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:`).toString('base64');

interface TestServer {
  fastify: FastifyInstance;
  port: number;
  keys: FakeKeyVerifier;
  /** Requests whose body processing started (preParsing ran): must stay 0 for refused requests. */
  bodiesTouched: () => number;
}

/** The production request handling (options, gate, unread bodies, decompression, parsers) on routes like Vigil's. */
async function startServer(env: Record<string, string> = {}, verifiers: Partial<Record<Exclude<Credential, 'none'>, CredentialVerifier>> | null = null): Promise<TestServer> {
  const config = loadConfig({ VIGIL_DATA_DIR: '/nonexistent', ...env });
  const keys = new FakeKeyVerifier();
  const available = verifiers ?? { 'api-key': keys, 'operator-token': new FakeOperatorVerifier() };
  const fastify = Fastify(httpServerOptions(config) as FastifyServerOptions);
  prepareRequestHandling(fastify, fastify.server, config, (credential) => available[credential]);
  let touched = 0;
  fastify.addHook('preParsing', async (_request, _reply, payload) => {
    touched++;
    return payload;
  });
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  fastify.get('/v1/findings', async (request) => ({ principal: request.principal }));
  fastify.get('/v1/account/status', async (request) => ({ principal: request.principal }));
  fastify.post('/v1/events/:type', async (request) => ({ bytes: (request.body as Buffer).length, coding: bodyCodingOf(request), principal: request.principal }));
  fastify.post('/admin/v1/keys', async () => ({ created: true }));
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  return { fastify, port: (fastify.server.address() as AddressInfo).port, keys, bodiesTouched: () => touched };
}

async function metricValue(name: string, labels = ''): Promise<number> {
  const text = await metricsRegistry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name} `)));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('the request gate', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.fastify.close();
  });

  it('answers a missing or unknown key with 401 {message} without reading the body, whatever it is', async () => {
    const before = server.bodiesTouched();
    for (const authorization of [undefined, basic('nobody')]) {
      const res = await server.fastify.inject({
        method: 'POST',
        url: '/v1/events/dns',
        headers: { 'content-encoding': 'gzip', ...(authorization ? { authorization } : {}) },
        payload: Buffer.from('this is not gzip'),
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json()).toEqual({ message: expect.stringMatching(/API key/) });
    }
    expect(server.bodiesTouched()).toBe(before);
  });

  it('lets a good key through once, with its principal attached; telemetry stays encoded for the ingest thread', async () => {
    const callsBefore = server.keys.calls;
    const gzipped = gzipSync(Buffer.from('{"query":"a.com"}\n'));
    const res = await server.fastify.inject({
      method: 'POST',
      url: '/v1/events/dns',
      headers: { authorization: basic('good'), 'content-encoding': 'gzip' },
      payload: gzipped,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ bytes: gzipped.length, coding: 'gzip', principal: { workspaceId: 'ws-good' } });
    expect(server.keys.calls).toBe(callsBefore + 1);
  });

  it('decodes a telemetry body with an Idempotency-Key before the handler (its key is bound to the decoded batch)', async () => {
    const res = await server.fastify.inject({
      method: 'POST',
      url: '/v1/events/dns',
      headers: { authorization: basic('good'), 'content-encoding': 'gzip', 'idempotency-key': 'k-1' },
      payload: gzipSync(Buffer.from('{"query":"a.com"}\n')),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ bytes: 18, coding: 'identity', principal: { workspaceId: 'ws-good' } });
  });

  it('lets an expired key in only where the table allows it, and passes 429 on with Retry-After', async () => {
    const status = await server.fastify.inject({ method: 'GET', url: '/v1/account/status', headers: { authorization: basic('expired') } });
    expect(status.statusCode).toBe(200);
    const findings = await server.fastify.inject({ method: 'GET', url: '/v1/findings', headers: { authorization: basic('expired') } });
    expect(findings.statusCode).toBe(403);
    const busy = await server.fastify.inject({ method: 'POST', url: '/v1/events/dns', headers: { authorization: basic('busy') }, payload: 'x' });
    expect(busy.statusCode).toBe(429);
    expect(busy.headers['retry-after']).toBe('7');
    expect(busy.json()).toEqual({ message: 'slow down' });
  });

  it('serves public routes without asking any verifier', async () => {
    const callsBefore = server.keys.calls;
    const res = await server.fastify.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(server.keys.calls).toBe(callsBefore);
  });

  it('guards the operator API with its bearer token before the body', async () => {
    const before = server.bodiesTouched();
    const refused = await server.fastify.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: { authorization: basic('good'), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: Buffer.from('garbage'),
    });
    expect(refused.statusCode).toBe(401);
    expect(server.bodiesTouched()).toBe(before);
    const allowed = await server.fastify.inject({
      method: 'POST',
      url: '/admin/v1/keys',
      headers: { authorization: 'Bearer op-secret', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(allowed.statusCode).toBe(200);
  });

  it.each(['QUERY', 'PROPFIND', 'LOCK', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'])('answers %s on a known path 405 with Allow, before the key', async (method) => {
    const res = await server.fastify.inject({ method: method as never, url: '/v1/findings?x=1', headers: { 'content-type': 'text/plain' }, payload: 'body' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expect(res.json().message).toContain(`Method ${method} is not allowed on /v1/findings`);
  });

  it('answers unknown paths 404 with {message}, whatever the method', async () => {
    for (const method of ['GET', 'QUERY', 'POST']) {
      const res = await server.fastify.inject({ method: method as never, url: '/v1/nowhere' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: `No such endpoint: ${method} /v1/nowhere` });
    }
  });

  it('answers a method unknown to Node\'s parser like any other: 405 with Allow on a known path, 404 elsewhere', async () => {
    const known = await RawConnection.open(server.port);
    known.write('FROBNICATE /v1/events/dns HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody');
    await known.untilResponses(1);
    expect(known.responses()[0]).toMatchObject({ status: 405, headers: { allow: 'POST' } });
    expect(JSON.parse(known.responses()[0].body).message).toMatch(/FROBNICATE is not allowed/);
    const unknown = await RawConnection.open(server.port);
    unknown.write('FROBNICATE /nowhere HTTP/1.1\r\nHost: x\r\n\r\n');
    await unknown.untilResponses(1);
    expect(unknown.responses()[0].status).toBe(404);
    expect(await metricValue('vigil_http_client_errors_total', '{reason="unknown_method"}')).toBeGreaterThanOrEqual(2);
  });

  it('reads a refused body off the wire, never decoding it, and keeps the connection usable', async () => {
    const before = server.bodiesTouched();
    const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    const connection = await RawConnection.open(server.port);
    connection.write(`POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`);
    connection.write(bomb);
    connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await connection.untilResponses(2);
    expect(connection.responses().map((r) => r.status)).toEqual([401, 200]);
    expect(connection.closed).toBe(false);
    expect(server.bodiesTouched()).toBe(before + 1); // the GET only
    connection.close();
  });

  it('invites a body with 100 Continue only once the request is accepted', async () => {
    const refused = await RawConnection.open(server.port);
    refused.write('POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n');
    await refused.untilClosed();
    expect(refused.received).not.toContain('100 Continue');
    expect(refused.responses()[0]).toMatchObject({ status: 401, headers: { connection: 'close' } });

    const accepted = await RawConnection.open(server.port);
    accepted.write(`POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('good')}\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n`);
    await accepted.until((c) => c.received.includes('100 Continue'));
    accepted.write('hello');
    await accepted.untilResponses(2);
    expect(accepted.responses().map((r) => r.status)).toEqual([100, 200]);
    expect(JSON.parse(accepted.responses()[1].body).bytes).toBe(5);
    accepted.close();
  });
});

describe('route credentials at start-up', () => {
  it('refuses to start with a route that no row of the table covers', async () => {
    const config = loadConfig({});
    const fastify = Fastify(httpServerOptions(config) as FastifyServerOptions);
    prepareRequestHandling(fastify, fastify.server, config, () => undefined);
    expect(() => fastify.get('/v2/unlisted', async () => 'x')).toThrow(/no row in ROUTE_CREDENTIALS/);
    await fastify.close();
  });

  it('refuses to start when a route needs a credential that no module can verify', async () => {
    const config = loadConfig({});
    const fastify = Fastify(httpServerOptions(config) as FastifyServerOptions);
    prepareRequestHandling(fastify, fastify.server, config, () => undefined);
    fastify.get('/admin/v1/keys', async () => 'x');
    await expect(fastify.ready()).rejects.toThrow(/operator-token/);
  });
});

describe('connection-level limits', () => {
  it('cuts off slow headers and a body sent at a trickle (408 {message}) while serving other clients', async () => {
    const server = await startServer({ VIGIL_HEADERS_TIMEOUT_MS: '1000', VIGIL_REQUEST_TIMEOUT_MS: '2000' });
    try {
      const slowHeaders = await RawConnection.open(server.port);
      slowHeaders.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
      const slowBody = await RawConnection.open(server.port);
      slowBody.write(`POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('good')}\r\nContent-Length: 1000\r\n\r\n`);
      const trickle = setInterval(() => slowBody.write('a'), 200);
      const served: number[] = [];
      while (!slowBody.closed) {
        served.push((await server.fastify.inject({ method: 'GET', url: '/healthz' })).statusCode);
        const other = await RawConnection.open(server.port);
        other.write(`GET /v1/findings HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('good')}\r\n\r\n`);
        await other.untilResponses(1);
        served.push(other.responses()[0].status);
        other.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (served.length > 200) break;
      }
      clearInterval(trickle);
      expect(slowHeaders.closed).toBe(true);
      expect(slowHeaders.closedAfterMs).toBeGreaterThanOrEqual(900);
      expect(slowHeaders.closedAfterMs).toBeLessThan(1900);
      expect(slowHeaders.responses()[0].status).toBe(408);
      expect(slowBody.closedAfterMs).toBeGreaterThanOrEqual(1900);
      expect(slowBody.closedAfterMs).toBeLessThan(3500);
      expect(slowBody.responses()[0].status).toBe(408);
      expect(JSON.parse(slowBody.responses()[0].body).message).toMatch(/timed out/);
      expect(served.length).toBeGreaterThan(4);
      expect(served.every((status) => status === 200)).toBe(true);
    } finally {
      await server.fastify.close();
    }
  });

  it('closes a connection that goes silent mid-request after the idle timeout, and idle keep-alive connections', async () => {
    const server = await startServer({ VIGIL_IDLE_TIMEOUT_MS: '1000', VIGIL_KEEP_ALIVE_TIMEOUT_MS: '1000', VIGIL_HEADERS_TIMEOUT_MS: '10000', VIGIL_REQUEST_TIMEOUT_MS: '10000' });
    try {
      const silent = await RawConnection.open(server.port);
      silent.write(`POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic('good')}\r\nContent-Length: 10\r\n\r\nabc`);
      const idle = await RawConnection.open(server.port);
      idle.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await idle.untilResponses(1);
      await Promise.all([silent.untilClosed(3000), idle.untilClosed(3000)]);
      expect(silent.closedAfterMs).toBeGreaterThanOrEqual(900);
      expect(silent.closedAfterMs).toBeLessThan(2500);
      expect(idle.closedAfterMs).toBeGreaterThanOrEqual(900);
    } finally {
      await server.fastify.close();
    }
  });

  it('asks a client to reconnect after the maximum requests per connection', async () => {
    const server = await startServer({ VIGIL_MAX_REQUESTS_PER_CONNECTION: '2' });
    try {
      const connection = await RawConnection.open(server.port);
      connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await connection.untilResponses(1);
      connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await connection.untilResponses(2);
      expect(connection.responses()[0].headers.connection).toBe('keep-alive');
      expect(connection.responses()[1].headers.connection).toBe('close');
      // A client that ignores the request to reconnect gets no more service on this connection (Node's 503).
      connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await connection.until((c) => c.received.includes('503 Service Unavailable'));
      connection.close();
    } finally {
      await server.fastify.close();
    }
  });

  it('refuses connections over the maximum at once and keeps serving the open ones', async () => {
    const server = await startServer({ VIGIL_MAX_CONNECTIONS: '2' });
    try {
      const refusedBefore = await metricValue('vigil_http_connections_refused_total');
      const open = [await RawConnection.open(server.port), await RawConnection.open(server.port)];
      for (const connection of open) connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await Promise.all(open.map((connection) => connection.untilResponses(1)));
      const extra = await RawConnection.open(server.port);
      extra.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await extra.untilClosed();
      expect(extra.received).toBe('');
      for (const connection of open) connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await Promise.all(open.map((connection) => connection.untilResponses(2)));
      expect(open.flatMap((connection) => connection.responses().map((r) => r.status))).toEqual([200, 200, 200, 200]);
      expect(await metricValue('vigil_http_connections_refused_total')).toBe(refusedBefore + 1);
      open[0].close();
      await open[0].untilClosed();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const later = await RawConnection.open(server.port);
      later.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await later.untilResponses(1);
      expect(later.responses()[0].status).toBe(200);
      open[1].close();
      later.close();
    } finally {
      await server.fastify.close();
    }
  });
});
