import { HttpException, type CallHandler, type ExecutionContext } from '@nestjs/common';
import { lastValueFrom, NEVER, of, throwError } from 'rxjs';
import { MemoryIdempotencyStore, IdempotencyStoreUnavailableError, type IdempotencyStore } from '@vigil/counters';
import { openApiDocument, TELEMETRY_TYPES } from '@vigil/contracts';
import { IdempotencyInterceptor, idempotencyKeyOf } from './idempotency';

interface Call {
  headers: Record<string, string>;
  body: string;
  type?: string;
  workspace?: string;
}

function contextOf(call: Call, replyHeaders: Record<string, string>): ExecutionContext {
  const request = { headers: call.headers, body: Buffer.from(call.body), params: { type: call.type ?? 'dns' }, principal: { workspaceId: call.workspace ?? 'ws-1' } };
  const reply = { header: (name: string, value: string) => (replyHeaders[name] = value) };
  return { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ExecutionContext;
}

/** Runs one request through the interceptor; the handler counts its calls (it stands for "publish"). */
async function send(interceptor: IdempotencyInterceptor, call: Call, handler: () => unknown, published: { count: number }) {
  const replyHeaders: Record<string, string> = {};
  const next: CallHandler = {
    handle: () => {
      published.count++;
      try {
        return of(handler());
      } catch (error) {
        return throwError(() => error);
      }
    },
  };
  try {
    const answer = await lastValueFrom(await interceptor.intercept(contextOf(call, replyHeaders), next));
    return { status: 200, answer, replyHeaders };
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    return { status: error.getStatus(), answer: error.getResponse(), replyHeaders, retryAfter: (error as { retryAfterSeconds?: number }).retryAfterSeconds };
  }
}

describe('IdempotencyInterceptor', () => {
  const answer = { received: 2, accepted: 2, rejected: {} };
  const body = '{"query":"a.example"}\n{"query":"b.example"}\n';

  it('answers a repeated key with the stored answer and does not publish again', async () => {
    const interceptor = new IdempotencyInterceptor(new MemoryIdempotencyStore());
    const published = { count: 0 };
    const call = { headers: { 'idempotency-key': 'imp1-abc-0-120-dns' }, body };
    const first = await send(interceptor, call, () => answer, published);
    const second = await send(interceptor, call, () => ({ received: 99 }), published);
    expect(first).toMatchObject({ status: 200, answer, replyHeaders: {} });
    expect(second).toEqual({ status: 200, answer, replyHeaders: { 'Idempotent-Replayed': 'true' } });
    expect(published.count).toBe(1);
  });

  it('keeps keys apart per workspace and leaves requests without a key alone', async () => {
    const interceptor = new IdempotencyInterceptor(new MemoryIdempotencyStore());
    const published = { count: 0 };
    await send(interceptor, { headers: { 'idempotency-key': 'k' }, body }, () => answer, published);
    await send(interceptor, { headers: { 'idempotency-key': 'k' }, body, workspace: 'ws-2' }, () => answer, published);
    await send(interceptor, { headers: {}, body }, () => answer, published);
    await send(interceptor, { headers: {}, body }, () => answer, published);
    expect(published.count).toBe(4);
  });

  it('refuses the same key for another body or event type (422) and malformed keys (400)', async () => {
    const interceptor = new IdempotencyInterceptor(new MemoryIdempotencyStore());
    const published = { count: 0 };
    await send(interceptor, { headers: { 'idempotency-key': 'k' }, body }, () => answer, published);
    expect((await send(interceptor, { headers: { 'idempotency-key': 'k' }, body: body + '{"query":"c.example"}\n' }, () => answer, published)).status).toBe(422);
    expect((await send(interceptor, { headers: { 'idempotency-key': 'k' }, body, type: 'ip' }, () => answer, published)).status).toBe(422);
    expect((await send(interceptor, { headers: { 'idempotency-key': 'has space' }, body }, () => answer, published)).status).toBe(400);
    expect((await send(interceptor, { headers: { 'idempotency-key': 'x'.repeat(256) }, body }, () => answer, published)).status).toBe(400);
    expect(published.count).toBe(1);
    expect(idempotencyKeyOf('"quoted-key"')).toBe('quoted-key');
  });

  it('frees the key when the request fails, so the retry publishes; a concurrent duplicate gets 409', async () => {
    const interceptor = new IdempotencyInterceptor(new MemoryIdempotencyStore());
    const published = { count: 0 };
    const call = { headers: { 'idempotency-key': 'k' }, body };
    const failed = await send(interceptor, call, () => { throw Object.assign(new HttpException({ message: 'bus down' }, 503), { retryAfterSeconds: 5 }); }, published);
    expect(failed.status).toBe(503);
    expect((await send(interceptor, call, () => answer, published)).status).toBe(200);
    expect(published.count).toBe(2);


    // A first request that has claimed its key and is still publishing (its handler never completes here).
    const slow = { headers: { 'idempotency-key': 'busy' }, body };
    await interceptor.intercept(contextOf(slow, {}), { handle: () => NEVER });
    const duplicate = await send(interceptor, slow, () => answer, published);
    expect(duplicate).toMatchObject({ status: 409, retryAfter: 1 });
    expect(published.count).toBe(2);
  });

  it('answers 503 when the key store is unreachable, without publishing', async () => {
    const down: IdempotencyStore = {
      claim: async () => { throw new IdempotencyStoreUnavailableError('Redis unavailable'); },
      complete: async () => undefined,
      release: async () => undefined,
    };
    const published = { count: 0 };
    const result = await send(new IdempotencyInterceptor(down), { headers: { 'idempotency-key': 'k' }, body }, () => answer, published);
    expect(result).toMatchObject({ status: 503, retryAfter: 5 });
    expect(published.count).toBe(0);
  });
});

describe('Idempotency-Key in the OpenAPI document', () => {
  const parameter = openApiDocument.components.parameters!.idempotencyKey as { name: string; schema: { pattern?: unknown } };

  it('is declared on every telemetry upload, with its 409 and 422 answers', () => {
    for (const type of TELEMETRY_TYPES) {
      const operation = openApiDocument.paths[`/v1/events/${type}`]!.post!;
      expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/idempotencyKey' });
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '409', '422']));
    }
    expect(parameter.name).toBe('Idempotency-Key');
  });

  it('states exactly the keys the gateway accepts', () => {
    const pattern = new RegExp(String(parameter.schema.pattern));
    const accepted = (key: string) => {
      try {
        return idempotencyKeyOf(key) !== undefined;
      } catch {
        return false;
      }
    };
    const x = (n: number) => 'x'.repeat(n);
    const keys = [
      'k', '"', '"a', 'a"', 'batch-2026-11-27T10:00:00Z#1', '"quoted-key"', '"a"', x(255), `"${x(253)}"`, `"${x(254)}"`, `"${x(255)}"`,
      x(256), `"${x(256)}"`, `"${x(254)}`, '', '""', 'two words', '"two words"', 'tab\there', 'é',
    ];
    for (const key of keys) expect([key, pattern.test(key)]).toEqual([key, accepted(key)]);
  });
});
