import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpException } from '@nestjs/common';
import { callService, messageOf, unexpectedAnswer } from './service-http';

let server: Server;
let base: string;
const seen: { method?: string; url?: string; authorization?: string; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      if (req.url === '/text') return res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream exploded');
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url === '/missing' ? { message: 'No key abc' } : { ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function statusOf(error: unknown): [number, string] {
  expect(error).toBeInstanceOf(HttpException);
  const e = error as HttpException;
  return [e.getStatus(), (e.getResponse() as { message: string }).message];
}

describe('callService', () => {
  it('sends the method, headers and body and parses a JSON answer', async () => {
    const answer = await callService('account', base, 'POST', '/admin/v1/keys', { headers: { authorization: 'Bearer t' }, body: '{"workspace":"a"}' });
    expect(answer).toEqual({ status: 200, body: { ok: true } });
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/admin/v1/keys', authorization: 'Bearer t', body: '{"workspace":"a"}' });
  });

  it('keeps a non-JSON answer as text', async () => {
    const answer = await callService('rules', base, 'GET', '/text');
    expect(answer).toEqual({ status: 500, body: 'upstream exploded' });
    expect(statusOf(unexpectedAnswer('rules', answer))).toEqual([502, 'The rules service answered 500: upstream exploded']);
  });

  it('answers 502 naming the service when it cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await callService('account', `http://127.0.0.1:${port}`, 'GET', '/admin/v1/keys').catch((e: unknown) => e);
    expect(statusOf(failure)).toEqual([502, `The account service at http://127.0.0.1:${port} cannot be reached`]);
  });
});

describe('unexpectedAnswer', () => {
  it("keeps the caller's own mistakes and turns refused credentials into 502", () => {
    expect(statusOf(unexpectedAnswer('account', { status: 404, body: { message: 'No key abc' } }))).toEqual([404, 'No key abc']);
    expect(statusOf(unexpectedAnswer('account', { status: 400, body: { message: 'bad workspace' } }))).toEqual([400, 'bad workspace']);
    expect(statusOf(unexpectedAnswer('account', { status: 401, body: { message: 'needs the admin token' } }))).toEqual([502, 'The account service answered 401: needs the admin token']);
    expect(statusOf(unexpectedAnswer('rules', { status: 401, body: { message: 'This API key has been revoked' } }, [401, 403]))).toEqual([401, 'This API key has been revoked']);
    expect(messageOf({ nope: 1 })).toBe('no message');
  });
});
