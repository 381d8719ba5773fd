import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { createGunzip, gzipSync } from 'node:zlib';
import { api, eventually, runCli, startVigil, toNdjson, type VigilProcess } from '@vigil/testing';
// A raw socket client: the tests below need exact bytes (unknown methods, bodies at 1 byte/second).
import { RawConnection } from '../../../libs/platform/src/http/raw-http.testing';

/** One gzip member of 1 MiB of zeros (~1 KB); 1,024 of them back to back are one valid gzip body of 1 GiB. */
const MEMBER = gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
const BOMB = Buffer.concat(Array.from({ length: 1024 }, () => MEMBER));
const GARBAGE = Buffer.from('this is not gzip, deflate or anything else at all');

interface TimedResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** From the request's start to its response headers. */
  msToHeaders: number;
}

/** POST with node:http so the time to the response headers can be measured while the body is still going out. */
function post(baseUrl: string, agent: http.Agent, url: string, body: Buffer, headers: Record<string, string>): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request(baseUrl + url, { method: 'POST', agent, headers: { 'content-length': String(body.length), ...headers } }, (response) => {
      const msToHeaders = performance.now() - started;
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text, msToHeaders }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Any method, including ones fetch refuses or Node's client would not send as such. */
async function rawRequest(vigil: VigilProcess, requestText: string) {
  const connection = await RawConnection.open(Number(new URL(vigil.baseUrl).port));
  connection.write(requestText);
  await connection.untilResponses(1);
  connection.close();
  return connection.responses()[0];
}

async function processCpuSeconds(vigil: VigilProcess): Promise<number> {
  const metrics = await api(vigil, 'GET', '/metrics', { key: null });
  const line = metrics.text.split('\n').find((l) => l.startsWith('vigil_process_cpu_seconds_total '));
  if (!line) throw new Error('no vigil_process_cpu_seconds_total in /metrics');
  return Number(line.split(' ')[1]);
}

/** CPU seconds this process spends inflating `body` (the calibration for "the server did not inflate it"). */
function inflateCpuSeconds(body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const before = process.cpuUsage();
    const gunzip = createGunzip();
    gunzip.on('data', () => undefined);
    gunzip.on('end', () => {
      const used = process.cpuUsage(before);
      resolve((used.user + used.system) / 1e6);
    });
    gunzip.on('error', reject);
    gunzip.end(body);
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('nobody without a credential costs more than the headers', () => {
  let vigil: VigilProcess;
  let revokedKey = '';
  let adminToken = '';
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    vigil = await startVigil();
    const cliEnv = { VIGIL_DATA_DIR: vigil.dataDir, VIGIL_PORT: new URL(vigil.baseUrl).port };
    const created = await runCli(['keys', 'create', '--workspace', 'revoked-soon'], cliEnv);
    revokedKey = /(vgl_\w+)/.exec(created.stdout)![1];
    await eventually(async () => ((await api(vigil, 'GET', '/v1/account/status', { key: revokedKey })).status === 200 ? true : undefined));
    expect((await runCli(['keys', 'revoke', revokedKey.slice(0, 12)], cliEnv)).code).toBe(0);
    await eventually(async () => ((await api(vigil, 'GET', '/v1/account/status', { key: revokedKey })).status === 401 ? true : undefined));
    adminToken = fs.readFileSync(path.join(vigil.dataDir, 'admin-token'), 'utf8').trim();
  });

  afterAll(async () => {
    agent.destroy();
    await vigil?.stop();
  });

  it('answers no key, a wrong key and a revoked key with 401 {message}, not 400, on a body of garbage', async () => {
    const credentials: Array<[string, string | null]> = [
      ['none', null],
      ['wrong', 'vgl_wrongwrongwrongwrongwrongwrong00'],
      ['revoked', revokedKey],
    ];
    for (const [label, key] of credentials) {
      for (const [url, headers] of [
        ['/v1/events/dns', { 'content-encoding': 'gzip' }],
        ['/v1/events/ip', { 'content-encoding': 'deflate' }],
        ['/v1/detections', { 'content-encoding': 'gzip', 'content-type': 'application/zip' }],
      ] as const) {
        const res = await api(vigil, 'POST', url, { key, body: GARBAGE, headers });
        expect({ label, url, status: res.status }).toEqual({ label, url, status: 401 });
        expect(res.headers.get('content-type')).toContain('application/json');
        expect(typeof res.body.message).toBe('string');
      }
    }
    // The same body with the key is read, and refused for what it is.
    const withKey = await api(vigil, 'POST', '/v1/events/dns', { body: GARBAGE, headers: { 'content-encoding': 'gzip' } });
    expect(withKey.status).toBe(400);
  });

  it('answers a 1 GiB gzip bomb without a key with 401 in under 50 ms, without inflating it', async () => {
    expect(BOMB.length).toBeLessThan(1.1e6);
    // Warm the server's code paths up first (the first requests of a fresh process are slow to compile).
    for (let i = 0; i < 5; i++) {
      await post(vigil.baseUrl, agent, '/v1/events/dns', GARBAGE, { 'content-encoding': 'gzip' });
      await post(vigil.baseUrl, agent, '/v1/detections', GARBAGE, { 'content-encoding': 'gzip', 'content-type': 'application/zip' });
    }
    const cpuBefore = await processCpuSeconds(vigil);
    const timings: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const [url, type] of [['/v1/events/dns', 'application/x-ndjson'], ['/v1/detections', 'application/zip']]) {
        const res = await post(vigil.baseUrl, agent, url, BOMB, { 'content-encoding': 'gzip', 'content-type': type });
        expect({ url, status: res.status }).toEqual({ url, status: 401 });
        expect(JSON.parse(res.body).message).toMatch(/API key/);
        timings.push(res.msToHeaders);
      }
    }
    const serverCpu = (await processCpuSeconds(vigil)) - cpuBefore;
    // Inflating 1/16 of one bomb here, times 16: what the server would have spent on each bomb it inflated.
    const inflateOne = (await inflateCpuSeconds(BOMB.subarray(0, 64 * MEMBER.length))) * 16;
    expect(median(timings)).toBeLessThan(50);
    expect(Math.max(...timings)).toBeLessThan(1000);
    // Ten bombs cost the server (everything it did meanwhile included) less than a fifth of inflating one.
    expect(serverCpu).toBeLessThan(inflateOne / 5);
  });

  it('reads the bomb when the key is good, and stops it at the decoded cap (413)', async () => {
    const res = await post(vigil.baseUrl, agent, '/v1/events/dns', BOMB, {
      'content-encoding': 'gzip',
      authorization: 'Basic ' + Buffer.from(`${vigil.key}:`).toString('base64'),
    });
    expect(res.status).toBe(413);
  });

  it('refuses the operator API without its bearer token before reading the body', async () => {
    for (const authorization of [undefined, 'Bearer not-the-token', 'Basic ' + Buffer.from(`${vigil.key}:`).toString('base64')]) {
      const res = await post(vigil.baseUrl, agent, '/admin/v1/keys', GARBAGE, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        ...(authorization ? { authorization } : {}),
      });
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body).message).toMatch(/admin token/);
    }
    const bomb = await post(vigil.baseUrl, agent, '/admin/v1/keys', BOMB, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(bomb.status).toBe(401);
    const withToken = await post(vigil.baseUrl, agent, '/admin/v1/keys', GARBAGE, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      authorization: `Bearer ${adminToken}`,
    });
    expect(withToken.status).toBe(400);
  });

  it('does not invite the body of a request without a key (Expect: 100-continue)', async () => {
    const res = await rawRequest(vigil, 'POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 10485760\r\n\r\n');
    expect(res.status).toBe(401);
  });

  it.each(['QUERY', 'PROPFIND', 'LOCK', 'MKCOL', 'BREW'])('answers %s on known paths 405 with Allow, on unknown ones 404', async (method) => {
    const findings = await rawRequest(vigil, `${method} /v1/findings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`);
    expect(findings.status).toBe(405);
    expect(findings.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse(findings.body).message).toContain(method);
    const events = await rawRequest(vigil, `${method} /v1/events/dns HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(events.status).toBe(405);
    expect(events.headers.allow).toBe('POST');
    const nowhere = await rawRequest(vigil, `${method} /v1/nowhere HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(nowhere.status).toBe(404);
    expect(typeof JSON.parse(nowhere.body).message).toBe('string');
  });

  it('still serves keyed clients afterwards', async () => {
    expect((await api(vigil, 'GET', '/v1/account/status')).status).toBe(200);
    const posted = await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson([{ srcIP: '10.0.0.9', query: 'after.example.com' }]) });
    expect(posted.body).toEqual({ received: 1, accepted: 1, rejected: {} });
  });
});

describe('connection-level limits', () => {
  let vigil: VigilProcess;
  let port = 0;
  const authorization = () => 'Basic ' + Buffer.from(`${vigil.key}:`).toString('base64');

  beforeAll(async () => {
    vigil = await startVigil({
      env: {
        VIGIL_HEADERS_TIMEOUT_MS: '1000',
        VIGIL_REQUEST_TIMEOUT_MS: '3000',
        VIGIL_IDLE_TIMEOUT_MS: '2000',
        VIGIL_KEEP_ALIVE_TIMEOUT_MS: '1000',
        VIGIL_MAX_CONNECTIONS: '6',
      },
    });
    port = Number(new URL(vigil.baseUrl).port);
  });

  afterAll(async () => {
    await vigil?.stop();
  });

  /** One request on a connection of its own, closed after the answer. */
  async function served(requestText: string): Promise<number> {
    const connection = await RawConnection.open(port);
    try {
      connection.write(requestText);
      await connection.untilResponses(1, 10_000);
      return connection.responses()[0].status;
    } finally {
      connection.close();
    }
  }

  const statusRequest = () => `GET /v1/account/status HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization()}\r\n\r\n`;
  const eventsRequest = () => {
    const event = JSON.stringify({ srcIP: '10.0.0.8', query: 'meanwhile.example.com' });
    return `POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization()}\r\nContent-Length: ${event.length}\r\n\r\n${event}`;
  };

  it('cuts off a body sent at 1 byte/second, and slow headers, while serving other clients meanwhile', async () => {
    // A fresh process is slow on its first requests; the clients measured below should not pay for that.
    expect([await served(statusRequest()), await served(eventsRequest())]).toEqual([200, 200]);
    const slowBody = await RawConnection.open(port);
    const slowHeaders = await RawConnection.open(port);
    const trickle = setInterval(() => slowBody.write('{'), 1000);
    const statuses: number[] = [];
    try {
      slowBody.write(`POST /v1/events/dns HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization()}\r\nContent-Length: 100\r\n\r\n`);
      slowHeaders.write('GET /v1/findings HTTP/1.1\r\nHost: x\r\n');
      while (!slowBody.closed && statuses.length < 100) {
        statuses.push(await served(statusRequest()), await served(eventsRequest()));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      clearInterval(trickle);
      slowBody.close();
      slowHeaders.close();
    }
    expect(slowBody.closedAfterMs).toBeGreaterThanOrEqual(2900);
    expect(slowBody.closedAfterMs).toBeLessThan(8000);
    expect(slowBody.responses()[0].status).toBe(408);
    expect(JSON.parse(slowBody.responses()[0].body).message).toMatch(/timed out/);
    expect(slowHeaders.responses()[0].status).toBe(408);
    expect(statuses.length).toBeGreaterThanOrEqual(4);
    expect(statuses.every((status) => status === 200)).toBe(true);
  });

  it('refuses connections over the limit and keeps the open ones working', async () => {
    // Let the idle keep-alive connections of earlier requests (readiness probes, fetch) time out first.
    http.globalAgent.destroy();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const open: RawConnection[] = [];
    try {
      for (let i = 0; i < 6; i++) open.push(await RawConnection.open(port));
      for (const connection of open) connection.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await Promise.all(open.map((connection) => connection.untilResponses(1, 10_000)));

      const refused = await RawConnection.open(port);
      refused.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
      await refused.untilClosed();
      expect(refused.received).toBe('');

      for (const connection of open) connection.write(statusRequest());
      await Promise.all(open.map((connection) => connection.untilResponses(2, 10_000)));
      expect(open.map((connection) => connection.responses()[1].status)).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      for (const connection of open) connection.close();
    }
    await Promise.all(open.map((connection) => connection.untilClosed()));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const metrics = await RawConnection.open(port);
    metrics.write('GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await metrics.untilClosed(10_000);
    expect(metrics.received).toMatch(/^vigil_http_connections_refused_total [1-9]/m);
  });

  it('still answers afterwards', async () => {
    expect((await api(vigil, 'GET', '/v1/account/status')).status).toBe(200);
    expect((await api(vigil, 'GET', '/healthz', { key: null })).status).toBe(200);
  });
});
