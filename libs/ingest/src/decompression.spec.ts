import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { constants, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { BodyDecodingError, bodyCodingOf, contentCodingOf, createDecompressionHook, decodeBody, hasZlibHeader, requestHasBody } from './decompression';

const TEN_MB = 10 * 1024 * 1024;
const GIB = 1024 * 1024 * 1024;

const sha256 = (buf: Buffer) => createHash('sha256').update(buf).digest('hex');

async function buildApp(): Promise<FastifyInstance> {
  const app = Fastify();
  app.addHook('preParsing', createDecompressionHook());
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/v1/events/dns', { bodyLimit: TEN_MB }, async (req) => {
    const body = req.body as Buffer | undefined;
    return { length: body?.length ?? 0, sha256: body ? sha256(body) : null };
  });
  app.get('/v1/alerts', async () => ({ follow: 'x', more: false, alerts: [], threats: {} }));
  await app.ready();
  return app;
}

/** gzip of `size` zero bytes, built by streaming so the decoded bytes never sit in memory. */
async function gzipOfZeros(size: number): Promise<Buffer> {
  const block = Buffer.alloc(1024 * 1024);
  let left = size;
  const zeros = new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(left, block.length);
      left -= n;
      this.push(n === block.length ? block : block.subarray(0, n));
    },
  });
  const chunks: Buffer[] = [];
  const gzip = zeros.pipe(createGzip({ strategy: constants.Z_RLE }));
  for await (const chunk of gzip) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A request body stream that records how many bytes the server pulled from it. */
function countingStream(data: Buffer, chunkSize = 16 * 1024, firstChunkSize = chunkSize): Readable & { served: () => number } {
  let offset = 0;
  const stream = new Readable({
    read() {
      if (offset >= data.length) return void this.push(null);
      const end = Math.min(offset + (offset === 0 ? firstChunkSize : chunkSize), data.length);
      this.push(data.subarray(offset, end));
      offset = end;
    },
  });
  return Object.assign(stream, { served: () => offset });
}

describe('contentCodingOf', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    [' Deflate ', 'deflate'],
    ['gzip, identity', 'gzip'],
    [['gzip'], 'gzip'],
  ])('%j -> %s', (header, expected) => {
    expect(contentCodingOf(header as string | string[] | undefined)).toBe(expected);
  });

  it.each(['br', 'compress', 'zstd', 'gzip, deflate'])('refuses %j with a 415', (header) => {
    let caught: unknown;
    try {
      contentCodingOf(header);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BodyDecodingError);
    expect((caught as BodyDecodingError).statusCode).toBe(415);
    expect((caught as BodyDecodingError).message).toContain(header.split(',').pop()!.trim());
  });
});

describe('requestHasBody / hasZlibHeader', () => {
  it.each([
    [{}, false],
    [{ 'content-length': '0' }, false],
    [{ 'content-length': '12' }, true],
    [{ 'transfer-encoding': 'chunked' }, true],
  ])('%j -> %s', (headers, expected) => expect(requestHasBody(headers)).toBe(expected));

  it('tells zlib-wrapped deflate from raw deflate', () => {
    const data = Buffer.from('{"query":"example.com"}\n'.repeat(20));
    expect(hasZlibHeader(deflateSync(data))).toBe(true);
    expect(hasZlibHeader(deflateSync(data, { level: 1 }))).toBe(true);
    expect(hasZlibHeader(deflateRawSync(data))).toBe(false);
    expect(hasZlibHeader(Buffer.from('{'))).toBe(false);
  });
});

describe('createDecompressionHook with Fastify', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildApp();
  });
  afterAll(() => app.close());

  const body = Buffer.concat([
    Buffer.from('{"query":"example.com","qtype":"A"}\n'.repeat(2000)),
    randomBytes(5000), // incompressible bytes so that streaming spans several zlib chunks
  ]);
  const post = (payload: Buffer | Readable, headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/v1/events/dns', payload, headers: { 'content-type': 'application/json', ...headers } });

  it.each<[string, Record<string, string>, Buffer]>([
    ['no Content-Encoding', {}, body],
    ['identity', { 'content-encoding': 'identity' }, body],
    ['gzip', { 'content-encoding': 'gzip' }, gzipSync(body)],
    ['GZIP (upper case)', { 'content-encoding': 'GZIP' }, gzipSync(body)],
    ['x-gzip', { 'content-encoding': 'x-gzip' }, gzipSync(body)],
    ['gzip of several members', { 'content-encoding': 'gzip' }, Buffer.concat([gzipSync(body.subarray(0, 100)), gzipSync(body.subarray(100))])],
    ['deflate (zlib-wrapped)', { 'content-encoding': 'deflate' }, deflateSync(body)],
    ['deflate (raw, no zlib header)', { 'content-encoding': 'deflate' }, deflateRawSync(body)],
  ])('decodes a body sent with %s', async (_name, headers, payload) => {
    const res = await post(payload, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ length: body.length, sha256: sha256(body) });
  });

  it('decodes a streamed (chunked) raw-deflate body whose first chunk is one byte', async () => {
    const encoded = deflateRawSync(body);
    const res = await post(countingStream(encoded, 4096, 1), {
      'content-encoding': 'deflate',
      'transfer-encoding': 'chunked',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().sha256).toBe(sha256(body));
  });

  it('answers 415 with a clear message for an unknown Content-Encoding', async () => {
    const res = await post(body, { 'content-encoding': 'br' });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toMatch(/Unsupported Content-Encoding "br"/);
  });

  it.each<[string, string, Buffer]>([
    ['not gzip at all', 'gzip', Buffer.from('{"query":"example.com"}')],
    ['truncated gzip', 'gzip', gzipSync(body).subarray(0, 200)],
    ['gzip with a corrupted payload', 'gzip', corrupt(gzipSync(body))],
    ['corrupt zlib deflate', 'deflate', corrupt(deflateSync(body))],
    ['one byte of deflate', 'deflate', Buffer.from([0x78])],
  ])('answers 400 with a clear message for %s', async (_name, encoding, payload) => {
    const res = await post(payload, { 'content-encoding': encoding });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(`not valid ${encoding} data`);
    expect(res.json().code).toBe('INVALID_ENCODED_BODY');
  });

  it('ignores Content-Encoding on a request without a body (GET)', async () => {
    const res = await app.inject({ method: 'GET', url: '/v1/alerts', headers: { 'content-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    const unknown = await app.inject({ method: 'GET', url: '/v1/alerts', headers: { 'content-encoding': 'br' } });
    expect(unknown.statusCode).toBe(200);
  });

  it('accepts a decoded body of exactly 10 MiB and refuses 10 MiB + 1 byte with 413', async () => {
    const exact = await post(gzipSync(Buffer.alloc(TEN_MB, 0x20)), { 'content-encoding': 'gzip' });
    expect(exact.statusCode).toBe(200);
    expect(exact.json().length).toBe(TEN_MB);

    const over = await post(gzipSync(Buffer.alloc(TEN_MB + 1, 0x20)), { 'content-encoding': 'gzip' });
    expect(over.statusCode).toBe(413);

    const overDeflate = await post(deflateRawSync(Buffer.alloc(TEN_MB + 1, 0x20)), { 'content-encoding': 'deflate' });
    expect(overDeflate.statusCode).toBe(413);
  });

  describe('a gzip bomb (1 GiB of zeros)', () => {
    let bomb: Buffer;
    beforeAll(async () => {
      bomb = await gzipOfZeros(GIB);
    }, 15000);

    it('is about 1000:1', () => {
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    });

    it('is refused with 413 quickly, with low memory, and inflation stops', async () => {
      const rssBefore = process.memoryUsage().rss;
      const upload = countingStream(bomb);
      const started = Date.now();
      const res = await post(upload, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
      const elapsed = Date.now() - started;
      expect(res.statusCode).toBe(413);
      expect(elapsed).toBeLessThan(2000);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // Inflation stopped with the reply: the rest of the upload is drained as raw bytes (so the client gets its
      // 413 instead of a reset connection), which costs next to no CPU, where inflating it would cost seconds.
      const cpuBefore = process.cpuUsage();
      await sleep(300);
      const cpu = process.cpuUsage(cpuBefore);
      expect((cpu.user + cpu.system) / 1000).toBeLessThan(150);
      expect(upload.served()).toBeLessThanOrEqual(bomb.length);
    });
  });
});

/** Flips bytes in the middle of a compressed buffer (keeps the header so the coding is still recognised). */
function corrupt(buf: Buffer): Buffer {
  const copy = Buffer.from(buf);
  for (let i = 20; i < Math.min(copy.length - 10, 60); i++) copy[i] ^= 0xff;
  return copy;
}

describe('createDecompressionHook over a real socket', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    app = await buildApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  /** POSTs `chunks` one write at a time (chunked transfer encoding), returning status and body. */
  function postChunks(chunks: Buffer[], encoding: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { port, host: '127.0.0.1', method: 'POST', path: '/v1/events/dns', headers: { 'content-type': 'application/json', 'content-encoding': encoding } },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
      let i = 0;
      const writeNext = () => {
        if (i === chunks.length) return void req.end();
        req.write(chunks[i++], () => setImmediate(writeNext));
      };
      writeNext();
    });
  }

  it('decodes raw deflate whose first chunk on the wire is a single byte', async () => {
    const body = Buffer.from('{"query":"example.com","qtype":"A"}\n'.repeat(500));
    const encoded = deflateRawSync(body);
    const res = await postChunks([encoded.subarray(0, 1), encoded.subarray(1)], 'deflate');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ length: body.length, sha256: sha256(body) });
  });

  it('answers 413 to 20 MiB of gzip-compressed zeros', async () => {
    const encoded = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    const chunks: Buffer[] = [];
    for (let i = 0; i < encoded.length; i += 4096) chunks.push(encoded.subarray(i, i + 4096));
    const res = await postChunks(chunks, 'gzip');
    expect(res.status).toBe(413);
  });

  it('survives a client that disconnects half-way through a gzip body', async () => {
    const encoded = gzipSync(randomBytes(256 * 1024));
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/v1/events/dns',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': String(encoded.length) },
      });
      req.on('error', () => resolve());
      req.write(encoded.subarray(0, 64 * 1024), () => setTimeout(() => req.destroy(), 50));
      req.on('close', () => resolve());
    });
    const body = Buffer.from('{"query":"still.up"}');
    const res = await postChunks([gzipSync(body)], 'gzip');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).sha256).toBe(sha256(body));
  });
});

describe('decodeBody (whole bodies, in an ingest thread)', () => {
  const body = Buffer.concat([Buffer.from('{"query":"example.com","qtype":"A"}\n'.repeat(2000)), randomBytes(5000)]);

  it.each<[string, 'gzip' | 'deflate' | 'identity', Buffer]>([
    ['identity', 'identity', body],
    ['gzip', 'gzip', gzipSync(body)],
    ['gzip of several members', 'gzip', Buffer.concat([gzipSync(body.subarray(0, 100)), gzipSync(body.subarray(100))])],
    ['deflate (zlib-wrapped)', 'deflate', deflateSync(body)],
    ['deflate (raw, no zlib header)', 'deflate', deflateRawSync(body)],
  ])('decodes %s', (_name, coding, encoded) => {
    expect(sha256(decodeBody(encoded, coding, TEN_MB))).toBe(sha256(body));
  });

  function refusal(encoded: Buffer, coding: 'gzip' | 'deflate' | 'identity', max = TEN_MB): BodyDecodingError {
    try {
      decodeBody(encoded, coding, max);
    } catch (error) {
      expect(error).toBeInstanceOf(BodyDecodingError);
      return error as BodyDecodingError;
    }
    throw new Error('expected a refusal');
  }

  it('decodes exactly the cap and refuses one byte more with 413, whatever the coding', () => {
    expect(decodeBody(gzipSync(Buffer.alloc(TEN_MB, 0x20)), 'gzip', TEN_MB).length).toBe(TEN_MB);
    for (const [encoded, coding] of [
      [gzipSync(Buffer.alloc(TEN_MB + 1, 0x20)), 'gzip'],
      [deflateRawSync(Buffer.alloc(TEN_MB + 1, 0x20)), 'deflate'],
      [deflateSync(Buffer.alloc(TEN_MB + 1, 0x20)), 'deflate'],
      [Buffer.alloc(TEN_MB + 1, 0x20), 'identity'],
    ] as const) {
      expect(refusal(encoded, coding).statusCode).toBe(413);
    }
  });

  it('stops inflating a 1 GiB bomb at the cap: 413 quickly, with low memory', async () => {
    const bomb = await gzipOfZeros(GIB);
    const rssBefore = process.memoryUsage().rss;
    const started = Date.now();
    const error = refusal(bomb, 'gzip');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error.statusCode).toBe(413);
    expect(error.message).toMatch(/too large/);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
  }, 15000);

  it.each<[string, 'gzip' | 'deflate', Buffer]>([
    ['not gzip at all', 'gzip', Buffer.from('{"query":"example.com"}')],
    ['truncated gzip', 'gzip', gzipSync(body).subarray(0, 200)],
    ['gzip with a corrupted payload', 'gzip', corrupt(gzipSync(body))],
    ['gzip followed by bytes that are not gzip', 'gzip', Buffer.concat([gzipSync(body), Buffer.from('xx')])],
    ['corrupt zlib deflate', 'deflate', corrupt(deflateSync(body))],
    ['one byte of deflate', 'deflate', Buffer.from([0x78])],
  ])('refuses %s with the streaming hook\'s 400', (_name, coding, encoded) => {
    const error = refusal(encoded, coding);
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('INVALID_ENCODED_BODY');
    expect(error.message).toContain(`not valid ${coding} data`);
  });
});

describe('createDecompressionHook leaving chosen bodies encoded', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    app.addHook('preParsing', createDecompressionHook({ leaveEncoded: (request) => request.headers['x-later'] === 'yes' }));
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    app.post('/v1/events/dns', { bodyLimit: TEN_MB }, async (req) => ({ coding: bodyCodingOf(req), sha256: sha256(req.body as Buffer) }));
    await app.ready();
  });
  afterAll(() => app.close());

  const body = Buffer.from('{"query":"example.com","qtype":"A"}\n'.repeat(500));
  const post = (payload: Buffer, headers: Record<string, string>) => app.inject({ method: 'POST', url: '/v1/events/dns', payload, headers });

  it('hands the handler the body as sent, and its coding', async () => {
    const gzip = gzipSync(body);
    expect((await post(gzip, { 'content-encoding': 'gzip', 'x-later': 'yes' })).json()).toEqual({ coding: 'gzip', sha256: sha256(gzip) });
    const deflate = deflateRawSync(body);
    expect((await post(deflate, { 'content-encoding': 'deflate', 'x-later': 'yes' })).json()).toEqual({ coding: 'deflate', sha256: sha256(deflate) });
  });

  it('decodes the other bodies itself (their coding is then identity)', async () => {
    expect((await post(gzipSync(body), { 'content-encoding': 'gzip' })).json()).toEqual({ coding: 'identity', sha256: sha256(body) });
    expect((await post(body, { 'x-later': 'yes' })).json()).toEqual({ coding: 'identity', sha256: sha256(body) });
  });

  it('still answers an unsupported coding with 415 before the body is read', async () => {
    const res = await post(body, { 'content-encoding': 'br', 'x-later': 'yes' });
    expect(res.statusCode).toBe(415);
  });
});
