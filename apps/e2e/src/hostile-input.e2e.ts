import * as fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { writeZip } from '@vigil/rules';
import { api, basicAuth, openApiSchemaErrors, startVigil, toNdjson, type HttpResult, type VigilProcess } from '@vigil/testing';

/**
 * Hostile input, tried as an attacker would: each request below must be answered with the documented status,
 * quickly, without growing the server's memory by more than a small bound, and the service must keep serving.
 * Memory is the server's peak RSS during the request (Linux VmHWM, reset before each probe through
 * /proc/<pid>/clear_refs), compared with its RSS before.
 */

const MB = 1024 * 1024;
const zipHeaders = { 'content-type': 'application/zip' };
let vigil: VigilProcess;

beforeAll(async () => {
  vigil = await startVigil({ env: { VIGIL_RATE_LIMIT: '100000/60s' } });
});

/** What each probe cost, printed at the end (the figures quoted in closing notes and the README). */
const figures: string[] = [];

afterAll(async () => {
  if (figures.length > 0) process.stdout.write(`\n[hostile-input] ${figures.length} probes:\n${figures.join('\n')}\n`);
  await vigil?.stop();
});

interface Measured<T> {
  result: T;
  ms: number;
  /** Peak resident memory during the request minus resident memory before it. */
  rssGrowthMb: number;
}

function procStatusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]);
}

/** Runs one hostile request, timing it and measuring the server's peak memory growth. */
async function measure<T>(request: () => Promise<T>): Promise<Measured<T>> {
  const pid = vigil.child.pid!;
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  const before = procStatusKb(pid, 'VmRSS');
  const started = performance.now();
  const result = await request();
  const ms = performance.now() - started;
  const peak = procStatusKb(pid, 'VmHWM');
  const rssGrowthMb = (peak - before) / 1024;
  const headersMs = (result as { headersMs?: number }).headersMs;
  const status = (result as { status?: number }).status;
  figures.push(`  ${expect.getState().currentTestName}: ${status} in ${Math.round(ms)} ms${headersMs === undefined ? '' : ` (headers ${headersMs.toFixed(1)} ms)`}, peak RSS +${rssGrowthMb.toFixed(1)} MB`);
  return { result, ms, rssGrowthMb };
}

async function expectStillServing(): Promise<void> {
  const started = performance.now();
  const [ready, status] = await Promise.all([api(vigil, 'GET', '/readyz', { key: null }), api(vigil, 'GET', '/v1/account/status')]);
  expect(ready.status).toBe(200);
  expect(status.status).toBe(200);
  expect(performance.now() - started).toBeLessThan(2000);
}

/** A raw POST; `headersMs` is the time until the response headers arrived. */
async function rawPost(url: string, body: Buffer, headers: Record<string, string>): Promise<{ status: number; body: any; headersMs: number }> {
  const started = performance.now();
  const res = await fetch(vigil.baseUrl + url, { method: 'POST', body, headers });
  const headersMs = performance.now() - started;
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: res.status, body: parsed, headersMs };
}

/** 1 GiB of zeros, gzip'd: about 1 MB on the wire. Built once. */
const gzipBomb = (() => {
  let cached: Buffer | undefined;
  return () => (cached ??= gzipSync(Buffer.alloc(1024 * MB), { level: 9 }));
})();

function sigmaRule(id: number, detection: string): string {
  return [
    `title: hostile ${id}`,
    `id: 00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    'status: test',
    'level: low',
    'logsource:',
    '  category: dns',
    'detection:',
    detection,
  ].join('\n');
}

/** One anchored flow list of `items` entries, aliased `aliases` times: tiny zipped, huge expanded. */
function aliasAmplifiedRule(items: number, aliases: number): string {
  const lines = [`  sel0:`, `    query|contains: &big [${Array(items).fill('a').join(',')}]`];
  for (let i = 1; i < aliases; i++) lines.push(`  sel${i}:`, `    query|contains: *big`);
  lines.push('  condition: 1 of sel*');
  return sigmaRule(900, lines.join('\n'));
}

function billionLaughsRule(): string {
  const levels = ['  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 9; i++) {
    const prev = String.fromCharCode(96 + i);
    levels.push(`  ${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill(`*${prev}`).join(',')}]`);
  }
  return sigmaRule(901, [...levels, '  sel:', '    query: x', '  condition: sel'].join('\n'));
}

const regexRule = (id: number, pattern: string) => sigmaRule(id, ['  sel:', `    query|re: '${pattern}'`, '  condition: sel'].join('\n'));

describe('unauthenticated requests cost nothing beyond the headers', () => {
  const bombCases: Array<[string, string, Record<string, string>]> = [
    ['POST /v1/events/dns, no key', '/v1/events/dns', { 'content-encoding': 'gzip', 'content-type': 'application/json' }],
    ['POST /v1/events/dns, unknown key', '/v1/events/dns', { 'content-encoding': 'gzip', authorization: basicAuth('vgl_notAKeyAtAll00000000000000000') }],
    ['POST /v1/detections, no key', '/v1/detections', { 'content-encoding': 'gzip', ...zipHeaders }],
    ['POST /admin/v1/keys, no token', '/admin/v1/keys', { 'content-encoding': 'gzip', 'content-type': 'application/json' }],
  ];

  it.each(bombCases)('%s: a gzip bomb is answered 401 without being inflated', async (_what, url, headers) => {
    const bomb = gzipBomb();
    const probe = await measure(() => rawPost(url, bomb, headers));
    expect(probe.result.status).toBe(401);
    expect(probe.result.body).toEqual({ message: expect.any(String) });
    expect(probe.result.headersMs).toBeLessThan(50);
    expect(probe.rssGrowthMb).toBeLessThan(20);
    await expectStillServing();
  });

  it('answers 401 (not 400) to a gzip body that is not gzip', async () => {
    const res = await rawPost('/v1/events/dns', Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip', 'content-type': 'application/json' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(res.headersMs).toBeLessThan(50);
  });
});

describe('customer Sigma rules: every cost is bounded before it is paid', () => {
  const upload = (entries: Parameters<typeof writeZip>[0], query = '?dry_run=true') =>
    measure(() => api(vigil, 'POST', `/v1/detections${query}`, { body: writeZip(entries), headers: zipHeaders }));

  it('refuses the alias-amplified archive (450,000 items aliased 99 times) in under a second, RSS growth under 100 MB', async () => {
    const text = aliasAmplifiedRule(450_000, 99);
    const zip = writeZip([{ name: 'amplified.yml', data: text }]);
    expect(zip.length).toBeLessThan(16 * 1024);
    const probe = await measure(() => api(vigil, 'POST', '/v1/detections?dry_run=true', { body: zip, headers: zipHeaders }));
    expect(probe.result.status).toBe(400);
    expect(probe.result.body.validationResult.errors).toEqual([{ fileName: 'amplified.yml', error: expect.stringMatching(/limit/i) }]);
    expect(probe.ms).toBeLessThan(1000);
    expect(probe.rssGrowthMb).toBeLessThan(100);
    await expectStillServing();
  });

  it('refuses the 20,000-item amplified rule, which once loaded into every scoring engine', async () => {
    const probe = await upload([{ name: 'amplified-20k.yml', data: aliasAmplifiedRule(20_000, 99) }]);
    expect(probe.result.status).toBe(400);
    expect(probe.result.body.validationResult.errors[0]).toEqual({ fileName: 'amplified-20k.yml', error: expect.stringMatching(/limit/i) });
    expect(probe.ms).toBeLessThan(1000);
    expect(probe.rssGrowthMb).toBeLessThan(100);
    await expectStillServing();
  });

  it.each([
    ['billion laughs', 'laughs.yml', billionLaughsRule(), /alias|limit/i],
    ['a backreference', 'backref.yml', regexRule(902, '(a*)\\1$'), /backreference|regular expression|RE2/i],
  ])('refuses %s, naming the file', async (_what, name, text, reason) => {
    const probe = await upload([{ name, data: text }]);
    expect(probe.result.status).toBe(400);
    expect(probe.result.body.validationResult.errors).toEqual([{ fileName: name, error: expect.stringMatching(reason) }]);
    expect(probe.ms).toBeLessThan(1000);
    expect(probe.rssGrowthMb).toBeLessThan(50);
    await expectStillServing();
  });

  it('takes a catastrophic-backtracking pattern quickly: the regex engine is linear-time', async () => {
    const probe = await upload([{ name: 'redos.yml', data: regexRule(903, '^(a+)+$') }]);
    expect(probe.result.status).toBe(200);
    expect(probe.ms).toBeLessThan(1000);
  });

  it.each([
    ['a zip bomb (a 64 MB entry whose header claims 1,000 bytes)', [{ name: 'bomb.yml', data: Buffer.alloc(64 * MB, 0x20), declaredSize: 1000 }], /bomb\.yml/],
    ['a path-traversal name', [{ name: '../../etc/cron.d/x.yml', data: sigmaRule(904, '  sel:\n    query: x\n  condition: sel') }], /traversal/],
    ['the same entry name twice', [{ name: 'twice.yml', data: sigmaRule(905, '  sel:\n    query: x\n  condition: sel') }, { name: 'twice.yml', data: sigmaRule(906, '  sel:\n    query: y\n  condition: sel') }], /twice\.yml/],
  ])('refuses the whole archive for %s', async (_what, entries, reason) => {
    const probe = await upload(entries as Parameters<typeof writeZip>[0], '');
    expect(probe.result.status).toBe(400);
    expect(probe.result.body.message).toMatch(reason);
    expect(probe.result.body.validationResult.valid).toBe(0);
    expect(probe.ms).toBeLessThan(2000);
    expect(probe.rssGrowthMb).toBeLessThan(100);
    await expectStillServing();
  });

  it('stored nothing from the refused archives', async () => {
    const listed = await api(vigil, 'GET', '/v1/detections');
    expect(listed.body.rules.map((r: { fileName: string }) => r.fileName)).not.toContain('twice.yml');
  });
});

describe('telemetry: bad events are counted per event, the rest of the batch is kept', () => {
  const post = (body: string | Buffer, type = 'dns') => measure(() => api(vigil, 'POST', `/v1/events/${type}`, { body }));
  const good = (n: number) => Array.from({ length: n }, (_, i) => ({ srcIP: '10.66.0.1', query: `ok${i}.example.com` }));

  const expectRejected = (res: HttpResult<any>, accepted: number, reason: RegExp) => {
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(accepted);
    expect(Object.keys(res.body.rejected)).toEqual([expect.stringMatching(reason)]);
    expect(openApiSchemaErrors('eventsResponseBody', res.body)).toEqual([]);
  };

  it('rejects a number where a string belongs', async () => {
    const probe = await post(toNdjson([{ srcIP: '10.66.0.1', query: 12345 }, ...good(2)]));
    expectRejected(probe.result, 2, /^invalid_query$/);
  });

  it.each([
    ['object', (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)],
    ['array', (depth: number) => '['.repeat(depth) + ']'.repeat(depth)],
  ])('rejects one event holding a 100,000-deep nested %s, keeping the others', async (_shape, nest) => {
    const hostile = `{"srcIP":"10.66.0.1","query":"deep.example.com","extra":${nest(100_000)}}`;
    const body = [JSON.stringify(good(1)[0]), hostile, JSON.stringify(good(2)[1])].join('\n') + '\n';
    const probe = await post(body);
    expectRejected(probe.result, 2, /deep|depth|nest/);
    expect(probe.ms).toBeLessThan(2000);
    expect(probe.rssGrowthMb).toBeLessThan(100);
    await expectStillServing();
  });

  it('rejects one event with 600,000 keys (10 MB), keeping the others', async () => {
    const keys = Array.from({ length: 600_000 }, (_, i) => `"k${i}":1`).join(',');
    const hostile = `{"srcIP":"10.66.0.1","query":"wide.example.com",${keys}}`;
    const body = [JSON.stringify(good(1)[0]), hostile].join('\n') + '\n';
    expect(body.length).toBeLessThan(10 * MB);
    const probe = await post(body);
    expectRejected(probe.result, 1, /field/);
    expect(probe.ms).toBeLessThan(3000);
    expect(probe.rssGrowthMb).toBeLessThan(200);
    await expectStillServing();
  });

  it('rejects timestamps more than ten years away', async () => {
    const far = new Date(Date.now() + 11 * 365 * 86_400_000).toISOString();
    const probe = await post(toNdjson([{ ts: far, srcIP: '10.66.0.1', query: 'future.example.com' }, ...good(1)]));
    expectRejected(probe.result, 1, /ts/);
  });

  it('answers 413 to an authenticated gzip bomb as soon as it passes 10 MB decoded', async () => {
    const probe = await measure(() => rawPost('/v1/events/dns', gzipBomb(), { 'content-encoding': 'gzip', authorization: basicAuth(vigil.key) }));
    expect(probe.result.status).toBe(413);
    expect(probe.ms).toBeLessThan(2000);
    expect(probe.rssGrowthMb).toBeLessThan(100);
    await expectStillServing();
  });
});

describe('the API refuses what it does not declare', () => {
  it.each([
    ['/v1/findings?maxAge=', 400],
    ['/v1/findings?maxAge=31d', 400],
    ['/v1/findings?maxAge=2592001s', 400],
    ['/v1/findings?maxAge=30d', 200],
    ['/v1/alerts?maxAge=721h', 400],
    ['/v1/alerts?maxAge=720h', 200],
  ])('GET %s → %i', async (url, status) => {
    const res = await api(vigil, 'GET', url);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body).toEqual({ message: expect.stringContaining('maxAge') });
  });

  it.each(['QUERY', 'PROPFIND', 'PATCH'])('answers %s on a known path with 405 and Allow', async (method) => {
    const res = await fetch(`${vigil.baseUrl}/v1/account/status`, { method, headers: { authorization: basicAuth(vigil.key) } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toMatch(/GET/);
    expect(await res.json()).toEqual({ message: expect.any(String) });
  });
});
