import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { loadConfig } from '@vigil/config';
import { httpServerOptions, prepareRequestHandling } from '../http/create-http-app';
import type { CredentialCheck, CredentialVerifier } from '../http/credential-verifier';
import { registerRequestLogging } from './request-logging';
import { createPinoLogger, PinoNestLogger, wantsJsonLogs } from './vigil-logger';

const KEY = 'vgl_loggingSpecSecretKey000000000001';
const basic = (user: string) => 'Basic ' + Buffer.from(`${user}:`).toString('base64');

class KeyVerifier implements CredentialVerifier {
  async verify(headers: IncomingHttpHeaders): Promise<CredentialCheck> {
    return headers.authorization === basic(KEY) ? { accepted: true, principal: { workspaceId: 'ws' } } : { accepted: false, status: 401, message: 'Unknown API key' };
  }
}

/** Collects what pino writes: one string per line. */
class LineSink {
  readonly lines: string[] = [];
  write(chunk: string): void {
    this.lines.push(...chunk.split('\n').filter((l) => l !== ''));
  }
  records(): Record<string, any>[] {
    return this.lines.map((l) => JSON.parse(l));
  }
}

let fastify: FastifyInstance;
let base: string;
const sink = new LineSink();

beforeAll(async () => {
  const config = loadConfig({ VIGIL_DATA_DIR: '/nonexistent', VIGIL_LOG_FORMAT: 'json' });
  fastify = Fastify(httpServerOptions(config) as FastifyServerOptions);
  registerRequestLogging(fastify, createPinoLogger(config, sink));
  const verifier = new KeyVerifier();
  prepareRequestHandling(fastify, fastify.server, config, (credential) => (credential === 'api-key' ? verifier : undefined));
  fastify.get('/v1/findings', async () => ({ records: [] }));
  fastify.get('/healthz', async () => ({ status: 'ok' }));
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await fastify.close();
});

beforeEach(() => {
  sink.lines.length = 0;
});

/** pino writes synchronously to the sink, but the onResponse hook runs just after the answer is flushed. */
async function linesAfter(count: number): Promise<Record<string, any>[]> {
  for (let i = 0; i < 50 && sink.lines.length < count; i++) await new Promise((r) => setTimeout(r, 10));
  return sink.records();
}

describe('request logging', () => {
  it('writes one JSON line per request with the request id, method, url, status and duration', async () => {
    const res = await fetch(`${base}/v1/findings?schema=ocsf`, { headers: { authorization: basic(KEY) } });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const records = await linesAfter(1);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'info', reqId: id, method: 'GET', url: '/v1/findings?schema=ocsf', status: 200, msg: 'request completed' });
    expect(typeof records[0].durationMs).toBe('number');
    expect(records[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(records[0].time)).not.toBeNaN();
  });

  it('keeps a sane incoming X-Request-Id and replaces one that could forge log lines', async () => {
    const kept = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'lb-7f3a.42:trace/1' } });
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42:trace/1');
    const forged = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'a"}{"level":"fatal' } });
    const replaced = forged.headers.get('x-request-id');
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await fetch(`${base}/healthz`, { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(tooLong.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const records = await linesAfter(3);
    expect(records.map((r) => r.reqId)).toEqual(['lb-7f3a.42:trace/1', replaced, tooLong.headers.get('x-request-id')]);
  });

  it('gives refused requests an id and a line too', async () => {
    const res = await fetch(`${base}/v1/findings`, { headers: { authorization: basic('vgl_unknown') } });
    expect(res.status).toBe(401);
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect((await linesAfter(1))[0]).toMatchObject({ reqId: id, status: 401, url: '/v1/findings' });
  });

  it('never writes the Authorization header, API keys or cookies', async () => {
    const session = 'consoleSessionSecretValue0123456789';
    const csrf = 'csrfSecretValue0123456789';
    const res = await fetch(`${base}/v1/findings`, {
      headers: { authorization: basic(KEY), cookie: `vigil_console_session=${session}`, 'x-api-key': KEY, 'x-csrf-token': csrf, 'user-agent': 'sensor/1.0' },
    });
    expect(res.status).toBe(200);
    const [record] = await linesAfter(1);
    const line = sink.lines.join('\n');
    for (const secret of [KEY, basic(KEY), Buffer.from(`${KEY}:`).toString('base64'), session, csrf]) expect(line).not.toContain(secret);
    expect(record.req.headers).toMatchObject({ authorization: '[Redacted]', cookie: '[Redacted]', 'x-api-key': '[Redacted]', 'x-csrf-token': '[Redacted]', 'user-agent': 'sensor/1.0' });
  });
});

describe('Nest logs through pino', () => {
  it('writes JSON lines with the level, context and message, honouring VIGIL_LOG_LEVEL', () => {
    const out = new LineSink();
    const logger = new PinoNestLogger(createPinoLogger({ logLevel: 'warn' }, out));
    logger.log('not shown at warn', 'Scoring');
    logger.warn('state near its budget', 'Scoring');
    logger.error('publish failed', 'Error: boom\n    at x (y.ts:1:1)', 'Bus');
    const records = out.records();
    expect(records.map((r) => [r.level, r.context, r.msg])).toEqual([
      ['warn', 'Scoring', 'state near its budget'],
      ['error', 'Bus', 'publish failed'],
    ]);
    expect(records[1].stack).toContain('Error: boom');
  });

  it('picks JSON off a terminal unless told otherwise', () => {
    expect(wantsJsonLogs('auto', false)).toBe(true);
    expect(wantsJsonLogs('auto', true)).toBe(false);
    expect(wantsJsonLogs('json', true)).toBe(true);
    expect(wantsJsonLogs('text', false)).toBe(false);
    expect(wantsJsonLogs(undefined, true)).toBe(false);
  });
});
